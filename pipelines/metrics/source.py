"""Opening one or more run directories for analysis, out of core.

Tables are never loaded whole: a DuckDB connection gets one view per table of the game over
the Parquet parts of every run given (Tobago: ``games``, ``seats``, ``moves``, ``treasures``;
Treasure Island: ``games``, ``seats``, ``moves``, ``turns``, ``draws``), each row tagged with
its ``run`` index, so metrics are plain SQL over views. Bad input (not a run, a missing or
unreadable part, runs of different games) is one :class:`InputError` line naming the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq

from sim.errors import InputError
from sim.outcome import UNFINISHED
from sim.runner.compaction import shard_range
from sim.runner.games import GAMES
from sim.runner.run import check_schema, read_manifest


@dataclass(frozen=True)
class RunInfo:
    """A run directory and what its manifest says."""

    path: Path
    manifest: dict[str, Any]

    @property
    def game(self) -> str:
        """The game the run played."""
        return str(self.manifest["spec"].get("game", "tobago"))

    @property
    def tables(self) -> tuple[str, ...]:
        """The run's tables."""
        return GAMES[self.game].tables

    @property
    def complete(self) -> bool:
        """Whether every shard of the run was played."""
        return self.manifest.get("status") == "complete"


def open_run(path: Path) -> RunInfo:
    """Check that ``path`` is a run directory whose part files are readable."""
    manifest = read_manifest(path) if path.is_dir() else None
    if manifest is None:
        raise InputError(f"{path}: not a run directory (no manifest.json)")
    check_schema(path, manifest)
    game = manifest["spec"].get("game", "tobago")
    if game not in GAMES:
        raise InputError(f"{path}: a run of an unknown game {game!r}")
    tables = GAMES[game].tables
    coverage: dict[str, set[int]] = {}
    for table in tables:
        parts = sorted((path / table).glob("*.parquet"))
        if not parts:
            raise InputError(f"{path / table}: no Parquet part files (the run has no games yet)")
        covered: set[int] = set()
        for part in parts:
            try:
                pq.read_metadata(part)
            except Exception as exc:
                raise InputError(f"{part}: corrupt or unreadable Parquet file ({exc})") from None
            span = shard_range(part)
            if span is not None:
                covered.update(range(span[0], span[1] + 1))
        coverage[table] = covered
    for table in tables:
        missing = sorted(coverage["games"] - coverage[table])
        if missing:
            lost = path / table / f"part-{missing[0]:06d}.parquet"
            raise InputError(
                f"{lost}: missing part file (shard {missing[0]} has games but no {table})"
            )
    return RunInfo(path, manifest)


def connect(runs: list[RunInfo], include_unfinished: bool = False) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with one view per table of the runs' game over their parts, each
    row tagged with ``run`` (the run's index in ``runs``).

    ``games`` and ``seats`` leave out games that did not reach their natural end (the turn
    cap, a deadlock: see ``sim.outcome.UNFINISHED``) unless ``include_unfinished``; those
    games are listed in the table ``unfinished`` (run, game_id, end_reason), and the views
    ``games_all`` and ``seats_all`` keep every game. The table ``seat_games`` holds the
    (finished) seats with their game's ``block``, ``n_players`` and ``island``."""
    games = {r.manifest["spec"].get("game") for r in runs}
    if len(games) > 1:
        listed = ", ".join(f"{r.path} ({r.manifest['spec'].get('game')})" for r in runs)
        raise InputError(f"runs of different games cannot be reported together: {listed}")
    con = duckdb.connect()
    for table in runs[0].tables:
        selects = [
            f"SELECT {k} AS run, * FROM read_parquet('{_sql_path(r.path / table)}/*.parquet')"
            for k, r in enumerate(runs)
        ]
        name = f"{table}_all" if table in ("games", "seats") else table
        con.execute(f"CREATE VIEW {name} AS " + " UNION ALL ".join(selects))
    reasons = ", ".join(f"'{r}'" for r in UNFINISHED)
    con.execute(
        "CREATE TEMP TABLE unfinished AS SELECT run, game_id, end_reason::VARCHAR AS end_reason "
        f"FROM games_all WHERE end_reason::VARCHAR IN ({reasons})"
        + (" AND false" if include_unfinished else "")
    )
    for table in ("games", "seats"):
        con.execute(
            f"CREATE VIEW {table} AS SELECT * FROM {table}_all "
            "ANTI JOIN unfinished USING (run, game_id)"
        )
    # Most metrics read seats with their game's block, player count and island: joined once
    # here instead of once per metric (a few seconds saved per million games).
    con.execute(
        """CREATE TEMP TABLE seat_games AS
           SELECT s.run, s.game_id, g.block, g.n_players, g.island::VARCHAR AS island, s.seat,
                  s.player, s.strategy::VARCHAR AS strategy, s.win_share,
                  s.score::DOUBLE AS score, s.rank
           FROM seats s JOIN games g USING (run, game_id)"""
    )
    return con


def _sql_path(path: Path) -> str:
    return str(path).replace("'", "''")
