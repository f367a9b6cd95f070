"""``random``: a uniformly random legal answer to every decision."""

from __future__ import annotations

import random

from sim.tobago.decisions import Decision
from sim.tobago.view import PlayerView


class RandomPlayer:
    """Picks uniformly among all legal answers (actions and cells alike). No parameters."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, view: PlayerView, decision: Decision) -> object:
        """A uniformly random legal answer."""
        n_cells = decision.cells.bit_count()
        k = self.rng.randrange(len(decision.actions) + n_cells)
        if k < len(decision.actions):
            return decision.actions[k]
        k -= len(decision.actions)
        c = decision.cells
        for _ in range(k):
            c &= c - 1
        return (c & -c).bit_length() - 1
