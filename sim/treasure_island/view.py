"""What one player may know, as a read-only view handed to that seat's strategy (§9.15).

Everything in Treasure Island is public except the order of the draw pile and of the discard:
stashes, the play area, characters, every revealed card, and (by perfect memory) the make-up
of the draw pile and of the discard. A view never gives the engine's lists or generators:
masks and counts are ints, sequences are copied into tuples.
"""

from __future__ import annotations

from typing import Protocol

from sim.treasure_island.cards import CARD_GAIN, GAIN, KIND, KIND_BIT, N_KINDS, TOP_INDEX
from sim.treasure_island.rules import TreasureIslandRules

#: ``_GAIN_ROWS[kind][pile]``: the row of ``GAIN`` for a stash pile (its top card looked up once).
_GAIN_ROWS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(GAIN[k][TOP_INDEX[m]] for m in range(64)) for k in range(N_KINDS)
)
#: For every kind mask, ``(kind, gain rows)`` of each kind in it.
_KIND_ROWS_OF: tuple[tuple[tuple[int, tuple[tuple[int, ...], ...]], ...], ...] = tuple(
    tuple((k, _GAIN_ROWS[k]) for k in range(N_KINDS) if m >> k & 1) for m in range(1 << N_KINDS)
)


class TreasureIslandGame(Protocol):
    """What a view reads of its game (the engine's :class:`TreasureIslandGame`; named here so
    that this module does not import the engine that imports it)."""

    rules: TreasureIslandRules
    n: int
    turn: int
    pile: list[int]
    pile_piles: list[int]
    discard: list[int]
    stash: list[list[int]]
    points: list[int]
    characters: list[str]
    area: list[int]
    area_kinds: int
    anchor_at: int
    rum: int
    busting: int
    known: int

    @property
    def pile_mask(self) -> int: ...

    @property
    def discard_mask(self) -> int: ...


class PlayerView:
    """Seat ``seat``'s window on a game."""

    __slots__ = ("_g", "n", "seat")

    def __init__(self, game: TreasureIslandGame, seat: int) -> None:
        self._g = game
        self.seat = seat
        self.n = game.n

    @property
    def rules(self) -> TreasureIslandRules:
        """The rules of this game."""
        return self._g.rules

    @property
    def turn(self) -> int:
        """The turn number (0-based, over all players)."""
        return self._g.turn

    @property
    def area(self) -> tuple[int, ...]:
        """The play area's cards in placing order."""
        return tuple(self._g.area)

    @property
    def area_size(self) -> int:
        """Cards in the play area."""
        return len(self._g.area)

    @property
    def area_kinds(self) -> int:
        """Kinds in the play area, as a 10-bit mask."""
        return self._g.area_kinds

    @property
    def anchor_at(self) -> int:
        """Position of the Anchor in the play area (-1: none)."""
        return self._g.anchor_at

    @property
    def rum_pending(self) -> int:
        """Cards still owed to a Rum bottle before a plunder is allowed."""
        return self._g.rum

    @property
    def pile_size(self) -> int:
        """Cards left in the draw pile."""
        return len(self._g.pile)

    @property
    def pile_mask(self) -> int:
        """The draw pile's make-up as a 60-bit card mask (not its order)."""
        return self._g.pile_mask

    @property
    def pile_piles(self) -> tuple[int, ...]:
        """The draw pile's make-up per kind: ten 6-bit masks, like a stash (not its order)."""
        return tuple(self._g.pile_piles)

    @property
    def busting(self) -> int:
        """Cards in the draw pile of kinds already in the play area."""
        return self._g.busting

    def bust_chance(self) -> float:
        """The exact chance that the next draw busts (0 with an empty pile). When the top card
        is public (a Spyglass showed it, or the Mystic's three) the answer is 0 or 1; otherwise
        it is the pile's busting cards over its size."""
        g = self._g
        pile = g.pile
        if not pile:
            return 0.0
        if g.known:
            return 1.0 if g.area_kinds & KIND_BIT[pile[-1]] else 0.0
        return g.busting / len(pile)

    @property
    def known_top(self) -> int:
        """The top card of the draw pile when it is public (a Spyglass showed it), else -1."""
        g = self._g
        return g.pile[-1] if g.known and g.pile else -1

    @property
    def known_cards(self) -> tuple[int, ...]:
        """The public cards on top of the draw pile, top first."""
        g = self._g
        k = min(g.known, len(g.pile))
        return tuple(reversed(g.pile[len(g.pile) - k :]))

    @property
    def discard_mask(self) -> int:
        """The discard's make-up as a 60-bit card mask."""
        return self._g.discard_mask

    @property
    def discard_size(self) -> int:
        """Cards in the discard."""
        return len(self._g.discard)

    def stash(self, seat: int) -> tuple[int, ...]:
        """``seat``'s stash as ten 6-bit pile masks (bit i: the kind's card of index i)."""
        return tuple(self._g.stash[seat])

    def stash_pile(self, seat: int, kind: int) -> int:
        """``seat``'s stash pile of ``kind`` as a 6-bit mask."""
        return self._g.stash[seat][kind]

    def stashes(self) -> tuple[tuple[int, ...], ...]:
        """Every seat's stash (see :meth:`stash`)."""
        stash = self._g.stash
        if len(stash) == 4:  # four players, unrolled: several times cheaper than map(tuple)
            a, b, c, d = stash
            return (tuple(a), tuple(b), tuple(c), tuple(d))
        return tuple(map(tuple, stash))

    @property
    def my_stash(self) -> tuple[int, ...]:
        """This seat's stash."""
        return tuple(self._g.stash[self.seat])

    def score(self, seat: int) -> int:
        """``seat``'s current score."""
        return self._g.points[seat]

    def scores(self) -> tuple[int, ...]:
        """Every seat's current score."""
        return tuple(self._g.points)

    @property
    def characters(self) -> tuple[str, ...]:
        """Each seat's character ('' without characters)."""
        return tuple(self._g.characters)

    # -- public-information queries the strategies ask often (computed from the same facts) ----

    def safe_gain_total(self) -> int:
        """Summed over the draw pile's cards of kinds not in play: the points each would add to
        this seat's stash (so ``safe_gain_total() / pile_size`` is ``(1 - p) * E[gain | safe]``)."""
        g = self._g
        mine = g.stash[self.seat]
        piles = g.pile_piles
        total = 0
        for kind, rows in _KIND_ROWS_OF[~g.area_kinds & 1023]:
            total += rows[mine[kind]][piles[kind]]
        return total

    def area_gain(self, start: int = 0) -> int:
        """Points the play area's cards from position ``start`` on would add to this seat's
        stash if banked now."""
        g = self._g
        mine = g.stash[self.seat]
        total = 0
        for c in g.area[start:] if start else g.area:
            total += CARD_GAIN[c][mine[KIND[c]]]
        return total

    def at_risk(self) -> tuple[int, int]:
        """What a bust would take now: the points the play area's unanchored cards would add
        to this seat's stash, and how many cards they are (an Anchor keeps those before it)."""
        g = self._g
        mine = g.stash[self.seat]
        area = g.area
        if g.anchor_at > 0:
            area = area[g.anchor_at :]
        total = 0
        for c in area:
            total += CARD_GAIN[c][mine[KIND[c]]]
        return total, len(area)

    def area_cards_of(self, kind: int) -> int:
        """The card of ``kind`` in the play area, or -1."""
        for c in self._g.area:
            if KIND[c] == kind:
                return c
        return -1
