"""What the engine asks a strategy: decision kinds, action tuples, and the fallbacks.

A :class:`Decision` lists the legal answers: ``actions`` (small tuples such as
``("clue", card_id, map)``) and, for cell choices, ``cells`` (a bitmask of island cells; the
answer is then a cell id). Anything else a strategy returns is illegal, and answers are
compared by exact type: a plain ``int`` cell, or a plain tuple of ``str`` and ``int`` (a
subclass, a NumPy number or an object with its own ``==`` is illegal). A decision is
immutable.

Kinds and their answers:

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

from sim.outcome import is_plain

#: A tagged tuple: a name then int arguments, e.g. ``("clue", card, map)`` (heterogeneous,
#: hence ``Any`` for the elements).
Action = tuple[Any, ...]

START_CELL = "start_cell"
START_MAP = "start_map"
TURN = "turn"
LEG = "leg"
MARKER = "marker"
OFFER = "offer"
RESTART = "restart"
CURSE = "curse"
KINDS: tuple[str, ...] = (START_CELL, START_MAP, TURN, LEG, MARKER, OFFER, RESTART, CURSE)

MOVE: Action = ("move",)
#: The main action "exchange the hand", offered only with the rules flag
#: ``exchange_as_main_action`` (C7).
EXCHANGE: Action = ("exchange",)
END: Action = ("end",)
STOP: Action = ("stop",)
TAKE: Action = ("take",)
PASS: Action = ("pass",)
AMULET_MOVE: Action = ("amulet_move",)
AMULET_EXCHANGE: Action = ("amulet_exchange",)
PAY_AMULET: Action = ("amulet",)
PAY_CARD: Action = ("card",)
OFFER_ACTIONS: tuple[Action, ...] = (PASS, TAKE)
CURSE_ACTIONS: tuple[Action, ...] = (PAY_AMULET, PAY_CARD)


class Decision(NamedTuple):
    """One question to one seat, immutable (a strategy cannot widen its own choices). For
    ``offer``, ``value`` and ``position`` are the card's coins and the 0-based position of the
    asking rose from the bottom of R; for ``marker``, ``value`` is the map."""

    kind: str
    seat: int
    actions: tuple[Action, ...] = ()
    cells: int = 0
    value: int = -1
    position: int = -1

    def is_legal(self, answer: object) -> bool:
        """Whether ``answer`` is exactly one of the legal answers: a plain ``int`` cell of
        ``cells``, or a plain tuple of ``str`` and ``int`` among ``actions`` (no subclass, no
        object with its own ``==``)."""
        if type(answer) is int:
            return answer >= 0 and bool((self.cells >> answer) & 1)
        return type(answer) is tuple and is_plain(answer) and answer in self.actions

    def fallback(self) -> object:
        """The documented answer used when a strategy fails."""
        if self.actions:
            return self.actions[0]
        low = self.cells & -self.cells
        return low.bit_length() - 1
