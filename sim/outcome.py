"""What every game shares about its results: the result, the end reasons, strategy
violations, strict-mode errors, and the plain-value test answers are checked by.

Shared by the games so the runner, the reports and the comparisons read one shape; the
referee (:mod:`sim.referee`) builds the seats and records the violations.
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from sim.action_kinds import KIND_TYPES


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
#: ``timeout``: a strategy ran past the decision time limit (``--decision-timeout``).
END_REASONS = ("deck_exhausted", "turn_cap", "deadlock", "timeout")
#: End reasons whose final standing is not a result of the game (reports leave them out of
#: win rates and count them).
UNFINISHED = ("turn_cap", "deadlock", "timeout")
#: Each end reason in words, as the move log renders its ``game_end`` event.
END_TEXTS = (
    "the natural end (the deck ran out)",
    "truncated at the turn cap",
    "deadlock: no seat can change the position again",
    "ended: a strategy ran past the decision time limit",
)


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
    ranks = tuple([descending.index(key) + 1 for key in keys])
    share = 1.0 / ranks.count(1)
    # A list comprehension into tuple(): cheaper than a generator expression.
    return ranks, tuple([share if r == 1 else 0.0 for r in ranks])


#: What a strategy may raise that the game records as a violation: any exception, and
#: ``SystemExit`` (a strategy calling ``sys.exit`` must not end the run). ``KeyboardInterrupt``
#: (Ctrl-C) and the guard's decision timeout are not caught.
STRATEGY_FAILURES: tuple[type[BaseException], ...] = (Exception, SystemExit)

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_SHOWN = reprlib.Repr()
_SHOWN.maxstring = 120
_SHOWN.maxother = 120
_SHOWN.maxlist = _SHOWN.maxtuple = 8


def describe(obj: object) -> str:
    """``repr(obj)``, short, and never failing: strategies' answers and exceptions are foreign
    objects (a ``__repr__`` may raise, or print megabytes)."""
    try:
        text = _SHOWN.repr(obj)
    except BaseException:
        text = f"<{type(obj).__name__} object whose repr failed>"
    # A default repr names a memory address, which differs from process to process: the
    # failures table must be the same on every backend.
    return _ADDRESS.sub("", text)[:200]


def is_plain(answer: object) -> bool:
    """Whether ``answer`` is made of exact builtin values only: an ``int``, a ``str``, a
    game's kind member (:mod:`sim.action_kinds`: an ``int`` compared as one), or a tuple of
    them. Only such answers are compared with a decision's legal answers, so that no strategy
    code (an ``__eq__`` that always agrees, or raises; a NumPy array) runs in the check."""
    t = type(answer)
    if t is int or t is str or t in KIND_TYPES:
        return True
    if t is not tuple:
        return False
    for x in answer:  # type: ignore[attr-defined]
        u = type(x)
        if u is not int and u is not str and u not in KIND_TYPES:
            return False
    return True
