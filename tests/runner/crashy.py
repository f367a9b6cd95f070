"""Test strategies that fail, imported by path like a user's own strategy would be."""

from __future__ import annotations

import random

from sim.tobago.decisions import Decision
from sim.tobago.view import PlayerView


class Crashy:
    """Raises on every third decision, answers nonsense on others, else plays the fallback."""

    def __init__(self, rng: random.Random) -> None:
        self.calls = 0

    def decide(self, view: PlayerView, decision: Decision) -> object:
        self.calls += 1
        if self.calls % 3 == 0:
            raise RuntimeError("strategy bug")
        if self.calls % 3 == 1:
            return ("teleport",)
        return decision.fallback()


class Flaky:
    """Fails in its constructor for about half of the seeds (not for the one the command line
    checks parameters with), else always plays the fallback."""

    def __init__(self, rng: random.Random) -> None:
        if rng.random() < 0.5:
            raise ValueError("cannot build")

    def decide(self, view: PlayerView, decision: Decision) -> object:
        return decision.fallback()
