"""Paired comparisons of two seed-matched runs: B - A game by game on the same seeds.

Given a connection over exactly two runs (run 0 is A, run 1 is B) that played the same
seeds, islands and seatings, every game of A is matched with the game of B with the same id
and seed, and every seat with the same seat. The differences B - A are then averaged per
player slot (the strategy in that place of the players list; in a strategy swap, the slot
that changed holds A's strategy in A and B's in B), with 95% intervals that treat a seed
block as the independent unit: Student's t on blocks - 1 degrees of freedom (the normal 1.96
covers about 92% at ten blocks), and no interval (null bounds) below
:data:`~pipelines.stats.core.MIN_INTERVAL_BLOCKS` blocks. Only games that reached their natural end
in both runs are paired (unless the report includes unfinished games); the table says how
many games were used, and :func:`left_out_unfinished` how many seed-matched games were left
out because one of the two did not end naturally: a change that makes games hit the turn cap
would otherwise look like no change at all on the games that still finish.

Rows (``metric``, ``group``): ``win_share`` and ``score`` per player slot, ``first_seat``
(the first seat's win share, i.e. the change in the first-seat advantage) and ``turns``
(game length) for the whole table.
"""

from __future__ import annotations

from typing import Any

import duckdb
import pyarrow as pa

from pipelines.metrics.clustered import clustered

_PAIRED_SEATS = """
    SELECT g0.run, g0.block, s0.player, s0.seat,
           s0.strategy::VARCHAR AS strategy_a, s1.strategy::VARCHAR AS strategy_b,
           s1.win_share - s0.win_share AS win_share, (s1.score - s0.score)::DOUBLE AS score
    FROM games g0
    JOIN games g1 ON g1.run = 1 AND g1.game_id = g0.game_id AND g1.seed = g0.seed
    JOIN seats s0 ON s0.run = 0 AND s0.game_id = g0.game_id
    JOIN seats s1 ON s1.run = 1 AND s1.game_id = g1.game_id AND s1.seat = s0.seat
    WHERE g0.run = 0
"""
_PAIRED_GAMES = """
    SELECT g0.run, g0.block, 'table' AS grp, (g1.turns - g0.turns)::DOUBLE AS turns
    FROM games g0
    JOIN games g1 ON g1.run = 1 AND g1.game_id = g0.game_id AND g1.seed = g0.seed
    WHERE g0.run = 0
"""
TYPES = {
    "metric": pa.string(),
    "group": pa.string(),
    "player": pa.int8(),
    "unit": pa.string(),
    "estimate": pa.float64(),
    "low": pa.float64(),
    "high": pa.float64(),
    "se": pa.float64(),
    "pairs": pa.int64(),
    "blocks": pa.int64(),
}


def _label(r: dict[str, Any]) -> str:
    a, b = str(r["strategy_a"]), str(r["strategy_b"])
    return a if a == b else f"{a} -> {b}"


def _row(metric: str, group: str, player: int, unit: str, r: dict[str, Any]) -> dict[str, Any]:
    return {
        "metric": metric,
        "group": group,
        "player": player,
        "unit": unit,
        "estimate": r["mean"],
        "low": r["low"],
        "high": r["high"],
        "se": r["se"],
        "pairs": r["n"],
        "blocks": r["clusters"],
    }


def differences(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """The paired differences B - A (see the module docstring), one row per metric and
    group, with their 95% intervals, the games paired and the seed blocks they came from."""
    rows: list[dict[str, Any]] = []
    groups = ["player", "strategy_a", "strategy_b"]
    for metric, unit in (("win_share", "share"), ("score", "score")):
        for r in clustered(con, _PAIRED_SEATS, groups, metric, student=True):
            rows.append(_row(metric, _label(r), r["player"], unit, r))
    first = f"SELECT *, 'table' AS grp FROM ({_PAIRED_SEATS}) WHERE seat = 0"
    for metric, source, value, unit in (
        ("first_seat", first, "win_share", "share"),
        ("turns", _PAIRED_GAMES, "turns", "turns"),
    ):
        for r in clustered(con, source, ["grp"], value, student=True):
            rows.append(_row(metric, "table", -1, unit, r))
    return pa.table({k: pa.array([r[k] for r in rows], t) for k, t in TYPES.items()})


def unpaired_games(con: duckdb.DuckDBPyConnection) -> tuple[int, int]:
    """Games of A and of B (finished ones) that found no partner in the other run."""
    a, b = con.sql(
        """SELECT
             (SELECT count(*) FROM games g0 WHERE g0.run = 0 AND NOT EXISTS (
                 SELECT 1 FROM games g1 WHERE g1.run = 1 AND g1.game_id = g0.game_id
                 AND g1.seed = g0.seed)),
             (SELECT count(*) FROM games g1 WHERE g1.run = 1 AND NOT EXISTS (
                 SELECT 1 FROM games g0 WHERE g0.run = 0 AND g0.game_id = g1.game_id
                 AND g0.seed = g1.seed))"""
    ).fetchall()[0]
    return int(a), int(b)


def left_out_unfinished(con: duckdb.DuckDBPyConnection) -> tuple[int, int, int]:
    """Seed-matched games left out of the pairing because they did not reach their natural
    end (the turn cap, a deadlock) in A only, in B only, and in both."""
    a, b, both = con.sql(
        """WITH m AS (
             SELECT EXISTS (SELECT 1 FROM unfinished u WHERE u.run = 0
                            AND u.game_id = g0.game_id) AS u0,
                    EXISTS (SELECT 1 FROM unfinished u WHERE u.run = 1
                            AND u.game_id = g1.game_id) AS u1
             FROM games_all g0
             JOIN games_all g1 ON g1.run = 1 AND g1.game_id = g0.game_id AND g1.seed = g0.seed
             WHERE g0.run = 0)
           SELECT count(*) FILTER (WHERE u0 AND NOT u1), count(*) FILTER (WHERE u1 AND NOT u0),
                  count(*) FILTER (WHERE u0 AND u1)
           FROM m"""
    ).fetchall()[0]
    return int(a), int(b), int(both)
