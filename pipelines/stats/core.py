"""The statistical functions every pipeline shares: normal and Student's t distribution
functions and quantiles, intervals for rates and means, chi-square tests, adjustments.

Pure functions only; the distribution functions come from scipy, so there is one version of
each in the product. scipy.stats is imported by the functions that use it, on their first
call: it takes most of a second of CPU to import, and a ``simulate``, a ``play`` or a command
refused for its input reaches this module without ever asking for a distribution.
"""

from __future__ import annotations

import functools
import math

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
#: Fewer seed blocks than this give a mean over blocks no interval: the spread of two to four
#: block means says next to nothing about the spread of the next ones.
MIN_INTERVAL_BLOCKS = 5


def normal_cdf(x: float) -> float:
    """P(Z <= x) for a standard normal Z."""
    from scipy.stats import norm

    return float(norm.cdf(x))


def normal_quantile(p: float) -> float:
    """The ``p`` quantile of the standard normal distribution."""
    from scipy.stats import norm

    return float(norm.ppf(p))


@functools.lru_cache(maxsize=1024)
def t_quantile(p: float, dof: float) -> float:
    """The ``p`` quantile of Student's t with ``dof`` degrees of freedom (cached: intervals
    ask for the same few over and over)."""
    from scipy.stats import t as student_t

    return float(student_t.ppf(p, dof))


def t_sf(t: float, dof: float) -> float:
    """P(T > t) for Student's t with ``dof`` degrees of freedom."""
    from scipy.stats import t as student_t

    return float(student_t.sf(t, dof))


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a rate of ``successes`` out of ``n`` (fractional successes
    allowed: a shared win counts 1/k). ``(0, 1)`` when ``n`` is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # At 0% and 100% the bound is exactly 0 or 1 (the formula leaves rounding dust).
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return (low, high)


def block_mean_interval(
    mean: float, se: float, blocks: int, level: float = 0.95
) -> tuple[float | None, float | None]:
    """Interval for a mean over ``blocks`` independent seed blocks with standard error ``se``
    (from the blocks' spread): Student's t on ``blocks - 1`` degrees of freedom, which holds
    its level at ten blocks where the normal 1.96 covers about 92%. ``(None, None)`` below
    :data:`MIN_INTERVAL_BLOCKS` blocks."""
    if blocks < MIN_INTERVAL_BLOCKS:
        return (None, None)
    half = t_quantile(0.5 + level / 2, blocks - 1) * se
    return (mean - half, mean + half)


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


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def ratio_se(
    total: float,
    count: float,
    sum_yy: float,
    sum_yn: float,
    sum_nn: float,
    clusters: int,
) -> float:
    """Standard error of the mean ``total / count`` of observations grouped in ``clusters``
    (independent groups, such as the seat rotations of one deal), from the per-cluster sums
    ``y_c`` and sizes ``n_c`` via ``sum_yy = Σ y_c²``, ``sum_yn = Σ y_c n_c``, ``sum_nn = Σ
    n_c²``: the cluster-robust (linearised ratio) variance
    ``Σ (y_c - m n_c)² / N² · C / (C - 1)``. 0 with fewer than two clusters."""
    if clusters < 2 or count <= 0:
        return 0.0
    m = total / count
    spread = max(0.0, sum_yy - 2 * m * sum_yn + m * m * sum_nn)
    return math.sqrt(spread * clusters / (clusters - 1)) / count


def clustered_share(
    total: float, count: float, se: float, clusters: int, z: float = Z95
) -> tuple[float, float]:
    """A 95% interval for a share ``total / count`` whose observations come in clusters: the
    Wilson interval at the effective sample size ``p (1 - p) / se²`` (never more than
    ``count``), so it stays inside [0, 1] and is valid at 0% and 100%, where the effective
    size is taken as the number of clusters (the cautious choice: nothing is known of the
    correlation inside a cluster)."""
    if count <= 0:
        return (0.0, 1.0)
    p = total / count
    if 0 < p < 1 and se > 0:
        n_eff = min(count, p * (1 - p) / (se * se))
    elif 0 < p < 1:
        n_eff = count
    else:
        n_eff = max(1.0, float(clusters))
    return wilson(p * n_eff, n_eff, z)


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment of ``p_values`` (same order), family-wise error control."""
    m = len(p_values)
    order = sorted(range(m), key=lambda k: p_values[k])
    adjusted = [1.0] * m
    running = 0.0
    for rank, k in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[k]))
        adjusted[k] = running
    return adjusted
