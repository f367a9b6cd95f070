"""What the engine asks a strategy: decision kinds, action tuples, and the fallbacks.

A :class:`Decision` lists the legal answers: ``actions`` (small tuples such as
``(ActionKind.CLUE, card_id, map)``) and, for cell choices, ``cells`` (a bitmask of island
cells; the answer is then a cell id). A decision's ``kind`` is a :class:`DecisionKind` and an
action's tag an :class:`ActionKind`: ``IntEnum`` members (:mod:`sim.action_kinds`) whose
``str`` is the name written below, which is what the stored tables and texts say. Anything
else a strategy returns is illegal, and answers are compared by exact type: a plain ``int``
cell, or a plain tuple of kind members, ``int`` and ``str`` (a subclass, a NumPy number or an
object with its own ``==`` is illegal). A decision is immutable.

Kinds and their answers (each tag by its name: ``("clue", card, m)`` is
``(ActionKind.CLUE, card, m)``):

=============  ==============================================================================
``start_cell`` a cell of ``cells`` (where the ATV starts)
``start_map``  ``("map", m)``: the empty map that gets this player's starting clue
``turn``       ``("clue", card, m)`` main action; ``("move",)`` main action (then ``leg``
               decisions); ``("exchange",)`` main action (only with the rules flag
               ``exchange_as_main_action``); ``("raise", m)``; ``("amulet_marker", m)``
               (then ``marker``);
               ``("amulet_clue", card, m)``; ``("amulet_move",)``; ``("amulet_exchange",)``;
               ``("end",)`` (only once the main action is done, or none is possible)
``leg``        a cell of ``cells`` (drive one leg there); ``("stop",)`` after the first leg;
               ``("raise", m)`` at a located treasure (ends movement); between the legs of a
               normal move, the amulet actions of ``turn`` too
``marker``     a cell of ``cells``: which of map ``value``'s markers the amulet removes
``offer``      ``("take",)`` or ``("pass",)`` for the face-up treasure card ``value``
``restart``    ``("clue", card, m)``: the clue that restarts the emptied map
``curse``      ``("amulet",)`` or ``("card",)`` (only with ``curse_amulet_optional``)
=============  ==============================================================================

**Fallback** when a strategy raises or answers illegally (the game records a violation and
goes on): the first entry of ``actions``, or the lowest cell of ``cells`` when there are no
actions. The engine orders actions so that this is the plain, safe choice: ``turn`` lists
``end`` first when it is allowed, then clue plays, then ``move``, then ``exchange``; ``leg``
lists ``stop`` first once it is allowed; ``offer`` lists ``pass`` first; ``curse`` lists
``amulet`` first.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sim.action_kinds import Kind
from sim.outcome import is_plain


class DecisionKind(Kind):
    """What a decision asks; the value is the kind's code in the move log's ``violation``
    rows."""

    START_CELL = 0
    START_MAP = 1
    TURN = 2
    LEG = 3
    MARKER = 4
    OFFER = 5
    RESTART = 6
    CURSE = 7


class ActionKind(Kind):
    """The tag of an action tuple (its first element)."""

    MAP = 0
    CLUE = 1
    MOVE = 2
    EXCHANGE = 3
    RAISE = 4
    AMULET_MARKER = 5
    AMULET_CLUE = 6
    AMULET_MOVE = 7
    AMULET_EXCHANGE = 8
    END = 9
    STOP = 10
    TAKE = 11
    PASS = 12
    AMULET = 13
    CARD = 14


#: A tagged tuple: an :class:`ActionKind` then int arguments, e.g.
#: ``(ActionKind.CLUE, card, map)`` (heterogeneous, hence ``Any`` for the elements).
Action = tuple[Any, ...]

START_CELL = DecisionKind.START_CELL
START_MAP = DecisionKind.START_MAP
TURN = DecisionKind.TURN
LEG = DecisionKind.LEG
MARKER = DecisionKind.MARKER
OFFER = DecisionKind.OFFER
RESTART = DecisionKind.RESTART
CURSE = DecisionKind.CURSE
KINDS: tuple[DecisionKind, ...] = tuple(DecisionKind)

MOVE: Action = (ActionKind.MOVE,)
#: The main action "exchange the hand", offered only with the rules flag
#: ``exchange_as_main_action`` (C7).
EXCHANGE: Action = (ActionKind.EXCHANGE,)
END: Action = (ActionKind.END,)
STOP: Action = (ActionKind.STOP,)
TAKE: Action = (ActionKind.TAKE,)
PASS: Action = (ActionKind.PASS,)
AMULET_MOVE: Action = (ActionKind.AMULET_MOVE,)
AMULET_EXCHANGE: Action = (ActionKind.AMULET_EXCHANGE,)
PAY_AMULET: Action = (ActionKind.AMULET,)
PAY_CARD: Action = (ActionKind.CARD,)
OFFER_ACTIONS: tuple[Action, ...] = (PASS, TAKE)
CURSE_ACTIONS: tuple[Action, ...] = (PAY_AMULET, PAY_CARD)


class Decision(NamedTuple):
    """One question to one seat, immutable (a strategy cannot widen its own choices). For
    ``offer``, ``value`` and ``position`` are the card's coins and the 0-based position of the
    asking rose from the bottom of R; for ``marker``, ``value`` is the map."""

    kind: DecisionKind
    seat: int
    actions: tuple[Action, ...] = ()
    cells: int = 0
    value: int = -1
    position: int = -1

    def is_legal(self, answer: object) -> bool:
        """Whether ``answer`` is exactly one of the legal answers: a plain ``int`` cell of
        ``cells``, or a plain tuple (see :func:`sim.outcome.is_plain`) among ``actions`` (no
        subclass, no object with its own ``==``)."""
        if type(answer) is int:
            return answer >= 0 and bool((self.cells >> answer) & 1)
        return type(answer) is tuple and is_plain(answer) and answer in self.actions

    def fallback(self) -> object:
        """The documented answer used when a strategy fails."""
        if self.actions:
            return self.actions[0]
        low = self.cells & -self.cells
        return low.bit_length() - 1
