"""A Treasure Island strategy whose strength peaks at a known parameter value, for the tune
test: at ``x = 0.3`` it is expected-value; away from it, it turns over a growing share of its
draw-or-plunder answers (``min(1, 4 |x - 0.3|)`` of them), which can only weaken it."""

from __future__ import annotations

import random

from sim.treasure_island import decisions
from sim.treasure_island.view import PlayerView
from strategies.treasure_island.stopping import ExpectedValue

#: Where the planted optimum lies.
OPTIMUM = 0.3


class Planted:
    """Expected-value with a planted flaw that vanishes at ``x = OPTIMUM``."""

    def __init__(self, rng: random.Random, x: float = 0.5) -> None:
        if isinstance(x, bool) or not isinstance(x, int | float):
            raise ValueError(f"x = {x!r} is not allowed (a number)")
        self.rng = rng
        self.flip = min(1.0, 4 * abs(x - OPTIMUM))
        self.inner = ExpectedValue(rng)

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        answer = self.inner.decide(view, decision)
        if decision.kind == decisions.CONTINUE and self.flip and self.rng.random() < self.flip:
            return decisions.PLUNDER if answer == decisions.DRAW else decisions.DRAW
        return answer
