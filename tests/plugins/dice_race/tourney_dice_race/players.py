"""Dice Race players: hold at a turn total, or roll on a coin flip."""

from __future__ import annotations

import random

from strategies.catalog import StrategyCatalog
from tourney_dice_race.game import Decision, View


class HoldAt:
    """Rolls until the turn's total reaches ``n``."""

    def __init__(self, rng: random.Random, n: int = 20) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"n = {n!r} is not allowed (an integer >= 1)")
        self.n = n

    def decide(self, view: View, decision: Decision) -> bool:
        return bool(view.turn_total < self.n)


class CoinFlip:
    """Rolls again with chance ``p``."""

    def __init__(self, rng: random.Random, p: float = 0.5) -> None:
        if not 0 <= p <= 1:
            raise ValueError(f"p = {p!r} is not allowed (a number from 0 to 1)")
        self.rng, self.p = rng, p

    def decide(self, view: View, decision: Decision) -> bool:
        return self.rng.random() < self.p


CATALOG = StrategyCatalog(
    strategies={"hold-at": HoldAt, "random": CoinFlip}, defaults=("hold-at", "random")
)
