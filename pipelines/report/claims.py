"""What a sentence about an effect may claim, decided from its 95% interval alone.

Every sentence the product writes about a difference (compare's verdict, the report's
findings, tune's confirmation) asks :func:`claim` first: the direction is stated only when
the interval excludes 0, and a size ("by at least 1.5 turns") only when the whole interval
lies beyond it. :func:`phrase` turns the claim into words. Both are pure functions of numbers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Claim:
    """What the interval supports: ``direction`` +1 (the interval lies above 0), -1 (below)
    or 0 (it contains 0, or is not finite); ``at_least`` the size, as a positive number, that
    the whole interval lies beyond on that side (None when no size may be claimed)."""

    direction: int
    at_least: float | None = None


def claim(estimate: float, low: float, high: float, threshold: float = 0.0) -> Claim:
    """The claim an estimate with the interval ``low``..``high`` supports, and whether it
    supports a change of at least ``threshold`` (signed: -1.5 asks "at least 1.5 lower"):
    only when the whole interval lies at or beyond it. The estimate must lie in its interval
    for any claim at all."""
    finite = all(math.isfinite(x) for x in (estimate, low, high))
    if not finite or not low <= estimate <= high:
        return Claim(0)
    direction = 1 if low > 0 else -1 if high < 0 else 0
    beyond = (threshold > 0 and low >= threshold) or (threshold < 0 and high <= threshold)
    return Claim(direction, abs(threshold) if beyond and direction else None)


def strongest(estimate: float, low: float, high: float, thresholds: list[float]) -> Claim:
    """The claim with the largest of ``thresholds`` the interval lies wholly beyond (the
    plain direction, or none, when it lies beyond none of them)."""
    best = claim(estimate, low, high)
    for t in thresholds:
        c = claim(estimate, low, high, t)
        if c.at_least is not None and (best.at_least is None or c.at_least > best.at_least):
            best = c
    return best


def phrase(c: Claim, up: str, down: str, amount: Callable[[float], str], none: str) -> str:
    """The claim in words: ``up``/``down`` say what the subject does ("B shortens games"),
    ``amount`` writes a size ("1.5 turns"), ``none`` is said when there is no direction."""
    if not c.direction:
        return none
    verb = up if c.direction > 0 else down
    return verb if c.at_least is None else f"{verb} by at least {amount(c.at_least)}"
