"""Per-island tables the scripted Tobago players read: legs between cells, and the features
of cells that a start-cell choice weighs. Everything is computed once per island and cached
(at most 64 islands per table), so a game pays only for lookups.

Legs (rules §6.1) are symmetric: a leg drives within one area or steps onto a neighbour of
another terrain, and both can be driven back. So the legs from ``a`` to ``b`` are also the legs
from ``b`` to ``a``, and one breadth-first search per source cell serves both directions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sim.tobago.island import Island

#: Legs to a cell no leg reaches (never on a valid island: it is connected).
INF = 99

T = TypeVar("T")


def per_island(store: dict[int, tuple[Island, T]], island: Island, make: Callable[[], T]) -> T:
    """The value ``store`` keeps for ``island`` (made on first use; at most 64 islands)."""
    hit = store.get(id(island))
    if hit is None or hit[0] is not island:
        if len(store) > 64:
            store.clear()
        hit = store[id(island)] = (island, make())
    return hit[1]


#: Per island and source cell: legs to every cell, and the cells by legs needed (ascending,
#: the unreachable ones last) as bitmasks.
Legs = tuple[list[int], tuple[int, ...]]
_leg_cache: dict[int, tuple[Island, dict[int, Legs]]] = {}


def legs_from(island: Island, source: int) -> Legs:
    """Breadth-first over one-leg moves from ``source`` (cached per island and source)."""
    table = per_island(_leg_cache, island, dict)
    hit = table.get(source)
    if hit is not None:
        return hit
    dist = [INF] * island.n
    dist[source] = 0
    frontier = 1 << source
    seen = frontier
    layers = [frontier]
    step = 0
    leg = island.leg_mask
    while frontier:
        step += 1
        nxt = 0
        f = frontier
        while f:
            low = f & -f
            nxt |= leg[low.bit_length() - 1]
            f ^= low
        nxt &= ~seen
        seen |= nxt
        frontier = nxt
        if nxt:
            layers.append(nxt)
        f = nxt
        while f:
            low = f & -f
            dist[low.bit_length() - 1] = step
            f ^= low
    if seen != island.all_mask:
        layers.append(island.all_mask & ~seen)
    hit = table[source] = (dist, tuple(layers))
    return hit


def leg_distances(island: Island, source: int) -> list[int]:
    """Legs needed from ``source`` to every cell (breadth-first over one-leg moves)."""
    return legs_from(island, source)[0]


LegTables = tuple[tuple[list[int], ...], tuple[tuple[int, ...], ...]]
_tables_cache: dict[int, tuple[Island, LegTables]] = {}


def leg_tables(island: Island) -> LegTables:
    """:func:`legs_from` of every cell, as the distance lists and the layers indexed by source
    cell (cached per island)."""

    def make() -> LegTables:
        every = [legs_from(island, c) for c in range(island.n)]
        return tuple(dist for dist, _ in every), tuple(layers for _, layers in every)

    return per_island(_tables_cache, island, make)


_within_cache: dict[int, tuple[Island, tuple[tuple[int, ...], ...]]] = {}


def within_tables(island: Island) -> tuple[tuple[int, ...], ...]:
    """Per source cell, the cells at most 0, 1, 2, ... legs away (cumulative masks, up to the
    whole island; cached per island)."""

    def make() -> tuple[tuple[int, ...], ...]:
        out = []
        for layers in leg_tables(island)[1]:
            acc = 0
            cumulative = []
            for layer in layers:
                acc |= layer
                cumulative.append(acc)
            out.append(tuple(cumulative))
        return tuple(out)

    return per_island(_within_cache, island, make)


#: Per cell, as a share of the island's best: the cells within two legs (how central it is)
#: and the terrains one leg away or under it (how many kinds of clue it is near).
CellFeatures = tuple[tuple[float, ...], tuple[float, ...]]
_features_cache: dict[int, tuple[Island, CellFeatures]] = {}


def cell_features(island: Island) -> CellFeatures:
    """:data:`CellFeatures` of ``island`` (cached)."""

    def make() -> CellFeatures:
        dists = leg_tables(island)[0]
        reach = [sum(1 for x in dist if x <= 2) for dist in dists]
        terrain = island.terrain
        kinds = [
            len({terrain[c], *(terrain[j] for j in range(island.n) if island.leg_mask[c] >> j & 1)})
            for c in range(island.n)
        ]
        top_reach, top_kinds = max(reach), max(kinds)
        return tuple(r / top_reach for r in reach), tuple(k / top_kinds for k in kinds)

    return per_island(_features_cache, island, make)
