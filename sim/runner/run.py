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

import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sim.errors import InputError
from sim.game import Board
from sim.runner.backends import check_address, run_process, run_ray, run_serial
from sim.runner.code_identity import CodeIdentity, pin_loaded
from sim.runner.config import GROWING, RunConfig, shard_ranges, spec_schedule
from sim.runner.engine_choice import check_compiled, load_compiled
from sim.runner.games import game_kind
from sim.runner.manifest import check_schema, read_manifest, run_code, write_manifest
from sim.runner.prepare import Prepared, prepare
from sim.runner.shard import GameReport, ShardSummary, ShardTask
from sim.storage.compaction import compact
from sim.storage.parts import PartRecord, records_to_manifest
from sim.storage.store import MANIFEST, RunStore

__all__ = [
    "GROWING",
    "MANIFEST",
    "RunConfig",
    "RunReport",
    "check_schema",
    "read_manifest",
    "run",
    "run_code",
    "shard_ranges",
    "spec_schedule",
]
#: While shards finish, the manifest is rewritten at most this often (and never taking more
#: than 2% of the time): a crash loses at most the record of the last seconds' shards, which
#: a resume plays again.
FLUSH_SECONDS = 2.0


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
    #: The engine that played it (``reference`` or ``compiled``).
    engine: str = "reference"


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
        write_manifest(self.store, self.manifest)
        self.cost = time.perf_counter() - t0
        self.last = time.monotonic()


def run(
    config: RunConfig,
    on_done: Callable[[ShardSummary], None] | None = None,
    on_start: Callable[[int, list[str]], None] | None = None,
    on_playing: GameReport | None = None,
    on_stage: Callable[[str], None] | None = None,
) -> RunReport:
    """Play every missing shard of the run and finish its manifest. ``on_start`` is told the
    games to play and what a resume repaired, once the directory is held and checked;
    ``on_playing`` the games finished inside shards still playing; ``on_stage`` what the
    driver does before the first shard starts (loading or compiling a compiled engine)."""
    if config.backend == "ray" and config.address:
        check_address(config.address)  # before anything is written: a wrong address is input
    if config.engine == "compiled":
        check_compiled(config)  # before anything is written too
    hooks = game_kind(config.game).boards
    boards = hooks.read(config.islands) if hooks else {}
    config.run_dir.check_reachable()
    with config.run_dir.lock() as lock:
        prepared = prepare(config, boards)
        return _play(
            prepared.config, prepared, boards, on_done, on_start, lock, on_playing, on_stage
        )


def _play(
    config: RunConfig,
    prepared: Prepared,
    boards: Mapping[str, tuple[str, Board]],
    on_done: Callable[[ShardSummary], None] | None,
    on_start: Callable[[int, list[str]], None] | None,
    lock: Any = None,
    on_playing: GameReport | None = None,
    on_stage: Callable[[str], None] | None = None,
) -> RunReport:
    manifest = prepared.manifest
    code = prepared.code
    tasks = _tasks(config, prepared, boards)
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
    compile_seconds = 0.0
    try:
        if tasks and config.engine == "compiled":
            compile_seconds = load_compiled(config.game, on_stage)
        startup = _execute(config, tasks, done, code, on_playing)
        complete = True
    finally:
        seconds = time.perf_counter() - start
        runs = manifest.setdefault("executions", [])
        runs.append(_execution(config, code, summaries, seconds, startup, complete))
        if config.engine == "compiled":
            runs[-1]["compile_seconds"] = round(compile_seconds, 3)
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
        config.engine,
    )


def _tasks(
    config: RunConfig, prepared: Prepared, boards: Mapping[str, tuple[str, Board]]
) -> list[ShardTask]:
    """A task for each shard to play."""
    shipped = tuple((arg, board) for arg, (_, board) in boards.items())
    run_id = str(prepared.manifest.get("run_id") or config.run_id())
    tasks = []
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
                config.engine,
                config.compiled_seats,
            )
        )
    return tasks


def _execute(
    config: RunConfig,
    tasks: list[ShardTask],
    done: Callable[[ShardSummary], None],
    code: CodeIdentity,
    on_playing: GameReport | None,
) -> float:
    """Play the tasks on the run's backend; the backend's start-up seconds."""
    if not tasks:
        return 0.0  # everything is on disk already: no backend to start
    if config.backend == "serial":
        run_serial(tasks, done, on_playing)
    elif config.backend == "process":
        run_process(tasks, done, config.workers, code, config.shard_timeout, on_playing)
    else:
        return run_ray(
            tasks, done, config.workers, config.address, code, config.shard_timeout, on_playing
        )
    return 0.0


def _execution(
    config: RunConfig,
    code: CodeIdentity,
    summaries: list[ShardSummary],
    seconds: float,
    startup: float,
    complete: bool,
) -> dict[str, Any]:
    """The manifest's record of one execution: how it ran, what it played, where time went."""
    return {
        "backend": config.backend,
        "engine": config.engine,
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
