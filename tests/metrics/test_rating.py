"""Plackett-Luce ratings: exact cases by hand, the likelihood's stationary point, ties, and
the fixture's ordering over two table sizes."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from pipelines.metrics.rating import Pattern, _stages, fit, plackett_luce
from pipelines.metrics.source import connect, open_run
from tests.metrics.fixture import write_fixture


def _fit(patterns: dict[Pattern, float], names: list[str], prior: float = 0.0) -> np.ndarray:
    index = {name: k for k, name in enumerate(names)}
    keys = list(patterns)
    chosen, among, owner = _stages(keys, index, len(names))
    return fit(np.array([patterns[p] for p in keys]), chosen, among, owner, prior=prior)


def test_two_players_by_hand() -> None:
    # A beat B 3 times out of 4: the maximum likelihood has w_A / (w_A + w_B) = 3/4.
    w = _fit({(("A",), ("B",)): 3, (("B",), ("A",)): 1}, ["A", "B"])
    assert w[0] / w[1] == pytest.approx(3.0, rel=1e-6)
    assert 400 * math.log10(w[0] / w[1]) == pytest.approx(190.85, abs=0.01)


def test_three_players_sit_at_the_likelihood_maximum() -> None:
    data: dict[Pattern, float] = {
        (("A",), ("B",), ("C",)): 5,
        (("B",), ("A",), ("C",)): 3,
        (("C",), ("A",), ("B",)): 2,
        (("B",), ("C",), ("A",)): 1,
        (("A",), ("C",)): 2,  # a two-player game in the same pool
    }
    w = _fit(data, ["A", "B", "C"])

    def loglik(v: np.ndarray) -> float:
        total = 0.0
        for pattern, count in data.items():
            order = [{"A": 0, "B": 1, "C": 2}[level[0]] for level in pattern]
            for k in range(len(order) - 1):
                total += count * (math.log(v[order[k]]) - math.log(sum(v[j] for j in order[k:])))
        return total

    best = loglik(w)
    for j in range(3):  # no single strength moved either way does better
        for factor in (0.99, 1.01):
            moved = w.copy()
            moved[j] *= factor
            assert loglik(moved) < best


def test_ties_are_chosen_together() -> None:
    # A and B always tie ahead of C: equal strengths, both above C.
    w = _fit({(("A", "B"), ("C",)): 4, (("C",), ("A", "B")): 1}, ["A", "B", "C"], prior=1.0)
    assert w[0] == pytest.approx(w[1]) and w[0] > w[2]


def test_fixture_ratings_order_and_symmetry(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    listed = plackett_luce(con, chunks=3, reps=50).to_pylist()
    assert [r["rating"] for r in listed] == sorted((r["rating"] for r in listed), reverse=True)
    rows = {r["strategy"]: r for r in listed}
    # A and B each finished ahead of C and D in both 4-player games; D ahead of C in both;
    # C last in both.
    assert min(rows["A"]["rating"], rows["B"]["rating"]) > rows["D"]["rating"]
    assert rows["D"]["rating"] > rows["C"]["rating"]
    assert sum(r["rating"] for r in rows.values()) == pytest.approx(0.0, abs=1e-6)
    assert all(
        r["low"] <= r["rating"] + 1e-6 and r["rating"] <= r["high"] + 1e-6 for r in rows.values()
    )
    assert rows["A"]["games"] == 3 and rows["C"]["games"] == 2


def test_labels_with_any_characters_keep_their_games(tmp_path: Path) -> None:
    """A plug-in's label holds ``=`` and may hold ``|`` or ``,``: its ratings and games are
    the same as under a plain name."""
    plain = connect([open_run(write_fixture(tmp_path / "plain"))])
    odd = "pkg.mod:Odd(take_at=3, mark='|=')"
    con = connect([open_run(write_fixture(tmp_path / "odd"))])
    con.execute("UPDATE seat_games SET strategy = ? WHERE strategy = 'A'", [odd])
    want = {r["strategy"]: r for r in plackett_luce(plain, chunks=3, reps=20).to_pylist()}
    got = {r["strategy"]: r for r in plackett_luce(con, chunks=3, reps=20).to_pylist()}
    assert set(got) == {odd, "B", "C", "D"}
    assert got[odd]["games"] == want["A"]["games"] == 3
    assert got[odd]["rating"] == pytest.approx(want["A"]["rating"])
