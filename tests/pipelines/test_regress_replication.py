"""Replication of ``regress``'s paired check: over synthetic suites whose true change is
known, the 95% interval covers it about 95% of the time and the test rejects a true null about
5% of the time, from 10 seed blocks up, and with changes as sparse as one game in twenty.

Each synthetic game has a baseline outcome (a win with chance 0.3); the new code touches a
game with chance ``q`` and then draws its outcome afresh with chance ``0.3 + delta / q``, so
the true change of the per-game mean is ``delta``. A block sums ``k`` games, as a seed block
of ``k`` rotated games does.
"""

from __future__ import annotations

import random

import pytest

from pipelines.experiments.regress_checks import paired_change


def _suite(
    rng: random.Random, blocks: int, k: int, q: float, delta: float
) -> tuple[list[float], list[float]]:
    old, new = [], []
    for _ in range(blocks):
        o = n = 0.0
        for _ in range(k):
            w = 1.0 if rng.random() < 0.3 else 0.0
            touched = rng.random() < q
            o += w
            n += (1.0 if rng.random() < 0.3 + delta / q else 0.0) if touched else w
        old.append(o)
        new.append(n)
    return old, new


def study(reps: int, blocks: int, k: int, q: float, delta: float) -> tuple[float, float]:
    """Coverage of the 95% interval and the share of p < 0.05."""
    rng = random.Random(blocks * 1000 + k)
    cover = reject = 0
    for _ in range(reps):
        old, new = _suite(rng, blocks, k, q, delta)
        _, low, high, p = paired_change(old, new, [k] * blocks)
        cover += low <= delta <= high
        reject += p < 0.05
    return cover / reps, reject / reps


def test_small_replication_at_ten_blocks() -> None:
    # 600 replications: a binomial sd of 0.9 points around 95%, so a normal quantile's
    # undercoverage at 9 degrees of freedom (about 92%) falls outside.
    coverage, _ = study(600, 10, 4, 0.5, 0.05)
    assert 0.93 <= coverage <= 0.97
    _, size = study(600, 10, 4, 0.5, 0.0)
    assert 0.025 <= size <= 0.075


@pytest.mark.replication
@pytest.mark.parametrize(
    ("blocks", "k", "q", "delta"),
    [(10, 4, 0.5, 0.0), (20, 4, 0.5, 0.05), (300, 2, 0.2, 0.02), (500, 4, 0.05, 0.005)],
)
def test_full_replication(blocks: int, k: int, q: float, delta: float) -> None:
    coverage, rejections = study(4000, blocks, k, q, delta)
    assert coverage >= 0.94
    if delta == 0.0:
        assert rejections <= 0.06
