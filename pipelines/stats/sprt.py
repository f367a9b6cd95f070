"""Sequential and fixed-size tests on paired observations, as chess engine testing does them.

The observations are one number per complete block of seeds (for example the paired
difference in win share between variant B and variant A over the seat rotations of one deal),
so a test never stops on a partial block. :class:`Sprt` is the generalised SPRT with a normal
approximation: with the sample mean ``m``, sample variance ``s2`` and ``n`` blocks, the
log-likelihood ratio of H1 (mean = ``theta1``) against H0 (mean = ``theta0``) is
``n * (theta1 - theta0) * (2 m - theta0 - theta1) / (2 s2)``; the test accepts H1 above
``log((1 - beta) / alpha)`` and H0 below ``log(beta / (1 - alpha))`` (+-2.944 for the
defaults alpha = beta = 0.05).

:class:`TwoSidedSprt` decides between "no difference" (mean = ``theta0``) and "a difference of
at least ``delta`` in either direction" with two one-sided SPRTs run side by side on the same
observations, each at level ``alpha / 2``: one of ``theta0`` against ``theta0 + delta``, one of
``theta0`` against ``theta0 - delta`` (the construction of Sobel and Wald 1949 and Armitage
1950 for three hypotheses). A side that accepts its H0 stops and keeps that verdict; the test
accepts "B higher" or "B lower" as soon as one side accepts its H1, and "no difference" once both
sides have accepted their H0. Under ``theta0`` each side wrongly accepts its H1 with chance at
most ``alpha / 2``, so a difference is claimed with chance at most ``alpha``; at
``theta0 +- delta`` the side facing that way misses it with chance at most ``beta``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from pipelines.stats.core import normal_quantile, t_quantile

ACCEPT_H0 = "H0"
ACCEPT_H1 = "H1"
#: The two-sided test's verdicts "B higher by at least delta" and "B lower by at least delta".
ACCEPT_HIGHER = "H1+"
ACCEPT_LOWER = "H1-"
CONTINUE = "continue"


#: Blocks a test must have before it may decide: its variance is estimated from the blocks,
#: and from two or three of them it can come out near zero and decide at once.
MIN_BLOCKS = 10


def bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """The lower and upper log-likelihood-ratio bounds."""
    return (math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))


@dataclass
class Sprt:
    """A running SPRT of H0: mean = ``theta0`` against H1: mean = ``theta1``."""

    theta0: float
    theta1: float
    alpha: float = 0.05
    beta: float = 0.05
    n: int = 0
    total: float = 0.0
    total_sq: float = 0.0
    total_cu: float = 0.0

    def add(self, x: float) -> None:
        """One block's observation."""
        self.n += 1
        self.total += x
        self.total_sq += x * x
        self.total_cu += x * x * x

    @property
    def mean(self) -> float:
        """Mean of the observations so far."""
        return self.total / self.n if self.n else 0.0

    @property
    def variance(self) -> float:
        """Sample variance (0 with fewer than two observations)."""
        if self.n < 2:
            return 0.0
        return max(0.0, (self.total_sq - self.n * self.mean**2) / (self.n - 1))

    @property
    def skewness(self) -> float:
        """Sample skewness of the observations, ``m3 / m2 ** 1.5`` from the central moments
        (0 with fewer than three observations or no spread)."""
        if self.n < 3:
            return 0.0
        m = self.mean
        m2 = self.total_sq / self.n - m * m
        if m2 <= 0:
            return 0.0
        m3 = self.total_cu / self.n - 3 * m * self.total_sq / self.n + 2 * m**3
        return m3 / (m2 * math.sqrt(m2))

    @property
    def llr(self) -> float:
        """The log-likelihood ratio of H1 against H0."""
        var = self.variance
        if var <= 0:
            return 0.0
        d = self.theta1 - self.theta0
        return self.n * d * (2 * self.mean - self.theta0 - self.theta1) / (2 * var)

    @property
    def status(self) -> str:
        """``H0``, ``H1`` or ``continue``."""
        return decide(self.llr, self.alpha, self.beta)

    def look(self) -> str:
        """The verdict at a look (a one-sided SPRT's verdict depends on the counts only)."""
        return self.status

    def llrs(self) -> dict[str, float]:
        """The log-likelihood ratio of each alternative against H0, by the alternative's name."""
        return {ACCEPT_H1: self.llr}

    def llr_bounds(self) -> tuple[float, float]:
        """The bounds each log-likelihood ratio is compared with."""
        return bounds(self.alpha, self.beta)

    def interval(self, level: float = 0.95) -> tuple[float, float]:
        """Interval for the mean from Student's t on ``n - 1`` degrees of freedom (the
        variance is estimated from the blocks)."""
        if self.n < 2:
            return (-math.inf, math.inf)
        half = t_quantile(0.5 + level / 2, self.n - 1) * math.sqrt(self.variance / self.n)
        return (self.mean - half, self.mean + half)


def decide(llr: float, alpha: float = 0.05, beta: float = 0.05) -> str:
    """``H1`` at or above the upper bound, ``H0`` at or below the lower one, else ``continue``."""
    low, high = bounds(alpha, beta)
    if llr >= high:
        return ACCEPT_H1
    if llr <= low:
        return ACCEPT_H0
    return CONTINUE


@dataclass
class TwoSidedSprt:
    """A running two-sided test of H0: mean = ``theta0`` against mean = ``theta0 +- delta``
    (``delta`` > 0): two one-sided SPRTs at ``alpha / 2`` each (see the module docstring).

    A side's verdict is fixed at the look where it reaches a bound, so call :meth:`look` at
    every look (after every complete batch) and only then.
    """

    theta0: float
    delta: float
    alpha: float = 0.05
    beta: float = 0.05
    higher: Sprt = field(init=False)
    lower: Sprt = field(init=False)
    #: Each side's verdict, fixed once reached, and the test's.
    higher_status: str = field(init=False, default=CONTINUE)
    lower_status: str = field(init=False, default=CONTINUE)
    status: str = field(init=False, default=CONTINUE)

    def __post_init__(self) -> None:
        if not self.delta > 0:
            raise ValueError("delta must be positive")
        self.higher = Sprt(self.theta0, self.theta0 + self.delta, self.alpha / 2, self.beta)
        self.lower = Sprt(self.theta0, self.theta0 - self.delta, self.alpha / 2, self.beta)

    def add(self, x: float) -> None:
        """One block's observation."""
        self.higher.add(x)
        self.lower.add(x)

    def look(self) -> str:
        """Update each side still running; ``H0``, ``H1+``, ``H1-`` or ``continue``."""
        if self.status != CONTINUE:
            return self.status
        if self.higher_status == CONTINUE:
            self.higher_status = self.higher.status
        if self.lower_status == CONTINUE:
            self.lower_status = self.lower.status
        if self.higher_status == ACCEPT_H1:
            self.status = ACCEPT_HIGHER
        elif self.lower_status == ACCEPT_H1:
            self.status = ACCEPT_LOWER
        elif self.higher_status == ACCEPT_H0 and self.lower_status == ACCEPT_H0:
            self.status = ACCEPT_H0
        return self.status

    @property
    def n(self) -> int:
        """Observations so far."""
        return self.higher.n

    @property
    def mean(self) -> float:
        """Mean of the observations so far."""
        return self.higher.mean

    @property
    def variance(self) -> float:
        """Sample variance (0 with fewer than two observations)."""
        return self.higher.variance

    @property
    def skewness(self) -> float:
        """Sample skewness (see :meth:`Sprt.skewness`)."""
        return self.higher.skewness

    def interval(self, level: float = 0.95) -> tuple[float, float]:
        """Student's t interval for the mean (see :meth:`Sprt.interval`)."""
        return self.higher.interval(level)

    def llrs(self) -> dict[str, float]:
        """Each side's log-likelihood ratio of its H1 against H0: ``H1+`` and ``H1-``."""
        return {ACCEPT_HIGHER: self.higher.llr, ACCEPT_LOWER: self.lower.llr}

    def llr_bounds(self) -> tuple[float, float]:
        """The bounds each side's log-likelihood ratio is compared with (level ``alpha / 2``)."""
        return bounds(self.alpha / 2, self.beta)


def fixed_size(sd: float, effect: float, alpha: float = 0.05, power: float = 0.95) -> int:
    """Blocks a fixed-size two-sided test needs to detect a mean ``effect`` with ``power`` at
    level ``alpha``, given the per-block standard deviation ``sd`` (from a pilot)."""
    if effect == 0:
        raise ValueError("the effect to detect must not be 0")
    z = normal_quantile(1 - alpha / 2) + normal_quantile(power)
    return math.ceil((z * sd / abs(effect)) ** 2)
