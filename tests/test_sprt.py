"""The SPRT on simulated Bernoulli streams with known truth, and the fixed-size plan."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pipelines.sprt import ACCEPT_H0, ACCEPT_H1, CONTINUE, Sprt, bounds, fixed_size


def test_default_bounds_are_chess_testings() -> None:
    low, high = bounds()
    assert low == pytest.approx(-2.944, abs=1e-3) and high == pytest.approx(2.944, abs=1e-3)


def test_llr_by_hand() -> None:
    s = Sprt(0.0, 0.1)
    for x in (0.2, 0.0, 0.1, 0.1):
        s.add(x)
    # mean 0.1, sample variance 0.02/3; LLR = 4 * 0.1 * (0.2 - 0.1) / (2 * 0.02/3) = 3.0
    assert s.mean == pytest.approx(0.1) and s.variance == pytest.approx(0.02 / 3)
    assert s.llr == pytest.approx(3.0)
    assert s.status == ACCEPT_H1


def decisions(truth: float, theta0: float, theta1: float, tests: int, seed: int) -> list[str]:
    """Run ``tests`` SPRTs on streams of paired Bernoulli differences with mean ``truth``."""
    rng = np.random.default_rng(seed)
    p_base = 0.3
    out = []
    for _ in range(tests):
        s = Sprt(theta0, theta1)
        status = CONTINUE
        while status == CONTINUE and s.n < 200_000:
            a = rng.random(500) < p_base + truth
            b = rng.random(500) < p_base
            for x in (a.astype(float) - b.astype(float)).tolist():
                s.add(x)
                if s.n >= 20 and (status := s.status) != CONTINUE:
                    break
        out.append(status)
    return out


def test_error_rates_near_alpha_and_beta() -> None:
    # H0: no difference, H1: +5 points of win rate. Under each truth, the wrong verdict should
    # come about 5% of the time (the normal approximation is slightly conservative).
    under_h0 = decisions(0.0, 0.0, 0.05, tests=200, seed=1)
    under_h1 = decisions(0.05, 0.0, 0.05, tests=200, seed=2)
    false_positive = under_h0.count(ACCEPT_H1) / len(under_h0)
    false_negative = under_h1.count(ACCEPT_H0) / len(under_h1)
    assert CONTINUE not in under_h0 + under_h1
    assert false_positive <= 0.09, false_positive
    assert false_negative <= 0.09, false_negative
    # ... and the test has power: right verdicts dominate.
    assert under_h1.count(ACCEPT_H1) >= 0.9 * len(under_h1)


def test_fixed_size_plan_by_hand() -> None:
    # z(0.975) + z(0.95) = 1.95996 + 1.64485 = 3.60482; (3.60482 * 0.6 / 0.05)^2 = 1871.2
    assert fixed_size(0.6, 0.05) == 1872
    assert fixed_size(0.6, -0.05) == 1872
    with pytest.raises(ValueError):
        fixed_size(0.6, 0.0)


def test_interval_covers_the_mean() -> None:
    s = Sprt(0.0, 0.1)
    for x in (1.0, -1.0, 1.0, -1.0):
        s.add(x)
    low, high = s.interval()
    assert low < 0 < high and math.isclose(high, -low)
