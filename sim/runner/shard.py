"""One shard: a contiguous range of game ids, played and written as Parquet part files.

A shard task is small and picklable (strategy classes travel by reference, island files'
boards by value), so any backend can run it in any process. A worker process starts at
:func:`run_packed`, which checks that it runs the driver's code
(:func:`sim.runner.code_identity.check_code`) before it even unpickles the task. A worker
first checks that it sees the run's manifest (a node that does not reach the run's location
fails at once, saying so, instead of writing parts where nobody looks); its tables are checked
(:mod:`sim.runner.shard_check`: one row set per game, declared schemas, a replayed sample), and
each table's part file is then written atomically to the run's store
(:mod:`sim.storage.store`), the ``games`` part last, and reported back with its record (rows,
bytes, sha256): the driver records it in the manifest, and a part nobody recorded is never
trusted (see :mod:`sim.storage.parts`).
"""

from __future__ import annotations

import os
import pickle
import resource
import socket
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sim.compiled_engine import CompiledSeat
from sim.errors import InputError
from sim.guard import NO_GUARD, Guard, stray_alarms_ignored
from sim.isolate import isolated_shard
from sim.runner.code_identity import CodeIdentity, check_code
from sim.runner.games import UNNAMED_GAME, Factory, Rules, game_kind, play_planned
from sim.runner.loaded_code import loaded_code, modules_now
from sim.runner.schedule import Schedule
from sim.runner.shard_check import ShardCheck
from sim.storage.locations import open_store
from sim.storage.parts import PartRecord, part_name, write_recorded
from sim.storage.store import MANIFEST, RunStore


@dataclass(frozen=True, slots=True)
class ShardTask:
    """Everything a worker needs to play and write one shard."""

    #: Where the run lives (a local or shared directory, or an object store).
    run_dir: RunStore
    shard: int
    first_game: int
    n_games: int
    root_seed: int
    seating: str
    islands: tuple[str, ...]
    labels: tuple[str, ...]
    factories: tuple[Factory, ...]
    rules: Rules
    game: str = UNNAMED_GAME
    #: The boards of the spec's island files, by island argument (read by the driver).
    boards: tuple[tuple[str, Any], ...] = ()
    #: A pool's table sizes (empty: a fixed lineup of all ``labels``).
    table_sizes: tuple[int, ...] = ()
    #: The run's identity, written into every row (the ``run_id`` column of every table).
    run_id: str = ""
    #: How the games watch their strategies (audit, decision time limit).
    guard: Guard = NO_GUARD
    #: The engine that plays the games (``reference`` or ``compiled``: resolved).
    engine: str = "reference"
    #: The players as the compiled engine takes them (see :class:`sim.runner.config.RunConfig`).
    compiled_seats: tuple[CompiledSeat, ...] = ()


@dataclass(frozen=True, slots=True)
class ShardSummary:
    """What a worker reports back: counts and timings, never the data itself."""

    shard: int
    games: int
    rows: int
    truncated: int
    violations: int
    play_seconds: float
    log_seconds: float
    write_seconds: float
    peak_rss_mb: float
    #: The part files written, one per table (``games`` last).
    parts: tuple[PartRecord, ...] = ()
    #: Every module the worker had loaded from outside the standard library after the
    #: shard's games, with its digest (:func:`sim.runner.loaded_code.loaded_code`).
    loaded: tuple[tuple[str, str], ...] = ()
    #: Time spent checking the shard's tables and replaying its sample (:mod:`.shard_check`).
    check_seconds: float = 0.0

    @property
    def seconds(self) -> float:
        """The shard's time in its worker (playing, logging, checking, writing)."""
        return self.play_seconds + self.log_seconds + self.write_seconds + self.check_seconds


#: ``report(shard, games finished, seconds since the shard started)`` while a shard plays:
#: progress for runs whose games are slow (a shard of ``optimal`` games can take minutes).
GameReport = Callable[[int, int, float], None]
#: Seconds between two reports from inside one shard (a clock read per game is all it costs).
REPORT_EVERY = 2.0
#: The report a worker process sends its driver (set by the backend's worker initializer).
_worker_report: list[tuple[GameReport, float]] = []


def set_worker_report(report: GameReport | None, every: float = REPORT_EVERY) -> None:
    """Make every shard this process plays through :func:`run_packed` report with ``report``
    every ``every`` seconds (the driver's interval)."""
    _worker_report[:] = [(report, every)] if report is not None else []


#: A shard as it travels to another process: the driver's code identity as plain data (read
#: whatever code the worker runs) and the pickled :class:`ShardTask`.
Packed = tuple[dict[str, Any], bytes]


def pack(task: ShardTask, code: CodeIdentity) -> Packed:
    """``task`` ready for another process, with the code that must play it."""
    return code.to_json(), pickle.dumps(task, protocol=pickle.HIGHEST_PROTOCOL)


def run_packed(packed: Packed) -> ShardSummary:
    """The entry point of worker processes: refuse the shard (``RunError``, nothing written)
    unless this process runs the driver's code; then unpickle and play it. The check comes
    first so that a worker with other code fails with that reason, not with whatever its
    classes make of the task."""
    code, task = packed
    check_code(CodeIdentity.from_json(code))
    report, every = next(iter(_worker_report), (None, REPORT_EVERY))
    return run_shard(pickle.loads(task), report, every)


class ReportSink(Protocol):
    """Where a Ray worker puts its reports (a Ray queue, read by the driver)."""

    def put(self, item: tuple[int, int, float]) -> None: ...


def run_packed_reporting(packed: Packed, sink: ReportSink | None, every: float) -> ShardSummary:
    """:func:`run_packed` that reports the games finished inside the shard to ``sink`` (if
    any) every ``every`` seconds: the Ray backend's entry point."""
    if sink is None:
        return run_packed(packed)
    set_worker_report(lambda shard, games, seconds: sink.put((shard, games, seconds)), every)
    try:
        return run_packed(packed)
    finally:
        set_worker_report(None)


def part_path(run_dir: str | Path, table: str, shard: int) -> Path:
    """Where a shard's part file of ``table`` lives in a local run directory."""
    return Path(run_dir) / table / part_name(shard)


def write_part(table: pa.Table, path: Path) -> None:
    """Write a local Parquet file atomically: a temporary name, then a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    pq.write_table(table, tmp, compression="zstd", use_dictionary=True)
    os.replace(tmp, path)


def check_visible(store: RunStore) -> None:
    """``InputError`` unless this process sees the run's manifest (written by the driver
    before any shard starts): a worker on a node that does not reach the run's location."""
    if not store.exists(MANIFEST):
        raise InputError(
            f"{store.show(MANIFEST)}: not found by a worker on {socket.gethostname()}: every "
            "node must reach the run's --out (an s3:// URI, or a directory that every node "
            "mounts at the same path, given with --shared-out)"
        )


#: The type of the ``run_id`` column: one value per file, so its dictionary page holds one
#: string and its indices run-length encode to a few bytes per part.
RUN_ID_TYPE = pa.dictionary(pa.int8(), pa.string())


def with_run_id(table: pa.Table, run_id: str) -> pa.Table:
    """``table`` with the ``run_id`` column first (every row the same value)."""
    indices = pa.array(np.zeros(table.num_rows, dtype=np.int8))
    column = pa.DictionaryArray.from_arrays(indices, pa.array([run_id], pa.string()))
    return table.add_column(0, pa.field("run_id", RUN_ID_TYPE), column)


def run_shard(
    task: ShardTask, report: GameReport | None = None, every: float | None = None
) -> ShardSummary:
    """Play the shard's games and write its part files (one per table the run keeps);
    ``report`` hears the games finished so far every ``every`` seconds (default
    :data:`REPORT_EVERY`)."""
    every = REPORT_EVERY if every is None else every
    check_visible(open_store(task.run_dir))
    before = modules_now()
    kind = game_kind(task.game)
    play_games = _play_compiled if task.engine == "compiled" else _play_reference
    played = play_games(task, report, every)
    loaded = tuple(sorted(loaded_code(since=before).items()))
    t3 = time.perf_counter()
    store = open_store(task.run_dir)
    parts = []
    for name in kind.tables:
        if name not in played.tables:
            continue  # a table the run does not keep (its manifest says so)
        table = with_run_id(played.tables[name], task.run_id)
        try:
            parts.append(write_recorded(table, store, name, task.shard, task.shard))
        except OSError as exc:  # a full or read-only disk: one line, not a worker traceback
            where = exc.filename or store.show(f"{name}/{part_name(task.shard)}")
            raise InputError(f"{where}: cannot write a part file ({exc.strerror})") from None
    t4 = time.perf_counter()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    moves = played.tables.get("moves")
    return ShardSummary(
        task.shard,
        task.n_games,
        moves.num_rows if moves is not None else 0,
        played.truncated,
        played.violations,
        played.play_seconds,
        played.log_seconds,
        t4 - t3,
        rss,
        tuple(parts),
        loaded,
        played.check_seconds,
    )


@dataclass(frozen=True)
class _Played:
    """A shard's games, played and checked: its tables and what the summary says of them."""

    tables: Mapping[str, pa.Table]
    truncated: int
    violations: int
    play_seconds: float
    log_seconds: float
    check_seconds: float


def _play_reference(task: ShardTask, report: GameReport | None, every: float) -> _Played:
    """The shard's games on the reference engine, one at a time, with their tables."""
    boards = dict(task.boards)
    kind = game_kind(task.game)
    builder = kind.builder(task.game, list(task.labels))
    schedule = _schedule(task)
    check = ShardCheck(kind, task.shard, task.first_game, task.n_games, task.root_seed)
    truncated = 0
    violations = 0
    play = 0.0
    log = 0.0
    clock = time.perf_counter
    started = clock()
    next_report = every
    # A SIGALRM that no decision time limit set (a strategy sending one to its own process)
    # is ignored while the shard plays, instead of ending the process. Isolated seats'
    # processes end with the shard.
    with stray_alarms_ignored(), isolated_shard():
        for game_id in range(task.first_game, task.first_game + task.n_games):
            t0 = clock()
            plan = schedule.plan(game_id)
            game = play_planned(plan, task.rules, task.factories, boards, task.guard)
            result = game.result
            assert result is not None
            t1 = clock()
            truncated += result.truncated
            violations += len(game.violations)
            check.saw(plan, game)
            builder.add(plan, game)
            play += t1 - t0
            log += clock() - t1
            # Timing only decides when progress is reported, never what a game does.
            finished = game_id - task.first_game + 1
            if report is not None and t1 - started >= next_report and finished < task.n_games:
                report(task.shard, finished, t1 - started)  # the last comes with the summary
                next_report = t1 - started + every
        t2 = clock()
        tables = builder.build()
        t_built = clock()
        # Before anything is written: a shard whose tables are not its games is never a part.
        check.check(
            tables, lambda p: play_planned(p, task.rules, task.factories, boards, task.guard)
        )
    return _Played(tables, truncated, violations, play, log + (t_built - t2), clock() - t_built)


#: Games a compiled engine plays per call within a shard: calls long enough that their
#: overhead vanishes, short enough that progress is heard from a long shard.
COMPILED_BATCH = 5000


def _play_compiled(task: ShardTask, report: GameReport | None, every: float) -> _Played:
    """The shard's games on the game's compiled engine, a batch per call; its sample played
    by the reference engine too and compared row for row before anything is written."""
    from sim.runner.engine_choice import compiled_engine

    kind = game_kind(task.game)
    engine = compiled_engine(task.game)
    assert engine is not None
    schedule = _schedule(task)
    check = ShardCheck(
        kind, task.shard, task.first_game, task.n_games, task.root_seed, engine.tables
    )
    clock = time.perf_counter
    started = clock()
    next_report = every
    pieces: list[Mapping[str, pa.Table]] = []
    end = task.first_game + task.n_games
    for first in range(task.first_game, end, COMPILED_BATCH):
        batch = schedule.plan_batch(first, min(COMPILED_BATCH, end - first))
        check.saw_players(batch.n_players)
        pieces.append(engine.play(task.game, batch, task.rules, task.compiled_seats, task.labels))
        now = clock() - started
        finished = first + len(batch) - task.first_game
        if report is not None and now >= next_report and finished < task.n_games:
            report(task.shard, finished, now)
            next_report = now + every
    t1 = clock()
    tables = {name: pa.concat_tables([p[name] for p in pieces]) for name in engine.tables}
    t2 = clock()
    reference = kind.builder(task.game, list(task.labels))
    for plan in [schedule.plan(g) for g in sorted(check.sampled)]:
        game = play_planned(plan, task.rules, task.factories, dict(task.boards), task.guard)
        reference.add(plan, game)
    check.check_against(tables, reference.build())
    games = tables["games"]
    truncated = int(pc.sum(games.column("truncated")).as_py() or 0)
    return _Played(tables, truncated, 0, t1 - started, t2 - t1, clock() - t2)


def _schedule(task: ShardTask) -> Schedule:
    return Schedule(task.root_seed, len(task.labels), task.seating, task.islands, task.table_sizes)
