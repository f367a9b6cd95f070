"""An example Treasure Island strategy to plug in as
``strategies.examples.push_until:PushUntil`` (the code shown in docs/strategies.md)."""

from __future__ import annotations

import random

from sim.treasure_island.cards import VALUE
from sim.treasure_island.decisions import Decision
from sim.treasure_island.view import PlayerView
from strategies.treasure_island.powers import PowerChoices


class PushUntil(PowerChoices):
    """Draws until the play area is worth ``points`` or the bust chance passes ``risk``;
    every power choice is the shared sensible one."""

    def __init__(self, rng: random.Random, points: int = 15, risk: float = 0.3) -> None:
        self.rng = rng
        self.points = points
        self.risk = risk

    def keep_drawing(self, view: PlayerView) -> bool:
        worth = sum(VALUE[c] for c in view.area)
        return worth < self.points and view.bust_chance() <= self.risk

    def decide(self, view: PlayerView, decision: Decision) -> object:
        return super().decide(view, decision)
