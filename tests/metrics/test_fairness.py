"""Board-fairness metrics against hand-computed values on the fixture run, and the tests they
rest on (chi-square, Cochran's Q, Holm) by hand."""

from __future__ import annotations

import math
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from pipelines.metrics.source import connect, open_run
from pipelines.stats import chi2_sf, chi_square_uniform, cochran_q, holm
from pipelines.tobago import fairness
from tests.metrics.fixture import write_fixture


def test_chi_square_by_hand() -> None:
    assert chi2_sf(3.841459, 1) == pytest.approx(0.05, abs=1e-6)
    assert chi2_sf(5.991465, 2) == pytest.approx(0.05, abs=1e-6)
    assert chi2_sf(7.814728, 3) == pytest.approx(0.05, abs=1e-6)
    assert chi2_sf(0.5, 3) == pytest.approx(0.918891, abs=1e-6)
    assert chi2_sf(43.77, 31) == pytest.approx(0.0641, abs=1e-3)  # a table value
    assert chi_square_uniform([10, 10, 10, 10]) == (0.0, 1.0)
    stat, p = chi_square_uniform([30, 10])  # expected 20 each: 100/20 * 2 = 10
    assert stat == 10.0 and p == pytest.approx(0.0015654, abs=1e-6)


def test_cochran_q_and_holm_by_hand() -> None:
    # Two estimates 0 and 2 with unit errors: pooled 1, Q = 1 + 1 = 2 on 1 df.
    q, dof, p, pooled, se = cochran_q([0.0, 2.0], [1.0, 1.0])
    assert (q, dof, pooled) == (2.0, 1, 1.0)
    assert p == pytest.approx(0.157299, abs=1e-6) and se == pytest.approx(math.sqrt(0.5))
    # Weights 4 and 1: pooled (4*1 + 1*6) / 5 = 2; Q = 4*1 + 1*16 = 20.
    q, dof, p, pooled, _ = cochran_q([1.0, 6.0], [0.5, 1.0])
    assert (q, pooled) == (20.0, 2.0) and p < 1e-5
    assert cochran_q([1.0], [0.5])[1] == 0  # one group: nothing to compare
    # Holm: sorted 0.01 * 3, 0.03 * 2, then max(0.06, 0.04 * 1).
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_seat_shares_and_island_summary(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    seats = {(r["island"], r["seat"]): r for r in fairness.seat_win_shares(con).to_pylist()}
    # isle-1, 4 players: seat 0 won 1 + 0.5 of 2 games, seat 3 won 0.5.
    assert seats[("isle-1", 0)]["win_share"] == 0.75 and seats[("isle-1", 0)]["games"] == 2
    assert seats[("isle-1", 3)]["win_share"] == 0.25
    assert seats[("isle-1", 0)]["deviation"] == 0.5
    summary = {r["island"]: r for r in fairness.island_summary(con).to_pylist()}
    one = summary["isle-1"]
    assert one["games"] == 2 and one["mean_turns"] == 35.0
    assert one["first_seat_advantage"] == 0.5 and one["low"] <= 0.5 <= one["high"]
    # Wins per seat 1.5, 0, 0, 0.5 against 0.5 each: 2 + 0.5 + 0.5 + 0 = 3, 3 dof.
    assert one["chi_square"] == 3.0
    assert one["seat_p_value"] == pytest.approx(0.391625, abs=1e-6)
    two = summary["isle-2"]
    assert two["first_seat_advantage"] == -0.5 and two["chi_square"] == 1.0
    assert two["seat_p_value"] == pytest.approx(0.317311, abs=1e-6) and two["mean_turns"] == 20.0
    # Each player count has one island: nothing to compare, nothing adjusted.
    assert one["holm_p"] == 1.0 and two["holm_p"] == 1.0
    het = fairness.heterogeneity(con).to_pylist()
    assert [h["dof"] for h in het] == [0, 0] and not any(h["islands_differ"] for h in het)


def _two_islands(first_wins: dict[str, int], blocks: int) -> duckdb.DuckDBPyConnection:
    """2-player games, one per block: on each island the first seat wins the first
    ``first_wins[island]`` of its ``blocks`` games, the second seat the rest."""
    games: dict[str, list[object]] = {k: [] for k in ("run", "game_id", "block", "island",
                                                      "n_players", "turns")}  # fmt: skip
    seats: dict[str, list[object]] = {k: [] for k in ("run", "game_id", "seat", "win_share")}
    gid = 0
    for island, wins in first_wins.items():
        for b in range(blocks):
            for key, value in zip(games, (0, gid, gid, island, 2, 30), strict=True):
                games[key].append(value)
            for seat in (0, 1):
                won = (b < wins) == (seat == 0)
                for key, value in zip(seats, (0, gid, seat, 1.0 if won else 0.0), strict=True):
                    seats[key].append(value)
            gid += 1
    con = duckdb.connect()
    con.register("games", pa.table(games))
    con.register("seats", pa.table(seats))
    # As pipelines.metrics.source.connect prepares it.
    con.execute(
        """CREATE TABLE seat_games AS SELECT s.run, s.game_id, g.block, g.n_players,
                  g.island, s.seat, s.win_share FROM seats s JOIN games g USING (run, game_id)"""
    )
    return con


def test_islands_that_differ_are_found_and_ranked() -> None:
    con = _two_islands({"east": 30, "west": 10, "north": 20}, 40)
    het = fairness.heterogeneity(con).to_pylist()[0]
    assert het["islands"] == 3 and het["dof"] == 2 and het["islands_differ"]
    assert het["p_value"] < 1e-4
    summary = {r["island"]: r for r in fairness.island_summary(con).to_pylist()}
    assert summary["east"]["first_seat_advantage"] == pytest.approx(0.25)
    assert summary["west"]["first_seat_advantage"] == pytest.approx(-0.25)
    assert summary["east"]["holm_p"] < 0.05 and summary["west"]["holm_p"] < 0.05
    assert summary["north"]["holm_p"] == pytest.approx(1.0)  # exactly the pooled value


def test_islands_alike_are_not_told_apart() -> None:
    con = _two_islands({"east": 21, "west": 19}, 40)
    het = fairness.heterogeneity(con).to_pylist()[0]
    assert not het["islands_differ"] and het["p_value"] > 0.5
