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

import contextlib
import hashlib
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from sim.errors import InputError
from sim.storage.locations import open_store
from sim.storage.store import LocalStore, RunStore

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
        """Where the part lives in the local directory ``run_dir``."""
        return run_dir / self.table / self.file

    @property
    def rel(self) -> str:
        """The part's name relative to its run (``games/part-000000.parquet``)."""
        return f"{self.table}/{self.file}"

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


def write_recorded(
    table: pa.Table, run: Path | RunStore, name: str, first: int, last: int
) -> PartRecord:
    """Write ``table`` as the part of ``name`` holding shards ``first``-``last``, atomically
    (see :meth:`sim.storage.store.RunStore.write_bytes`), and return its record. The file is
    serialised in memory and hashed before it is written, so recording costs no second read."""
    store = open_store(run)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd", use_dictionary=True)
    data = sink.getvalue()
    file = part_name(first, last)
    store.write_bytes(f"{name}/{file}", data)
    digest = hashlib.sha256(memoryview(data)).hexdigest()
    return PartRecord(name, file, first, last, table.num_rows, data.size, digest)


def record_file(path: Path, table: str) -> PartRecord:
    """The record of an existing part file (rows from its footer, hash of its bytes)."""
    span = shard_span(path.name)
    if span is None:
        raise ValueError(f"{path}: not a part file name")
    rows = pq.read_metadata(path).num_rows
    return PartRecord(
        table, path.name, span[0], span[1], rows, path.stat().st_size, file_sha256(path)
    )


# -- the manifest's record ---------------------------------------------------------------


def records_from_manifest(
    manifest: Mapping[str, Any], tables: Iterable[str], where: Path | str
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
    #: Unrecorded part files of shards the manifest does not hold, in an unfinished run:
    #: what an interrupted simulate left (never read; its next run deletes them).
    leftovers: tuple[str, ...] = ()


def _corrupt(where: str, why: str) -> InputError:
    return InputError(f"{where}: corrupt part file ({why})")


def _check_one(
    record: PartRecord, store: RunStore, size: int, hashes: bool, copy: Path | None
) -> None:
    """Check one part: its size (from the listing), its row count (from its footer) and,
    with ``hashes``, its sha256. The part of a remote store is copied to the local folder
    ``copy`` (one GET) and checked there, so a reader of the copy reads the bytes checked."""
    where = store.show(record.rel)
    if size != record.bytes:
        raise _corrupt(where, f"{size:,} bytes, the manifest records {record.bytes:,}")
    digest = None
    if isinstance(store, LocalStore):
        footer = store.path(record.rel)
    else:
        assert copy is not None
        footer = copy / record.rel
        size, digest = store.fetch(record.rel, footer)
        if size != record.bytes:
            raise _corrupt(where, f"{size:,} bytes read, the manifest records {record.bytes:,}")
    try:
        rows = pq.read_metadata(footer).num_rows
    except Exception:  # pyarrow raises several types for a damaged footer
        raise _corrupt(where, "not a readable Parquet file") from None
    if rows != record.rows:
        raise _corrupt(where, f"{rows:,} rows, the manifest records {record.rows:,}")
    if (hashes or digest is not None) and (digest or store.sha256(record.rel)) != record.sha256:
        raise _corrupt(where, "its sha256 differs from the manifest's")


def _check_all(
    records: list[PartRecord],
    store: RunStore,
    sizes: Mapping[str, int],
    hashes: bool,
    replica: Path | None = None,
) -> None:
    """:func:`_check_one` for every record (``sizes`` by ``rel``); the first failure (in
    record order) is raised. A remote store's parts are copied into ``replica``, or into a
    temporary folder deleted afterwards when there is none."""
    with contextlib.ExitStack() as stack:
        copy = replica
        if not store.local:
            if copy is None:
                copy = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tourney-")))
            for table in {r.table for r in records}:
                (copy / table).mkdir(parents=True, exist_ok=True)
        # Footers and hashes of different files are independent reads: check them side by
        # side (hashlib and pyarrow release the GIL; a store's latency wants more at once).
        threads = min(8, os.cpu_count() or 1) if store.local else 16
        with ThreadPoolExecutor(max_workers=threads) as pool:
            jobs = [pool.submit(_check_one, r, store, sizes[r.rel], hashes, copy) for r in records]
            for done in jobs:
                done.result()


def check_parts(
    run: Path | RunStore,
    records: Mapping[str, list[PartRecord]],
    hashes: bool = True,
    replica: Path | None = None,
    unfinished: bool = False,
    n_shards: int = 0,
) -> PartsSummary:
    """Check that the files of each table folder are exactly the recorded parts, with their
    recorded sizes and row counts (from the Parquet footers) and, with ``hashes``, the sha256
    of their bytes; and that every table holds the same shards, each once.
    ``InputError`` names the first missing, extra or corrupt file. A run in an object store
    is read whole (its hashes are always checked); ``replica``, a local directory, then keeps
    the copy of every part, checked as it was copied.

    In an ``unfinished`` run of ``n_shards`` shards, an unrecorded file named as a part of
    shards of the run that no table's recorded parts hold is what an interrupted simulate
    left (it writes a shard's tables one by one and records the shard once all are
    written): it is listed in ``leftovers``, not refused, and never read. Any other
    unrecorded file is refused."""
    store = open_store(run)
    sizes: dict[str, int] = {}
    held = {k for recorded in records.values() for r in recorded for k in r.shards()}
    leftovers: list[str] = []
    for table, recorded in records.items():
        names = {r.file for r in recorded}
        listed = store.list_files(table)
        extra = sorted(n for n in listed if n not in names)
        if unfinished:
            for name in extra:
                span = shard_span(name)
                if (
                    span is not None
                    and span[1] < n_shards
                    and held.isdisjoint(range(span[0], span[1] + 1))
                ):
                    leftovers.append(f"{table}/{name}")
            extra = [n for n in extra if f"{table}/{n}" not in leftovers]
        if extra:
            raise InputError(
                f"{store.show(f'{table}/{extra[0]}')}: extra file, not recorded in the run's "
                "manifest (a part an interrupted simulate left behind is cleared by running it "
                "again)"
            )
        for r in recorded:
            if r.file not in listed:
                raise InputError(
                    f"{store.show(r.rel)}: missing part file (the manifest records it)"
                )
            sizes[r.rel] = listed[r.file]
    coverage: dict[str, list[int]] = {
        table: sorted(k for r in recorded for k in r.shards())
        for table, recorded in records.items()
    }
    games_shards = coverage.get("games", [])
    for table, shards in coverage.items():
        if len(set(shards)) != len(shards):
            raise InputError(f"{store.show(table)}: the manifest records a shard twice")
        if shards != games_shards:
            lost = sorted(set(games_shards) ^ set(shards))[0]
            raise InputError(
                f"{store.show(table)}: shard {lost} is recorded in games but not in {table} "
                "or the other way round"
            )
    everything = [r for recorded in records.values() for r in recorded]
    _check_all(everything, store, sizes, hashes, replica)
    return PartsSummary(
        files=len(everything),
        bytes=sum(r.bytes for r in everything),
        games=sum(r.rows for r in records.get("games", [])),
        shards=frozenset(games_shards),
        hashed=hashes,
        leftovers=tuple(leftovers),
    )


# -- planning a resume -------------------------------------------------------------------


@dataclass
class ResumePlan:
    """What a resumed run keeps, deletes (names relative to the run) and plays again."""

    kept: dict[str, list[PartRecord]]
    delete: list[str] = field(default_factory=list)
    play: set[int] = field(default_factory=set)
    #: One line per repair, for the user.
    notes: list[str] = field(default_factory=list)


def plan_resume(
    run: Path | RunStore, records: Mapping[str, list[PartRecord]], n_shards: int
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
    store = open_store(run)
    plan = ResumePlan(kept={})
    sizes: dict[str, int] = {}
    for table, recorded in records.items():
        by_name = {r.file: r for r in recorded}
        listed = store.list_files(table)
        for name in sorted(listed):
            span = shard_span(name)
            if name in by_name:
                continue
            where = store.show(f"{table}/{name}")
            if span is None or span[1] >= n_shards:
                raise InputError(
                    f"{where}: not a part file of this run (move it out of the run "
                    "directory and run the same command again)"
                )
            plan.delete.append(f"{table}/{name}")
            plan.notes.append(f"{where}: not recorded (left by an interrupted run)")
        kept = []
        for r in recorded:
            if r.file in listed:
                kept.append(r)
                sizes[r.rel] = listed[r.file]
            else:
                plan.notes.append(
                    f"{store.show(r.rel)}: missing; shards {r.first}-{r.last} are played again"
                )
        plan.kept[table] = kept
    try:
        _check_all([r for kept in plan.kept.values() for r in kept], store, sizes, hashes=True)
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
                    plan.delete.append(r.rel)
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
