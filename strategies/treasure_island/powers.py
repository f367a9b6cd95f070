"""Sensible answers to every power choice, shared by the stopping-rule strategies.

Only *when to stop* differs between the scripted Treasure Island strategies; the choices
inside powers are these heuristics (rules spec §10):

- **Pistol**: hit the pile that costs its owner the most points, the leader's on a tie.
- **Knife** and **Candle**: the safe card (kind not in play) worth the most to me, counting
  the points it takes from a victim; when every choice busts, the cheapest.
- **Helm**: a safe pile with a useful power (Pistol, Knife, Candle, Anchor, the partner of a
  Key or Chest in play...) and the lowest top card at risk; when all bust, the cheapest.
- **Spyglass**: place the revealed card whenever it is safe (rules spec §10), else put it back
  and plunder; a safe card is a free draw, so the stopping rule is not asked.
- **Draft**: the first character in ``CHARACTER_ORDER`` that was dealt.
- **Bonus** (plunderer): the opponent's top card worth the most to me.
"""

from __future__ import annotations

from typing import Any

from sim.treasure_island import decisions
from sim.treasure_island.cards import (
    ANCHOR,
    CANDLE,
    CARD_GAIN,
    CHEST,
    HELM,
    KEY,
    KIND,
    KNIFE,
    N_KINDS,
    PER_KIND,
    PISTOL,
    RUM,
    SPYGLASS,
    TOP_INDEX,
    TOP_LOSS,
    TOP_VALUE,
    VALUE,
)
from sim.treasure_island.view import PlayerView

CHARACTER_ORDER = (
    "treasure_hunter",
    "scavenger",
    "master_gunner",
    "wrecker",
    "plunderer",
    "navigator",
    "mystic",
)
#: How much a safe card's power is worth when it enters the play area (points), by kind.
POWER_BONUS: tuple[float, ...] = tuple(
    {PISTOL: 3.0, KNIFE: 3.0, CANDLE: 2.0, ANCHOR: 1.0, HELM: 0.5, SPYGLASS: 0.5, RUM: -2.0}.get(
        k, 0.0
    )
    for k in range(N_KINDS)
)
#: The Pistol's key of a pile, before the owner's score breaks ties.
_PISTOL_KEY: tuple[tuple[int, ...], ...] = tuple(tuple(x * 256 for x in row) for row in TOP_LOSS)
#: ``STEAL[kind][pile]``: what the Knife gains by taking that pile's top card (a kind the
#: thief does not have: its whole value), plus its power's bonus, plus what the victim loses.
STEAL: tuple[tuple[float, ...], ...] = tuple(
    tuple(
        VALUE[k * PER_KIND + TOP_INDEX[m]] + POWER_BONUS[k] + TOP_LOSS[k][m] if m else 0.0
        for m in range(64)
    )
    for k in range(N_KINDS)
)
#: ``_KNIFE_UNSAFE[kind][pile]``: the Knife's key for a steal that busts (that pile's top
#: card): the cheaper the card, the better.
_KNIFE_UNSAFE: tuple[tuple[float, ...], ...] = tuple(
    tuple(-100.0 - VALUE[k * PER_KIND + TOP_INDEX[m]] if m else -100.0 for m in range(64))
    for k in range(N_KINDS)
)
#: ``_CANDLE_KEY[card][pile]``: a safe card's worth to a stash pile of its kind, plus its
#: power's bonus.
_CANDLE_KEY: tuple[tuple[float, ...], ...] = tuple(
    tuple(CARD_GAIN[c][m] + POWER_BONUS[KIND[c]] for m in range(64))
    for c in range(N_KINDS * PER_KIND)
)
#: ``_HELM_KEY[kind][pile]``: a safe Helm choice: the power's bonus less a tenth of what the
#: pile's top card is worth; ``_HELM_UNSAFE``: one that busts.
_HELM_KEY: tuple[tuple[float, ...], ...] = tuple(
    tuple(POWER_BONUS[k] - 0.1 * TOP_VALUE[k][m] for m in range(64)) for k in range(N_KINDS)
)
_HELM_UNSAFE: tuple[tuple[float, ...], ...] = tuple(
    tuple(-100.0 - TOP_VALUE[k][m] for m in range(64)) for k in range(N_KINDS)
)
_PAIR = (1 << KEY) | (1 << CHEST)
# Module-level names for the decision kinds and answers: looked up at every decision.
_CONTINUE, _PISTOL, _KNIFE, _CANDLE, _SPYGLASS, _HELM = (
    decisions.CONTINUE,
    decisions.PISTOL,
    decisions.KNIFE,
    decisions.CANDLE,
    decisions.SPYGLASS,
    decisions.HELM,
)
_DRAW, _PLUNDER, _PLACE, _BACK = decisions.DRAW, decisions.PLUNDER, decisions.PLACE, decisions.BACK


def gain(stash: tuple[int, ...], card: int) -> int:
    """Points ``card`` adds to ``stash`` once banked."""
    return CARD_GAIN[card][stash[KIND[card]]]


class PowerChoices:
    """The shared answers; subclasses decide ``keep_drawing``."""

    def keep_drawing(self, view: PlayerView) -> bool:
        """Whether to draw again (the stopping rule)."""
        raise NotImplementedError

    @classmethod
    def shortcuts(cls) -> decisions.ShortcutTable:
        """The questions the engine may ask by function (``sim.treasure_island.engine``'s
        ``Shortcuts``): the stopping rule, and the power choices ``decide`` answers from their
        options alone, as this class defines them. None of them for a class with its own
        ``decide``, whose answers these methods need not give."""
        if cls.decide is not PowerChoices.decide:
            return decisions.NO_SHORTCUTS
        return cls.keep_drawing, {
            _PISTOL: cls.pistol,
            _KNIFE: cls.knife,
            _CANDLE: cls.candle,
            _HELM: cls.helm,
            decisions.BONUS: cls.bonus,
        }

    def decide(self, view: PlayerView, decision: decisions.Decision) -> Any:
        """Dispatch on the decision kind (most frequent first)."""
        kind = decision.kind
        if kind is _CONTINUE:
            return _DRAW if self.keep_drawing(view) else _PLUNDER
        if kind is _PISTOL:
            return self.pistol(view, decision.options)
        if kind is _KNIFE:
            return self.knife(view, decision.options)
        if kind is _CANDLE:
            return self.candle(view, decision.options)
        if kind is _SPYGLASS:
            return _BACK if view.area_kinds >> KIND[decision.value] & 1 else _PLACE
        if kind is _HELM:
            return self.helm(view, decision.options)
        if kind is decisions.BONUS:
            return self.bonus(view, decision.options)
        if kind is decisions.DRAFT:
            return min(decision.options, key=CHARACTER_ORDER.index)
        return decision.fallback()

    def pistol(self, view: PlayerView, options: tuple[tuple[int, int], ...]) -> tuple[int, int]:
        """The pile whose loss costs its owner most; the leader's on a tie."""
        scores = view.scores()
        stashes = view.stashes()
        best = options[0]
        best_key = -1
        for option in options:
            victim, kind = option
            key = _PISTOL_KEY[kind][stashes[victim][kind]] + scores[victim]
            if key > best_key:
                best, best_key = option, key
        return best

    def knife(self, view: PlayerView, options: tuple[tuple[int, int], ...]) -> tuple[int, int]:
        """The safe steal worth most (my gain and the victim's loss), else the cheapest."""
        stashes = view.stashes()
        in_play = view.area_kinds
        pair = view.area_size + 1 if in_play & _PAIR else 0  # completing Key + Chest
        best = options[0]
        best_key = -1e9
        for option in options:
            victim, kind = option
            if in_play >> kind & 1:
                key = _KNIFE_UNSAFE[kind][stashes[victim][kind]]
            else:
                key = STEAL[kind][stashes[victim][kind]]
                if pair and _PAIR >> kind & 1:
                    key += pair
            if key > best_key:
                best, best_key = option, key
        return best

    def candle(self, view: PlayerView, options: tuple[int, ...]) -> int:
        """The safe card worth most, else the cheapest."""
        mine = view.my_stash
        in_play = view.area_kinds
        pair = view.area_size + 1 if in_play & _PAIR else 0
        best = options[0]
        best_key = -1e9
        for card in options:
            kind = KIND[card]
            if in_play >> kind & 1:
                key = -100.0 - VALUE[card]
            else:
                key = _CANDLE_KEY[card][mine[kind]]
                if pair and _PAIR >> kind & 1:
                    key += pair
            if key > best_key:
                best, best_key = card, key
        return best

    def helm(self, view: PlayerView, options: tuple[int, ...]) -> int:
        """A safe pile with the best power and the least at risk, else the cheapest."""
        mine = view.my_stash
        in_play = view.area_kinds
        best = options[0]
        best_key = -1e9
        for kind in options:
            if in_play >> kind & 1:
                key = _HELM_UNSAFE[kind][mine[kind]]
            else:
                key = _HELM_KEY[kind][mine[kind]]
                if _PAIR >> kind & 1 and in_play & _PAIR:
                    key += view.area_size + 1
            if key > best_key:
                best, best_key = kind, key
        return best

    def bonus(self, view: PlayerView, options: tuple[tuple[int, int], ...]) -> tuple[int, int]:
        """The opponent's top card worth the most to me."""
        mine = view.my_stash
        stashes = view.stashes()
        return max(
            options, key=lambda o: gain(mine, o[1] * PER_KIND + TOP_INDEX[stashes[o[0]][o[1]]])
        )
