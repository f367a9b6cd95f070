"""Board-fairness metrics against hand-computed values on the fixture run."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.metrics import fairness
from pipelines.metrics.source import connect, open_run
from pipelines.stats import chi2_sf, chi_square_uniform
from tests.metrics.fixture import write_fixture


def test_chi_square_by_hand() -> None:
    assert chi2_sf(3.841459, 1) == pytest.approx(0.05, abs=1e-6)
    assert chi2_sf(5.991465, 2) == pytest.approx(0.05, abs=1e-6)
    assert chi2_sf(7.814728, 3) == pytest.approx(0.05, abs=1e-6)
    assert chi2_sf(0.5, 3) == pytest.approx(0.918891, abs=1e-6)
    assert chi_square_uniform([10, 10, 10, 10]) == (0.0, 1.0)
    stat, p = chi_square_uniform([30, 10])  # expected 20 each: 100/20 * 2 = 10
    assert stat == 10.0 and p == pytest.approx(0.0015654, abs=1e-6)


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
    assert one["first_seat_advantage"] == 0.5
    # Wins per seat 1.5, 0, 0, 0.5 against 0.5 each: 2 + 0.5 + 0.5 + 0 = 3, 3 dof.
    assert one["chi_square"] == 3.0 and one["p_value"] == pytest.approx(0.391625, abs=1e-6)
    assert one["fairness_index"] == 0.5
    two = summary["isle-2"]
    assert two["first_seat_advantage"] == -0.5 and two["chi_square"] == 1.0
    assert two["p_value"] == pytest.approx(0.317311, abs=1e-6) and two["mean_turns"] == 20.0
