"""A tournament run: its directory, manifest, the shards still to play, and the backend.

A run lives in a :class:`sim.storage.store.RunStore`: a local directory, one on a filesystem
every node mounts, or a prefix in an S3-compatible object store. It holds ``manifest.json`` and
one folder of Parquet parts per table. The manifest records the data-defining spec (game,
players or pool and table sizes, games, seed, seating, islands, rules and their hash, shard
size), the run's identity (``run_id``, a column of every table), its growth steps
(``extents``), every part file kept (``parts``: rows, bytes, sha256) and the boards of island
files (``boards``). Re-running the same spec into the same directory plays only the shards
that are missing (:func:`sim.storage.parts.plan_resume`); the same spec with more games grows
the run without touching the parts it has; fewer games, a different spec, or a changed island
file, is refused. One command at a time holds the directory (:class:`sim.storage.lock.RunLock`,
or a lease object in an object store: :mod:`sim.storage.object_lock`). How the run executes
(backend, workers, address) is recorded but does not define the data: every backend and
worker count writes the same tables. The code does: the manifest records the identity of the
code that plays the run's games (``code``, :mod:`sim.runner.code_identity`) before the first
shard is played, and a resume or growth by other code is refused, so a run never holds games
of two versions of a strategy or of the engine.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from sim.errors import InputError
from sim.game import Board
from sim.game_tables import SCHEMA_VERSION
from sim.guard import NO_GUARD, Guard
from sim.runner.backends import check_address, run_process, run_ray, run_serial
from sim.runner.code_identity import (
    CodeIdentity,
    code_identity,
    covers,
    describe,
    differences,
    pin_loaded,
    plugin_modules,
    run_entry_points,
)
from sim.runner.games import Factory, Rules, game_kind
from sim.runner.loaded_code import changed_since
from sim.runner.schedule import Schedule
from sim.runner.shard import GameReport, ShardSummary, ShardTask
from sim.storage.compaction import compact
from sim.storage.locations import open_store
from sim.storage.parts import (
    PartRecord,
    plan_resume,
    records_from_manifest,
    records_to_manifest,
)
from sim.storage.store import MANIFEST, LocalStore, RunStore

__all__ = ["MANIFEST", "RunConfig", "RunReport", "check_schema", "read_manifest", "run"]
#: While shards finish, the manifest is rewritten at most this often (and never taking more
#: than 2% of the time): a crash loses at most the record of the last seconds' shards, which
#: a resume plays again.
FLUSH_SECONDS = 2.0
_LIBRARIES = ("tourney", "ray", "pyarrow", "polars", "duckdb", "numpy")


@dataclass(frozen=True)
class RunConfig:
    """A resolved run: what to play (``spec``) and how (backend, workers, address)."""

    #: Where the run lives (a :class:`RunStore`; a path is taken as a local directory).
    run_dir: RunStore
    game: str
    labels: tuple[str, ...]
    factories: tuple[Factory, ...]
    rules: Rules
    rules_source: str
    games: int
    seed: int
    seating: str
    islands: tuple[str, ...]
    shard_size: int
    backend: str = "ray"
    workers: int = 2
    address: str | None = None
    #: What people call the run (a spec's description, or its rules and players); shown by
    #: reports, not part of the data-defining spec.
    label: str = ""
    #: A pool's table sizes: every combination of that many of ``labels`` is played (see
    #: :mod:`sim.runner.schedule`); empty for a fixed lineup of all ``labels``.
    table_sizes: tuple[int, ...] = ()
    #: The ``games`` asked for (per table size for a pool, before rounding up to whole
    #: cycles), for messages; ``games`` is what the run plays in all.
    requested_games: int = 0
    #: How games watch their strategies (audit, decision time limit): data-defining, since a
    #: cheater's games differ under audit, so part of :meth:`spec` when set.
    guard: Guard = NO_GUARD
    #: Seconds a shard may take before the run stops (process and ray backends); not part of
    #: the data.
    shard_timeout: float | None = None

    @property
    def pool(self) -> bool:
        """Whether the players are a pool (combinations at several table sizes)."""
        return bool(self.table_sizes)

    def __post_init__(self) -> None:
        object.__setattr__(self, "run_dir", open_store(self.run_dir))

    def spec(self) -> dict[str, Any]:
        """The data-defining part, compared on resume (``games`` and ``games_per_size`` may
        grow: see :func:`prepare`)."""
        sizes = self.table_sizes or (len(self.labels),)
        return {
            "game": self.game,
            "players": list(self.labels),
            "pool": list(self.labels) if self.pool else None,
            "table_sizes": list(sizes),
            "games": self.games,
            "games_per_size": self.games // len(sizes) if self.pool else None,
            "seed": self.seed,
            "seating": self.seating,
            "islands": list(self.islands),
            "rules": self.rules_source,
            "rules_preset": self.rules.preset,
            "rules_hash": self.rules.hash,
            "resolved_rules": self.rules.to_dict(),
            "shard_size": self.shard_size,
        } | ({"guard": self.guard.to_dict()} if self.guard.recorded else {})

    def schedule(self) -> Schedule:
        """Which game is which."""
        return Schedule(self.seed, len(self.labels), self.seating, self.islands, self.table_sizes)

    def run_id(self) -> str:
        """The ``run_id`` column of every table: see :func:`run_id`."""
        return run_id(self.spec())


def spec_schedule(spec: dict[str, Any]) -> Schedule:
    """The schedule of the run a manifest's ``spec`` describes."""
    sizes = tuple(int(s) for s in spec["table_sizes"]) if spec.get("pool") else ()
    return Schedule(
        int(spec["seed"]), len(spec["players"]), str(spec["seating"]), tuple(spec["islands"]), sizes
    )


#: Spec keys that may grow when a run is extended; every other key must stay the same.
GROWING_KEYS = ("games", "games_per_size")
#: How the note that a run grows starts (the other notes are what a resume repaired).
GROWING = "growing the run"


def run_id(spec: dict[str, Any]) -> str:
    """A run's identity for joins: 16 hex digits of the sha256 of its data-defining spec
    without the keys that grow (games) or only cut the work into pieces (shard_size). Two
    runs with the same id hold the same game under every game id they both have; a run keeps
    its id when it grows."""
    kept = {k: v for k, v in spec.items() if k not in (*GROWING_KEYS, "shard_size")}
    text = json.dumps(kept, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def shard_ranges(extents: list[int], shard_size: int) -> list[tuple[int, int]]:
    """``(first game, games)`` of every shard of a run grown in ``extents`` (its game count
    after each growth, ascending): each extent is cut into shards of ``shard_size`` on its
    own, so growing a run never changes a shard it already has."""
    out: list[tuple[int, int]] = []
    start = 0
    for end in extents:
        out += [(first, min(shard_size, end - first)) for first in range(start, end, shard_size)]
        start = end
    return out


@dataclass
class RunReport:
    """What a finished (or interrupted) run did."""

    run_dir: RunStore
    shards_total: int
    shards_skipped: int
    shards_played: int
    games_played: int
    seconds: float
    summaries: list[ShardSummary]
    complete: bool
    startup_seconds: float = 0.0
    #: What a resume repaired (parts deleted or lost), one line each.
    notes: tuple[str, ...] = ()


def _versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for lib in _LIBRARIES:
        try:
            out[lib] = metadata.version(lib)
        except metadata.PackageNotFoundError:
            out[lib] = "absent"
    return out


def _git_commit() -> str | None:
    here = Path(__file__).resolve().parent
    try:
        done = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def _write_json(store: RunStore, obj: dict[str, Any]) -> None:
    data = (json.dumps(obj, indent=1, sort_keys=True) + "\n").encode()
    try:
        store.write_bytes(MANIFEST, data)
    except OSError as exc:
        raise InputError(
            f"{store.show(MANIFEST)}: cannot write the run's manifest ({exc.strerror})"
        ) from None


def read_manifest(run: Path | str | RunStore) -> dict[str, Any] | None:
    """The run's manifest, or None when the location holds no run."""
    store = open_store(run)
    where = store.show(MANIFEST)
    try:
        data = store.read_bytes(MANIFEST)
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not text"
        raise InputError(f"{where}: not a readable run manifest ({why})") from None
    if data is None:
        return None
    try:
        obj = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise InputError(f"{where}: not a readable run manifest (not JSON)") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("spec"), dict):
        raise InputError(f"{where}: not a run manifest (no 'spec')")
    return obj


def check_schema(run: Path | str | RunStore, manifest: dict[str, Any]) -> None:
    """``InputError`` unless the run was written with this version's table schema."""
    version = manifest.get("schema_version")
    if version != SCHEMA_VERSION:
        raise InputError(
            f"{open_store(run).show(MANIFEST)}: schema_version {version!r} is not supported (this "
            f"tourney writes and reads {SCHEMA_VERSION}); simulate the run again into a new "
            "directory"
        )


def run_code(run: Path | str | RunStore, manifest: dict[str, Any]) -> CodeIdentity | None:
    """The code that played the run's games: the manifest's ``code`` and that of every
    execution that played some; None when nothing records it (a run written before the
    identity was recorded, whose executions were all killed). ``InputError`` when they name
    different code: such a run's tables mix the games of both."""
    found = [manifest["code"]] if isinstance(manifest.get("code"), dict) else []
    found += [
        e["code"]
        for e in manifest.get("executions") or []
        if isinstance(e, dict) and e.get("games_played") and isinstance(e.get("code"), dict)
    ]
    codes = [CodeIdentity.from_json(c) for c in found]
    distinct = sorted({c.short() for c in codes})
    if len(distinct) > 1:
        raise InputError(
            f"{open_store(run).show(MANIFEST)}: its games were played by different code "
            f"({'; '.join(distinct)}), so its tables mix them; simulate the run again into "
            "a new directory"
        )
    return codes[0] if codes else None


@dataclass
class Prepared:
    """A run directory opened for playing: its manifest, the parts it keeps, every shard's
    games, the shards to play, what a resume repaired and the shard spans to compact."""

    manifest: dict[str, Any]
    records: dict[str, list[PartRecord]]
    ranges: list[tuple[int, int]]
    play: list[int]
    notes: list[str]
    #: Shard spans to compact, one per extent not compacted yet (never across extents, never
    #: an extent the run had when it was last complete: its parts stay as they are).
    spans: list[range]
    #: The code that plays the shards (the driver's, which is the run's).
    code: CodeIdentity


def _games_text(spec: dict[str, Any]) -> str:
    """A spec's game count for people (per table size for a pool)."""
    per_size = spec.get("games_per_size")
    return f"{per_size:,} games per table size" if per_size else f"{spec['games']:,} games"


def _extents(manifest: dict[str, Any], where: str) -> list[int]:
    """The run's recorded growth steps (its game count after each), checked."""
    extents = manifest.get("extents")
    games = manifest["spec"].get("games")
    if (
        not isinstance(extents, list)
        or not extents
        or not all(isinstance(e, int) and not isinstance(e, bool) for e in extents)
        or any(b <= a for a, b in itertools.pairwise([0, *extents]))
        or extents[-1] != games
    ):
        raise InputError(f"{where}: the manifest's record of its games ('extents') is malformed")
    return list(extents)


def _spans(extents: list[int], shard_size: int, compacted: int, play: set[int]) -> list[range]:
    """The shard spans to compact: every extent beyond ``compacted`` games, and an extent
    compacted before only when one of its shards is played again (a repair: its parts
    changed anyway). An intact compacted extent is left alone."""
    spans = []
    shard = 0
    for end, start in zip(extents, [0, *extents], strict=False):
        span = range(shard, shard + len(shard_ranges([end - start], shard_size)))
        if end > compacted or any(k in play for k in span):
            spans.append(span)
        shard = span.stop
    return spans


def prepare(config: RunConfig, boards: Mapping[str, tuple[str, Board]]) -> Prepared:
    """Create or reopen the run directory (held by the caller's :class:`RunLock`); refuse one
    that holds a different spec, a changed island file or a part that is not sound, and plan
    the shards to play.

    The same spec with more games **grows** the run: a new extent of games is added after
    the ones it has, cut into shards of its own, and only those games are played; the parts
    of the games it had are kept as they are (checked by hash, never rewritten or merged).
    Fewer games is refused: a run never shrinks."""
    store = config.run_dir
    spec = config.spec()
    kind = game_kind(config.game)
    tables = kind.tables
    recorded_boards = kind.boards.manifest(boards) if kind.boards else {}
    code = code_identity(plugin_modules(config.factories), run_entry_points(config.game))
    existing = read_manifest(store)
    if existing is not None:
        if isinstance(store, LocalStore):
            for stale in store.root.glob("*/.*.tmp"):  # what a killed writer left: never a part
                stale.unlink(missing_ok=True)
        check_schema(store, existing)
        old = existing["spec"]
        differs = sorted(
            k for k in {*spec, *old} if k not in GROWING_KEYS and old.get(k) != spec.get(k)
        )
        if differs:
            raise InputError(
                f"{store}: holds a run of a different spec (differs in: {', '.join(differs)}); "
                "use another --out, or delete that directory to start over"
            )
        extents = _extents(existing, store.show(MANIFEST))
        if spec["games"] < old["games"]:
            raise InputError(
                f"{store}: holds {_games_text(old)}, more than the {_games_text(spec)} asked "
                f"for; a run grows but never shrinks (ask for {_games_text(old)} or more, or use "
                "another --out)"
            )
        notes: list[str] = []
        if spec["games"] > old["games"]:
            notes.append(
                f"{GROWING} from {_games_text(old)} to {_games_text(spec)}: only the "
                f"{spec['games'] - old['games']:,} new games are played, the first "
                f"{old['games']:,} stay as they are"
            )
            extents.append(spec["games"])
            existing["spec"] = spec
            existing["status"] = "running"
        ranges = shard_ranges(extents, config.shard_size)
        if kind.boards:
            kind.boards.check(existing.get("boards") or {}, recorded_boards)
        recorded = records_from_manifest(existing, tables, store.show(MANIFEST))
        plan = plan_resume(store, recorded, len(ranges))
        played_by = run_code(store, existing)
        kept = any(plan.kept.values())
        if played_by is None and kept:
            raise InputError(
                f"{store}: the code that played its games is not recorded (a run written by "
                "an older tourney and stopped before it finished), so a resume could mix "
                "codes; simulate the run again into a new directory"
            )
        found = differences(played_by, code) if played_by is not None else []
        if played_by is not None and (plan.play or spec["games"] > old["games"]):
            # The modules its shards loaded, as the workers would find them now.
            found += [
                (f"loaded {k}", a, b)
                for k, a, b in changed_since(dict(played_by.loaded))
                if not covers(code, k)  # already named by its part
            ]
            if found:
                raise InputError(
                    f"{store}: its games were played by {played_by.short()} and this is "
                    f"{code.short()}, which differ in {describe(found, 'recorded', 'here')}; "
                    "a run holds the games of one code, so only that code resumes or grows "
                    "it (or simulate into another --out)"
                )
        if played_by is not None and found:
            notes.append(
                f"played by {played_by.short()} (this is {code.short()}); nothing was left "
                "to play, so nothing changed"
            )
        existing["code"] = (played_by or code).to_json()
        store.delete_many(plan.delete)
        existing["extents"] = extents
        existing["shards"] = len(ranges)
        existing["parts"] = records_to_manifest(plan.kept)
        existing["boards"] = recorded_boards
        _write_json(store, existing)
        compacted = int(existing.get("compacted_games") or 0)
        return Prepared(
            existing,
            plan.kept,
            ranges,
            sorted(plan.play),
            notes + plan.notes,
            _spans(extents, config.shard_size, compacted, plan.play),
            code,
        )
    if store.top_entries():
        raise InputError(f"{store}: exists, is not empty and holds no run; use another --out")
    try:
        store.make_folders(tables)
    except OSError as exc:
        raise InputError(f"{store}: cannot create the run directory ({exc.strerror})") from None
    records: dict[str, list[PartRecord]] = {table: [] for table in tables}
    ranges = shard_ranges([config.games], config.shard_size)
    manifest = {
        "schema_version": SCHEMA_VERSION,
        "run_id": config.run_id(),
        "spec": spec,
        "status": "running",
        "versions": _versions(),
        "label": config.label,
        "git_commit": _git_commit(),
        "created_unix": round(time.time(), 3),
        "extents": [config.games],
        "shards": len(ranges),
        "boards": recorded_boards,
        "parts": records_to_manifest(records),
        # Recorded before any shard is played: a run killed at any point says what played it.
        "code": code.to_json(),
    }
    _write_json(store, manifest)
    return Prepared(
        manifest, records, ranges, list(range(len(ranges))), [], [range(len(ranges))], code
    )


class _Recorder:
    """Keeps the manifest's record of parts up to date as shards finish."""

    def __init__(
        self,
        store: RunStore,
        manifest: dict[str, Any],
        records: dict[str, list[PartRecord]],
        lock: Any = None,
    ):
        self.store = store
        #: The run's lock: checked before every write (a lost lease stops the writes).
        self.lock = lock
        self.manifest = manifest
        # By table and file name: a part recorded twice (a shard played again) is replaced.
        self.by_file = {table: {r.file: r for r in rs} for table, rs in records.items()}
        self.last = time.monotonic()
        self.cost = 0.0

    @property
    def records(self) -> dict[str, list[PartRecord]]:
        return {table: list(parts.values()) for table, parts in self.by_file.items()}

    def add(self, parts: tuple[PartRecord, ...]) -> None:
        for part in parts:
            self.by_file.setdefault(part.table, {})[part.file] = part
        if time.monotonic() - self.last >= max(FLUSH_SECONDS, 50 * self.cost):
            self.write()

    def commit(self, records: dict[str, list[PartRecord]]) -> None:
        self.by_file = {table: {r.file: r for r in rs} for table, rs in records.items()}
        self.write()

    def shards_done(self) -> set[int]:
        return {k for r in self.by_file.get("games", {}).values() for k in r.shards()}

    def write(self) -> None:
        t0 = time.perf_counter()
        if self.lock is not None:
            self.lock.check()
        records = self.records
        self.manifest["parts"] = records_to_manifest(records)
        self.manifest["files"] = {table: len(rs) for table, rs in records.items()}
        _write_json(self.store, self.manifest)
        self.cost = time.perf_counter() - t0
        self.last = time.monotonic()


def run(
    config: RunConfig,
    on_done: Callable[[ShardSummary], None] | None = None,
    on_start: Callable[[int, list[str]], None] | None = None,
    on_playing: GameReport | None = None,
) -> RunReport:
    """Play every missing shard of the run and finish its manifest. ``on_start`` is told the
    games to play and what a resume repaired, once the directory is held and checked;
    ``on_playing`` the games finished inside shards still playing."""
    if config.backend == "ray" and config.address:
        check_address(config.address)  # before anything is written: a wrong address is input
    hooks = game_kind(config.game).boards
    boards = hooks.read(config.islands) if hooks else {}
    config.run_dir.check_reachable()
    with config.run_dir.lock() as lock:
        prepared = prepare(config, boards)
        return _play(config, prepared, boards, on_done, on_start, lock, on_playing)


def _play(
    config: RunConfig,
    prepared: Prepared,
    boards: Mapping[str, tuple[str, Board]],
    on_done: Callable[[ShardSummary], None] | None,
    on_start: Callable[[int, list[str]], None] | None,
    lock: Any = None,
    on_playing: GameReport | None = None,
) -> RunReport:
    manifest = prepared.manifest
    code = prepared.code
    shipped = tuple((arg, board) for arg, (_, board) in boards.items())
    tasks = []
    run_id = str(manifest.get("run_id") or config.run_id())
    for shard in prepared.play:
        first, n_games = prepared.ranges[shard]
        tasks.append(
            ShardTask(
                config.run_dir,
                shard,
                first,
                n_games,
                config.seed,
                config.seating,
                config.islands,
                config.labels,
                config.factories,
                config.rules,
                config.game,
                shipped,
                config.table_sizes,
                run_id,
                config.guard,
            )
        )
    if on_start is not None:
        on_start(sum(t.n_games for t in tasks), prepared.notes)
    recorder = _Recorder(config.run_dir, manifest, prepared.records, lock)
    summaries: list[ShardSummary] = []

    loaded: dict[str, str] = manifest["code"].setdefault("loaded", {})

    def done(summary: ShardSummary) -> None:
        # What the shard loaded is pinned in the manifest write that records its parts.
        pin_loaded(loaded, summary.loaded, summary.shard)
        summaries.append(summary)
        recorder.add(summary.parts)
        if on_done is not None:
            on_done(summary)

    start = time.perf_counter()
    complete = False
    startup = 0.0
    try:
        if not tasks:
            pass  # everything is on disk already: no backend to start
        elif config.backend == "serial":
            run_serial(tasks, done, on_playing)
        elif config.backend == "process":
            run_process(tasks, done, config.workers, code, config.shard_timeout, on_playing)
        else:
            startup = run_ray(
                tasks, done, config.workers, config.address, code, config.shard_timeout,
                on_playing,
            )  # fmt: skip
        complete = True
    finally:
        seconds = time.perf_counter() - start
        runs = manifest.setdefault("executions", [])
        runs.append(
            {
                "backend": config.backend,
                "workers": config.workers,
                "address": config.address,
                "code": code.to_json(compact=True),
                "shards_played": len(summaries),
                "games_played": sum(s.games for s in summaries),
                "seconds": round(seconds, 3),
                "backend_startup_seconds": round(startup, 3),
                "play_seconds": round(sum(s.play_seconds for s in summaries), 3),
                "log_seconds": round(sum(s.log_seconds for s in summaries), 3),
                "write_seconds": round(sum(s.write_seconds for s in summaries), 3),
                "check_seconds": round(sum(s.check_seconds for s in summaries), 3),
                "peak_worker_rss_mb": round(max((s.peak_rss_mb for s in summaries), default=0), 1),
                "interrupted": not complete,
            }
        )
        n_shards = len(prepared.ranges)
        all_done = recorder.shards_done() == set(range(n_shards))
        if all_done:
            # Record every shard before merging: a crash during compaction (seconds, longer
            # in an object store) then costs no shard played again.
            recorder.write()
            t0 = time.perf_counter()
            recorder.commit(
                compact(config.run_dir, recorder.records, recorder.commit, spans=prepared.spans)
            )
            manifest["compacted_games"] = config.games
            runs[-1]["compact_seconds"] = round(time.perf_counter() - t0, 3)
        manifest["status"] = "complete" if all_done else "partial"
        manifest["counts"] = {"games": config.games if all_done else None}
        try:
            recorder.write()
        except InputError:
            # A full disk fails the manifest too: the error that stopped the run says more
            # (a resume replays whatever the manifest could not record).
            if sys.exc_info()[0] is None:
                raise
    return RunReport(
        config.run_dir,
        n_shards,
        n_shards - len(tasks),
        len(summaries),
        sum(s.games for s in summaries),
        seconds,
        summaries,
        all_done,
        startup,
        tuple(prepared.notes),
    )
