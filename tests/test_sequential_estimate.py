"""The estimate after a sequential stop, as a pure function of the test's design and counts."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pipelines.stats.core import normal_cdf, t_quantile
from pipelines.stats.sequential_estimate import (
    METHOD,
    Design,
    _Model,
    _skewed_batches,
    look_schedule,
    sequential_estimate,
)


def test_look_schedule_is_compares() -> None:
    assert look_schedule(50, 120) == (50, 100, 120)
    assert look_schedule(50, 100) == (50, 100)
    assert look_schedule(50, 40) == (40,)


def test_nothing_to_adjust_gives_none() -> None:
    one = Design(look_schedule(50, 500), 0.0, 2.0)
    assert sequential_estimate(one, 100, 150.0, 0.0) is None  # every block the same
    # A single look, or none at MIN_BLOCKS or more before the last: the stop selects nothing.
    assert sequential_estimate(Design((40,), 0.0, 2.0), 40, 80.0, 20.0) is None
    assert sequential_estimate(Design((5, 8), 0.0, 2.0), 8, 16.0, 20.0) is None
    with pytest.raises(ValueError, match="not one of its looks"):
        sequential_estimate(one, 120, 150.0, 20.0)


def test_a_test_that_cannot_stop_gives_students_t() -> None:
    """Bounds so far apart that no path reaches them: the interval is Student's t."""
    design = Design(look_schedule(20, 100), 0.0, 2.0, alpha=1e-30, beta=1e-30)
    found = sequential_estimate(design, 100, 250.0, 20.0, paths=4_000)
    assert found is not None and found.method == METHOD
    half = t_quantile(0.975, 99) * 20.0 / 10
    assert found.estimate == pytest.approx(2.5, abs=0.1)
    assert found.low == pytest.approx(2.5 - half, abs=0.15)
    assert found.high == pytest.approx(2.5 + half, abs=0.15)


def test_an_early_stop_is_shrunk_towards_the_hypothesis_it_rejected() -> None:
    # A one-sided test of 0 against +2 that stopped at its first look (50 blocks) on a mean of
    # +7 (LLR 3.6 with sd 20): luckier than most paths that stop there.
    design = Design(look_schedule(50, 2_500), 0.0, 2.0)
    found = sequential_estimate(design, 50, 350.0, 20.0)
    assert found is not None
    assert found.low < found.estimate < 7.0 < found.high
    # The interval leans the same way (and is narrower than the naive one: the outcomes that
    # reach +7 are nearly all early stops, whose means vary less with the truth).
    assert found.high - 7.0 < 7.0 - found.low
    naive_half = t_quantile(0.975, 49) * 20.0 / math.sqrt(50)
    assert found.high - found.low < 2 * naive_half
    # ... and the same inputs give the same figures (the paths are seeded from them).
    assert sequential_estimate(design, 50, 350.0, 20.0) == found


def test_the_estimate_and_interval_solve_their_equations() -> None:
    """On other paths than its own: the mean at the stop averages the observed mean at the
    estimate, and 2.5% of outcomes lie beyond the observed one at each end of the interval."""
    design = Design(look_schedule(50, 2_500), delta=2.0)
    found = sequential_estimate(design, 300, 600.0, 20.0, paths=4_000)
    assert found is not None
    model = _Model(design, 20.0, seed=5, paths=20_000)
    assert float(model.means(found.estimate).mean()) == pytest.approx(2.0, abs=0.1)
    tail = normal_cdf(-t_quantile(0.975, 299))
    assert model.at_least(found.low, 2.0) == pytest.approx(tail, abs=0.01)
    assert model.at_least(found.high, 2.0) == pytest.approx(1 - tail, abs=0.01)


def test_skewed_batches_have_the_gammas_moments() -> None:
    """Batches of 50 blocks of skewness 1 (a shifted gamma of shape 4): the sum's variance
    and third cumulant are 50 each, the sum of squares about the batch mean averages 49 and
    moves with the sum (covariance 50 - 1)."""
    rng = np.random.default_rng(4)
    batch, within = _skewed_batches(rng, (200_000, 1), np.array([50.0]), 1.0)
    s, w = batch[:, 0], within[:, 0]
    assert s.mean() == pytest.approx(0.0, abs=0.05)
    assert s.var() == pytest.approx(50.0, rel=0.02)
    assert np.mean(s**3) == pytest.approx(50.0, rel=0.1)
    assert w.mean() == pytest.approx(49.0, rel=0.01)
    assert np.cov(s, w)[0, 1] == pytest.approx(49.0, rel=0.1)
    mirrored, _ = _skewed_batches(np.random.default_rng(4), (200_000, 1), np.array([50.0]), -1.0)
    assert np.mean(mirrored**3) == pytest.approx(-50.0, rel=0.1)


def test_skewed_blocks_move_the_interval() -> None:
    """A one-sided test that accepted H0 at 100 blocks on a mean of -5: with right-skewed
    blocks a low mean comes with a low variance and stops the test early more often than
    with normal blocks, so the same outcome is less telling and the interval reaches higher."""
    design = Design(look_schedule(50, 2_500), 0.0, 2.0)
    normal = sequential_estimate(design, 100, -500.0, 20.0)
    skewed = sequential_estimate(design, 100, -500.0, 20.0, skew=1.0)
    assert normal is not None and skewed is not None
    assert skewed.high > normal.high + 0.2


def test_the_model_stops_where_the_two_sided_test_does() -> None:
    """The simulated stopping rule against :class:`TwoSidedSprt` on the same paths."""
    import numpy as np

    from pipelines.experiments.compare import run_test
    from pipelines.stats.sprt import TwoSidedSprt

    design = Design(look_schedule(10, 300), delta=2.0)
    rng = np.random.default_rng(3)
    for truth in (0.0, 1.0, 3.0):
        for _ in range(20):
            data = rng.normal(truth, 8.0, 300)
            test = TwoSidedSprt(0.0, 2.0)
            values: list[float] = data.tolist()

            def batch(r: range, v: list[float] = values) -> list[float]:
                return v[r.start : r.stop]

            run_test(test, design.looks, batch)
            model = _Model(design, 8.0, seed=1, paths=1)
            # Put the data's own path and variances into the model (sd 8 is its scale).
            sums = np.cumsum(data)[np.array(design.looks) - 1]
            squares = np.cumsum(data**2)[np.array(design.looks) - 1]
            n = model.n
            model.sd_noise = (sums - truth * n)[None, :]
            variance = (squares - sums**2 / n) / (n - 1)
            model.eligible = (n >= design.min_blocks)[None, :]
            model.twice_variance = np.where(model.eligible, 2 * variance[None, :], np.inf)
            assert model.means(truth)[0] == pytest.approx(test.mean), truth
