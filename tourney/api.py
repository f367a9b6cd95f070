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

Every bad argument raises :class:`sim.errors.InputError` with the line the command line would
print. Example (``docs/notebook.md`` runs it in the test suite)::

    from tourney import api

    run = api.simulate(players="hunter,cautious", games=200, backend="serial", out="r")
    run.frame("seats").group_by("strategy").agg(pl.col("win_share").mean()).collect()
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from pipelines.metrics.source import RunInfo, connect
from pipelines.metrics.source import open_run as _open_run
from pipelines.report_common import ReportOutput

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


def simulate(spec: str | Path | None = None, **options: Any) -> Simulation:
    """Run a tournament like ``tourney simulate [SPEC] --option value``: ``options`` are the
    spec keys (``game``, ``players`` or ``pool`` and ``table_sizes``, ``games`` (per table
    size for a pool), ``seed``, ``seating``, ``islands``, ``rules``, ``shard_size``,
    ``backend``, ``workers``, ``address``, ``out``, ``shared_out``, ``ablate``). The same
    spec with more games grows an existing run."""
    from pipelines.simulate import read_spec, resolve
    from pipelines.simulate import simulate as run_config
    from pipelines.win_table import warning_lines, win_table

    file_values = read_spec(Path(spec)) if spec is not None else {}
    flags = {k: (str(v) if k == "out" and v is not None else v) for k, v in options.items()}
    config = resolve(file_values, flags, str(spec) if spec is not None else "api")
    done = run_config(config)
    info = _open_run(config.run_dir)  # checked once, read thrice (a store's run: one copy)
    return Simulation(
        run=_run(info),
        games_played=done.games_played,
        seconds=done.seconds,
        win_table=win_table(info),
        warnings=warning_lines(info),
    )


def compare(**options: Any) -> dict[str, Any]:
    """A paired comparison like ``tourney compare --json`` (the options by their names:
    ``b_rules``, ``ablate``, ``a_strategy``, ``b_strategy``, ``players``, ``metric``,
    ``bounds``, ``two_sided``, ``delta``, ``max_games``, ``seed``, ``islands``, …)."""
    from pipelines.compare import compare as run_compare
    from pipelines.compare_setup import compare_spec

    return run_compare(compare_spec(**options))


@dataclass(frozen=True)
class GameRecord:
    """One game: its log rows (turn, seat, event, a, b, c) and its result, as ``tourney play
    --json`` prints them, and the same game as text."""

    rows: list[dict[str, Any]]
    result: Mapping[str, Any]
    text: list[str]


def _record(played: Any) -> GameRecord:
    from pipelines.play import game_json_rows, game_text

    rows = game_json_rows(played)
    return GameRecord(rows[:-1], rows[-1], game_text(played))


def play(
    seed: int = 0,
    players: str | None = None,
    island: str = "aBc-2",
    rules: str | None = None,
    game: str = "tobago",
    ablate: str | None = None,
) -> GameRecord:
    """Play one game like ``tourney play``."""
    from pipelines.play import parse_players, play_game

    return _record(play_game(seed, parse_players(players, game), island, rules, game, ablate))


def replay(run: str | Path | Run, game_id: int) -> GameRecord:
    """Game ``game_id`` of a run played again and checked against its logged moves."""
    from pipelines.run_replay import replay as replay_game

    played, _ = replay_game(run.where if isinstance(run, Run) else run, game_id)
    return _record(played)


def report(
    *runs: str | Path | Run,
    out: str | Path | None = None,
    formats: tuple[str, ...] = ("html", "md", "json"),
    include_unfinished: bool = False,
    allow_mixed_code: bool = False,
) -> ReportOutput:
    """Write the report of ``runs`` like ``tourney report``."""
    from pipelines.report import build_report

    paths = [r.where if isinstance(r, Run) else r for r in runs]
    target = Path(out) if out is not None else None
    return build_report(paths, target, set(formats), include_unfinished, allow_mixed_code)
