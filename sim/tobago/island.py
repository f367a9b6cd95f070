"""An island: its cells and terrains, and every static table the engine reads from it.

A set of island cells is an ``int`` bitmask over cell indices (cells sorted by row, then
column). Everything that depends only on the terrain map is computed once here: neighbours,
the cell one step away in each direction, the discs of radius 1 and 2 (by plain grid distance,
through the ocean too), coast, terrain and area masks, the largest area of each terrain, and the
cells one movement leg away. An ``Island`` is never mutated after construction; whether it obeys
the board rules is checked separately (:mod:`sim.tobago.validation`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from sim.tobago.hexgrid import DIRECTIONS, Hex, disc_offsets
from sim.tobago.terrain import TERRAINS


def mask_of(indices: Iterable[int]) -> int:
    """The bitmask holding ``indices``."""
    m = 0
    for i in indices:
        m |= 1 << i
    return m


class Island:
    """The terrain map of one island and its precomputed tables.

    Attributes:
        name: stable name (``aBc-2``, ``generated:7`` or the file's ``name``).
        origin: where it came from: ``modular``, ``generated`` or ``file``.
        coords: axial ``(q, r)`` of each cell, sorted by ``(r, q)``; the index is the cell id.
        index: ``(q, r)`` -> cell id.
        terrain: terrain code of each cell.
        all_mask: every island cell.
        neighbours: the island neighbours of each cell.
        step: per cell and direction, the neighbouring cell id or -1 for ocean.
        ball1, ball2: island cells within grid distance 1 and 2 of each cell (itself included).
        coast_mask: cells with an ocean neighbour (distance 1 to the ocean).
        ocean2_mask: cells within distance 2 of the ocean.
        terrain_mask: per terrain code, its cells.
        area_of: area id of each cell (edge-connected component of one terrain).
        area_mask, area_terrain: cells and terrain of each area.
        largest_area: per terrain, the id of its largest area, or -1 when none or a tie.
        leg_mask: per cell, the cells one movement leg away (rules §6.1).
    """

    __slots__ = (
        "_frozen",
        "all_mask",
        "area_mask",
        "area_of",
        "area_terrain",
        "ball1",
        "ball2",
        "coast_mask",
        "coords",
        "index",
        "largest_area",
        "leg_mask",
        "n",
        "name",
        "neighbours",
        "ocean2_mask",
        "origin",
        "step",
        "terrain",
        "terrain_mask",
    )

    def __init__(self, name: str, cells: Sequence[tuple[Hex, int]], origin: str = "file") -> None:
        ordered = sorted(cells, key=lambda item: (item[0][1], item[0][0]))
        self.name = name
        self.origin = origin
        self.coords: tuple[Hex, ...] = tuple(c for c, _ in ordered)
        self.terrain: tuple[int, ...] = tuple(t for _, t in ordered)
        self.n = len(self.coords)
        index_dict = {c: i for i, c in enumerate(self.coords)}
        if len(index_dict) != self.n:
            raise ValueError("an island lists the same cell twice")
        # Read-only: an island is shared by every game on it (and handed to strategies).
        self.index: Mapping[Hex, int] = MappingProxyType(index_dict)
        self.all_mask = (1 << self.n) - 1
        self._link()
        self._balls()
        self._areas()
        self._frozen = True

    def _link(self) -> None:
        """Each cell's step in every direction, its neighbours, and the coast."""
        index = self.index
        step: list[tuple[int, ...]] = []
        neighbours: list[tuple[int, ...]] = []
        coast = 0
        for i, (q, r) in enumerate(self.coords):
            row = tuple(index.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS)
            step.append(row)
            neighbours.append(tuple(j for j in row if j >= 0))
            if -1 in row:
                coast |= 1 << i
        self.step = tuple(step)
        self.neighbours = tuple(neighbours)
        self.coast_mask = coast

    def _balls(self) -> None:
        """The cells within one and two steps of each cell, and those two steps from the
        ocean."""
        index = self.index
        neighbours = self.neighbours
        ball1: list[int] = []
        ball2: list[int] = []
        ocean2 = 0
        offsets = disc_offsets(2)
        for i, (q, r) in enumerate(self.coords):
            b1 = (1 << i) | mask_of(neighbours[i])
            b2 = 0
            near_ocean = False
            for dq, dr in offsets:
                j = index.get((q + dq, r + dr), -1)
                if j >= 0:
                    b2 |= 1 << j
                else:
                    near_ocean = True
            ball1.append(b1)
            ball2.append(b2)
            if near_ocean:
                ocean2 |= 1 << i
        self.ball1 = tuple(ball1)
        self.ball2 = tuple(ball2)
        self.ocean2_mask = ocean2

    def _areas(self) -> None:
        """The terrains' cells, the areas (connected cells of one terrain), each terrain's
        largest area, and each cell's one-leg moves."""
        neighbours = self.neighbours
        terrain_mask = [0] * len(TERRAINS)
        for i, t in enumerate(self.terrain):
            terrain_mask[t] |= 1 << i
        self.terrain_mask = tuple(terrain_mask)

        area_of = [-1] * self.n
        area_mask: list[int] = []
        area_terrain: list[int] = []
        for start in range(self.n):
            if area_of[start] >= 0:
                continue
            t = self.terrain[start]
            aid = len(area_mask)
            area_of[start] = aid
            stack = [start]
            m = 1 << start
            while stack:
                i = stack.pop()
                for j in neighbours[i]:
                    if area_of[j] < 0 and self.terrain[j] == t:
                        area_of[j] = aid
                        m |= 1 << j
                        stack.append(j)
            area_mask.append(m)
            area_terrain.append(t)
        self.area_of = tuple(area_of)
        self.area_mask = tuple(area_mask)
        self.area_terrain = tuple(area_terrain)

        largest = []
        for t in TERRAINS:
            sizes = [(m.bit_count(), a) for a, m in enumerate(area_mask) if area_terrain[a] == t]
            if not sizes:
                largest.append(-1)
                continue
            sizes.sort(reverse=True)
            tie = len(sizes) > 1 and sizes[0][0] == sizes[1][0]
            largest.append(-1 if tie else sizes[0][1])
        self.largest_area = tuple(largest)

        # One leg: anywhere else in the own area, or one step onto another terrain.
        leg = []
        for i in range(self.n):
            other = 0
            for j in neighbours[i]:
                if self.terrain[j] != self.terrain[i]:
                    other |= 1 << j
            leg.append((area_mask[area_of[i]] & ~(1 << i)) | other)
        self.leg_mask = tuple(leg)

    def __setattr__(self, name: str, value: object) -> None:
        # Immutable once built: one island serves every game played on it in a process.
        if getattr(self, "_frozen", False):
            raise AttributeError(f"an Island is immutable (cannot set {name!r})")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"an Island is immutable (cannot delete {name!r})")

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as what it is built from (the tables are rebuilt)."""
        return Island, (self.name, list(zip(self.coords, self.terrain, strict=True)), self.origin)

    def __repr__(self) -> str:
        return f"Island({self.name!r}, {self.n} cells)"

    def cell_of(self, q: int, r: int) -> int:
        """The id of island cell ``(q, r)``; ``KeyError`` if it is ocean."""
        return self.index[(q, r)]

    def connected_to(self, start: int) -> int:
        """The cells edge-connected to ``start`` over the island, as a mask."""
        seen = 1 << start
        stack = [start]
        while stack:
            i = stack.pop()
            for j in self.neighbours[i]:
                if not (seen >> j) & 1:
                    seen |= 1 << j
                    stack.append(j)
        return seen

    def is_connected(self) -> bool:
        """Whether all island cells form one edge-connected piece."""
        return self.n > 0 and self.connected_to(0) == self.all_mask

    def dilate1(self, mask: int) -> int:
        """Island cells within grid distance 1 of any cell of ``mask``."""
        return _union(self.ball1, mask)

    def dilate2(self, mask: int) -> int:
        """Island cells within grid distance 2 of any cell of ``mask``."""
        return _union(self.ball2, mask)


def _union(table: tuple[int, ...], mask: int) -> int:
    """The union of ``table[i]`` over the cells ``i`` of ``mask``."""
    out = 0
    while mask:
        low = mask & -mask
        out |= table[low.bit_length() - 1]
        mask ^= low
    return out
