"""What every game engine shares about its players and results: building a seat's strategy
(a failure is a violation, the seat then plays the fallbacks), the result, strategy
violations, strict-mode errors.

Shared by the games so the runner, the reports and the comparisons read one shape.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple


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


#: Why a game ended; the index is the ``a`` argument of the move log's ``game_end`` event.
#: ``deck_exhausted``: the natural end (Tobago's treasure deck, Treasure Island's draw pile);
#: ``turn_cap``: the rules' safety cap on turns; ``deadlock``: no seat can ever change the
#: position again under the rules (the game cannot reach its natural end).
END_REASONS = ("deck_exhausted", "turn_cap", "deadlock")
#: End reasons whose final standing is not a result of the game (reports leave them out of
#: win rates and count them).
UNFINISHED = ("turn_cap", "deadlock")


class GameResult(NamedTuple):
    """The outcome of one game (a named tuple: built once per game, cheaper than a frozen
    dataclass)."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    win_shares: tuple[float, ...]
    turns: int
    truncated: bool
    first_player: int
    rules: str
    rules_hash: str
    #: One of :data:`END_REASONS`; ``truncated`` is ``end_reason == "turn_cap"``.
    end_reason: str


def ranks_and_shares(keys: Sequence[tuple[int, ...]]) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Competition ranks (1 = best) of the players' comparison keys, and their win shares:
    the players ranked first share one win equally."""
    # A key's rank is one more than the keys above it: its first place in descending order.
    descending = sorted(keys, reverse=True)
    ranks = [descending.index(key) + 1 for key in keys]
    winners = ranks.count(1)
    share = 1.0 / winners
    return tuple(ranks), tuple(share if r == 1 else 0.0 for r in ranks)


class FallbackPlayer:
    """Stands in for a strategy that could not be built: always the documented fallback."""

    def decide(self, view: Any, decision: Any) -> object:
        """The decision's fallback answer."""
        return decision.fallback()


def build_strategy(
    factory: Callable[[Any], Any], rng: Any, seat: int, strict: bool, violations: list[Violation]
) -> Any:
    """``factory(rng)``; one that raises is recorded in ``violations`` and replaced by a
    :class:`FallbackPlayer` (strict mode: :class:`StrategyError`)."""
    try:
        return factory(rng)
    except Exception as exc:
        if strict:
            raise StrategyError(f"seat {seat} could not be built: {exc!r}") from exc
        violations.append(Violation(0, seat, "create", "<raised>", repr(exc)[:200]))
        return FallbackPlayer()
