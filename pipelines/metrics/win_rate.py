"""Win-rate metrics: per strategy overall, by seat, by player count, and head to head.

Each function takes a connection from :func:`pipelines.metrics.source.connect` and returns a
tidy Arrow table. Win share counts 1 for a sole winner and 1/k for each of k tied winners;
intervals are Wilson 95% over seats played (a shared win counts fractionally).
"""

from __future__ import annotations

import duckdb
import polars as pl
import pyarrow as pa

from pipelines.stats import wilson


def _with_wilson(table: pa.Table) -> pa.Table:
    wins = table.column("wins").to_pylist()
    seats = table.column("seats").to_pylist()
    bounds = [wilson(w, n) for w, n in zip(wins, seats, strict=True)]
    table = table.append_column("low", pa.array([b[0] for b in bounds], pa.float64()))
    return table.append_column("high", pa.array([b[1] for b in bounds], pa.float64()))


def _grouped(con: duckdb.DuckDBPyConnection, keys: list[str]) -> pa.Table:
    """Win share and score per group; ``keys`` are SELECT expressions (``expr AS name``)."""
    positions = ", ".join(str(k + 1) for k in range(len(keys)))
    query = f"""
        SELECT {", ".join(keys)},
               count(*)::BIGINT AS seats,
               sum(win_share)::DOUBLE AS wins,
               avg(win_share)::DOUBLE AS win_share,
               avg(score)::DOUBLE AS mean_score,
               coalesce(stddev_samp(score), 0)::DOUBLE AS sd_score
        FROM seats JOIN games USING (run, game_id)
        GROUP BY {positions}
        ORDER BY {positions}
    """
    return _with_wilson(con.sql(query).to_arrow_table())


def by_strategy(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per strategy: seats played, wins, mean win share with its interval, score mean and sd."""
    return _grouped(con, ["strategy::VARCHAR AS strategy"])


def by_seat(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per strategy and seat (0 = first)."""
    return _grouped(con, ["strategy::VARCHAR AS strategy", "seat"])


def by_players(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per strategy and number of players."""
    return _grouped(con, ["strategy::VARCHAR AS strategy", "n_players"])


def by_opponents(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per strategy and opponent mix (the other seats' strategies, sorted, joined by '+')."""
    query = """
        WITH mix AS (
            SELECT a.run, a.game_id, a.seat, any_value(a.strategy::VARCHAR) AS strategy,
                   any_value(a.win_share) AS win_share, any_value(a.score) AS score,
                   string_agg(b.strategy::VARCHAR, '+' ORDER BY b.strategy::VARCHAR) AS opponents
            FROM seats a JOIN seats b
              ON a.run = b.run AND a.game_id = b.game_id AND a.seat <> b.seat
            GROUP BY a.run, a.game_id, a.seat
        )
        SELECT strategy, opponents, count(*)::BIGINT AS seats, sum(win_share)::DOUBLE AS wins,
               avg(win_share)::DOUBLE AS win_share, avg(score)::DOUBLE AS mean_score
        FROM mix GROUP BY 1, 2 ORDER BY 1, 2
    """
    return _with_wilson(con.sql(query).to_arrow_table())


def head_to_head(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """For every ordered pair of strategies met in one game: games, and the share of them in
    which the first finished ahead of the second (rank strictly better; a tie counts 1/2)."""
    query = """
        SELECT a.strategy::VARCHAR AS strategy, b.strategy::VARCHAR AS opponent,
               count(*)::BIGINT AS games,
               avg(CASE WHEN a.rank < b.rank THEN 1.0 WHEN a.rank = b.rank THEN 0.5
                        ELSE 0.0 END)::DOUBLE AS ahead
        FROM seats a JOIN seats b
          ON a.run = b.run AND a.game_id = b.game_id AND a.seat <> b.seat
        GROUP BY 1, 2
        ORDER BY 1, 2
    """
    return con.sql(query).to_arrow_table()


def by_strategy_polars(frames: list[pl.LazyFrame]) -> pl.DataFrame:
    """:func:`by_strategy` computed with Polars (lazy scans of the seats parts), for
    cross-checking the DuckDB path."""
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
