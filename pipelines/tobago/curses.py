"""Curse impact, descriptively: how often curses strike and where in the offer, who is hit
and what it costs, how players hit fare against players not hit, and what an amulet is worth
when a curse strikes.

These describe the games that were played; what curses *do* (the causal answer) comes from
a run and its twin without curses on the same seeds (:mod:`pipelines.metrics.paired`).
Players who were hit differ from players who were not in more than the hit (they raised more
treasures, for one), so ``hit_vs_not_hit`` is no estimate of a curse's effect.
"""

from __future__ import annotations

from typing import Any

import duckdb
import pyarrow as pa

from pipelines.metrics.clustered import clustered, clustered_ratios, rows_table
from pipelines.stats.core import wilson


def frequency(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per player count: games, distributions, curses revealed and their rate per
    distribution, and per game the curse hits and coins lost (each with a 95% interval)."""
    rate = clustered(
        con,
        """SELECT g.run, g.block, g.n_players, t.curse_revealed::DOUBLE AS curse
           FROM treasures t JOIN games g USING (run, game_id)""",
        ["n_players"],
        "curse",
        share=True,
    )
    per_game = """
        SELECT g.run, g.block, g.n_players, coalesce(sum(s.curse_hits), 0)::DOUBLE AS hits,
               coalesce(sum(s.coins_lost), 0)::DOUBLE AS lost
        FROM games g JOIN seats s USING (run, game_id) GROUP BY g.run, g.game_id, g.block,
             g.n_players"""
    hits = {r["n_players"]: r for r in clustered(con, per_game, ["n_players"], "hits")}
    lost = {r["n_players"]: r for r in clustered(con, per_game, ["n_players"], "lost")}
    cols: dict[str, list[object]] = {
        k: []
        for k in (
            "n_players", "games", "distributions", "curses", "rate", "low", "high",
            "hits_per_game", "hits_low", "hits_high",
            "coins_lost_per_game", "lost_low", "lost_high",
        )
    }  # fmt: skip
    for r in rate:
        n = r["n_players"]
        h, c = hits[n], lost[n]
        for key, value in (
            ("n_players", n), ("games", h["n"]), ("distributions", r["n"]),
            ("curses", int(r["total"])), ("rate", r["mean"]), ("low", r["low"]),
            ("high", r["high"]), ("hits_per_game", h["mean"]), ("hits_low", h["low"]),
            ("hits_high", h["high"]), ("coins_lost_per_game", c["mean"]),
            ("lost_low", c["low"]), ("lost_high", c["high"]),
        ):  # fmt: skip
            cols[key].append(value)
    return pa.table(cols)


def _hits_and_losses(r: dict[str, Any]) -> dict[str, object]:
    """Curse hits and coins lost per game with their intervals, from a
    :func:`clustered_ratios` row of :data:`_HITS_AND_LOSSES`."""
    return {
        "hits_per_game": r["hits"],
        "hits_low": r["hits_low"],
        "hits_high": r["hits_high"],
        "coins_lost_per_game": r["lost"],
        "lost_low": r["lost_low"],
        "lost_high": r["lost_high"],
    }


#: Curse hits and coins lost per row of a source with ``hits`` and ``lost`` columns.
_HITS_AND_LOSSES = {"hits": ("hits", "1"), "lost": ("lost", "1")}


#: A game's curse hits and coins lost to curses (every seat), with its island and block.
_PER_GAME = """
    SELECT g.island::VARCHAR AS island, g.n_players, g.run, g.block,
           coalesce(sum(s.curse_hits), 0)::DOUBLE AS hits,
           coalesce(sum(s.coins_lost), 0)::DOUBLE AS lost
    FROM games g JOIN seats s USING (run, game_id)
    GROUP BY g.run, g.game_id, g.block, g.island, g.n_players"""


def by_island(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per island and player count: games, distributions, curses and the curse rate per
    distribution, and per game the curse hits and coins lost to curses, each with its 95%
    interval (seed blocks as the unit)."""
    groups = ["island", "n_players"]
    rate = {
        (r["island"], r["n_players"]): r
        for r in clustered(
            con,
            """SELECT g.island::VARCHAR AS island, g.n_players, g.run, g.block,
                      t.curse_revealed::DOUBLE AS curse
               FROM treasures t JOIN games g USING (run, game_id)""",
            groups,
            "curse",
            share=True,
        )
    }
    rows = []
    for h in clustered_ratios(con, f"({_PER_GAME}) per_game", groups, _HITS_AND_LOSSES):
        r = rate.get((h["island"], h["n_players"]))
        rows.append(
            {
                "island": h["island"],
                "n_players": h["n_players"],
                "games": int(h["hits_n"]),
                "distributions": r["n"] if r else 0,
                "curses": int(r["total"]) if r else 0,
                "curse_rate": r["mean"] if r else None,
                "rate_low": r["low"] if r else None,
                "rate_high": r["high"] if r else None,
                **_hits_and_losses(h),
            }
        )
    f, i = pa.float64(), pa.int64()
    return rows_table(
        rows,
        {
            "island": pa.string(), "n_players": pa.int8(), "games": i, "distributions": i,
            "curses": i, "curse_rate": f, "rate_low": f, "rate_high": f, "hits_per_game": f,
            "hits_low": f, "hits_high": f, "coins_lost_per_game": f, "lost_low": f,
            "lost_high": f,
        },
    )  # fmt: skip


def positions(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """How many curses turned up as the 1st, 2nd, ... card of a distribution (from 0)."""
    return con.sql(
        """SELECT curse_position::INT AS position, count(*)::BIGINT AS curses
           FROM treasures WHERE curse_revealed GROUP BY 1 ORDER BY 1"""
    ).to_arrow_table()


def victims(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per player count and strategy: seats, curse hits and coins lost, in total and per
    game with their 95% intervals (seed blocks as the unit)."""
    source = """(SELECT g.n_players, s.strategy::VARCHAR AS strategy, g.run, g.block,
                        s.curse_hits::DOUBLE AS hits, s.coins_lost::DOUBLE AS lost
                 FROM seats s JOIN games g USING (run, game_id)) per_seat"""
    rows = [
        {
            "n_players": r["n_players"],
            "strategy": r["strategy"],
            "seats": int(r["hits_n"]),
            "hits": int(r["hits_sum"]),
            "coins_lost": int(r["lost_sum"]),
            **_hits_and_losses(r),
        }
        for r in clustered_ratios(con, source, ["n_players", "strategy"], _HITS_AND_LOSSES)
    ]
    f, i = pa.float64(), pa.int64()
    return rows_table(
        rows,
        {
            "n_players": pa.int8(), "strategy": pa.string(), "seats": i, "hits": i,
            "coins_lost": i, "hits_per_game": f, "hits_low": f, "hits_high": f,
            "coins_lost_per_game": f, "lost_low": f, "lost_high": f,
        },
    )  # fmt: skip


def hit_vs_not_hit(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per player count, strategy and whether the player was hit by a curse in the game:
    seats, win share with Wilson interval, mean score (descriptive, not an effect)."""
    table = con.sql(
        """SELECT g.n_players, s.strategy::VARCHAR AS strategy, s.curse_hits > 0 AS hit,
                  count(*)::BIGINT AS seats, sum(s.win_share)::DOUBLE AS wins,
                  avg(s.win_share)::DOUBLE AS win_share, avg(s.score)::DOUBLE AS mean_score
           FROM seats s JOIN games g USING (run, game_id) GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"""
    ).to_arrow_table()
    bounds = [wilson(r["wins"], r["seats"]) for r in table.to_pylist()]
    table = table.append_column("low", pa.array([b[0] for b in bounds], pa.float64()))
    return table.append_column("high", pa.array([b[1] for b in bounds], pa.float64()))


def amulet_value(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Curse hits by how they were paid (amulet, card, nothing) with the mean coins lost and
    its 95% interval (seed blocks as the unit); the mean coins lost by those who paid with a
    card is what holding an amulet was worth."""
    rows = clustered(
        con,
        """SELECT CASE m.a WHEN 0 THEN 'amulet' WHEN 1 THEN 'card' ELSE 'nothing' END
                      AS paid_with, g.run, g.block,
                  (CASE WHEN m.a = 1 THEN m.b ELSE 0 END)::DOUBLE AS coins
           FROM moves m JOIN games g USING (run, game_id) WHERE m.event = 'curse_hit'""",
        ["paid_with"],
        "coins",
    )
    f = pa.float64()
    return rows_table(
        [
            {
                "paid_with": r["paid_with"],
                "hits": r["n"],
                "mean_coins_lost": r["mean"],
                "low": r["low"],
                "high": r["high"],
            }
            for r in rows
        ],
        {"paid_with": pa.string(), "hits": pa.int64(), "mean_coins_lost": f, "low": f, "high": f},
    )


#: How many games of a run and its twin the search for a curse that changed the winner looks
#: at: the first ones by game id. The part files are sorted by game id, so DuckDB reads only
#: their first row groups and the search costs the same for a run of a million games.
WINNER_SEARCH_GAMES = 20_000


def winner_changed(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Games where a curse changed the winner, from a run with curses (run 0) and its twin
    without them (run 1) on the same seeds: the sole winner of the deal without curses was
    hit by a curse in the game with them and did not win it. Per player count the one whose
    victim lost the most coins (then the first game), among the first
    :data:`WINNER_SEARCH_GAMES` games; finished games only. Columns as
    ``win_rate.notable_games`` (``kind`` is ``curse_winner``, ``run`` is 0) and ``seat``, the
    victim's (0-based; the words number seats from 1)."""
    rows = con.execute(
        """
        WITH ga AS (
            SELECT game_id, seed, n_players FROM games_all
            WHERE run = 0 AND game_id < $limit AND end_reason::VARCHAR = 'deck_exhausted'),
        gb AS (
            SELECT game_id, seed FROM games_all
            WHERE run = 1 AND game_id < $limit AND end_reason::VARCHAR = 'deck_exhausted'),
        sa AS (
            SELECT game_id, seat, strategy::VARCHAR AS strategy, win_share, curse_hits,
                   coins_lost
            FROM seats_all WHERE run = 0 AND game_id < $limit),
        wb AS (
            SELECT game_id, seat FROM seats_all
            WHERE run = 1 AND game_id < $limit AND win_share = 1.0)
        SELECT 'curse_winner' AS kind, ga.n_players, 0 AS run, ga.game_id,
               v.strategy || ' (seat ' || (v.seat + 1)::VARCHAR || ') wins this deal '
               || 'without curses; with them a curse hit it' ||
               CASE WHEN v.coins_lost > 0 THEN ' (' || v.coins_lost::VARCHAR || ' coins lost)'
                    ELSE '' END ||
               ' and ' || coalesce(w.strategy || ' (seat ' || (w.seat + 1)::VARCHAR || ') won',
                                   'the win was shared') AS detail, v.seat
        FROM ga
        JOIN gb USING (game_id, seed)
        JOIN wb USING (game_id)
        JOIN sa v ON v.game_id = ga.game_id AND v.seat = wb.seat
        LEFT JOIN sa w ON w.game_id = ga.game_id AND w.win_share = 1.0
        WHERE v.curse_hits > 0 AND v.win_share < 1.0
        QUALIFY row_number() OVER (
            PARTITION BY ga.n_players ORDER BY v.coins_lost DESC, ga.game_id) = 1
        ORDER BY ga.n_players
        """,
        {"limit": WINNER_SEARCH_GAMES},
    ).fetchall()
    return pa.table(
        {
            "kind": pa.array([r[0] for r in rows], pa.string()),
            "n_players": pa.array([r[1] for r in rows], pa.int8()),
            "run": pa.array([r[2] for r in rows], pa.int32()),
            "game_id": pa.array([r[3] for r in rows], pa.int64()),
            "detail": pa.array([r[4] for r in rows], pa.string()),
            "seat": pa.array([r[5] for r in rows], pa.int8()),
        }
    )
