"""The estimate and interval ``compare`` gives after a sequential stop, replicated over the
real test classes and look schedule: they cover at least 94% where the naive figures do not,
with a smaller bias. The full study (1,000 runs per setting) is marked ``replication``."""

from __future__ import annotations

import pytest

from tests.replication.sequential import BOUND, replicate


def test_coverage_and_bias_after_a_stop() -> None:
    # Where the stop selects most: a one-sided test at H1, the two-sided one at +delta. 300
    # runs measure coverage to about +-1.3 points, so the bar here is 93% (the full study
    # holds the figures to 94%); the naive interval falls short of it on the same runs.
    one = replicate(False, BOUND, 150, seed=21)
    two = replicate(True, BOUND, 150, seed=22)
    coverage = (one.coverage + two.coverage) / 2
    naive = (one.naive_coverage + two.naive_coverage) / 2
    assert coverage >= 0.93, (one, two)
    assert naive < 0.93, (one, two)
    for s in (one, two):
        assert abs(s.bias) < 0.6 * abs(s.naive_bias), s


@pytest.mark.replication
@pytest.mark.parametrize("two_sided", [False, True])
@pytest.mark.parametrize("truth", [0.0, BOUND / 2, BOUND])
@pytest.mark.parametrize("skewed", [False, True])
def test_coverage_and_bias_full(two_sided: bool, truth: float, skewed: bool) -> None:
    s = replicate(two_sided, truth, 1_000, seed=1_000 + int(10 * truth) + 2 * two_sided + skewed,
                  skewed=skewed)  # fmt: skip
    assert s.coverage >= 0.94, s
    assert abs(s.bias) <= max(0.1, 0.6 * abs(s.naive_bias)), s
