"""Power: the smallest effect a run could have detected, and the games a chosen effect needs.

A run that finds "no difference" has only looked as closely as its standard error allows;
these pure functions say how closely. For a normal test at level ``alpha`` (two-sided, or
one-sided) with standard error ``se``, the effect detected with probability ``power`` is

    MDE = (z_{1 - alpha/sides} + z_{power}) * se

(the minimum detectable effect; the chance of the far tail is ignored, as usual). The
standard error shrinks as one over the square root of the games, so an effect ``d`` needs
``games * (MDE / d)^2`` games.

For a chi-square test of equal shares across ``k`` groups (the islands' first-seat shares,
``df = k - 1``) the statistic is noncentral chi-square with noncentrality
``lambda = N s^2 / v`` under a spread ``s`` of the groups' true shares (their standard
deviation weighted by games), ``N`` games and ``v`` the variance of one game's result (times
the design effect). The detectable spread is ``sqrt(lambda_80 v / N)`` with ``lambda_80`` the
noncentrality at which the test rejects with probability ``power``. The noncentral
chi-square is computed as its Poisson mixture of central chi-squares
(:func:`pipelines.stats.core.chi2_sf`, exact for integer degrees of freedom).
"""

from __future__ import annotations

import math

from pipelines.stats.core import Z95, chi2_sf, normal_quantile

#: The power every "could have detected" figure is stated at.
POWER = 0.8


def z_sum(alpha: float = 0.05, power: float = POWER, sides: int = 2) -> float:
    """``z_{1 - alpha/sides} + z_{power}``: the detectable effect in standard errors."""
    if sides not in (1, 2) or not 0 < alpha < 1 or not 0 < power < 1:
        raise ValueError("sides must be 1 or 2, alpha and power between 0 and 1")
    return normal_quantile(1 - alpha / sides) + normal_quantile(power)


def detectable_effect(
    se: float, alpha: float = 0.05, power: float = POWER, sides: int = 2
) -> float | None:
    """The smallest effect a normal test with standard error ``se`` detects with ``power``
    (None without a positive, finite standard error)."""
    if not math.isfinite(se) or se <= 0:
        return None
    return z_sum(alpha, power, sides) * se


def games_for_effect(
    effect: float,
    se: float,
    games: float,
    alpha: float = 0.05,
    power: float = POWER,
    sides: int = 2,
    step: int = 1,
) -> int | None:
    """Games (in whole multiples of ``step``, such as a seed block's games) for which a run
    like this one, with standard error ``se`` over ``games``, detects ``effect`` with
    ``power`` (None without a standard error or an effect)."""
    mde = detectable_effect(se, alpha, power, sides)
    if mde is None or effect == 0 or not math.isfinite(effect) or games <= 0:
        return None
    units = games * (mde / abs(effect)) ** 2 / step
    return max(1, math.ceil(units - 1e-9)) * step


def se_from_interval(low: float, high: float, z: float = Z95) -> float:
    """The standard error behind a symmetric normal interval ``low``..``high`` (nan when the
    interval is not finite)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return math.nan
    return (high - low) / (2 * z)


def ncx2_sf(x: float, df: int, nc: float) -> float:
    """P(X >= x) for a noncentral chi-square with ``df`` degrees of freedom and noncentrality
    ``nc``: the Poisson(``nc``/2) mixture of central chi-squares on ``df + 2j`` degrees."""
    if nc <= 0:
        return chi2_sf(x, df)
    half = nc / 2
    # The Poisson weights around their mode, 12 standard deviations either way (the mass
    # left out is below 1e-15).
    reach = math.ceil(12 * math.sqrt(half) + 20)
    mode = int(half)
    total = 0.0
    for j in range(max(0, mode - reach), mode + reach + 1):
        weight = math.exp(-half + j * math.log(half) - math.lgamma(j + 1))
        total += weight * chi2_sf(x, df + 2 * j)
    return min(1.0, total)


def chi2_critical(df: int, alpha: float = 0.05) -> float:
    """The chi-square value a test on ``df`` degrees of freedom rejects at, at level
    ``alpha``."""
    low, high = 0.0, 1.0
    while chi2_sf(high, df) > alpha:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        if chi2_sf(mid, df) > alpha:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def noncentrality_for_power(df: int, alpha: float = 0.05, power: float = POWER) -> float:
    """The noncentrality at which a chi-square test on ``df`` degrees of freedom at level
    ``alpha`` rejects with probability ``power`` (Cohen's lambda: 7.85 at one degree of
    freedom, 5% and 80%)."""
    critical = chi2_critical(df, alpha)
    low, high = 0.0, 1.0
    while ncx2_sf(critical, df, high) < power:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        if ncx2_sf(critical, df, mid) < power:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def detectable_spread(
    df: int, games: float, unit_variance: float, alpha: float = 0.05, power: float = POWER
) -> float | None:
    """The spread (games-weighted standard deviation of the groups' true shares) that a
    chi-square test of equal shares over ``games`` games detects with ``power``;
    ``unit_variance`` is one game's variance times the design effect."""
    if df < 1 or games <= 0 or unit_variance <= 0:
        return None
    return math.sqrt(noncentrality_for_power(df, alpha, power) * unit_variance / games)


def games_for_spread(
    spread: float, df: int, unit_variance: float, alpha: float = 0.05, power: float = POWER
) -> int | None:
    """Games a chi-square test of equal shares needs to detect ``spread`` with ``power``."""
    if df < 1 or spread <= 0 or unit_variance <= 0:
        return None
    return math.ceil(noncentrality_for_power(df, alpha, power) * unit_variance / spread**2)
