"""The notebook API: what the ``tourney`` command line does, as functions that return data.

- :func:`open_run` opens a run (a directory or ``s3://BUCKET/PREFIX``, checked as ``tourney
  verify`` does) and gives its manifest and its tables as Polars lazy frames and as DuckDB
  relations;
- :func:`simulate` runs a tournament and returns the opened run with the win table and the
  warnings ``tourney simulate`` prints;
- :func:`compare` runs a paired comparison and returns what ``tourney compare --json``
  prints (the verdict in words, the estimate and its interval, the hypotheses, the field);
- :func:`play` plays one game and :func:`replay` replays a game of a run (checked against its
  logged moves); both return a :class:`GameRecord` (the rows ``tourney play --json`` prints);
- :func:`report` writes a report and returns where it went.

Each run is unaffected by the runs before it in the same process: a plug-in's monkeypatch of
a built-in player or of an engine would otherwise outlive its run, and a later run of built-in
players would play other games under the same names. So :func:`simulate`, :func:`compare`,
:func:`play` and :func:`replay` play their games in a fresh Python process
(:mod:`tourney.worker`: 0.4 to 1.2 s more per call); with ``fresh_process=False`` they play in
this one, after checking that the built-in code (every function, class and module global of
``sim`` and ``strategies``, :mod:`tourney.code_check`) is still what this module found when it
was imported, and refuse with :class:`sim.errors.RunError` naming what changed otherwise.

Every bad argument raises :class:`sim.errors.InputError` with the line the command line would
print. Example (``docs/notebook.md`` runs it in the test suite)::

    from tourney import api

    run = api.simulate(players="hunter,cautious", games=200, backend="serial", out="r")
    run.frame("seats").group_by("strategy").agg(pl.col("win_share").mean()).collect()
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from pipelines.metrics.source import RunInfo, connect
from pipelines.metrics.source import open_run as _open_run
from pipelines.report.common import ReportOutput
from sim.errors import InputError, RunError
from tourney import calls
from tourney.calls import GameRecord
from tourney.code_check import Baseline

__all__ = [
    "GameRecord",
    "Run",
    "Simulation",
    "compare",
    "open_run",
    "play",
    "replay",
    "report",
    "simulate",
]


@dataclass
class Run:
    """An opened run: its manifest, and each table as a Polars lazy frame and a DuckDB
    relation (every game, finished or not; see ``games.end_reason``)."""

    #: The local directory the tables are read from: the run directory, or the checked local
    #: copy of a run in an object store.
    path: Path
    manifest: dict[str, Any]
    info: RunInfo
    con: duckdb.DuckDBPyConnection = field(repr=False)

    @property
    def where(self) -> str:
        """Where the run is, as it was named (a path, or an ``s3://`` URI)."""
        return self.info.where

    @property
    def tables(self) -> tuple[str, ...]:
        """The run's table names (``games``, ``seats``, ``moves``, …)."""
        return self.info.tables

    def files(self, table: str) -> list[str]:
        """The run's recorded Parquet part files of ``table``."""
        if table not in self.info.parts:
            raise KeyError(f"{table!r} is not a table of this run ({', '.join(self.tables)})")
        return [str(p.path(self.path)) for p in self.info.parts[table]]

    def frame(self, table: str) -> pl.LazyFrame:
        """``table`` as a Polars lazy frame over the run's part files (paths read as they
        are, never as patterns)."""
        return pl.scan_parquet(self.files(table), glob=False)

    @property
    def frames(self) -> dict[str, pl.LazyFrame]:
        """Every table as a lazy frame."""
        return {t: self.frame(t) for t in self.tables}

    def relation(self, table: str) -> duckdb.DuckDBPyRelation:
        """``table`` as a DuckDB relation (of this run's connection)."""
        if table not in self.tables:
            raise KeyError(f"{table!r} is not a table of this run ({', '.join(self.tables)})")
        name = f"{table}_all" if table in ("games", "seats") else table
        return self.con.table(name)

    @property
    def relations(self) -> dict[str, duckdb.DuckDBPyRelation]:
        """Every table as a DuckDB relation."""
        return {t: self.relation(t) for t in self.tables}

    def sql(self, query: str) -> duckdb.DuckDBPyRelation:
        """A query over the run's tables (``games``/``seats`` hold finished games only; the
        views ``games_all``/``seats_all`` hold every game)."""
        return self.con.sql(query)


#: The built-in code as this module found it, compared before each in-process run.
_BUILT_IN = Baseline()


def open_run(path: str | Path) -> Run:
    """Open and check the run at ``path`` (a directory, or ``s3://BUCKET/PREFIX`` with the
    store's settings in the environment, read through a checked local copy)."""
    return _run(_open_run(path))


def _run(info: RunInfo) -> Run:
    return Run(info.path, info.manifest, info, connect([info], include_unfinished=False))


@dataclass
class Simulation:
    """What ``tourney simulate`` reports: the run, games played now, the win table (per
    player count, best first) and the warnings."""

    run: Run
    games_played: int
    seconds: float
    win_table: list[dict[str, Any]]
    warnings: list[str]


def _in_fresh_process(call: str, *args: Any) -> Any:
    """``tourney.calls.<call>(*args)`` in a new Python process (:mod:`tourney.worker`): its
    value, or the exception it raised (with the worker's traceback as a note)."""
    with tempfile.TemporaryDirectory(prefix="tourney-api-") as tmp:
        request, result = Path(tmp) / "request.pickle", Path(tmp) / "result.pickle"
        request.write_bytes(pickle.dumps({"call": call, "args": args, "sys_path": sys.path}))
        worker = subprocess.Popen(
            [sys.executable, "-m", "tourney.worker", str(request), str(result)],
            stdin=subprocess.DEVNULL,
        )
        try:
            code = worker.wait()
        except BaseException:  # an interrupted notebook cell stops its run too
            worker.terminate()
            worker.wait()
            raise
        if not result.exists():
            raise RunError(
                f"api.{call}: its worker process ended with exit code {code} before it "
                "answered (a plug-in that ends the process, or no memory left)"
            )
        kind, value, trace = pickle.loads(result.read_bytes())
    if kind == "error":
        if trace and not isinstance(value, InputError | RunError):
            value.add_note(f"in the worker process:\n{trace}")
        raise value
    return value


def _run_call(call: str, fresh_process: bool, *args: Any) -> Any:
    """Run ``call`` in a fresh process, or here once the built-in code is checked to be
    the code imported with this module."""
    if fresh_process:
        return _in_fresh_process(call, *args)
    changed = _BUILT_IN.changes()
    if changed:
        shown = ", ".join(changed[:3]) + (
            f" and {len(changed) - 3} more" if len(changed) > 3 else ""
        )
        raise RunError(
            f"api.{call}: built-in code changed since tourney.api was imported ({shown}): a "
            "plug-in or the notebook replaced it, so these games would not be the built-in "
            "players' games; restart Python, or run with fresh_process=True (the default)"
        )
    return getattr(calls, call)(*args)


def simulate(
    spec: str | Path | None = None, *, fresh_process: bool = True, **options: Any
) -> Simulation:
    """Run a tournament like ``tourney simulate [SPEC] --option value``: ``options`` are the
    spec keys (``game``, ``players`` or ``pool`` and ``table_sizes``, ``games`` (per table
    size for a pool), ``seed``, ``seating``, ``islands``, ``rules``, ``shard_size``,
    ``backend``, ``workers``, ``address``, ``out``, ``shared_out``, ``ablate``). The same
    spec with more games grows an existing run. The games are played in a fresh process
    unless ``fresh_process=False`` (see :func:`_run_call`)."""
    from pipelines.report.win_table import warning_lines, win_table

    played: calls.Played = _run_call(
        "simulate", fresh_process, str(spec) if spec is not None else None, options
    )
    info = _open_run(played.where)  # checked once, read thrice (a store's run: one copy)
    return Simulation(
        run=_run(info),
        games_played=played.games_played,
        seconds=played.seconds,
        win_table=win_table(info),
        warnings=warning_lines(info),
    )


def compare(*, fresh_process: bool = True, **options: Any) -> dict[str, Any]:
    """A paired comparison like ``tourney compare --json`` (the options by their names:
    ``b_rules``, ``ablate``, ``a_strategy``, ``b_strategy``, ``players``, ``metric``,
    ``bounds``, ``two_sided``, ``delta``, ``max_games``, ``seed``, ``islands``, …)."""
    result: dict[str, Any] = _run_call("compare", fresh_process, options)
    return result


def play(
    seed: int = 0,
    players: str | None = None,
    island: str = "aBc-2",
    rules: str | None = None,
    game: str = "tobago",
    ablate: str | None = None,
    *,
    fresh_process: bool = True,
) -> GameRecord:
    """Play one game like ``tourney play``."""
    record: GameRecord = _run_call(
        "play", fresh_process, seed, players, island, rules, game, ablate
    )
    return record


def replay(run: str | Path | Run, game_id: int, *, fresh_process: bool = True) -> GameRecord:
    """Game ``game_id`` of a run played again and checked against its logged moves."""
    where = run.where if isinstance(run, Run) else str(run)
    record: GameRecord = _run_call("replay", fresh_process, where, game_id)
    return record


def report(
    *runs: str | Path | Run,
    out: str | Path | None = None,
    formats: tuple[str, ...] = ("html", "md", "json"),
    include_unfinished: bool = False,
    allow_mixed_code: bool = False,
    choices: int = 40,
) -> ReportOutput:
    """Write the report of ``runs`` like ``tourney report`` (``choices``: its ``--choices``)."""
    from pipelines.report.assemble import build_report

    paths = [r.where if isinstance(r, Run) else r for r in runs]
    target = Path(out) if out is not None else None
    return build_report(paths, target, set(formats), include_unfinished, allow_mixed_code, choices)
