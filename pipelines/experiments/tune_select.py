"""What ``tourney tune`` may claim about the setting it picked: intervals and selection.

A search picks its best on the games it measured, so the best's own figures are optimistic
(winner's curse). This module holds the rules that keep the tune's words within what the
games show:

- **Shares** get Wilson intervals at the effective sample size over seed blocks (inside
  [0, 1], never "0.0% [0.0, 0.0]").
- **Paired differences** (a setting against another on the blocks both played) get Student-t
  95% intervals; fewer than :data:`MIN_BLOCKS` blocks give none.
- **The plausible set** keeps every setting whose upper confidence bound on (setting - best)
  reaches 0 in every round both played, one-sided, Bonferroni-corrected over the other
  candidates and the rounds: a setting truly as good as the best is then left out only when
  one of at most (K - 1) x R tests on fresh data errs, so it stays in at least 95% of the
  time whichever setting the search happened to pick (a multiple comparison with the best).
  Measured: ``tests/pipelines/test_tune_selection.py``.
- **The verdict** names a best only when the confirmation on fresh seeds finds it better
  than the default and than the runner-up of the search.
"""

from __future__ import annotations

import math
from typing import Any

from pipelines.stats.core import clustered_share, t_quantile

#: Fewer blocks give no interval for a paired difference.
MIN_BLOCKS = 5


def share_interval(values: list[float], per_block: int) -> tuple[float, float]:
    """The 95% Wilson interval of a win share from its per-block means (each block
    ``per_block`` games of the tuned seat), at the effective size over blocks; NaN from
    fewer than two blocks."""
    k = len(values)
    if k < 2:
        return math.nan, math.nan
    mean = sum(values) / k
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (k - 1))
    games = k * per_block
    # The spread of block means, as the se of a share over every game of the blocks.
    return clustered_share(mean * games, games, sd / math.sqrt(k), k)


def t_bounds(values: list[float], alpha: float, sided: int = 2) -> tuple[float, float, float]:
    """Mean and Student-t bounds of per-block differences at error ``alpha`` (split over both
    sides when ``sided`` is 2); NaN bounds from fewer than :data:`MIN_BLOCKS` blocks."""
    k = len(values)
    if k == 0:
        return math.nan, math.nan, math.nan
    mean = sum(values) / k
    if k < MIN_BLOCKS:
        return mean, math.nan, math.nan
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (k - 1))
    half = t_quantile(1 - alpha / sided, k - 1) * sd / math.sqrt(k)
    return mean, mean - half, mean + half


def plausible(rounds: list[list[float]], candidates: int, planned: int) -> bool:
    """Whether a setting stays in the plausible set, from its per-block differences with the
    best (setting - best) in each round both played: kept unless some round shows it worse,
    one-sided at 5% / ((``candidates`` - 1) x ``planned`` rounds). Each round's seeds are
    fresh, so each test is on data its selection did not see; pooling the rounds instead
    tests at a data-chosen stop, which measured 87% instead of 95%. A round with too few
    blocks to bound shows nothing."""
    alpha = 0.05 / (max(1, candidates - 1) * max(1, planned))
    for values in rounds:
        _, _, high = t_bounds(values, alpha, sided=1)
        if not math.isnan(high) and high < 0:
            return False
    return True


def separated(d: dict[str, Any]) -> bool:
    """Whether a difference (``as_dict`` form) has an interval that excludes 0."""
    low, high = d["interval"]
    return low is not None and high is not None and (low > 0 or high < 0)


def verdict(best: str, against: list[tuple[str, str, dict[str, Any]]]) -> tuple[bool, str]:
    """Whether the confirmation names ``best`` the best, and the sentence saying so:
    ``against`` holds (role, setting, best - setting on fresh seeds) for the default and the
    runner-up."""
    weak = [(role, who, d) for role, who, d in against if not (separated(d) and d["mean"] > 0)]
    if not weak:
        names = " and ".join(f"the {role} {who}" for role, who, _ in against)
        return True, f"confirmed on fresh seeds: {best} wins more often than {names}"
    role, who, d = weak[0]
    return False, (
        f"not confirmed: on fresh seeds the search's leader {best} is not shown better than "
        f"the {role} {who} ({points(d)}), so no best is named: its edge in the search may be "
        "luck"
    )


def points(d: dict[str, Any]) -> str:
    """A difference of shares in points with its interval (or why there is none)."""
    low, high = d["interval"]
    if d["mean"] is None:
        return "no common blocks"
    if low is None:
        return f"{100 * d['mean']:+.1f} points (too few blocks for an interval)"
    return f"{100 * d['mean']:+.1f} points [{100 * low:+.1f}, {100 * high:+.1f}]"
