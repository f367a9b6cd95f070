"""An estimate and a 95% interval for the mean that stay valid after a sequential test stops.

A test that stops as soon as the evidence is strong stops more often on lucky samples, so the
plain mean of the blocks it saw is biased away from the hypothesis it rejected, and its
Student's t interval covers the truth less often than it says. This module gives the figures
of the stage-wise (sample-mean) ordering for the test that was actually run: the per-block
observations are modelled with the observed standard deviation and skewness (normal blocks,
the Brownian-motion model of the running sum, when the skewness is about 0; else a shifted
gamma of that skewness), and the test's own rule is applied at the same looks (complete
batches of blocks, none before :data:`pipelines.stats.sprt.MIN_BLOCKS`), with the same
log-likelihood-ratio bounds and the variance re-estimated at each look, and cut at the last
look ``--max-games`` allows. The skewness matters because the test weighs by the variance:
with right-skewed blocks the low means come with low variances and stop the test early more
often than normal blocks would (the normal model covered 92.9% at H0 with blocks of skewness
1 in the replication study). The looks are simulated where they are, so the boundary needs
no correction for discrete monitoring (Siegmund's 0.583 sd per look, which analytic
continuous-time formulas need). An outcome is "at
least as large" as the observed one when its mean at the stop is at least the observed mean.
``p(theta)``, the chance of such an outcome when the true mean is ``theta``, rises with
``theta``; the 95% interval runs from where it is 0.025 to where it is 0.975. The estimate is
the ``theta`` at which the mean at the stop is on average the observed mean (Whitehead's
bias-adjusted estimate): the median-unbiased one (where ``p`` is 0.5) keeps about half of the
plain mean's bias in the replication study.

``p(theta)`` is computed by simulation: the same standardised paths (a generator seeded from
the inputs, so a result is a pure function of them) for every ``theta``, and bisection for the
three roots. Everything is in the metric's units; nothing here plays games.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pipelines.stats.core import normal_cdf, t_quantile
from pipelines.stats.sprt import MIN_BLOCKS, bounds

METHOD = (
    "bias-adjusted, valid under the stopping rule (sample-mean ordering; the test as run, "
    "simulated with the blocks' sd and skewness)"
)
#: Where the test could not have stopped before its last look, the stop selects nothing.
FIXED_METHOD = "Student's t (the test could not stop before its last look)"
#: Simulated paths: about this many path-looks, within the two limits below.
_CELLS = 2_000_000
_MIN_PATHS = 2_000
_MAX_PATHS = 20_000
#: Below this sample skewness the blocks are modelled as normal; above the other, the model's
#: skewness stops (a shifted exponential; a few blocks' skewness says little beyond that).
_NORMAL_SKEW = 0.01
_MAX_SKEW = 2.0

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Design:
    """The test as run, in the metric's units: a one-sided SPRT of ``theta0`` against
    ``theta1``, or (``delta`` set) the two-sided test of 0 against ``+-delta`` (two one-sided
    SPRTs at ``alpha / 2``), looking at the block counts ``looks`` (increasing; the last is
    the most ``--max-games`` allows) and never before ``min_blocks``."""

    looks: tuple[int, ...]
    theta0: float = 0.0
    theta1: float = 0.0
    delta: float | None = None
    alpha: float = 0.05
    beta: float = 0.05
    min_blocks: int = MIN_BLOCKS


@dataclass(frozen=True)
class Estimate:
    """A point estimate, its interval and the method that gave them."""

    estimate: float
    low: float
    high: float
    method: str


def look_schedule(batch_blocks: int, max_blocks: int) -> tuple[int, ...]:
    """The block counts at which ``compare`` looks: after every batch, and at the last block."""
    looks = list(range(batch_blocks, max_blocks, batch_blocks))
    return (*looks, max_blocks)


def _one_sided_stop(design: Design, llr: Floats) -> npt.NDArray[np.intp]:
    """Per path, the index of the look where the one-sided SPRT stops (the last if none)."""
    low, high = bounds(design.alpha, design.beta)
    crossed = (llr >= high) | (llr <= low)
    return _first(crossed)


def _first(crossed: npt.NDArray[np.bool_]) -> npt.NDArray[np.intp]:
    """Per row, the first True column, or the number of columns when there is none."""
    any_ = crossed.any(axis=1)
    first = crossed.argmax(axis=1)
    out: npt.NDArray[np.intp] = np.where(any_, first, crossed.shape[1])
    return out


def _two_sided_stop(design: Design, llr_up: Floats, llr_down: Floats) -> npt.NDArray[np.intp]:
    """Per path, the look where the two-sided test stops: a side's verdict is fixed at the
    first look where it crosses a bound; the test stops when a side accepts its H1, or when
    both have accepted H0 (:class:`pipelines.stats.sprt.TwoSidedSprt`)."""
    low, high = bounds(design.alpha / 2, design.beta)
    last = llr_up.shape[1]
    stops = []
    h1_at = []
    for llr in (llr_up, llr_down):
        cross = _first((llr >= high) | (llr <= low))
        stops.append(cross)
        idx = np.minimum(cross, last - 1)
        is_h1 = (cross < last) & (np.take_along_axis(llr, idx[:, None], axis=1)[:, 0] >= high)
        h1_at.append(np.where(is_h1, cross, last))
    both_h0 = np.where((h1_at[0] == last) & (h1_at[1] == last), np.maximum(*stops), last)
    return np.minimum(np.minimum(h1_at[0], h1_at[1]), both_h0)


def _normal_batches(
    rng: np.random.Generator, shape: tuple[int, int], steps: Floats
) -> tuple[Floats, Floats]:
    """Normal blocks: a batch's sum is normal, and its sum of squares about its own mean
    chi-square on (size - 1) degrees of freedom, apart from the sum."""
    batch = rng.standard_normal(shape) * np.sqrt(steps)
    within = np.where(steps > 1, rng.chisquare(np.maximum(steps - 1, 1), shape), 0.0)
    return batch, within


def _skewed_batches(
    rng: np.random.Generator, shape: tuple[int, int], steps: Floats, skew: float
) -> tuple[Floats, Floats]:
    """Blocks from a shifted gamma of skewness ``skew`` (mirrored when negative; |skew| at
    most :data:`_MAX_SKEW`). A batch's sum is exact: a sum of gammas is a gamma. Its sum of
    squares about the true mean is drawn given the sum, normal with the gamma's moments (mean
    the size, variance size x (2 + excess kurtosis), covariance size x skew with the sum),
    which carries what matters to the test: with skewed blocks a batch's mean and spread move
    together, so the low means that decide the test early come with low variances."""
    g = min(abs(skew), _MAX_SKEW)
    k = 4.0 / g**2  # the gamma's shape: skewness 2 / sqrt(k), excess kurtosis 6 / k
    sign = 1.0 if skew > 0 else -1.0
    batch = sign * (rng.gamma(k * steps, 1.0, shape) - k * steps) / np.sqrt(k)
    spread = np.sqrt(steps * (2.0 + 6.0 / k - g**2))
    squares = steps + sign * g * batch + spread * rng.standard_normal(shape)
    within = np.where(steps > 1, np.maximum(squares - batch**2 / steps, 0.0), 0.0)
    return batch, within


class _Model:
    """The simulated test: fixed standard normal paths, the mean at the stop for any ``theta``."""

    def __init__(
        self, design: Design, sd: float, seed: int, paths: int | None, skew: float = 0.0
    ) -> None:
        self.design = design
        self.sd = sd
        self.n = np.asarray(design.looks, dtype=np.float64)
        steps = np.diff(np.concatenate(([0.0], self.n)))
        count = paths or min(_MAX_PATHS, max(_MIN_PATHS, _CELLS // len(self.n)))
        rng = np.random.default_rng(seed)
        # Each batch's sum of deviations from the true mean, in units of sd, and its sum of
        # squares about its own mean. The test weighs by the variance it estimates at each
        # look, and stops sooner where that came out small: so the model estimates it too.
        if abs(skew) < _NORMAL_SKEW:
            batch, within = _normal_batches(rng, (count, len(self.n)), steps)
        else:
            batch, within = _skewed_batches(rng, (count, len(self.n)), steps, skew)
        noise = np.cumsum(batch, axis=1)
        # The total of squares about the running mean does not depend on the true mean.
        squares = np.cumsum(within + batch**2 / steps, axis=1) - noise**2 / self.n
        with np.errstate(divide="ignore", invalid="ignore"):
            variance = np.maximum(squares, 0.0) / (self.n - 1) * sd**2
        # Looks before min_blocks cannot decide; nor can a variance of 0 (Sprt.llr).
        self.eligible = (self.n >= design.min_blocks) & (variance > 0)
        # Twice the variance, infinite where a look may not decide: its log-likelihood ratio
        # is then 0 and sits between the bounds. Kept, with sd x noise, because means() runs
        # some fifty times an estimate over every path and look.
        self.twice_variance = np.where(self.eligible, 2 * variance, np.inf)
        self.sd_noise = self.sd * noise

    def _llr(self, twice_total: Floats, theta0: float, theta1: float) -> Floats:
        d = theta1 - theta0
        llr: Floats = d * (twice_total - self.n * (theta0 + theta1)) / self.twice_variance
        return llr

    def means(self, theta: float) -> Floats:
        """The mean at the stop of every path when the true mean is ``theta``."""
        design = self.design
        total = theta * self.n + self.sd_noise
        twice = 2 * total
        if design.delta is None:
            stop = _one_sided_stop(design, self._llr(twice, design.theta0, design.theta1))
        else:
            up = self._llr(twice, 0.0, design.delta)
            down = self._llr(twice, 0.0, -design.delta)
            stop = _two_sided_stop(design, up, down)
        stop = np.minimum(stop, len(self.n) - 1)
        at_stop = np.take_along_axis(total, stop[:, None], axis=1)[:, 0]
        result: Floats = at_stop / self.n[stop]
        return result

    def at_least(self, theta: float, mean: float) -> float:
        """The chance that the mean at the stop is at least ``mean`` under ``theta``."""
        return float(np.mean(self.means(theta) >= mean))


def _root(model: _Model, mean: float, q: float, scale: float) -> float:
    """The ``theta`` where the chance of a mean at least ``mean`` reaches ``q`` (bisection:
    the simulated chance is a step function of ``theta``)."""
    low, high = mean - scale, mean + scale
    while model.at_least(low, mean) >= q:
        low -= scale
    while model.at_least(high, mean) < q:
        high += scale
    tolerance = scale * 1e-4
    while high - low > tolerance:
        middle = (low + high) / 2
        if model.at_least(middle, mean) >= q:
            high = middle
        else:
            low = middle
    return (low + high) / 2


def _seed(design: Design, blocks: int, total: float, sd: float, skew: float) -> int:
    text = repr((design, blocks, total, sd, skew)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "little")


def sequential_estimate(
    design: Design,
    blocks: int,
    total: float,
    sd: float,
    skew: float = 0.0,
    level: float = 0.95,
    paths: int | None = None,
) -> Estimate | None:
    """The estimate and interval of the mean after the test ``design`` stopped at ``blocks``
    with the running sum ``total``, per-block standard deviation ``sd`` and skewness ``skew``
    (see the module docstring). None when the stop selected nothing, so the plain figures
    are valid: a standard deviation of 0 (the test cannot weigh anything), or no look at
    which the test could have stopped before the last one."""
    looks = tuple(n for n in design.looks if n <= blocks)
    if not looks or looks[-1] != blocks:
        raise ValueError(f"the test stopped at {blocks} blocks, which is not one of its looks")
    # A look before the last at which the test could stop: without one, the stop selects nothing.
    decisive = [n for n in design.looks[:-1] if n >= design.min_blocks]
    if sd <= 0 or not math.isfinite(sd) or not decisive:
        return None
    model = _Model(design, sd, _seed(design, blocks, total, sd, skew), paths, skew)
    mean = total / blocks
    # Bracket steps: the spread of the mean at the earliest look that could stop.
    scale = 2 * sd / math.sqrt(min(n for n in design.looks if n >= design.min_blocks))
    # The model takes the observed sd for the true one; as Student's t does for a fixed-size
    # sample, the tails are widened to t's on blocks - 1 degrees of freedom (with no stop
    # possible before the last look, this interval would be exactly Student's t).
    tail = normal_cdf(-t_quantile(0.5 + level / 2, blocks - 1))
    low = _root(model, mean, tail, scale)
    high = _root(model, mean, 1 - tail, scale)
    return Estimate(_bias_adjusted(model, mean, low, high), low, high, METHOD)


def _bias_adjusted(model: _Model, mean: float, low: float, high: float) -> float:
    """The ``theta`` whose expected mean at the stop is the observed mean (Whitehead's
    bias-adjusted estimate), searched within the interval: the median-unbiased estimate
    leaves about half of the naive mean's bias, this one next to none."""
    lo, hi = low, high
    tolerance = (high - low) * 1e-4
    while hi - lo > tolerance:
        middle = (lo + hi) / 2
        if float(np.mean(model.means(middle))) >= mean:
            hi = middle
        else:
            lo = middle
    return (lo + hi) / 2


def plain(mean: float, interval: Sequence[float]) -> Estimate:
    """The fixed-size figures, under the name of their method."""
    return Estimate(mean, interval[0], interval[1], FIXED_METHOD)
