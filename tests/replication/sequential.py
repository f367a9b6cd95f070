"""Replication study of ``compare``'s estimate after a sequential stop.

Per-block observations with a known mean are drawn (normal, or skewed: a shifted gamma of
skewness 1), fed to the same test classes at the same looks as ``compare`` runs them
(:func:`pipelines.experiments.compare.run_test`,
:func:`pipelines.stats.sequential_estimate.look_schedule`), and
the estimate and interval of :mod:`pipelines.stats.sequential_estimate` (given the runs' sample
skewness, as ``compare`` gives it) are set beside the naive mean and Student's t interval,
with both intervals' mean widths. Run the full study (about 50 CPU-seconds a row, 12 rows) with
``.venv/bin/python -m tests.replication.sequential [REPS] [normal|skewed] [one-|two-sided]``
(the words choose a part; default all); its figures are in docs/reports.md.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from pipelines.experiments.compare import run_test
from pipelines.stats.sequential_estimate import Design, look_schedule, sequential_estimate
from pipelines.stats.sprt import Sprt, TwoSidedSprt

#: The default test of win shares at 4 players: H1 2 points, sd 20 points per block, looks every
#: 50 blocks, and --max-games 20,000 (2,500 blocks of 8 games).
SD = 20.0
BOUND = 2.0
LOOKS = look_schedule(50, 2_500)


@dataclass(frozen=True)
class Summary:
    """Coverage and mean error of the estimate and of the naive figures over ``reps``."""

    test: str
    truth: float
    reps: int
    coverage: float
    naive_coverage: float
    bias: float
    naive_bias: float
    mean_blocks: float
    width: float
    naive_width: float


def design(two_sided: bool) -> Design:
    """The test studied: one-sided 0 against +2, or two-sided 0 against +-2."""
    if two_sided:
        return Design(LOOKS, delta=BOUND)
    return Design(LOOKS, 0.0, BOUND)


def _draw(rng: np.random.Generator, truth: float, size: int, skewed: bool) -> list[float]:
    if not skewed:
        return [float(x) for x in rng.normal(truth, SD, size)]
    shape = 4.0  # skewness 2 / sqrt(shape) = 1
    x = truth + SD * (rng.gamma(shape, 1.0, size) - shape) / np.sqrt(shape)
    return [float(v) for v in x]


def replicate(
    two_sided: bool, truth: float, reps: int, seed: int, paths: int = 2_000, skewed: bool = False
) -> Summary:
    """``reps`` runs of the test on draws with mean ``truth``, and how its figures fared."""
    rng = np.random.default_rng(seed)
    plan = design(two_sided)
    covered = naive_covered = 0
    errors: list[float] = []
    naive_errors: list[float] = []
    blocks = 0
    width = naive_width = 0.0
    for _ in range(reps):
        test: Sprt | TwoSidedSprt = TwoSidedSprt(0.0, BOUND) if two_sided else Sprt(0.0, BOUND)
        run_test(test, plan.looks, lambda r: _draw(rng, truth, len(r), skewed))
        low, high = test.interval()
        naive_covered += low <= truth <= high
        naive_errors.append(test.mean - truth)
        naive_width += high - low
        found = sequential_estimate(
            plan, test.n, test.mean * test.n, test.variance**0.5, test.skewness, paths=paths
        )
        if found is not None:
            low, high = found.low, found.high
        covered += low <= truth <= high
        width += high - low
        errors.append((found.estimate if found else test.mean) - truth)
        blocks += test.n
    return Summary(
        "two-sided" if two_sided else "one-sided",
        truth,
        reps,
        covered / reps,
        naive_covered / reps,
        float(np.mean(errors)),
        float(np.mean(naive_errors)),
        blocks / reps,
        width / reps,
        naive_width / reps,
    )


def main(
    reps: int = 1_000,
    draws: tuple[str, ...] = ("normal", "skewed"),
    tests: tuple[str, ...] = ("one-sided", "two-sided"),
) -> None:
    """The full study: each test at H0, halfway and H1, normal and skewed draws."""
    print(
        "test       draws   truth  reps  coverage  naive   bias    naive bias  mean blocks"
        "  width  naive width"
    )
    for skewed in (d == "skewed" for d in draws):
        for two_sided in (t == "two-sided" for t in tests):
            for k, truth in enumerate((0.0, BOUND / 2, BOUND)):
                s = replicate(two_sided, truth, reps, 1_000 + 10 * k + 2 * two_sided + skewed,
                              skewed=skewed)  # fmt: skip
                print(
                    f"{s.test:10} {'skewed' if skewed else 'normal':7} {truth:+5.1f} {s.reps:5} "
                    f"{s.coverage:8.1%} {s.naive_coverage:7.1%} {s.bias:+7.3f} "
                    f"{s.naive_bias:+10.3f} {s.mean_blocks:12.0f} {s.width:6.2f} "
                    f"{s.naive_width:12.2f}",
                    flush=True,
                )


if __name__ == "__main__":
    # Arguments: replications per setting, then the draws (normal, skewed) and tests
    # (one-sided, two-sided) to run; default all.
    words = sys.argv[2:]
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 1_000,
        tuple(w for w in words if w in ("normal", "skewed")) or ("normal", "skewed"),
        tuple(w for w in words if w.endswith("-sided")) or ("one-sided", "two-sided"),
    )
