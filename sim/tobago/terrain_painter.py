"""Random island shapes and terrain painting, shared by generated islands and the designer.

Shapes grow as compact blobs; terrains are painted in the spirit of the physical board:
beaches as strips along the coast, a river as a winding path inland, a small lake, and the
rest split into mountain, jungle and scrub by competing random growth.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from sim.tobago.hexgrid import Hex, neighbours
from sim.tobago.terrain import BEACH, JUNGLE, LAKE, MOUNTAIN, RIVER, SCRUB


def grow_shape(
    rng: random.Random, start: Hex, allowed: Callable[[Hex], bool], size: int
) -> set[Hex]:
    """A connected blob of ``size`` allowed cells grown from ``start``, favouring compactness."""
    shape = {start}
    frontier = [c for c in neighbours(start) if allowed(c)]
    while len(shape) < size and frontier:
        # Cells touching more of the blob are likelier: fewer spindly arms, fewer holes.
        weights = [sum(n in shape for n in neighbours(c)) ** 2 for c in frontier]
        cell = rng.choices(frontier, weights)[0]
        shape.add(cell)
        frontier = sorted(
            {c for s in shape for c in neighbours(s) if c not in shape and allowed(c)}
        )
    return shape


def paint(rng: random.Random, shape: set[Hex], beach_ok: set[Hex]) -> dict[Hex, int]:
    """A terrain for every cell of ``shape``; beaches only on ``beach_ok`` cells."""
    terrain: dict[Hex, int] = {}
    _beaches(rng, shape, beach_ok, terrain)
    _river(rng, shape, terrain)
    _lake(rng, shape, terrain)
    _the_rest(rng, shape, terrain)
    return terrain


def _beaches(
    rng: random.Random, shape: set[Hex], beach_ok: set[Hex], terrain: dict[Hex, int]
) -> None:
    """Beaches as short strips along the coast, on 14-20% of the cells."""
    n = len(shape)
    coast = sorted(beach_ok & shape)
    target = max(2, round(n * rng.uniform(0.14, 0.2)))
    tries = 0
    while sum(1 for t in terrain.values() if t == BEACH) < target and tries < 50 and coast:
        tries += 1
        cell = rng.choice(coast)
        for _ in range(rng.randint(2, 5)):
            terrain[cell] = BEACH
            options = [
                c for c in neighbours(cell) if c in beach_ok and c in shape and c not in terrain
            ]
            if not options:
                break
            cell = rng.choice(sorted(options))


def _river(rng: random.Random, shape: set[Hex], terrain: dict[Hex, int]) -> None:
    """A river winding inland from the ocean or a beach."""
    free = sorted(c for c in shape if c not in terrain)
    starts = [
        c for c in free if any(n not in shape or terrain.get(n) == BEACH for n in neighbours(c))
    ]
    if starts:
        cell = rng.choice(starts)
        for _ in range(rng.randint(3, 6)):
            terrain[cell] = RIVER
            options = [
                c
                for c in neighbours(cell)
                if c in shape
                and c not in terrain
                and sum(terrain.get(n) == RIVER for n in neighbours(c)) == 1
            ]
            if not options:
                break
            cell = rng.choice(sorted(options))


def _lake(rng: random.Random, shape: set[Hex], terrain: dict[Hex, int]) -> None:
    """A small lake of two to five cells."""
    free = sorted(c for c in shape if c not in terrain)
    if free:
        cell = rng.choice(free)
        lake = {cell}
        for _ in range(rng.randint(1, 4)):
            options = sorted(
                {
                    c
                    for s in lake
                    for c in neighbours(s)
                    if c in shape and c not in terrain and c not in lake
                }
            )
            if not options:
                break
            lake.add(rng.choice(options))
        for c in lake:
            terrain[c] = LAKE


def _the_rest(rng: random.Random, shape: set[Hex], terrain: dict[Hex, int]) -> None:
    """The cells left: mountain, jungle and scrub."""
    # The rest: mountain, jungle and scrub grow in turns from a couple of seeds each, the
    # kind furthest behind its share going next, so that no kind swallows the island.
    free = sorted(c for c in shape if c not in terrain)
    kinds = [MOUNTAIN, JUNGLE, SCRUB]
    shares = [rng.uniform(0.7, 1.3) for _ in kinds]
    frontier: dict[int, list[Hex]] = {k: [] for k in kinds}
    grown = dict.fromkeys(kinds, 0)
    for kind in kinds:
        for _ in range(rng.randint(1, 2)):
            if free:
                frontier[kind].append(rng.choice(free))
    while True:
        live = [k for k in kinds if frontier[k]]
        if not live:
            break
        kind = min(live, key=lambda k: (grown[k] / shares[kinds.index(k)], k))
        cell = frontier[kind].pop(rng.randrange(len(frontier[kind])))
        if cell in terrain:
            continue
        terrain[cell] = kind
        grown[kind] += 1
        frontier[kind].extend(c for c in neighbours(cell) if c in shape and c not in terrain)
    for cell in sorted(shape):
        if cell not in terrain:
            near = sorted({terrain[n] for n in neighbours(cell) if n in terrain} & set(kinds))
            terrain[cell] = rng.choice(near or kinds)
