"""The part files of a run and the manifest's record of them.

Every Parquet part a run keeps is recorded in its manifest (``parts``: per table, each file's
shard range, rows, bytes and the sha256 of its bytes). The record is what makes a run
checkable: a part that is missing, that nobody recorded, or whose size, row count or hash
differ is found by :func:`check_parts` (``tourney report`` and ``tourney verify``), and a
resumed run is planned from it by :func:`plan_resume`, so that every table ends with
exactly one set of rows per game whatever was lost, left half-written or half-compacted.

Names are ``part-FIRST.parquet`` (one shard) or ``part-FIRST-LAST.parquet`` (a merged
range), in a folder per table; dot files (temporaries, the lock) and other folders (a report
written into the run) are not parts.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from sim.errors import InputError

_PART = re.compile(r"^part-(\d{6})(?:-(\d{6}))?\.parquet$")


@dataclass(frozen=True, slots=True)
class PartRecord:
    """One part file as the manifest records it."""

    table: str
    file: str
    first: int
    last: int
    rows: int
    bytes: int
    sha256: str

    def path(self, run_dir: Path) -> Path:
        """Where the part lives in ``run_dir``."""
        return run_dir / self.table / self.file

    def shards(self) -> range:
        """The shards the part holds."""
        return range(self.first, self.last + 1)

    def to_json(self) -> dict[str, Any]:
        """The manifest entry (the table is the key it is filed under)."""
        out = asdict(self)
        del out["table"]
        return out


def part_name(first: int, last: int | None = None) -> str:
    """The file name of a part holding shards ``first`` to ``last`` (one shard if None)."""
    if last is None or last == first:
        return f"part-{first:06d}.parquet"
    return f"part-{first:06d}-{last:06d}.parquet"


def shard_span(name: str) -> tuple[int, int] | None:
    """``(first, last)`` shard of a part file name, or None for any other name."""
    m = _PART.match(name)
    if m is None:
        return None
    first = int(m.group(1))
    last = int(m.group(2)) if m.group(2) else first
    return (first, last) if last >= first else None


def file_sha256(path: Path) -> str:
    """The sha256 of a file's bytes (hashlib reads in large blocks, without the GIL)."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def write_recorded(table: pa.Table, run_dir: Path, name: str, first: int, last: int) -> PartRecord:
    """Write ``table`` as the part of ``name`` holding shards ``first``-``last``, atomically
    (a temporary name, then a rename), and return its record. The file is serialised in
    memory and hashed before it is written, so recording costs no second read."""
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd", use_dictionary=True)
    data = sink.getvalue()
    path = run_dir / name / part_name(first, last)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(memoryview(data))
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    digest = hashlib.sha256(memoryview(data)).hexdigest()
    return PartRecord(name, path.name, first, last, table.num_rows, data.size, digest)


def record_file(path: Path, table: str) -> PartRecord:
    """The record of an existing part file (rows from its footer, hash of its bytes)."""
    span = shard_span(path.name)
    if span is None:
        raise ValueError(f"{path}: not a part file name")
    rows = pq.read_metadata(path).num_rows
    return PartRecord(
        table, path.name, span[0], span[1], rows, path.stat().st_size, file_sha256(path)
    )


def files_in(folder: Path) -> list[str]:
    """The names of the files in a table folder, dot files left out (temporaries)."""
    try:
        with os.scandir(folder) as entries:
            return sorted(e.name for e in entries if not e.name.startswith(".") and e.is_file())
    except FileNotFoundError:
        return []


# -- the manifest's record ---------------------------------------------------------------


def records_from_manifest(
    manifest: Mapping[str, Any], tables: Iterable[str], where: Path
) -> dict[str, list[PartRecord]]:
    """The ``parts`` of a manifest, per table (every table present, maybe empty);
    ``InputError`` naming ``where`` when the record is missing or malformed."""
    raw = manifest.get("parts")
    if not isinstance(raw, dict):
        raise InputError(f"{where}: the manifest has no record of its part files ('parts')")
    out: dict[str, list[PartRecord]] = {}
    for table in tables:
        entries = raw.get(table, [])
        records = []
        try:
            for e in entries:
                records.append(
                    PartRecord(
                        table,
                        str(e["file"]),
                        int(e["first"]),
                        int(e["last"]),
                        int(e["rows"]),
                        int(e["bytes"]),
                        str(e["sha256"]),
                    )
                )
        except (TypeError, KeyError, ValueError):
            raise InputError(
                f"{where}: the manifest's record of {table} parts is malformed"
            ) from None
        if any(shard_span(r.file) != (r.first, r.last) for r in records):
            raise InputError(f"{where}: the manifest records a {table} part under a wrong name")
        out[table] = sorted(records, key=lambda r: r.first)
    return out


def records_to_manifest(records: Mapping[str, list[PartRecord]]) -> dict[str, list[dict[str, Any]]]:
    """The ``parts`` entry of a manifest."""
    return {
        table: [r.to_json() for r in sorted(rs, key=lambda r: r.first)]
        for table, rs in records.items()
    }


# -- checking a run ----------------------------------------------------------------------


@dataclass(frozen=True)
class PartsSummary:
    """What :func:`check_parts` found sound."""

    files: int
    bytes: int
    games: int
    shards: frozenset[int]
    hashed: bool


def _corrupt(path: Path, why: str) -> InputError:
    return InputError(f"{path}: corrupt part file ({why})")


def _check_one(record: PartRecord, run_dir: Path, hashes: bool) -> None:
    path = record.path(run_dir)
    size = path.stat().st_size
    if size != record.bytes:
        raise _corrupt(path, f"{size:,} bytes, the manifest records {record.bytes:,}")
    try:
        rows = pq.read_metadata(path).num_rows
    except Exception:  # pyarrow raises several types for a damaged footer
        raise _corrupt(path, "not a readable Parquet file") from None
    if rows != record.rows:
        raise _corrupt(path, f"{rows:,} rows, the manifest records {record.rows:,}")
    if hashes and file_sha256(path) != record.sha256:
        raise _corrupt(path, "its sha256 differs from the manifest's")


def _check_all(records: list[PartRecord], run_dir: Path, hashes: bool) -> None:
    """:func:`_check_one` for every record; the first failure (in record order) is raised."""
    # Footers and hashes of different files are independent reads: check them side by side
    # (hashlib and pyarrow release the GIL).
    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        for done in [pool.submit(_check_one, r, run_dir, hashes) for r in records]:
            done.result()


def check_parts(
    run_dir: Path, records: Mapping[str, list[PartRecord]], hashes: bool = True
) -> PartsSummary:
    """Check that the files of each table folder are exactly the recorded parts, with their
    recorded sizes and row counts (from the Parquet footers) and, with ``hashes``, the sha256
    of their bytes; and that every table holds the same shards, each once.
    ``InputError`` names the first missing, extra or corrupt file."""
    for table, recorded in records.items():
        names = {r.file for r in recorded}
        on_disk = files_in(run_dir / table)
        extra = [n for n in on_disk if n not in names]
        if extra:
            raise InputError(
                f"{run_dir / table / extra[0]}: extra file, not recorded in the run's manifest "
                "(a part an interrupted simulate left behind is cleared by running it again)"
            )
        present = set(on_disk)
        for r in recorded:
            if r.file not in present:
                raise InputError(f"{r.path(run_dir)}: missing part file (the manifest records it)")
    coverage: dict[str, list[int]] = {
        table: sorted(k for r in recorded for k in r.shards())
        for table, recorded in records.items()
    }
    games_shards = coverage.get("games", [])
    for table, shards in coverage.items():
        if len(set(shards)) != len(shards):
            raise InputError(f"{run_dir / table}: the manifest records a shard twice")
        if shards != games_shards:
            lost = sorted(set(games_shards) ^ set(shards))[0]
            raise InputError(
                f"{run_dir / table}: shard {lost} is recorded in games but not in {table} "
                "or the other way round"
            )
    everything = [r for recorded in records.values() for r in recorded]
    _check_all(everything, run_dir, hashes)
    return PartsSummary(
        files=len(everything),
        bytes=sum(r.bytes for r in everything),
        games=sum(r.rows for r in records.get("games", [])),
        shards=frozenset(games_shards),
        hashed=hashes,
    )


# -- planning a resume -------------------------------------------------------------------


@dataclass
class ResumePlan:
    """What a resumed run keeps, deletes and plays again."""

    kept: dict[str, list[PartRecord]]
    delete: list[Path] = field(default_factory=list)
    play: set[int] = field(default_factory=set)
    #: One line per repair, for the user.
    notes: list[str] = field(default_factory=list)


def plan_resume(
    run_dir: Path, records: Mapping[str, list[PartRecord]], n_shards: int
) -> ResumePlan:
    """Decide which parts a resumed run keeps and which shards it plays again.

    - a recorded part whose size or hash differ (or that cannot be read) is refused with
      ``InputError``: something outside the runner changed it; deleting it lets its shards
      be played again;
    - a recorded part that is missing is lost: its shards are played again;
    - a part file nobody recorded was left by an interrupted invocation (the manifest is
      written every few seconds and at the end): it is deleted and its shards played again;
      any other file in a table folder is refused;
    - then every shard that is not held exactly once by every table is played again, and
      every kept part holding such a shard is deleted too (with the shards it holds), until
      what is kept covers each remaining shard exactly once in every table: no row is ever
      doubled, whatever state a crash, a lost file or a half-done compaction left.
    """
    plan = ResumePlan(kept={})
    for table, recorded in records.items():
        folder = run_dir / table
        by_name = {r.file: r for r in recorded}
        on_disk = files_in(folder)
        for name in on_disk:
            span = shard_span(name)
            if name in by_name:
                continue
            if span is None or span[1] >= n_shards:
                raise InputError(
                    f"{folder / name}: not a part file of this run (move it out of the run "
                    "directory and run the same command again)"
                )
            plan.delete.append(folder / name)
            plan.notes.append(f"{folder / name}: not recorded (left by an interrupted run)")
        present = set(on_disk)
        kept = []
        for r in recorded:
            if r.file in present:
                kept.append(r)
            else:
                path = r.path(run_dir)
                plan.notes.append(f"{path}: missing; shards {r.first}-{r.last} are played again")
        plan.kept[table] = kept
    try:
        _check_all([r for kept in plan.kept.values() for r in kept], run_dir, hashes=True)
    except InputError as exc:
        raise InputError(
            f"{exc}; delete it and run the same command again to play its shards again"
        ) from None
    # The fixpoint: drop kept parts that overlap another or hold a shard to play again.
    while True:
        counts: dict[str, dict[int, int]] = {t: _shard_counts(rs) for t, rs in plan.kept.items()}
        play = {k for k in range(n_shards) if any(c.get(k, 0) != 1 for c in counts.values())}
        dropped = False
        for table, kept in plan.kept.items():
            keep = []
            for r in kept:
                if any(k in play for k in r.shards()):
                    plan.delete.append(r.path(run_dir))
                    dropped = True
                else:
                    keep.append(r)
            plan.kept[table] = keep
        if not dropped:
            plan.play = play
            return plan


def _shard_counts(records: Iterable[PartRecord]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for r in records:
        for k in r.shards():
            counts[k] = counts.get(k, 0) + 1
    return counts
