"""Generated islands: ``generated:SEED`` names a random valid island drawn from its seed.

The shape is a compact blob of 60-120 cells (the size range of the 32 built-in islands);
terrains are painted as for the built-in faces (:mod:`sim.tobago.terrain_painter`). A draw that
fails validation is repaired by repainting cells of tied largest areas, and redrawn from the
same stream if repairs do not converge, so the result is a pure function of the seed.
"""

from __future__ import annotations

import functools
import random

from sim.bits import bits_of
from sim.seeding import stream
from sim.tobago.hexgrid import Hex, distance, neighbours
from sim.tobago.island import Island
from sim.tobago.terrain import BEACH
from sim.tobago.terrain_painter import grow_shape, paint
from sim.tobago.validation import island_problems

PREFIX = "generated:"
SIZE_RANGE = (60, 120)
_MAX_REPAIRS = 40


def _repair(rng: random.Random, island: Island, terrain: dict[Hex, int]) -> bool:
    """Repaint one cell to fix the first problem; False when it cannot be fixed this way."""
    problems = island_problems(island)
    if not problems:
        return True
    cell_id, _ = problems[0]
    if cell_id is None:
        return False
    # A tied area or an inland beach: paint one of its cells like a different neighbour.
    area = bits_of(island.area_mask[island.area_of[cell_id]])
    victim = island.coords[rng.choice(area)]
    options = sorted(
        {terrain[n] for n in neighbours(victim) if n in terrain} - {terrain[victim], BEACH}
    )
    if options:
        terrain[victim] = rng.choice(options)
    return False


@functools.lru_cache(maxsize=64)
def generated_island(seed: int) -> Island:
    """The valid island named ``generated:SEED``."""
    rng = stream(seed, "generated-island")
    name = f"{PREFIX}{seed}"
    while True:
        size = rng.randint(*SIZE_RANGE)
        shape = grow_shape(rng, (0, 0), lambda c: distance(c, (0, 0)) <= 9, size)
        coast = {c for c in shape if any(n not in shape for n in neighbours(c))}
        terrain = paint(rng, shape, coast)
        for _ in range(_MAX_REPAIRS):
            island = Island(name, sorted(terrain.items()), origin="generated")
            if _repair(rng, island, terrain):
                return island
