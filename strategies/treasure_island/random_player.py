"""``random``: a uniformly random legal answer to every decision."""

from __future__ import annotations

import random
from math import floor
from typing import Any

from sim.treasure_island.decisions import (
    BONUS,
    CANDLE,
    CONTINUE_OPTIONS,
    DRAW,
    HELM,
    KNIFE,
    NO_SHORTCUTS,
    PISTOL,
    SPYGLASS,
    Decision,
    ShortcutTable,
)
from sim.treasure_island.view import PlayerView

#: The continue question's options, in the order ``decide`` picks from, and their number.
_CONTINUE = CONTINUE_OPTIONS
_N_CONTINUE = len(CONTINUE_OPTIONS)


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

    def _draws(self, view: PlayerView) -> bool:
        """``decide``'s answer to the continue question, as a flag (one number drawn)."""
        return _CONTINUE[floor(self.rng.random() * _N_CONTINUE)] == DRAW

    def _pick(self, view: PlayerView, options: tuple[Any, ...]) -> object:
        """``decide``'s answer to a question of these options."""
        return options[floor(self.rng.random() * len(options))]

    @classmethod
    def shortcuts(cls) -> ShortcutTable:
        """The questions the engine may ask by function (``sim.treasure_island.engine``'s
        ``Shortcuts``): every answer but the draft's depends on the options alone. None for
        a subclass with its own ``decide``."""
        if cls.decide is not RandomPlayer.decide:
            return NO_SHORTCUTS
        pick = cls._pick
        return cls._draws, dict.fromkeys((HELM, KNIFE, PISTOL, CANDLE, SPYGLASS, BONUS), pick)
