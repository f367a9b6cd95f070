"""The short win table printed after a run: per strategy, games, mean win share with a 95%
interval (normal approximation over games; ties count 1/k), mean score. Read with DuckDB
straight from the run's ``seats`` Parquet parts."""

from __future__ import annotations

from pathlib import Path

import duckdb


def win_table(run_dir: Path) -> list[tuple[str, int, float, float, float, float]]:
    """Rows ``(strategy, seats played, win share, low, high, mean score)``, best first."""
    pattern = str(run_dir / "seats" / "*.parquet")
    query = """
        SELECT strategy::VARCHAR AS strategy,
               count(*) AS n,
               avg(win_share) AS win,
               coalesce(stddev_samp(win_share), 0) AS sd,
               avg(score) AS score
        FROM read_parquet(?)
        GROUP BY 1
        ORDER BY win DESC, strategy
    """
    with duckdb.connect() as con:
        rows = con.execute(query, [pattern]).fetchall()
    out = []
    for strategy, n, win, sd, score in rows:
        half = 1.96 * sd / (n**0.5) if n > 1 else 0.0
        out.append((strategy, n, win, max(0.0, win - half), min(1.0, win + half), score))
    return out


def format_win_table(rows: list[tuple[str, int, float, float, float, float]]) -> list[str]:
    """The table as text lines."""
    width = max([len("strategy"), *(len(r[0]) for r in rows)])
    lines = [
        f"{'strategy':<{width}}  {'seats':>7}  {'win share':>9}  {'95% interval':>15}  {'score':>6}"
    ]
    for strategy, n, win, low, high, score in rows:
        lines.append(
            f"{strategy:<{width}}  {n:>7}  {win:>9.3f}  [{low:.3f}, {high:.3f}]  {score:>6.1f}"
        )
    return lines
