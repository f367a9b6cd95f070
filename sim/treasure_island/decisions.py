"""What the engine asks a Treasure Island strategy: decision kinds, their answers, fallbacks.

A :class:`Decision` lists its legal answers in ``options``; ``value`` carries what the
question is about (the revealed card of a Spyglass). A decision with a single legal answer is
not asked (a forced move is not a choice). Its ``kind`` is a :class:`DecisionKind`, an
``IntEnum`` member (:mod:`sim.action_kinds`) whose ``str`` is the name written below, which is
what the stored tables and texts say.

Kinds and their answers:

============  ==============================================================================
``draft``     a character name of ``options`` (keep one of the dealt characters, §4.2)
``continue``  ``"draw"`` or ``"plunder"`` (§5.1)
``helm``      a kind (int) of one of your own stash piles (§6.2)
``knife``     ``(seat, kind)``: an opponent's pile whose kind is not in your stash (§6.5)
``pistol``    ``(seat, kind)``: an opponent's pile (§6.7)
``candle``    a card id among the revealed cards (§6.4)
``spyglass``  ``"place"`` the revealed card ``value``, or ``"back"`` (put it back and plunder)
``bonus``     ``(seat, kind)``: an opponent's pile to take a bonus card from (plunderer)
============  ==============================================================================

An answer must be exactly one of ``options``: a plain ``str``, ``int`` or tuple of them (a
subclass, a NumPy number or an object with its own ``==`` is illegal).

**Fallback** when a strategy raises or answers illegally (the game records a violation and
goes on): ``options[0]``. The engine lists ``plunder`` first for ``continue`` and ``back``
first for ``spyglass``; the other lists are in seat then kind order.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sim.action_kinds import Kind
from sim.referee import NO_SHORTCUTS, Choose, Keep, Shortcuts


class DecisionKind(Kind):
    """What a decision asks; the value is the kind's code in the move log's ``violation``
    rows."""

    DRAFT = 0
    CONTINUE = 1
    HELM = 2
    KNIFE = 3
    PISTOL = 4
    CANDLE = 5
    SPYGLASS = 6
    BONUS = 7


DRAFT = DecisionKind.DRAFT
CONTINUE = DecisionKind.CONTINUE
HELM = DecisionKind.HELM
KNIFE = DecisionKind.KNIFE
PISTOL = DecisionKind.PISTOL
CANDLE = DecisionKind.CANDLE
SPYGLASS = DecisionKind.SPYGLASS
BONUS = DecisionKind.BONUS
KINDS: tuple[DecisionKind, ...] = tuple(DecisionKind)

DRAW = "draw"
PLUNDER = "plunder"
PLACE = "place"
BACK = "back"
CONTINUE_OPTIONS: tuple[str, str] = (PLUNDER, DRAW)
SPYGLASS_OPTIONS: tuple[str, str] = (BACK, PLACE)


class Decision(NamedTuple):
    """One question to one seat: its kind, the legal answers, and what it is about. Immutable
    (a strategy cannot widen its own choices)."""

    kind: DecisionKind
    seat: int
    options: tuple[Any, ...]
    value: int = -1

    def fallback(self) -> Any:
        """The documented answer used when a strategy fails: the first option."""
        return self.options[0]

    def __repr__(self) -> str:
        return f"Decision({str(self.kind)!r}, seat={self.seat}, options={self.options!r})"


#: The shortcuts a built-in player class may give (see :mod:`sim.referee`): its continue
#: shortcut ``keep(player, view)`` (true to draw) and power-choice shortcuts
#: ``choose(player, view, options)`` by decision kind.
ShortcutTable = Shortcuts

__all__ = ["NO_SHORTCUTS", "Choose", "Keep", "ShortcutTable"]
