"""Small statistical helpers shared by the metrics: intervals for rates and means."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a rate of ``successes`` out of ``n`` (fractional successes
    allowed: a shared win counts 1/k). ``(0, 1)`` when ``n`` is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for a chi-square variable with ``dof`` degrees of freedom (closed forms,
    exact for any positive integer ``dof``)."""
    if x <= 0:
        return 1.0
    half = x / 2
    if dof % 2 == 0:
        # Survival of an even chi-square: exp(-x/2) * sum_{k < dof/2} (x/2)^k / k!
        term = 1.0
        total = 1.0
        for k in range(1, dof // 2):
            term *= half / k
            total += term
        return math.exp(-half) * total
    # Odd: erfc(sqrt(x/2)) + sqrt(2x/pi) exp(-x/2) * sum_k x^k / (3 * 5 * ... * (2k+1)).
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(2 * x / math.pi) * math.exp(-half)
    for k in range(1, (dof + 1) // 2):
        total += term
        term *= x / (2 * k + 1)
    return min(1.0, total)


def chi_square_uniform(counts: list[float]) -> tuple[float, float]:
    """Chi-square statistic and p-value of ``counts`` against equal expected counts."""
    n = sum(counts)
    k = len(counts)
    if n <= 0 or k < 2:
        return (0.0, 1.0)
    expected = n / k
    stat = sum((c - expected) ** 2 / expected for c in counts)
    return (stat, chi2_sf(stat, k - 1))
