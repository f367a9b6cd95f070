"""Board fairness: does the seat matter, and does it matter more on some islands?

Per island and player count: win share by seat with intervals, the first-seat advantage
(seat 0's win share minus the fair 1/n) with its interval, and a chi-square test of the seat
wins against uniform. Across islands, per player count: a test of whether the islands'
first-seat shares differ at all (heterogeneity), the pooled advantage, and per island the
deviation from the pooled value with its p-value adjusted for testing every island (Holm).
Islands are worth ranking only when the test rejects; otherwise their order is noise.

The heterogeneity test is the chi-square test of equal shares (Q = Σ n_i (p_i - p)² /
(p (1 - p))) divided by the design effect of the seed blocks, measured once over all the
islands of a player count (Rao and Scott's first-order correction, never below 1). Each
island's own cluster-robust standard error is *not* used as a weight: an island is played in
a few dozen blocks at most, and a variance estimated from six blocks can come out near zero
and let one island decide the test. Under the hypothesis of equal shares the weights are the
games on each island, so the pooled share is the share over all games, the headline figure.
An island whose expected first-seat wins or losses (games times the pooled share) fall below 5 is
left out of the test (the chi-square approximation needs them) and counted as not tested.
Only when the islands differ is each tested island's departure from the pool tested (closed
testing, Holm over the tested islands), with the larger of the common variance and the
island's own clustered one; otherwise no island gets a p-value.

Beside the test, per player count, the spread it could have detected: the standard deviation of
the islands' first-seat shares (weighted by games) at which it rejects with 80% power, from the
noncentral chi-square on its degrees of freedom (``detectable_spread``), and the games half that
spread needs (``games_for_half_spread``; :mod:`pipelines.stats.power`).

Intervals treat a seed block as the independent unit (:mod:`pipelines.metrics.clustered`).
"""

from __future__ import annotations

import math
from typing import Any

import duckdb
import pyarrow as pa

from pipelines.metrics.clustered import clustered, rows_table
from pipelines.stats import power
from pipelines.stats.core import Z95, chi2_sf, chi_square_uniform, holm, normal_p

_SEATS = "SELECT run, block, island, n_players, seat, win_share FROM seat_games"
_FIRST = f"SELECT * FROM ({_SEATS}) WHERE seat = 0"
#: Below this level an island is reported as differing from the pooled advantage.
ALPHA = 0.05
#: The least expected first-seat wins (and losses) on an island for it to enter the test.
MIN_EXPECTED = 5.0


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


def island_tables(
    con: duckdb.DuckDBPyConnection, seats: pa.Table | None = None
) -> tuple[pa.Table, pa.Table]:
    """:func:`island_summary` and :func:`heterogeneity` from one pass over the first seats
    (``seats``: :func:`seat_win_shares`, when the caller has it)."""
    first = clustered(con, _FIRST, ["island", "n_players"], "win_share", share=True)
    tests = _heterogeneity(first, _design_effects(con))
    summary = _island_summary(con, first, tests, seat_win_shares(con) if seats is None else seats)
    return summary, _heterogeneity_table(tests)


def island_summary(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per island and player count: games, mean turns, first-seat advantage with its
    interval, the chi-square test of seat uniformity, whether the island entered the test of
    islands against each other, and if so its deviation from the pooled first-seat
    advantage with its raw and Holm-adjusted p-values (null when not tested)."""
    return island_tables(con)[0]


#: The columns of ``island_fairness``.
_SUMMARY_TYPES = {
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
    "tested": pa.bool_(),
    "deviation_p": pa.float64(),
    "holm_p": pa.float64(),
}


def _island_row(
    r: dict[str, Any], h: dict[str, Any], wins: list[float], turns: float | None
) -> dict[str, Any]:
    """One island at one table size: its first seat's share ``r`` against the test of all
    islands ``h``, its seats' wins and mean turns."""
    n = int(r["n_players"])
    fair = 1 / n
    chi, p_seats = chi_square_uniform(wins)
    tested = _tested(r, h["all_share"])
    # The island's share against the pooled one, which it is part of: under equal shares
    # the difference has variance p (1 - p) deff (1/n_i - 1/N), or more where the
    # island's own blocks vary more (its clustered variance less the pooled one): the
    # common design effect must not make one island's luck look like a difference.
    var = (
        max(
            h["unit_variance"] * (1 / r["n"] - 1 / h["tested_games"]),
            r["se"] ** 2 - h["pooled_se"] ** 2,
        )
        if tested
        else 0.0
    )
    z = (r["mean"] - fair - h["pooled"]) / math.sqrt(var) if var > 0 else 0.0
    return {
        "island": r["island"],
        "n_players": n,
        "games": r["n"],
        "blocks": r["clusters"],
        "mean_turns": turns,
        "first_seat_share": r["mean"],
        "first_seat_advantage": r["mean"] - fair,
        "low": r["low"] - fair,
        "high": r["high"] - fair,
        "se": r["se"],
        "chi_square": chi,
        "seat_p_value": p_seats,
        "tested": tested and h["dof"] > 0,
        # Closed testing: an island is tested against the pool only once the test of all
        # islands has found that they differ; otherwise there is no p-value, so that no
        # island is pointed at when the islands as a whole are alike.
        "deviation_p": (normal_p(z) if var > 0 else 1.0)
        if tested and h["islands_differ"]
        else None,
    }


def _island_summary(
    con: duckdb.DuckDBPyConnection,
    first: list[dict[str, Any]],
    heterogeneity: list[dict[str, Any]],
    seat_shares: pa.Table,
) -> pa.Table:
    wins: dict[tuple[str, int], list[float]] = {}
    for r in seat_shares.to_pylist():
        wins.setdefault((r["island"], r["n_players"]), []).append(float(r["wins"]))
    turns = {
        (island, n): t
        for island, n, t in con.sql(
            "SELECT island::VARCHAR, n_players, avg(turns)::DOUBLE FROM games GROUP BY 1, 2"
        ).fetchall()
    }
    tests = {int(h["n_players"]): h for h in heterogeneity}
    rows = [
        _island_row(
            r,
            tests[int(r["n_players"])],
            wins[(r["island"], int(r["n_players"]))],
            turns.get((r["island"], int(r["n_players"]))),
        )
        for r in first
    ]
    for n in {int(r["n_players"]) for r in rows}:
        group = [r for r in rows if r["n_players"] == n]
        tested_rows = [r for r in group if r["deviation_p"] is not None]
        for r, adjusted in zip(
            tested_rows, holm([r["deviation_p"] for r in tested_rows]), strict=True
        ):
            r["holm_p"] = adjusted
        for r in group:
            r.setdefault("holm_p", None)  # not tested: no p-value rather than a made-up 1
    return rows_table(rows, _SUMMARY_TYPES)


def _design_effects(con: duckdb.DuckDBPyConnection) -> dict[int, float]:
    """Per player count, the design effect of the seed blocks on the first seat's result:
    the blocks' variance around their own island's share (so that differences between
    islands do not count) over the variance of as many independent games, never below 1."""
    rows = con.sql(
        f"""
        WITH c AS (
            SELECT island, n_players, run, block, sum(win_share)::DOUBLE AS y,
                   count(*)::DOUBLE AS m
            FROM ({_FIRST}) src GROUP BY island, n_players, run, block
        ), i AS (
            SELECT island, n_players, sum(y) / sum(m) AS p, sum(m) AS games,
                   count(*) AS blocks
            FROM c GROUP BY island, n_players
        )
        SELECT i.n_players, sum((c.y - i.p * c.m) ^ 2), count(*),
               (SELECT count(*) FROM i j WHERE j.n_players = i.n_players),
               (SELECT sum(games * p * (1 - p)) FROM i j WHERE j.n_players = i.n_players)
        FROM c JOIN i USING (island, n_players) GROUP BY i.n_players
        """
    ).fetchall()
    out = {}
    for n, spread, blocks, islands, independent in rows:
        if blocks > islands and independent and independent > 0:
            out[int(n)] = max(1.0, spread * blocks / (blocks - islands) / independent)
        else:
            out[int(n)] = 1.0
    return out


def _tested(island: dict[str, Any], share: float) -> bool:
    """Whether an island has enough games for the chi-square test at the pooled ``share``."""
    return bool(min(share, 1 - share) * island["n"] >= MIN_EXPECTED)


def _heterogeneity(first: list[dict[str, Any]], deffs: dict[int, float]) -> list[dict[str, Any]]:
    out = []
    for n in sorted({int(r["n_players"]) for r in first}):
        group = [r for r in first if r["n_players"] == n]
        share = sum(r["total"] for r in group) / sum(r["n"] for r in group)
        deff = deffs.get(n, 1.0)
        tested = [r for r in group if _tested(r, share)]
        games = sum(r["n"] for r in tested)
        pooled = sum(r["total"] for r in tested) / games if games else share
        unit = pooled * (1 - pooled)  # the variance of one game's first-seat result
        if len(tested) >= 2 and unit > 0:
            q = sum(r["n"] * (r["mean"] - pooled) ** 2 for r in tested) / (unit * deff)
            dof = len(tested) - 1
            p = chi2_sf(q, dof)
        else:
            q, dof, p = 0.0, 0, 1.0
        se = math.sqrt(unit * deff / games) if games else 0.0
        # What the test could have seen: the spread of the islands' first-seat shares (their
        # standard deviation, weighted by games) it detects with 80% power, and the games
        # half of that needs.
        spread = power.detectable_spread(dof, games, unit * deff, ALPHA)
        need = None if spread is None else power.games_for_spread(spread / 2, dof, unit * deff)
        out.append(
            {
                "n_players": n,
                "islands": len(group),
                "islands_tested": len(tested) if dof > 0 else 0,
                "games": sum(r["n"] for r in group),
                "tested_games": games,
                "all_share": share,
                "design_effect": deff,
                "unit_variance": unit * deff,
                "q": q,
                "dof": dof,
                "p_value": p,
                "pooled": pooled - 1 / n,
                "pooled_se": se,
                "pooled_low": pooled - 1 / n - Z95 * se,
                "pooled_high": pooled - 1 / n + Z95 * se,
                "islands_differ": dof > 0 and p < ALPHA,
                "detectable_spread": spread,
                "games_for_half_spread": need,
            }
        )
    return out


def heterogeneity(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per player count: islands (and how many had games enough to be tested), games, the
    design effect, the heterogeneity statistic Q (degrees of freedom, p-value), the pooled
    advantage with its interval, and whether the islands differ at the 5% level (only then
    is ranking them meaningful)."""
    return island_tables(con)[1]


def _heterogeneity_table(rows: list[dict[str, Any]]) -> pa.Table:
    types = {
        "n_players": pa.int8(),
        "islands": pa.int64(),
        "islands_tested": pa.int64(),
        "games": pa.int64(),
        "design_effect": pa.float64(),
        "q": pa.float64(),
        "dof": pa.int64(),
        "p_value": pa.float64(),
        "pooled": pa.float64(),
        "pooled_se": pa.float64(),
        "pooled_low": pa.float64(),
        "pooled_high": pa.float64(),
        "islands_differ": pa.bool_(),
        "detectable_spread": pa.float64(),
        "games_for_half_spread": pa.int64(),
    }
    return rows_table(rows, types)
