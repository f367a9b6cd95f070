"""Curse impact: how often curses strike and where in the offer, who is hit and what it
costs, how players hit fare against players not hit, what an amulet is worth when a curse
strikes, and the paired effect of curses between two runs of the same seeds.
"""

from __future__ import annotations

import duckdb
import pyarrow as pa

from pipelines.stats import Z95, wilson


def frequency(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """One row: distributions, curses revealed, their rate and Wilson interval."""
    n, k = con.sql(
        "SELECT count(*), coalesce(sum(curse_revealed::INT), 0) FROM treasures"
    ).fetchall()[0]
    low, high = wilson(k, n)
    return pa.table(
        {
            "distributions": [int(n)],
            "curses": [int(k)],
            "rate": [k / n if n else 0.0],
            "low": [low],
            "high": [high],
        }
    )


def by_island(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per island and player count: distributions, curses, curse rate, and per game the
    curse hits and coins lost to curses."""
    return con.sql(
        """
        WITH d AS (
            SELECT run, game_id, count(*) AS distributions,
                   sum(curse_revealed::INT) AS curses
            FROM treasures GROUP BY 1, 2
        ), s AS (
            SELECT run, game_id, sum(curse_hits) AS hits, sum(coins_lost) AS lost
            FROM seats GROUP BY 1, 2
        )
        SELECT g.island::VARCHAR AS island, g.n_players, count(*)::BIGINT AS games,
               coalesce(sum(d.distributions), 0)::BIGINT AS distributions,
               coalesce(sum(d.curses), 0)::BIGINT AS curses,
               (coalesce(sum(d.curses), 0) / greatest(coalesce(sum(d.distributions), 0), 1))::DOUBLE
                   AS curse_rate,
               avg(coalesce(s.hits, 0))::DOUBLE AS hits_per_game,
               avg(coalesce(s.lost, 0))::DOUBLE AS coins_lost_per_game
        FROM games g
        LEFT JOIN d USING (run, game_id)
        LEFT JOIN s USING (run, game_id)
        GROUP BY 1, 2 ORDER BY 1, 2
        """
    ).to_arrow_table()


def positions(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """How many curses turned up as the 1st, 2nd, ... card of a distribution (from 0)."""
    return con.sql(
        """SELECT curse_position::INT AS position, count(*)::BIGINT AS curses
           FROM treasures WHERE curse_revealed GROUP BY 1 ORDER BY 1"""
    ).to_arrow_table()


def victims(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per strategy: seats, curse hits and coins lost, in total and per game."""
    return con.sql(
        """SELECT strategy::VARCHAR AS strategy, count(*)::BIGINT AS seats,
                  sum(curse_hits)::BIGINT AS hits, sum(coins_lost)::BIGINT AS coins_lost,
                  avg(curse_hits)::DOUBLE AS hits_per_game,
                  avg(coins_lost)::DOUBLE AS coins_lost_per_game
           FROM seats GROUP BY 1 ORDER BY 1"""
    ).to_arrow_table()


def hit_vs_not_hit(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per strategy and whether the player was hit by a curse in the game: seats, win share
    with Wilson interval, mean score."""
    table = con.sql(
        """SELECT strategy::VARCHAR AS strategy, curse_hits > 0 AS hit,
                  count(*)::BIGINT AS seats, sum(win_share)::DOUBLE AS wins,
                  avg(win_share)::DOUBLE AS win_share, avg(score)::DOUBLE AS mean_score
           FROM seats GROUP BY 1, 2 ORDER BY 1, 2"""
    ).to_arrow_table()
    bounds = [wilson(r["wins"], r["seats"]) for r in table.to_pylist()]
    table = table.append_column("low", pa.array([b[0] for b in bounds], pa.float64()))
    return table.append_column("high", pa.array([b[1] for b in bounds], pa.float64()))


def amulet_value(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Curse hits by how they were paid (amulet, card, nothing) with the coins lost; the mean
    coins lost by those who paid with a card is what holding an amulet was worth."""
    return con.sql(
        """SELECT CASE a WHEN 0 THEN 'amulet' WHEN 1 THEN 'card' ELSE 'nothing' END AS paid_with,
                  count(*)::BIGINT AS hits,
                  avg(CASE WHEN a = 1 THEN b ELSE 0 END)::DOUBLE AS mean_coins_lost
           FROM moves WHERE event = 'curse_hit' GROUP BY 1 ORDER BY 1"""
    ).to_arrow_table()


def paired_difference(con: duckdb.DuckDBPyConnection, base: int = 0, other: int = 1) -> pa.Table:
    """Per strategy, over games played on the same seed in run ``base`` and run ``other``
    (same game id, seed and seat): mean difference other - base in win share and score, with
    95% intervals (normal approximation)."""
    table = con.sql(
        f"""
        SELECT s0.strategy::VARCHAR AS strategy, count(*)::BIGINT AS pairs,
               avg(s1.win_share - s0.win_share)::DOUBLE AS win_share_diff,
               coalesce(stddev_samp(s1.win_share - s0.win_share), 0)::DOUBLE AS sd_win,
               avg(s1.score - s0.score)::DOUBLE AS score_diff,
               coalesce(stddev_samp(s1.score - s0.score), 0)::DOUBLE AS sd_score
        FROM seats s0
        JOIN games g0 ON g0.run = s0.run AND g0.game_id = s0.game_id
        JOIN games g1 ON g1.run = {other} AND g1.game_id = g0.game_id AND g1.seed = g0.seed
        JOIN seats s1 ON s1.run = {other} AND s1.game_id = g1.game_id AND s1.seat = s0.seat
                      AND s1.strategy::VARCHAR = s0.strategy::VARCHAR
        WHERE s0.run = {base}
        GROUP BY 1 ORDER BY 1
        """
    ).to_arrow_table()
    rows = table.to_pylist()
    for name, sd in (("win_share_diff", "sd_win"), ("score_diff", "sd_score")):
        half = [Z95 * r[sd] / r["pairs"] ** 0.5 if r["pairs"] > 1 else 0.0 for r in rows]
        table = table.append_column(
            f"{name}_low", pa.array([r[name] - h for r, h in zip(rows, half, strict=True)])
        )
        table = table.append_column(
            f"{name}_high", pa.array([r[name] + h for r, h in zip(rows, half, strict=True)])
        )
    return table
