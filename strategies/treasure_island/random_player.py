"""``random``: a uniformly random legal answer to every decision."""

from __future__ import annotations

import random
from math import floor

from sim.treasure_island.decisions import Decision
from sim.treasure_island.view import PlayerView


class RandomPlayer:
    """Picks uniformly among the legal answers (so it draws or plunders with even odds).
    No parameters."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, view: PlayerView, decision: Decision) -> object:
        """A uniformly random legal answer."""
        options = decision.options
        return options[floor(self.rng.random() * len(options))]
