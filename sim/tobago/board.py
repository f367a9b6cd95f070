"""A board: an island plus, optionally, landmarks fixed by its island file.

Games place landmarks per game from their own seed stream unless the board fixes them; a
fixed statue may leave its facing open, and that facing is then drawn per game. Either way the
landmarks obey the rules' ``same_object_min_distance`` (:meth:`Board.spacing_problem`): a fixed
layout that breaks it, or an island with no room for it, is refused with one line.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sim.errors import InputError
from sim.tobago.island import Island
from sim.tobago.landmarks import (
    DEFAULT_MIN_DISTANCE,
    Landmarks,
    find_placement,
    landmark_problems,
    place_landmarks,
)


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
        """The landmarks of one game: the fixed layout, or a uniform legal placement.

        ``InputError`` when the layout or the island cannot honour ``min_distance``."""
        if min_distance > DEFAULT_MIN_DISTANCE:
            # Island files and generated islands are validated at the default spacing when
            # read: a wider one is checked here (once per board and spacing).
            self.check_spacing(min_distance)
        if self.fixed is None:
            return place_landmarks(self.island, rng, min_distance)
        facings = tuple(rng.randrange(6) if f is None else f for f in self.fixed.facings)
        return Landmarks(self.fixed.huts, self.fixed.palms, self.fixed.statues, facings)

    def spacing_problem(self, min_distance: int) -> str:
        """Why this board's landmarks cannot keep objects of one kind ``min_distance`` apart
        (the fixed layout breaks it, or the island has no such placement); "" when they can."""
        key = (id(self), min_distance)
        hit = _spacing_checked.get(key)
        if hit is not None and hit[0] is self:
            return hit[1]
        problem = ""
        island = self.island
        if self.fixed is not None:
            probe = Landmarks(
                self.fixed.huts,
                self.fixed.palms,
                self.fixed.statues,
                (0,) * len(self.fixed.statues),
            )
            for cell, message in landmark_problems(island, probe, min_distance):
                where = ""
                if cell is not None:
                    q, r = island.coords[cell]
                    where = f" at q={q}, r={r}"
                problem = f"its fixed landmarks break it: {message}{where}"
                break
        elif min_distance > DEFAULT_MIN_DISTANCE and find_placement(island, min_distance) is None:
            problem = "the island has no legal landmark placement with that spacing"
        if len(_spacing_checked) > 256:
            _spacing_checked.clear()
        _spacing_checked[key] = (self, problem)
        return problem

    def check_spacing(self, min_distance: int) -> None:
        """``InputError`` naming the island, the rules key and its value when
        :meth:`spacing_problem` finds one."""
        problem = self.spacing_problem(min_distance)
        if problem:
            raise InputError(
                f"island {self.name}: same_object_min_distance = {min_distance} is not allowed "
                f"on it ({problem})"
            )


_spacing_checked: dict[tuple[int, int], tuple[Board, str]] = {}
