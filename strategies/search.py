"""What both games' search players share: the choice of an answer from paired playouts, and
the checks of their parameters."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any


def check_int(key: str, value: object, low: int) -> None:
    """``ValueError`` naming ``key`` unless ``value`` is an integer of at least ``low``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{key} = {value!r} is not allowed (an integer >= {low})")


def check_number(key: str, value: object) -> None:
    """``ValueError`` naming ``key`` unless ``value`` is a number of at least 0."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise ValueError(f"{key} = {value!r} is not allowed (a number >= 0)")


def pick_answer(
    options: Sequence[Any], rewards: dict[Any, list[float]], default: Any, z: float
) -> Any:
    """The answer of ``options`` with the best mean reward (``rewards[a]``: one per deal, the
    same deals for every answer), ``default`` (the rollout policy's) on a tie. With ``z > 0``
    the policy's answer is left only when the best one's paired gain over it is ``z`` standard
    errors clear of zero: a small, noisy gain is more often luck of the deals than skill."""
    means = {a: sum(rewards[a]) / len(rewards[a]) for a in options}
    best = max(means.values())
    if means[default] >= best:
        return default
    choice = next(a for a in options if means[a] >= best)
    if z > 0:
        gains = [x - y for x, y in zip(rewards[choice], rewards[default], strict=True)]
        k = len(gains)
        if k < 2:
            return default
        mean = sum(gains) / k
        var = sum((g - mean) ** 2 for g in gains) / (k - 1)
        if mean <= z * math.sqrt(var / k):
            return default
    return choice
