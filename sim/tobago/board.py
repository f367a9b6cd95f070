"""A board: an island plus, optionally, landmarks fixed by its island file.

Games place landmarks per game from their own seed stream unless the board fixes them; a
fixed statue may leave its facing open, and that facing is then drawn per game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sim.tobago.island import Island
from sim.tobago.landmarks import DEFAULT_MIN_DISTANCE, Landmarks, place_landmarks


@dataclass(frozen=True, slots=True)
class FixedLayout:
    """Landmark cells fixed by an island file; ``None`` facings are drawn per game."""

    huts: tuple[int, ...]
    palms: tuple[int, ...]
    statues: tuple[int, ...]
    facings: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class Board:
    """An island and its optional fixed landmark layout."""

    island: Island
    fixed: FixedLayout | None = None

    @property
    def name(self) -> str:
        """The island's name."""
        return self.island.name

    def landmarks(self, rng: random.Random, min_distance: int = DEFAULT_MIN_DISTANCE) -> Landmarks:
        """The landmarks of one game: the fixed layout, or a uniform legal placement."""
        if self.fixed is None:
            return place_landmarks(self.island, rng, min_distance)
        facings = tuple(rng.randrange(6) if f is None else f for f in self.fixed.facings)
        return Landmarks(self.fixed.huts, self.fixed.palms, self.fixed.statues, facings)
