"""Bradley-Terry ratings: an exact two-player case by hand, and the fixture's ordering."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from pipelines.metrics.rating import _fit, bradley_terry
from pipelines.metrics.source import connect, open_run
from tests.metrics.fixture import write_fixture


def test_two_players_by_hand() -> None:
    # A beat B 3 times out of 4: the MLE has p_A / (p_A + p_B) = 3/4, so p_A / p_B = 3.
    wins = np.array([[0.0, 3.0], [1.0, 0.0]])
    games = np.array([[0.0, 4.0], [4.0, 0.0]])
    p = _fit(wins, games)
    assert p[0] / p[1] == pytest.approx(3.0, rel=1e-6)
    assert 400 * math.log10(p[0] / p[1]) == pytest.approx(190.85, abs=0.01)


def test_fixture_ratings_order_and_symmetry(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    rows = {r["strategy"]: r for r in bradley_terry(con, chunks=3, reps=50).to_pylist()}
    # A and B have the same record (1.5 of 3 against each other, 2-0 against C and D);
    # D beat C twice; C never won.
    assert rows["A"]["rating"] == pytest.approx(rows["B"]["rating"], abs=1e-6)
    assert rows["A"]["rating"] > rows["D"]["rating"] > rows["C"]["rating"]
    assert sum(r["rating"] for r in rows.values()) == pytest.approx(0.0, abs=1e-6)
    assert all(
        r["low"] <= r["rating"] + 1e-6 and r["rating"] <= r["high"] + 1e-6 for r in rows.values()
    )
    assert rows["A"]["comparisons"] == 3 + 2 + 2  # vs B three times, C twice, D twice
