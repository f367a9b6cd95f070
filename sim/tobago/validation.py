"""The board rules every island must obey (rules §2.3, §2.4, §9.2).

One connected island; all six terrains present; exactly one largest area per terrain; every
beach cell touching the ocean; room for a legal landmark placement. Problems are returned as
``(cell id or None, message)`` so that each loader can say *where* in its own terms (file line
and column, or axial cell).
"""

from __future__ import annotations

from sim.bits import bits_of
from sim.tobago.island import Island
from sim.tobago.landmarks import DEFAULT_MIN_DISTANCE, find_placement
from sim.tobago.terrain import BEACH, TERRAIN_NAMES, TERRAINS

#: Upper bound on island size: masks stay small and games fast.
MAX_CELLS = 400

Problem = tuple[int | None, str]


def island_problems(island: Island, min_distance: int = DEFAULT_MIN_DISTANCE) -> list[Problem]:
    """Every broken board rule, first the cheap structural ones; empty when valid."""
    if island.n == 0:
        return [(None, "the island has no cells")]
    if island.n > MAX_CELLS:
        return [(None, f"the island has {island.n} cells (at most {MAX_CELLS} allowed)")]
    problems: list[Problem] = []
    if not island.is_connected():
        stray = bits_of(island.all_mask & ~island.connected_to(0))[0]
        problems.append((stray, "cell is not connected to the rest of the island"))
    for t in TERRAINS:
        if not island.terrain_mask[t]:
            problems.append((None, f"terrain {TERRAIN_NAMES[t]} is missing (all six are required)"))
            continue
        if island.largest_area[t] < 0:
            sizes = sorted(
                (m.bit_count(), bits_of(m)[0])
                for a, m in enumerate(island.area_mask)
                if island.area_terrain[a] == t
            )
            top = sizes[-1][0]
            tied = [cell for size, cell in sizes if size == top]
            problems.append(
                (
                    tied[-1],
                    f"{len(tied)} {TERRAIN_NAMES[t]} areas tie for largest at {top} cells "
                    "(exactly one largest area per terrain is required)",
                )
            )
    inland_beach = island.terrain_mask[BEACH] & ~island.coast_mask
    if inland_beach:
        problems.append((bits_of(inland_beach)[0], "beach cell does not touch the ocean"))
    if not problems and find_placement(island, min_distance) is None:
        problems.append(
            (
                None,
                "no legal landmark placement exists (4 huts, 3 palms, 3 statues off the coast, "
                f"same kind at least {min_distance} apart)",
            )
        )
    return problems
