"""Board fairness: does the seat matter, and does it matter more on some islands?

Per island and player count: win share by seat with intervals, the first-seat advantage
(seat 0's win share minus the fair 1/n) with its interval, and a chi-square test of the seat
wins against uniform. Across islands, per player count: Cochran's Q test of whether the
islands' first-seat advantages differ at all (heterogeneity), the pooled (inverse-variance)
advantage, and per island the deviation from the pooled value with its p-value adjusted for
testing every island (Holm). Islands are worth ranking only when Q rejects; otherwise their
order is noise.

Intervals treat a seed block as the independent unit (:mod:`pipelines.metrics.clustered`).
"""

from __future__ import annotations

import math
from typing import Any

import duckdb
import pyarrow as pa

from pipelines.metrics.clustered import clustered
from pipelines.stats import Z95, chi_square_uniform, cochran_q, holm, normal_p

_SEATS = "SELECT run, block, island, n_players, seat, win_share FROM seat_games"
_FIRST = f"SELECT * FROM ({_SEATS}) WHERE seat = 0"
#: Below this level an island is reported as differing from the pooled advantage.
ALPHA = 0.05


def seat_win_shares(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per island, player count and seat: games, wins, win share with its interval, and the
    deviation from the fair share 1/n."""
    rows = clustered(con, _SEATS, ["island", "n_players", "seat"], "win_share", share=True)
    return pa.table(
        {
            "island": pa.array([r["island"] for r in rows], pa.string()),
            "n_players": pa.array([r["n_players"] for r in rows], pa.int8()),
            "seat": pa.array([r["seat"] for r in rows], pa.int8()),
            "games": pa.array([r["n"] for r in rows], pa.int64()),
            "wins": pa.array([r["total"] for r in rows], pa.float64()),
            "win_share": pa.array([r["mean"] for r in rows], pa.float64()),
            "low": pa.array([r["low"] for r in rows], pa.float64()),
            "high": pa.array([r["high"] for r in rows], pa.float64()),
            "deviation": pa.array([r["mean"] - 1 / r["n_players"] for r in rows], pa.float64()),
        }
    )


def island_summary(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per island and player count: games, mean turns, first-seat advantage with its
    interval, the chi-square test of seat uniformity, and the island's deviation from the
    pooled first-seat advantage with its raw and Holm-adjusted p-values."""
    first = clustered(con, _FIRST, ["island", "n_players"], "win_share", share=True)
    seats = seat_win_shares(con).to_pylist()
    wins: dict[tuple[str, int], list[float]] = {}
    for r in seats:
        wins.setdefault((r["island"], r["n_players"]), []).append(float(r["wins"]))
    turns = {
        (island, n): t
        for island, n, t in con.sql(
            "SELECT island::VARCHAR, n_players, avg(turns)::DOUBLE FROM games GROUP BY 1, 2"
        ).fetchall()
    }
    pooled = {int(h["n_players"]): h for h in _heterogeneity(first)}
    rows: list[dict[str, Any]] = []
    for r in first:
        n = int(r["n_players"])
        fair = 1 / n
        chi, p_seats = chi_square_uniform(wins[(r["island"], n)])
        h = pooled[n]
        # The island's estimate against the pooled one, which it is part of: the variance of
        # the difference is se_i² - se_pooled² (fixed-effect weights).
        var = r["se"] ** 2 - h["pooled_se"] ** 2
        z = (r["mean"] - fair - h["pooled"]) / math.sqrt(var) if var > 0 else 0.0
        rows.append(
            {
                "island": r["island"],
                "n_players": n,
                "games": r["n"],
                "blocks": r["clusters"],
                "mean_turns": turns.get((r["island"], n)),
                "first_seat_share": r["mean"],
                "first_seat_advantage": r["mean"] - fair,
                "low": r["low"] - fair,
                "high": r["high"] - fair,
                "se": r["se"],
                "chi_square": chi,
                "seat_p_value": p_seats,
                "deviation_p": normal_p(z) if var > 0 else 1.0,
            }
        )
    for n in {int(r["n_players"]) for r in rows}:
        group = [r for r in rows if r["n_players"] == n]
        for r, adjusted in zip(group, holm([r["deviation_p"] for r in group]), strict=True):
            r["holm_p"] = adjusted
    types = {
        "island": pa.string(),
        "n_players": pa.int8(),
        "games": pa.int64(),
        "blocks": pa.int64(),
        "mean_turns": pa.float64(),
        "first_seat_share": pa.float64(),
        "first_seat_advantage": pa.float64(),
        "low": pa.float64(),
        "high": pa.float64(),
        "se": pa.float64(),
        "chi_square": pa.float64(),
        "seat_p_value": pa.float64(),
        "deviation_p": pa.float64(),
        "holm_p": pa.float64(),
    }
    return pa.table({k: pa.array([r[k] for r in rows], t) for k, t in types.items()})


def _heterogeneity(first: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for n in sorted({int(r["n_players"]) for r in first}):
        group = [r for r in first if r["n_players"] == n]
        estimates = [r["mean"] - 1 / n for r in group]
        q, dof, p, pooled, se = cochran_q(estimates, [r["se"] for r in group])
        out.append(
            {
                "n_players": n,
                "islands": len(group),
                "games": sum(r["n"] for r in group),
                "q": q,
                "dof": dof,
                "p_value": p,
                "pooled": pooled,
                "pooled_se": se,
                "pooled_low": pooled - Z95 * se,
                "pooled_high": pooled + Z95 * se,
                "islands_differ": dof > 0 and p < ALPHA,
            }
        )
    return out


def heterogeneity(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per player count: islands, games, Cochran's Q of the islands' first-seat advantages
    (degrees of freedom, p-value), the pooled advantage with its interval, and whether the
    islands differ at the 5% level (only then is ranking them meaningful)."""
    rows = _heterogeneity(clustered(con, _FIRST, ["island", "n_players"], "win_share", True))
    types = {
        "n_players": pa.int8(),
        "islands": pa.int64(),
        "games": pa.int64(),
        "q": pa.float64(),
        "dof": pa.int64(),
        "p_value": pa.float64(),
        "pooled": pa.float64(),
        "pooled_se": pa.float64(),
        "pooled_low": pa.float64(),
        "pooled_high": pa.float64(),
        "islands_differ": pa.bool_(),
    }
    return pa.table({k: pa.array([r[k] for r in rows], t) for k, t in types.items()})
