"""Sequential and fixed-size tests on paired observations, as chess engine testing does them.

The observations are one number per complete block of seeds (for example the paired
difference in win share between variant B and variant A over the seat rotations of one deal),
so a test never stops on a partial block. :class:`Sprt` is the generalised SPRT with a normal
approximation: with the sample mean ``m``, sample variance ``s2`` and ``n`` blocks, the
log-likelihood ratio of H1 (mean = ``theta1``) against H0 (mean = ``theta0``) is
``n * (theta1 - theta0) * (2 m - theta0 - theta1) / (2 s2)``; the test accepts H1 above
``log((1 - beta) / alpha)`` and H0 below ``log(beta / (1 - alpha))`` (+-2.944 for the
defaults alpha = beta = 0.05).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

ACCEPT_H0 = "H0"
ACCEPT_H1 = "H1"
CONTINUE = "continue"


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

    def add(self, x: float) -> None:
        """One block's observation."""
        self.n += 1
        self.total += x
        self.total_sq += x * x

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
        low, high = bounds(self.alpha, self.beta)
        llr = self.llr
        if llr >= high:
            return ACCEPT_H1
        if llr <= low:
            return ACCEPT_H0
        return CONTINUE

    def interval(self, level: float = 0.95) -> tuple[float, float]:
        """Normal-approximation interval for the mean."""
        if self.n < 2:
            return (-math.inf, math.inf)
        z = NormalDist().inv_cdf(0.5 + level / 2)
        half = z * math.sqrt(self.variance / self.n)
        return (self.mean - half, self.mean + half)


def fixed_size(sd: float, effect: float, alpha: float = 0.05, power: float = 0.95) -> int:
    """Blocks a fixed-size two-sided test needs to detect a mean ``effect`` with ``power`` at
    level ``alpha``, given the per-block standard deviation ``sd`` (from a pilot)."""
    if effect == 0:
        raise ValueError("the effect to detect must not be 0")
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    return math.ceil((z * sd / abs(effect)) ** 2)
