"""Landmarks (huts, palms, statues) and their placement by rules §9.2.

Rules: one object per cell; objects of one kind at hex distance >= ``min_distance`` from each
other (4 by default); statues on cells with no ocean neighbour; each statue faces one of its
six neighbours (a direction index, clockwise from east).

:func:`place_landmarks` draws a placement **uniformly** among all legal ones. Each kind is
drawn as an ordered tuple of independent uniform cells, rejected as soon as two are too close
(every legal set is then equally likely), and the three kinds are redrawn together until they
share no cell. Rejection stays cheap on real islands (tens of microseconds); if an island is so
cramped that it is not, the same uniform law is sampled from the enumerated legal sets instead.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import floor
from typing import Protocol

from sim.bits import bits_of
from sim.tobago.hexgrid import disc_offsets, distance
from sim.tobago.island import Island

HUT = "hut"
PALM = "palm"
STATUE = "statue"
#: Landmark kinds in a fixed order.
KINDS: tuple[str, ...] = (HUT, PALM, STATUE)
#: How many of each kind the game has (rules §1).
DEFAULT_COUNTS: dict[str, int] = {HUT: 4, PALM: 3, STATUE: 3}
DEFAULT_MIN_DISTANCE = 4

_MAX_REJECTION_DRAWS = 200_000


@dataclass(frozen=True, slots=True)
class Landmarks:
    """A placement: cell ids of each kind, and the facing (0-5) of each statue, same order."""

    huts: tuple[int, ...]
    palms: tuple[int, ...]
    statues: tuple[int, ...]
    facings: tuple[int, ...]

    def cells(self, kind: str) -> tuple[int, ...]:
        """The cells of one kind."""
        if kind == HUT:
            return self.huts
        if kind == PALM:
            return self.palms
        if kind == STATUE:
            return self.statues
        raise KeyError(kind)

    def mask(self, kind: str) -> int:
        """The cells of one kind as a bitmask."""
        m = 0
        for i in self.cells(kind):
            m |= 1 << i
        return m


def objects_by_cell(
    landmarks: Landmarks | FixedLayoutLike,
) -> dict[int, tuple[str, int | None]]:
    """Cell id -> ``(kind, facing)`` for every landmark (facing None except for statues)."""
    out: dict[int, tuple[str, int | None]] = {}
    for i in landmarks.huts:
        out[i] = (HUT, None)
    for i in landmarks.palms:
        out[i] = (PALM, None)
    for i, f in zip(landmarks.statues, landmarks.facings, strict=True):
        out[i] = (STATUE, f)
    return out


class FixedLayoutLike(Protocol):
    """Anything with landmark cells and statue facings (a placement or a fixed layout)."""

    @property
    def huts(self) -> tuple[int, ...]: ...
    @property
    def palms(self) -> tuple[int, ...]: ...
    @property
    def statues(self) -> tuple[int, ...]: ...
    @property
    def facings(self) -> tuple[int | None, ...]: ...


class _SpacingTable:
    """Per island and minimum distance: the cells too close to each cell (itself included)."""

    __slots__ = ("conflict", "everywhere", "interior")

    def __init__(self, island: Island, min_distance: int) -> None:
        index = island.index
        offsets = disc_offsets(max(min_distance - 1, 0))
        conflict = []
        for q, r in island.coords:
            m = 0
            for dq, dr in offsets:
                j = index.get((q + dq, r + dr), -1)
                if j >= 0:
                    m |= 1 << j
            conflict.append(m)
        self.conflict: tuple[int, ...] = tuple(conflict)
        self.interior: tuple[int, ...] = tuple(
            i for i in range(island.n) if not (island.coast_mask >> i) & 1
        )
        self.everywhere: tuple[int, ...] = tuple(range(island.n))


_spacing_cache: dict[tuple[int, int], tuple[Island, _SpacingTable]] = {}


def _spacing(island: Island, min_distance: int) -> _SpacingTable:
    key = (id(island), min_distance)
    hit = _spacing_cache.get(key)
    if hit is not None and hit[0] is island:
        return hit[1]
    table = _SpacingTable(island, min_distance)
    if len(_spacing_cache) > 256:
        _spacing_cache.clear()
    _spacing_cache[key] = (island, table)
    return table


def _pools(island: Island, table: _SpacingTable) -> dict[str, tuple[int, ...]]:
    everywhere = table.everywhere
    return {HUT: everywhere, PALM: everywhere, STATUE: table.interior}


def _enumerate_spread(pool: tuple[int, ...], k: int, conflict: tuple[int, ...]) -> list[int]:
    """Every set of ``k`` pool cells pairwise far apart, as bitmasks."""
    out: list[int] = []

    def extend(start: int, left: int, blocked: int, mask: int) -> None:
        if left == 0:
            out.append(mask)
            return
        for pos in range(start, len(pool)):
            c = pool[pos]
            if not (blocked >> c) & 1:
                extend(pos + 1, left - 1, blocked | conflict[c], mask | (1 << c))

    extend(0, k, 0, 0)
    return out


def _cells(mask: int) -> tuple[int, ...]:
    return tuple(bits_of(mask))


def place_landmarks(
    island: Island,
    rng: random.Random,
    min_distance: int = DEFAULT_MIN_DISTANCE,
    counts: dict[str, int] | None = None,
) -> Landmarks:
    """A uniformly random legal placement with uniformly random statue facings.

    Raises ``ValueError`` when the island has no legal placement (validated islands have one).
    """
    counts = DEFAULT_COUNTS if counts is None else counts
    table = _spacing(island, min_distance)
    pools = _pools(island, table)
    conflict = table.conflict
    order = (STATUE, HUT, PALM)
    for kind in order:
        if len(pools[kind]) < counts[kind] and counts[kind] > 0:
            raise ValueError(f"island {island.name} has no room for {counts[kind]} {kind}s")
    # Per kind in drawing order: its pool, the pool's size, how many to draw, and the draws
    # after an attempt's first.
    plan = [(pools[k], len(pools[k]), counts[k], range(counts[k] - 1)) for k in order]
    rnd = rng.random
    draws = 0
    while draws < _MAX_REJECTION_DRAWS:
        picked: list[tuple[int, ...]] = []
        for pool, size, k, rest in plan:
            # Attempts of k pool cells pairwise far apart, each given up at its first clash,
            # until one succeeds (the hot loop of a game's setup: tens of attempts).
            while True:
                draws += 1
                if k <= 0:
                    chosen: list[int] = []
                else:
                    # The first cell of an attempt cannot clash: taken without the test.
                    c = pool[floor(rnd() * size)]
                    chosen = [c]
                    blocked = conflict[c]
                for _ in rest:
                    c = pool[floor(rnd() * size)]
                    if (blocked >> c) & 1:
                        break
                    chosen.append(c)
                    blocked |= conflict[c]
                if len(chosen) == k:
                    picked.append(tuple(chosen))
                    break
                if draws >= _MAX_REJECTION_DRAWS:
                    return _place_by_enumeration(island, rng, table, counts)
        used = 0
        clash = False
        for cells in picked:
            for c in cells:
                if (used >> c) & 1:
                    clash = True
                used |= 1 << c
        if not clash:
            statues, huts, palms = picked
            facings = tuple(rng.randrange(6) for _ in statues)
            return Landmarks(huts, palms, statues, facings)
    return _place_by_enumeration(island, rng, table, counts)


def _place_by_enumeration(
    island: Island, rng: random.Random, table: _SpacingTable, counts: dict[str, int]
) -> Landmarks:
    pools = _pools(island, table)
    sets = {k: _enumerate_spread(pools[k], counts[k], table.conflict) for k in KINDS}
    if not find_placement(island, DEFAULT_MIN_DISTANCE, counts, table=table):
        raise ValueError(f"island {island.name} has no legal landmark placement")
    while True:
        s = rng.choice(sets[STATUE])
        h = rng.choice(sets[HUT])
        p = rng.choice(sets[PALM])
        if not (s & h or s & p or h & p):
            statues = _cells(s)
            facings = tuple(rng.randrange(6) for _ in statues)
            return Landmarks(_cells(h), _cells(p), statues, facings)


def find_placement(
    island: Island,
    min_distance: int = DEFAULT_MIN_DISTANCE,
    counts: dict[str, int] | None = None,
    table: _SpacingTable | None = None,
) -> Landmarks | None:
    """Some legal placement (facings 0), found by depth-first search; None if none exists."""
    counts = DEFAULT_COUNTS if counts is None else counts
    table = table or _spacing(island, min_distance)
    pools = _pools(island, table)
    conflict = table.conflict
    order = (STATUE, HUT, PALM)

    def place_kind(
        level: int, used: int, picked: dict[str, tuple[int, ...]]
    ) -> dict[str, tuple[int, ...]] | None:
        if level == len(order):
            return picked
        kind = order[level]
        pool = [c for c in pools[kind] if not (used >> c) & 1]
        result: dict[str, tuple[int, ...]] | None = None

        def extend(start: int, chosen: list[int], blocked: int) -> bool:
            nonlocal result
            if len(chosen) == counts[kind]:
                mask = used
                for c in chosen:
                    mask |= 1 << c
                result = place_kind(level + 1, mask, {**picked, kind: tuple(chosen)})
                return result is not None
            for pos in range(start, len(pool)):
                c = pool[pos]
                if not (blocked >> c) & 1:
                    chosen.append(c)
                    if extend(pos + 1, chosen, blocked | conflict[c]):
                        return True
                    chosen.pop()
            return False

        extend(0, [], 0)
        return result

    found = place_kind(0, 0, {})
    if found is None:
        return None
    return Landmarks(found[HUT], found[PALM], found[STATUE], tuple(0 for _ in found[STATUE]))


def landmark_problems(
    island: Island,
    landmarks: Landmarks,
    min_distance: int = DEFAULT_MIN_DISTANCE,
    counts: dict[str, int] | None = None,
) -> list[tuple[int | None, str]]:
    """Every broken rule of a fixed placement, as ``(cell id or None, message)`` pairs."""
    counts = DEFAULT_COUNTS if counts is None else counts
    problems: list[tuple[int | None, str]] = []
    occupied: dict[int, str] = {}
    for kind in KINDS:
        cells = landmarks.cells(kind)
        if len(cells) != counts[kind]:
            problems.append((None, f"needs {counts[kind]} {kind}s, found {len(cells)}"))
        for c in cells:
            if not 0 <= c < island.n:
                problems.append((None, f"a {kind} stands off the island"))
                continue
            if c in occupied:
                problems.append((c, f"a {kind} and a {occupied[c]} share one cell"))
            occupied[c] = kind
        for a_pos, a in enumerate(cells):
            for b in cells[a_pos + 1 :]:
                d = distance(island.coords[a], island.coords[b])
                if d < min_distance:
                    problems.append(
                        (b, f"two {kind}s are {d} apart (at least {min_distance} required)")
                    )
    for c in landmarks.statues:
        if 0 <= c < island.n and (island.coast_mask >> c) & 1:
            problems.append((c, "a statue touches the ocean (statues need six island neighbours)"))
    if len(landmarks.facings) != len(landmarks.statues):
        problems.append((None, "every statue needs exactly one facing"))
    for f in landmarks.facings:
        if not 0 <= f < 6:
            problems.append((None, f"statue facing {f} is not a direction 0-5"))
    return problems
