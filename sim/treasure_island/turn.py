"""A Treasure Island turn (§5): the mandatory draw, then draw or plunder until a bust, a
plunder or an empty pile; placing cards (their powers are :mod:`sim.treasure_island.card_powers`'),
busts with the Anchor's and the Wrecker's rulings, plunders and the Key + Chest bonus, and the
turn's rows for the move log and the turns table.

:class:`TurnPlay` is a base of :class:`sim.treasure_island.engine.TreasureIslandGame` (one
object: the engine builds it and plays the turns in order).
"""

from __future__ import annotations

import random
from math import floor
from typing import TYPE_CHECKING

from sim.treasure_island import decisions
from sim.treasure_island.card_powers import POWERS, CardPowers
from sim.treasure_island.cards import CARD_GAIN, KIND, KIND_BIT
from sim.treasure_island.characters import PLUNDERER, TREASURE_HUNTER
from sim.treasure_island.movelog import CODE
from sim.treasure_island.precomputed import (
    BITS,
    BUSTED,
    CHOSEN,
    KEY_CHEST,
    PILE_BIT,
    PILE_EMPTY,
    STEPS,
    question,
)

_EV_DRAW = CODE["draw"]
_EV_DRAW_FORCED = CODE["draw_forced"]
_EV_DRAW_KNOWN = CODE["draw_known"]
_EV_PLACE = CODE["place"]
_EV_BUST = CODE["bust"]
_EV_PLUNDER = CODE["plunder"]
_EV_END_TURN = CODE["end_turn"]
_EV_BONUS = CODE["bonus"]


class TurnPlay(CardPowers):
    """A seat's turn in the game (a base of the game)."""

    # The game's slots are one flat list (the audit and the guard read the class's own), so
    # none here; hidden from the type checker, which would then refuse the game's fields.
    if not TYPE_CHECKING:
        __slots__ = ()

    # The game's fields a turn reads and changes besides the powers' (slots of the game).
    pile_piles: list[int]
    busting: int
    wrecker: int
    discard_rng: random.Random
    turn_rows: list[int]
    _ended: int
    _banked: int
    _bonus_cards: int
    _key_chest: int

    if TYPE_CHECKING:

        def _log(self, seat: int, kind: int, a: int = -1, b: int = -1, c: int = -1) -> None: ...

    def play_turn(self, seat: int) -> None:
        """One whole turn (§5.1): the mandatory draw, then draw or plunder until either."""
        self.area = []
        self.area_kinds = 0
        self.anchor_at = -1
        self.rum = 0
        self.busting = 0
        self._bonus_cards = 0
        self._banked = 0
        self._key_chest = 0
        before = self.points[seat]
        reason = BUSTED
        if not self._draw(seat, True):
            pile = self.pile
            yes = self.referee.yeses[seat]
            while True:
                if not pile:  # nothing to draw: the turn ends with a plunder (§9.1)
                    reason = PILE_EMPTY
                    self._plunder(seat, reason)
                    break
                if self.rum:
                    forced = True
                else:
                    forced = False
                    if not yes():
                        reason = CHOSEN
                        self._plunder(seat, reason)
                        break
                if self._draw(seat, forced):
                    reason = self._ended
                    break
        else:
            reason = self._ended
        after = self.points[seat]
        self.log += (
            self.turn,
            seat,
            _EV_END_TURN,
            1 if reason == BUSTED else 0,
            self.cards[seat],
            after,
        )
        self.turn_rows += (
            self.turn,
            seat,
            len(self.area),
            reason,
            self._banked,
            self._bonus_cards,
            after - before,
            self._key_chest,
        )

    def _draw(self, seat: int, forced: bool) -> bool:
        """Take the top card of the draw pile into the play area; True when the turn is over.

        The log row says which kind of draw it was: ``draw`` (chosen, card unknown),
        ``draw_forced`` (the turn's first card, or owed to a Rum bottle) or ``draw_known``
        (the card was public: a Spyglass showed it). Its arguments give the kinds in play and
        the pile's busting cards before the draw, from which the reports compute the exact bust
        chance of every draw (the pile's size follows from the draws before it)."""
        card = self.pile.pop()
        kind = KIND[card]
        piles = self.pile_piles
        left = piles[kind] ^ PILE_BIT[card]
        piles[kind] = left
        kinds = self.area_kinds
        busting = self.busting
        if self.known:
            self.known -= 1
            event = _EV_DRAW_KNOWN
        else:
            event = _EV_DRAW_FORCED if forced else _EV_DRAW
        self.log += (self.turn, seat, event, card, BITS[kinds], busting)
        if kinds & KIND_BIT[card]:
            self.busting = busting - 1
            self._bust(seat, card)
            return True
        # The rest of _place, inlined: this is the hottest path of the engine.
        self.area.append(card)
        self.area_kinds = kinds | KIND_BIT[card]
        self.busting = busting + BITS[left]
        if self.rum:
            self.rum -= 1
        power = POWERS[kind]
        if power is None:
            return False
        return power(self, seat, card)

    def _place(self, seat: int, card: int, source: int, origin: int) -> bool:
        """A power puts ``card`` (from ``origin``'s stash, or the discard: -1) into the play
        area: bust, or apply its power. True when the turn is over."""
        self.log += (self.turn, seat, _EV_PLACE, card, source, origin)
        kind = KIND[card]
        if self.area_kinds & KIND_BIT[card]:
            self._bust(seat, card)
            return True
        self.area.append(card)
        self.area_kinds |= KIND_BIT[card]
        self.busting += BITS[self.pile_piles[kind]]
        if self.rum:
            self.rum -= 1
        power = POWERS[kind]
        if power is None:
            return False
        return power(self, seat, card)

    def _bust(self, seat: int, card: int) -> None:
        """§5.1.3 / §6.1: everything to the discard, except what an Anchor keeps."""
        self.log += (self.turn, seat, _EV_BUST, card, -1, -1)
        self._ended = BUSTED
        area = self.area
        lost = [*area, card]
        if self.anchor_at > 0:
            kept = area[: self.anchor_at]
            lost = lost[self.anchor_at :]
            before = self.points[seat]
            for c in kept:
                self._bank(seat, c)
            self._banked = len(kept)
            self._log(seat, CODE["anchor_keep"], len(kept), self.points[seat] - before)
            kept_kinds = 0
            for c in kept:
                kept_kinds |= KIND_BIT[c]
            if self.rules.key_chest_on_anchored_bust and kept_kinds & KEY_CHEST == KEY_CHEST:
                self._bonus(seat, len(kept))
        wrecker = self.wrecker
        if wrecker >= 0 and wrecker != seat:
            for c in lost:
                self._bank(wrecker, c)
            self._log(seat, CODE["wrecked"], len(lost), wrecker)
        else:
            self._to_discard(lost)

    def _sample_discard(self, count: int) -> list[int]:
        """Shuffle the discard and take ``count`` cards off it (all when it is short): the
        last steps of a Fisher-Yates shuffle draw exactly those cards, and the rest of the
        discard's order never matters because it is shuffled before every use."""
        discard = self.discard
        size = len(discard)
        take = count if count < size else size
        if take <= 0:
            return []
        rnd = self.discard_rng.random
        for pos, i in STEPS[size][take]:
            j = floor(rnd() * i)
            discard[pos], discard[j] = discard[j], discard[pos]
        cards = discard[size - take :]
        del discard[size - take :]
        return cards

    def _to_discard(self, cards: list[int]) -> None:
        self.discard += cards

    def _plunder(self, seat: int, reason: int) -> None:
        """§5.1.2: the play area into the stash; the Key + Chest bonus (§6.3)."""
        self._ended = reason
        area = self.area
        piles = self.stash[seat]
        before = self.points[seat]
        points = before
        for c in area:  # _bank, inlined: every plunder moves several cards
            kind = KIND[c]
            old = piles[kind]
            piles[kind] = old | PILE_BIT[c]
            points += CARD_GAIN[c][old]
        self.points[seat] = points
        size = len(area)
        self.cards[seat] += size
        kinds = self.area_kinds
        self.stash_kinds[seat] |= kinds
        self._banked = size
        self.log += (self.turn, seat, _EV_PLUNDER, size, points - before, reason)
        if kinds & KEY_CHEST == KEY_CHEST:
            self._bonus(seat, size)

    def _bonus(self, seat: int, count: int) -> None:
        """§6.3: ``count`` cards (up to what is there) into the stash, with no powers."""
        self._key_chest = 1
        character = self.characters[seat]
        if character == TREASURE_HUNTER:
            count *= 3
        before = self.points[seat]
        if character == PLUNDERER:
            for _ in range(count):
                targets = self._opponent_piles(seat, False)
                if not targets:
                    break
                victim, kind = self.referee.pick(decisions.BONUS, seat, targets, -1, question)
                self._bank(seat, self._pop_top(victim, kind))
                self._bonus_cards += 1
                self._log(seat, CODE["bonus"], 1, 0, victim)
            self._log(seat, CODE["bonus"], 0, self.points[seat] - before, -1)
            return
        cards = self._sample_discard(count)
        take = len(cards)
        for c in cards:
            self._bank(seat, c)
        self._bonus_cards += take
        self.log += (self.turn, seat, _EV_BONUS, take, self.points[seat] - before, -1)

    def _bank(self, seat: int, card: int) -> None:
        """Slot ``card`` into ``seat``'s stash pile of its kind (kept sorted by the mask)."""
        piles = self.stash[seat]
        kind = KIND[card]
        old = piles[kind]
        piles[kind] = old | PILE_BIT[card]
        self.points[seat] += CARD_GAIN[card][old]
        self.cards[seat] += 1
        self.stash_kinds[seat] |= 1 << kind
