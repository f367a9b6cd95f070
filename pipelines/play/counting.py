"""Counting the choices a game offers as it is played: :class:`CountingReferee` sees a game's
referee as its engine does and counts every question the engine asks a seat with its number
of legal answers (:class:`Tally`) before the real referee answers it, so the game plays exactly
as without it. A choice is one legal answer: an entry of the decision's options, or a cell it
allows (an ``int`` answer, counted from its cell bitmask); a yes-or-no question has two. A
question with a single option that the referee answers without asking (a one-option pick) is
no decision, as the referee counts decisions.

The reports count the games of a run played again (:mod:`pipelines.play.choices`); a balance
study counts its games as they are played (:func:`pipelines.play.outcomes.outcomes`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass
class Tally:
    """Decisions counted and the legal answers they had."""

    decisions: int = 0
    choices: int = 0

    def add(self, choices: int) -> None:
        self.decisions += 1
        self.choices += choices


class CountingReferee:
    """A game's referee as its engine sees it during a count: each question is counted with
    its legal answers in :attr:`tally`, then asked of the real referee, which answers, checks
    and records exactly as in the run (the replay's row-by-row check proves it)."""

    __slots__ = ("_askers", "_referee", "_yeses", "tally")

    def __init__(self, referee: Any, tally: Tally) -> None:
        object.__setattr__(self, "_referee", referee)
        object.__setattr__(self, "tally", tally)
        object.__setattr__(self, "_askers", {})
        object.__setattr__(self, "_yeses", None)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._referee, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._referee, name, value)  # the engine's own writes (its decision count)

    def asker(self, seat: int) -> Callable[..., Any]:
        """The real asker of ``seat``, its questions counted."""
        made = self._askers.get(seat)
        if made is None:
            ask = self._referee.asker(seat)
            tally = self.tally

            def counted(decision: Any, options: Sequence[Any], cells: int = 0) -> Any:
                tally.add(len(options) + cells.bit_count())
                return ask(decision, options, cells)

            made = self._askers[seat] = counted
        asker: Callable[..., Any] = made
        return asker

    def ask(self, decision: Any, options: Sequence[Any], cells: int = 0) -> Any:
        return self.asker(decision.seat)(decision, options, cells)

    def pick(self, kind: Any, seat: int, options: tuple[Any, ...], value: int,
             question: Callable[..., Any]) -> Any:  # fmt: skip
        """The real pick, counted when it asks (more than one option)."""
        if len(options) > 1:
            self.tally.add(len(options))
        return self._referee.pick(kind, seat, options, value, question)

    @property
    def yeses(self) -> list[Callable[[], bool]]:
        """The real yes-or-no askers, each question counted with its two answers."""
        if self._yeses is None:
            tally = self.tally

            def counted(yes: Callable[[], bool]) -> Callable[[], bool]:
                def ask() -> bool:
                    tally.add(2)
                    return yes()

                return ask

            object.__setattr__(self, "_yeses", [counted(y) for y in self._referee.yeses])
        yeses: list[Callable[[], bool]] = self._yeses
        return yeses
