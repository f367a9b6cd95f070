"""Win-rate metrics per player count: per strategy, per seat, per strategy and seat, by
opponent mix, and head to head.

Each function takes a connection from :func:`pipelines.metrics.source.connect` (games that
did not reach their natural end are already left out) and returns a tidy Arrow table. Win
share counts 1 for a sole winner and 1/k for each of k tied winners. Intervals are 95% and
treat a seed block as the independent unit (:mod:`pipelines.metrics.clustered`): Wilson
intervals at the effective sample size for shares, normal ones for means.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import duckdb
import pyarrow as pa

from pipelines.metrics.clustered import clustered, rows_table
from reports.numbers import pct

if TYPE_CHECKING:
    import polars as pl

_SEATS = "SELECT * FROM seat_games"


def _share_table(
    con: duckdb.DuckDBPyConnection,
    source: str,
    groups: dict[str, pa.DataType],
    value: str,
    names: tuple[str, str],
) -> pa.Table:
    """A share of ``value`` per group with its interval: the group columns, then
    ``names`` (what the row count and the share are called), ``low`` and ``high``."""
    rows = clustered(con, source, list(groups), value, share=True)
    count, share = names
    return rows_table(
        [{**r, count: r["n"], share: r["mean"]} for r in rows],
        {
            **groups,
            count: pa.int64(),
            share: pa.float64(),
            "low": pa.float64(),
            "high": pa.float64(),
        },
    )


def by_strategy(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per player count and strategy: seats, seed blocks, wins, win share with its interval,
    the fair share 1/n, and the mean score with its interval."""
    shares = clustered(con, _SEATS, ["n_players", "strategy"], "win_share", share=True)
    scores = clustered(con, _SEATS, ["n_players", "strategy"], "score")
    rows = []
    for w, s in zip(shares, scores, strict=True):
        rows.append(
            {
                "n_players": w["n_players"],
                "strategy": w["strategy"],
                "seats": w["n"],
                "blocks": w["clusters"],
                "wins": w["total"],
                "win_share": w["mean"],
                "low": w["low"],
                "high": w["high"],
                "fair_share": 1 / w["n_players"],
                "mean_score": s["mean"],
                "score_low": s["low"],
                "score_high": s["high"],
            }
        )
    return rows_table(
        rows,
        {
            "n_players": pa.int8(),
            "strategy": pa.string(),
            "seats": pa.int64(),
            "blocks": pa.int64(),
            "wins": pa.float64(),
            "win_share": pa.float64(),
            "low": pa.float64(),
            "high": pa.float64(),
            "fair_share": pa.float64(),
            "mean_score": pa.float64(),
            "score_low": pa.float64(),
            "score_high": pa.float64(),
        },
    )


def by_seat(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per player count and seat (0 = first): games, win share with its interval, and the
    advantage over the fair share 1/n with its interval (seat 0's is the first-seat
    advantage)."""
    rows = []
    for r in clustered(con, _SEATS, ["n_players", "seat"], "win_share", share=True):
        fair = 1 / r["n_players"]
        rows.append(
            {
                "n_players": r["n_players"],
                "seat": r["seat"],
                "games": r["n"],
                "blocks": r["clusters"],
                "win_share": r["mean"],
                "low": r["low"],
                "high": r["high"],
                "advantage": r["mean"] - fair,
                "advantage_low": r["low"] - fair,
                "advantage_high": r["high"] - fair,
            }
        )
    return rows_table(
        rows,
        {
            "n_players": pa.int8(),
            "seat": pa.int8(),
            "games": pa.int64(),
            "blocks": pa.int64(),
            "win_share": pa.float64(),
            "low": pa.float64(),
            "high": pa.float64(),
            "advantage": pa.float64(),
            "advantage_low": pa.float64(),
            "advantage_high": pa.float64(),
        },
    )


def by_strategy_seat(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per player count, strategy and seat: seats and win share with its interval."""
    groups = {"n_players": pa.int8(), "strategy": pa.string(), "seat": pa.int8()}
    return _share_table(con, _SEATS, groups, "win_share", ("seats", "win_share"))


def by_opponents(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per player count, strategy and opponent mix (the other seats' strategies, sorted,
    joined by '+'): seats and win share with its interval."""
    # Each game's lineup once, then each seat's lineup without itself: no seat-by-seat join.
    source = """
        WITH lineup AS (
            SELECT run, game_id, list(strategy ORDER BY strategy) AS names
            FROM seat_games GROUP BY 1, 2)
        SELECT s.run, s.block, s.n_players, s.strategy, s.win_share,
               array_to_string(
                   list_concat(l.names[:list_position(l.names, s.strategy) - 1],
                               l.names[list_position(l.names, s.strategy) + 1:]), '+')
                   AS opponents
        FROM seat_games s JOIN lineup l USING (run, game_id)
    """
    groups = {"n_players": pa.int8(), "strategy": pa.string(), "opponents": pa.string()}
    return _share_table(con, source, groups, "win_share", ("seats", "win_share"))


def head_to_head(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """For every ordered pair of strategies met in one game, per player count: meetings, and
    the share of them in which the first finished ahead of the second (rank strictly
    better; a tie counts 1/2), with its interval."""
    source = """
        SELECT a.run, a.block, a.n_players, a.strategy, b.strategy AS opponent,
               CASE WHEN a.rank < b.rank THEN 1.0 WHEN a.rank = b.rank THEN 0.5
                    ELSE 0.0 END AS ahead
        FROM seat_games a
        JOIN seat_games b ON a.run = b.run AND a.game_id = b.game_id AND a.seat <> b.seat
        WHERE a.strategy <> b.strategy
    """
    groups = {"n_players": pa.int8(), "strategy": pa.string(), "opponent": pa.string()}
    return _share_table(con, source, groups, "ahead", ("meetings", "ahead"))


def game_length(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per player count: games, those that ended naturally (``finished``), those the figures
    count (``reported``: the finished ones, or every game when the report includes the
    unfinished), mean turns with its interval, sd, min and max over those, and how many
    games of every other end reason the runs hold."""
    source = "SELECT run, block, n_players, turns::DOUBLE AS turns FROM games"
    means = {r["n_players"]: r for r in clustered(con, source, ["n_players"], "turns")}
    spread = {
        n: (sd, lo, hi)
        # The sample sd is undefined for one game: shown empty, not as 0.
        for n, sd, lo, hi in con.sql(
            """SELECT n_players, stddev_samp(turns)::DOUBLE, min(turns), max(turns)
               FROM games GROUP BY 1"""
        ).fetchall()
    }
    ends = con.sql(
        """SELECT n_players,
                  sum((end_reason::VARCHAR = 'turn_cap')::INT)::BIGINT,
                  sum((end_reason::VARCHAR = 'deadlock')::INT)::BIGINT,
                  sum((end_reason::VARCHAR = 'timeout')::INT)::BIGINT,
                  count(*)::BIGINT
           FROM games_all GROUP BY 1 ORDER BY 1"""
    ).fetchall()
    rows = []
    for n, capped, deadlocked, timed_out, total in ends:
        m = means.get(n)
        sd, lo, hi = spread.get(n, (None, None, None))
        rows.append(
            {
                "n_players": n,
                "games": total,
                "finished": total - capped - deadlocked - timed_out,
                "reported": m["n"] if m else 0,
                "mean_turns": m["mean"] if m else None,
                "low": m["low"] if m else None,
                "high": m["high"] if m else None,
                "sd_turns": sd,
                "min_turns": lo,
                "max_turns": hi,
                "turn_cap": capped,
                "deadlock": deadlocked,
                "timeout": timed_out,
            }
        )
    return rows_table(
        rows,
        {
            "n_players": pa.int8(),
            "games": pa.int64(),
            "finished": pa.int64(),
            "reported": pa.int64(),
            "mean_turns": pa.float64(),
            "low": pa.float64(),
            "high": pa.float64(),
            "sd_turns": pa.float64(),
            "min_turns": pa.int64(),
            "max_turns": pa.int64(),
            "turn_cap": pa.int64(),
            "deadlock": pa.int64(),
            "timeout": pa.int64(),
        },
    )


def by_strategy_polars(frames: list[pl.LazyFrame]) -> pl.DataFrame:
    """Seats, wins, mean win share and score per strategy computed with Polars (lazy scans
    of the seats parts), for cross-checking the DuckDB path."""
    # Imported here: every command that prints a win table imports this module, and only
    # this cross-check needs Polars (a fifth of a second of CPU to import).
    import polars as pl

    seats = pl.concat(frames)
    return (
        seats.group_by(pl.col("strategy").cast(pl.String))
        .agg(
            pl.len().cast(pl.Int64).alias("seats"),
            pl.col("win_share").sum().alias("wins"),
            pl.col("win_share").mean().alias("win_share"),
            pl.col("score").cast(pl.Float64).mean().alias("mean_score"),
        )
        .sort("strategy")
        .collect()
    )


def notable_games(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per player count, games worth looking at: the longest finished game, the biggest
    upset (a sole win by the strategy with the lowest win share at that table size, by the
    widest margin over the runner-up, in a game that ended naturally), and the first game
    cut off at the turn cap (``turn_cap``) and ended by a deadlock (``deadlock``) when there
    are any, counted or not.
    ``run`` is the run's index in the connection."""
    rows = con.sql(
        """
        WITH longest AS (
            SELECT 'longest' AS kind, n_players, run, game_id,
                   turns::VARCHAR || ' turns' AS detail, NULL::DOUBLE AS share
            FROM games
            WHERE end_reason::VARCHAR NOT IN ('turn_cap', 'deadlock', 'timeout')
            QUALIFY row_number() OVER (
                PARTITION BY n_players ORDER BY turns DESC, run, game_id) = 1),
        shares AS (
            SELECT n_players, strategy, avg(win_share) AS share
            FROM seat_games GROUP BY 1, 2),
        runner AS (
            SELECT run, game_id, max(score) FILTER (WHERE win_share < 1.0) AS second
            FROM seat_games GROUP BY 1, 2),
        upset AS (
            SELECT 'upset' AS kind, w.n_players, w.run, w.game_id,
                   -- the share is written in Python, as the report's tables write it
                   w.strategy || ' won (it wins {share} of ' || w.n_players::VARCHAR ||
                   '-player games) by ' || (w.score - r.second)::INT::VARCHAR AS detail,
                   s.share AS share
            FROM seat_games w
            JOIN shares s USING (n_players, strategy)
            JOIN runner r USING (run, game_id)
            WHERE w.win_share = 1.0 AND r.second IS NOT NULL
              -- a win at the turn cap is the leader's credit, no upset (with unfinished
              -- games in the report, seat_games holds them too)
              AND NOT EXISTS (
                  SELECT 1 FROM games_all g WHERE g.run = w.run AND g.game_id = w.game_id
                  AND g.end_reason::VARCHAR IN ('turn_cap', 'deadlock', 'timeout'))
            QUALIFY row_number() OVER (
                PARTITION BY w.n_players
                ORDER BY s.share, w.score - r.second DESC, w.run, w.game_id) = 1),
        stalled AS (
            SELECT end_reason::VARCHAR AS kind, n_players, run, game_id,
                   turns::VARCHAR || ' turns' AS detail, NULL::DOUBLE AS share
            FROM games_all
            WHERE end_reason::VARCHAR IN ('turn_cap', 'deadlock', 'timeout')
            QUALIFY row_number() OVER (
                PARTITION BY n_players, end_reason ORDER BY run, game_id) = 1)
        SELECT * FROM longest UNION ALL SELECT * FROM upset UNION ALL SELECT * FROM stalled
        ORDER BY n_players, kind
        """
    ).fetchall()
    return pa.table(
        {
            "kind": pa.array([r[0] for r in rows], pa.string()),
            "n_players": pa.array([r[1] for r in rows], pa.int8()),
            "run": pa.array([r[2] for r in rows], pa.int32()),
            "game_id": pa.array([r[3] for r in rows], pa.int64()),
            "detail": pa.array(
                [r[4] if r[5] is None else r[4].replace("{share}", pct(r[5])) for r in rows],
                pa.string(),
            ),
        }
    )
