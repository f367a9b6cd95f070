"""Gaps between strategies: is the best really better than the runner-up?

Per player count, the strategies are ranked by win share (from
:func:`pipelines.metrics.win_rate.by_strategy`), and every adjacent pair of the ranking (the
best against the runner-up first) gets the difference of their win shares, block-paired: in
each seed block (the seat rotations of one deal) that both strategies played, the better's
mean win share minus the worse's; the gap is the mean of those block differences, with a
95% Student-t interval over the blocks (no interval from fewer than :data:`MIN_BLOCKS`). A
pair whose interval contains 0 is *not separated*.

The ranking is picked on the same games the gaps are measured on, so the gap of a pair the
ranking put side by side is optimistic (winner's curse). Each gap therefore also carries a
*selection-adjusted* interval: simultaneous over every pair of strategies at that table size
(Bonferroni), so it keeps its 95% whichever pair the data happened to rank next to each
other.
"""

from __future__ import annotations

import math
from typing import Any

import duckdb
import pyarrow as pa

from pipelines.stats.core import t_quantile

#: Fewer seed blocks give no interval: a t interval from 2 to 4 blocks is too wide to read
#: and too fragile to trust.
MIN_BLOCKS = 5

TYPES = {
    "n_players": pa.int8(),
    "rank": pa.int8(),
    "better": pa.string(),
    "worse": pa.string(),
    "estimate": pa.float64(),
    "low": pa.float64(),
    "high": pa.float64(),
    "separated": pa.bool_(),
    "blocks": pa.int64(),
    "adjusted_low": pa.float64(),
    "adjusted_high": pa.float64(),
    "pairs_compared": pa.int64(),
    "detectable": pa.float64(),
}


def t_interval(
    mean: float, sd: float | None, k: int, level: float = 0.95
) -> tuple[float | None, float | None]:
    """The two-sided Student-t interval of a mean over ``k`` blocks with sample sd ``sd``:
    ``(None, None)`` below :data:`MIN_BLOCKS` blocks."""
    if k < MIN_BLOCKS or sd is None or math.isnan(sd):
        return None, None
    half = t_quantile(1 - (1 - level) / 2, k - 1) * sd / math.sqrt(k)
    return mean - half, mean + half


def detectable(sd: float | None, k: int) -> float | None:
    """The smallest gap a two-sided 5% paired t test over ``k`` blocks would find 80% of
    the time: (t(0.975) + t(0.80)) x se."""
    if k < MIN_BLOCKS or sd is None or math.isnan(sd):
        return None
    q = t_quantile(0.975, k - 1) + t_quantile(0.80, k - 1)
    return q * sd / math.sqrt(k)


def ranked_pairs(by_strategy: list[dict[str, Any]]) -> list[tuple[int, int, str, str]]:
    """Per player count, the ranking's adjacent pairs ``(n_players, rank, better, worse)``:
    ranked by win share, ties by name; ``rank`` 1 is the best against the runner-up."""
    out = []
    for n in sorted({int(r["n_players"]) for r in by_strategy}):
        rows = sorted(
            (r for r in by_strategy if r["n_players"] == n),
            key=lambda r: (-float(r["win_share"]), str(r["strategy"])),
        )
        for k in range(len(rows) - 1):
            out.append((n, k + 1, str(rows[k]["strategy"]), str(rows[k + 1]["strategy"])))
    return out


def adjacent_gaps(con: duckdb.DuckDBPyConnection, by_strategy: pa.Table) -> pa.Table:
    """The gaps of every adjacent pair of the ranking (see the module docstring), from a
    connection with ``seat_games`` and the ``win_rate_by_strategy`` table of the same
    games."""
    strategies = by_strategy.to_pylist()
    pairs = ranked_pairs(strategies)
    counts = {n: sum(1 for r in strategies if r["n_players"] == n) for n, *_ in pairs}
    wanted = pa.table(
        {
            "n_players": pa.array([p[0] for p in pairs], pa.int8()),
            "rank": pa.array([p[1] for p in pairs], pa.int8()),
            "better": pa.array([p[2] for p in pairs], pa.string()),
            "worse": pa.array([p[3] for p in pairs], pa.string()),
        }
    )
    con.register("gap_pairs", wanted)
    try:
        found = con.sql(
            """
            WITH b AS (
                SELECT n_players, run, block, strategy, avg(win_share) AS share
                FROM seat_games GROUP BY ALL),
            d AS (
                SELECT p.n_players, p.rank, x.share - y.share AS diff
                FROM gap_pairs p
                JOIN b x ON x.n_players = p.n_players AND x.strategy = p.better
                JOIN b y ON y.n_players = p.n_players AND y.strategy = p.worse
                        AND y.run = x.run AND y.block = x.block)
            SELECT n_players, rank, count(*), avg(diff), stddev_samp(diff)
            FROM d GROUP BY 1, 2
            """
        ).fetchall()
    finally:
        con.unregister("gap_pairs")
    moments = {(int(n), int(r)): (int(k), float(m), sd) for n, r, k, m, sd in found}
    rows = []
    for n, rank, better, worse in pairs:
        k, mean, sd = moments.get((n, rank), (0, math.nan, None))
        low, high = t_interval(mean, sd, k)
        m = counts[n] * (counts[n] - 1) // 2  # every pair the ranking could have put here
        adj_low, adj_high = t_interval(mean, sd, k, 1 - 0.05 / m)
        rows.append(
            {
                "n_players": n,
                "rank": rank,
                "better": better,
                "worse": worse,
                "estimate": None if k == 0 else mean,
                "low": low,
                "high": high,
                "separated": low is not None and high is not None and (low > 0 or high < 0),
                "blocks": k,
                "adjusted_low": adj_low,
                "adjusted_high": adj_high,
                "pairs_compared": m,
                "detectable": detectable(sd, k),
            }
        )
    return pa.table({key: pa.array([r[key] for r in rows], t) for key, t in TYPES.items()})
