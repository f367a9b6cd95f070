"""The SPRT on simulated Bernoulli streams with known truth, and the fixed-size plan."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import skew as scipy_skew

from pipelines.stats.sprt import (
    ACCEPT_H0,
    ACCEPT_H1,
    ACCEPT_HIGHER,
    ACCEPT_LOWER,
    CONTINUE,
    Sprt,
    TwoSidedSprt,
    bounds,
    fixed_size,
)


def test_skewness_is_the_samples() -> None:
    x = np.random.default_rng(1).gamma(4.0, 3.0, 300) + 7.0
    test = Sprt(0.0, 2.0)
    for v in x:
        test.add(float(v))
    assert test.skewness == pytest.approx(float(scipy_skew(x)), rel=1e-9)
    assert Sprt(0.0, 2.0).skewness == 0.0


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


def two_sided_decisions(truth: float, tests: int, seed: int, sd: float = 3.0) -> list[str]:
    """Run ``tests`` two-sided tests (no difference against +-1) on normal streams with mean
    ``truth``, looking after every batch of 10 observations."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(tests):
        s = TwoSidedSprt(0.0, 1.0)
        status = CONTINUE
        while status == CONTINUE and s.n < 100_000:
            for x in rng.normal(truth, sd, 10).tolist():
                s.add(x)
            status = s.look() if s.n >= 20 else CONTINUE
        out.append(status)
    return out


def test_two_sided_decides_each_way_with_its_error_rates() -> None:
    under_h0 = two_sided_decisions(0.0, tests=400, seed=3)
    higher = two_sided_decisions(1.0, tests=400, seed=4)
    lower = two_sided_decisions(-1.0, tests=400, seed=5)
    far = two_sided_decisions(-2.5, tests=100, seed=6)
    assert CONTINUE not in under_h0 + higher + lower + far
    # A difference is claimed under no difference at most alpha = 5% of the time (each side
    # spends alpha / 2), and in the wrong direction practically never.
    claimed = (under_h0.count(ACCEPT_HIGHER) + under_h0.count(ACCEPT_LOWER)) / len(under_h0)
    assert claimed <= 0.07, claimed
    assert higher.count(ACCEPT_LOWER) == 0 and lower.count(ACCEPT_HIGHER) == 0
    # At +-delta the facing side misses with chance at most beta = 5%.
    assert higher.count(ACCEPT_H0) / len(higher) <= 0.08
    assert lower.count(ACCEPT_H0) / len(lower) <= 0.08
    assert higher.count(ACCEPT_HIGHER) >= 0.9 * len(higher)
    assert lower.count(ACCEPT_LOWER) >= 0.9 * len(lower)
    assert far.count(ACCEPT_LOWER) == len(far)


def test_one_sided_test_cannot_see_the_other_direction() -> None:
    """What the two-sided mode is for: a one-sided test of 0 against +1 accepts H0 on a stream
    that is clearly lower, where the two-sided test says so."""
    rng = np.random.default_rng(7)
    data = rng.normal(-2.0, 3.0, 200).tolist()
    one, two = Sprt(0.0, 1.0), TwoSidedSprt(0.0, 1.0)
    for x in data:
        one.add(x)
        two.add(x)
    assert one.status == ACCEPT_H0 and two.look() == ACCEPT_LOWER
    assert two.interval()[1] < 0


def test_two_sided_side_verdicts_are_kept() -> None:
    """A side that accepted its H0 keeps it; "no difference" needs both sides."""
    s = TwoSidedSprt(0.0, 1.0)
    for x in [0.3, -0.3] * 40:  # mean 0, sd 0.3: both sides accept H0 at once
        s.add(x)
    assert s.look() == ACCEPT_H0
    assert s.higher_status == ACCEPT_H0 and s.lower_status == ACCEPT_H0
    t = TwoSidedSprt(0.0, 1.0)
    for x in [-0.2, -0.8] * 20:  # mean -0.5: the upper side accepts H0, the lower one runs on
        t.add(x)
    assert t.look() == CONTINUE and t.higher_status == ACCEPT_H0 and t.lower_status == CONTINUE
    for x in [-1.6, -2.4] * 20:  # then clearly lower: the lower side accepts its H1
        t.add(x)
    assert t.look() == ACCEPT_LOWER
    assert t.llr_bounds() == pytest.approx(bounds(0.025, 0.05))
    with pytest.raises(ValueError):
        TwoSidedSprt(0.0, 0.0)
