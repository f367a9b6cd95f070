"""What every game engine reports back: the result, strategy violations, strict-mode errors.

Shared by the games so the runner, the reports and the comparisons read one shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class StrategyError(RuntimeError):
    """Raised in strict mode when a strategy fails or answers illegally."""


@dataclass(frozen=True, slots=True)
class Violation:
    """A strategy failure: where it happened and what came back."""

    turn: int
    seat: int
    kind: str
    answer: str
    error: str


@dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of one game."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    win_shares: tuple[float, ...]
    turns: int
    truncated: bool
    first_player: int
    rules: str
    rules_hash: str


def ranks_and_shares(keys: Sequence[tuple[int, ...]]) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Competition ranks (1 = best) of the players' comparison keys, and their win shares:
    the players ranked first share one win equally."""
    ranks = []
    for key in keys:
        rank = 1
        for other in keys:
            if other > key:
                rank += 1
        ranks.append(rank)
    winners = ranks.count(1)
    share = 1.0 / winners
    return tuple(ranks), tuple(share if r == 1 else 0.0 for r in ranks)
