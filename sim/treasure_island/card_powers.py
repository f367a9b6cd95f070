"""Treasure Island's card powers (§6): what placing each kind of card does, each choice
asked of its player through the referee, and the stash piles a power takes from.

:class:`CardPowers` is a base of :class:`sim.treasure_island.engine.TreasureIslandGame` (one
object: the engine builds it); :data:`POWERS` gives each kind's power as a plain function of
``(game, seat, card)``, returning True when the turn is over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sim.referee import Referee
from sim.treasure_island import decisions
from sim.treasure_island.cards import ANCHOR, CANDLE, HELM, KNIFE, N_KINDS, PISTOL, RUM, SPYGLASS
from sim.treasure_island.characters import MASTER_GUNNER, MYSTIC, NAVIGATOR, SCAVENGER
from sim.treasure_island.movelog import CODE
from sim.treasure_island.precomputed import (
    FROM_CANDLE,
    FROM_HELM,
    FROM_KNIFE,
    KINDS_OF,
    OPPONENT_ROWS,
    POP_TOP,
    SPYGLASS_BACK,
    question,
)
from sim.treasure_island.rules import TreasureIslandRules

_PLACE = decisions.PLACE
_HELM, _KNIFE, _PISTOL, _CANDLE, _SPYGLASS = (
    decisions.HELM,
    decisions.KNIFE,
    decisions.PISTOL,
    decisions.CANDLE,
    decisions.SPYGLASS,
)
#: Characters whose Pistol does more than send one card to the discard.
_SHOOTERS = frozenset((MASTER_GUNNER, SCAVENGER))
_EV_NO_EFFECT = CODE["no_effect"]
_EV_RUM = CODE["rum"]
_EV_PISTOL = CODE["pistol"]
_EV_SPYGLASS_BACK = CODE["spyglass_back"]
_EV_REVEAL = CODE["reveal"]


class CardPowers:
    """The powers of the cards placed in a game (a base of the game; each returns True when
    the turn is over)."""

    # The game's slots are one flat list (the audit and the guard read the class's own), so
    # none here; hidden from the type checker, which would then refuse the game's fields.
    if not TYPE_CHECKING:
        __slots__ = ()

    # The game's fields the powers read and change (slots of the game).
    rules: TreasureIslandRules
    n: int
    turn: int
    log: list[int]
    referee: Referee[decisions.Decision]
    pile: list[int]
    discard: list[int]
    area: list[int]
    area_kinds: int
    anchor_at: int
    rum: int
    known: int
    stash: list[list[int]]
    points: list[int]
    cards: list[int]
    stash_kinds: list[int]
    characters: list[str]

    if TYPE_CHECKING:
        # The turn's (sim.treasure_island.turn.TurnPlay), which powers place cards through.

        def _place(self, seat: int, card: int, source: int, origin: int) -> bool: ...

        def _draw(self, seat: int, forced: bool) -> bool: ...

        def _plunder(self, seat: int, reason: int) -> None: ...

        def _bank(self, seat: int, card: int) -> None: ...

        def _to_discard(self, cards: list[int]) -> None: ...

        def _sample_discard(self, count: int) -> list[int]: ...

    def _pop_top(self, seat: int, kind: int) -> int:
        """Take the top card off ``seat``'s pile of ``kind``."""
        piles = self.stash[seat]
        new, card, loss = POP_TOP[kind][piles[kind]]
        piles[kind] = new
        self.points[seat] -= loss
        self.cards[seat] -= 1
        if not new:
            self.stash_kinds[seat] ^= 1 << kind
        return card

    def _opponent_piles(self, seat: int, knife: bool) -> tuple[tuple[int, int], ...]:
        """Non-empty opponents' piles; for the Knife only kinds absent from ``seat``'s stash."""
        kinds = self.stash_kinds
        allowed = 1023
        if knife:
            allowed = ~kinds[seat]
            if self.rules.knife_checks_play_area:
                allowed &= ~self.area_kinds
        rows = OPPONENT_ROWS[self.n][seat]
        if len(rows) == 3:  # four players, unrolled
            (o1, p1), (o2, p2), (o3, p3) = rows
            return p1[kinds[o1] & allowed] + p2[kinds[o2] & allowed] + p3[kinds[o3] & allowed]
        out: tuple[tuple[int, int], ...] = ()
        for o, pairs in rows:
            out += pairs[kinds[o] & allowed]
        return out

    def _no_effect(self, seat: int, kind: int) -> bool:
        self.log += (self.turn, seat, _EV_NO_EFFECT, kind, -1, -1)
        return False

    def _anchor(self, seat: int, card: int) -> bool:
        self.anchor_at = len(self.area) - 1
        return False

    def _rum(self, seat: int, card: int) -> bool:
        self.rum = self.rules.rum_cards
        self.log += (self.turn, seat, _EV_RUM, self.rum, -1, -1)
        return False

    def _helm(self, seat: int, card: int) -> bool:
        """§6.2: the top card of one of your own piles, forced, even if it busts."""
        options = KINDS_OF[self.stash_kinds[seat]]
        if not options:
            return self._no_effect(seat, HELM)
        kind = self.referee.pick(_HELM, seat, options, -1, question)
        return self._place(seat, self._pop_top(seat, kind), FROM_HELM, seat)

    def _knife(self, seat: int, card: int) -> bool:
        """§6.5: an opponent's top card of a kind not in your stash, into your play area."""
        options = self._opponent_piles(seat, True)
        if not options:
            return self._no_effect(seat, KNIFE)
        victim, kind = self.referee.pick(_KNIFE, seat, options, -1, question)
        return self._place(seat, self._pop_top(victim, kind), FROM_KNIFE, victim)

    def _pistol(self, seat: int, card: int) -> bool:
        """§6.7: an opponent's top card (whole pile for the master gunner) to the discard (to
        your stash for the scavenger)."""
        options = self._opponent_piles(seat, False)
        if not options:
            return self._no_effect(seat, PISTOL)
        victim, kind = self.referee.pick(_PISTOL, seat, options, -1, question)
        return self._shoot(seat, victim, kind)

    def _shoot(self, seat: int, victim: int, kind: int) -> bool:
        """The Pistol's shot at ``victim``'s pile of ``kind`` (never ends the turn)."""
        character = self.characters[seat]
        if character not in _SHOOTERS:  # one card to the discard
            hit = self._pop_top(victim, kind)
            self.discard.append(hit)
            self.log += (self.turn, seat, _EV_PISTOL, hit, victim, -1)
            return False
        shots = self.stash[victim][kind].bit_count() if character == MASTER_GUNNER else 1
        for _ in range(shots):
            hit = self._pop_top(victim, kind)
            if character == SCAVENGER:
                self._bank(seat, hit)
                self.log += (self.turn, seat, _EV_PISTOL, hit, victim, seat)
            else:
                self._to_discard([hit])
                self.log += (self.turn, seat, _EV_PISTOL, hit, victim, -1)
        return False

    def _candle(self, seat: int, card: int) -> bool:
        """§6.4: shuffle the discard, reveal 3, place one (forced); the others go back."""
        discard = self.discard
        if not discard:
            return self._no_effect(seat, CANDLE)
        if self.characters[seat] == NAVIGATOR:
            shown = sorted(discard)
            discard.clear()
        else:
            shown = self._sample_discard(self.rules.candle_reveal)
        turn = self.turn
        log = self.log
        for c in shown:
            log += (turn, seat, _EV_REVEAL, c, FROM_CANDLE, -1)
        choice = self.referee.pick(_CANDLE, seat, tuple(shown), -1, question)
        shown.remove(choice)
        discard += shown
        return self._place(seat, choice, FROM_CANDLE, -1)

    def _spyglass(self, seat: int, card: int) -> bool:
        """§6.9: reveal the top card; place it, or put it back and plunder at once."""
        pile = self.pile
        if not pile:
            return self._no_effect(seat, SPYGLASS)
        top = pile[-1]
        self.log += (self.turn, seat, _EV_REVEAL, top, 4, -1)
        seen = 1
        if self.characters[seat] == MYSTIC:
            seen = min(3, len(pile))
            for c in reversed(pile[len(pile) - seen : -1]):
                self.log += (self.turn, seat, _EV_REVEAL, c, 5, -1)
        known = self.known
        self.known = seen if seen > known else known  # the builtin max is slow on two ints
        if self.rum:  # an open Rum requirement leaves no choice (§6.6)
            return self._draw(seat, True)
        if self.referee.pick(_SPYGLASS, seat, decisions.SPYGLASS_OPTIONS, top, question) == _PLACE:
            return self._draw(seat, False)
        self.log += (self.turn, seat, _EV_SPYGLASS_BACK, top, -1, -1)
        self._plunder(seat, SPYGLASS_BACK)
        return True


#: Each kind's power (None: nothing happens when it is placed), called as ``power(game,
#: seat, card)``; a class-level table, so a game does not build bound methods.
POWERS: tuple[Callable[[CardPowers, int, int], bool] | None, ...] = tuple(
    {
        ANCHOR: CardPowers._anchor,
        HELM: CardPowers._helm,
        CANDLE: CardPowers._candle,
        KNIFE: CardPowers._knife,
        RUM: CardPowers._rum,
        PISTOL: CardPowers._pistol,
        SPYGLASS: CardPowers._spyglass,
    }.get(k)
    for k in range(N_KINDS)
)
