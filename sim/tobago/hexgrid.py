"""Hex-grid geometry in axial coordinates: directions, neighbours, distance, symmetries.

Hexes are pointy-topped; a cell is ``(q, r)`` with ``r`` growing downward on screen. The six
directions are listed in **clockwise** order starting east, so turning a statue 60 degrees
clockwise is ``facing = (facing + 1) % 6`` (rules §8.2).

The 120-degree rotation and the mirror used to assemble the modular island act about the
vertex shared by the cells ``(0, 0)``, ``(1, 0)`` and ``(0, 1)``: no cell lies on that point or
on the three rays that split the plane into sectors, so every cell belongs to exactly one
sector and both symmetries map cells to cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Hex = tuple[int, int]

#: The six neighbour offsets, clockwise from east: E, SE, SW, W, NW, NE.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
#: Human names of :data:`DIRECTIONS`, same order.
DIRECTION_NAMES: tuple[str, ...] = ("E", "SE", "SW", "W", "NW", "NE")
#: Arrow glyphs of :data:`DIRECTIONS` for terminal rendering, same order.
DIRECTION_ARROWS: tuple[str, ...] = ("→", "↘", "↙", "←", "↖", "↗")


def neighbour(cell: Hex, direction: int) -> Hex:
    """The cell next to ``cell`` in ``direction`` (an index into :data:`DIRECTIONS`)."""
    dq, dr = DIRECTIONS[direction]
    return (cell[0] + dq, cell[1] + dr)


def neighbours(cell: Hex) -> tuple[Hex, ...]:
    """The six cells around ``cell``, in direction order."""
    q, r = cell
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    """Hex distance: the number of steps between two cells through any cells."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(center: Hex, radius: int) -> Iterator[Hex]:
    """Cells at exactly ``radius`` from ``center`` (the centre itself for radius 0)."""
    if radius == 0:
        yield center
        return
    q, r = center[0] + DIRECTIONS[4][0] * radius, center[1] + DIRECTIONS[4][1] * radius
    for side in range(6):
        dq, dr = DIRECTIONS[side]
        for _ in range(radius):
            yield (q, r)
            q, r = q + dq, r + dr


def disc(center: Hex, radius: int) -> Iterator[Hex]:
    """Cells within ``radius`` of ``center``, centre included."""
    for k in range(radius + 1):
        yield from ring(center, k)


def disc_offsets(radius: int) -> tuple[Hex, ...]:
    """Offsets ``(dq, dr)`` of the cells within ``radius`` of a cell, centre first."""
    return _DISC_OFFSETS.setdefault(radius, tuple(disc((0, 0), radius)))


_DISC_OFFSETS: dict[int, tuple[Hex, ...]] = {}


def _tripled_cube(cell: Hex) -> tuple[int, int, int]:
    """Cube coordinates relative to the assembly vertex, scaled by 3 to stay integral."""
    q, r = cell
    return (3 * q - 1, 3 * (-q - r) + 2, 3 * r - 1)


def rotate_about_vertex(cell: Hex, turns: int = 1) -> Hex:
    """Rotate ``cell`` by ``turns`` x 120 degrees about the assembly vertex.

    In cube coordinates this is ``(x, y, z) -> (z, x, y)`` about the origin followed by the
    shift ``(0, -1, +1)`` that moves the centre of rotation onto the vertex; in axial terms
    ``(q, r) -> (r, 1 - q - r)``. It maps sector ``k`` onto sector ``k + 1``.
    """
    q, r = cell
    for _ in range(turns % 3):
        q, r = r, 1 - q - r
    return (q, r)


def mirror_about_vertex(cell: Hex) -> Hex:
    """Reflect ``cell`` across the line through the assembly vertex that swaps q and r."""
    return (cell[1], cell[0])


def sector_of(cell: Hex) -> int:
    """The 120-degree sector (0, 1 or 2) around the assembly vertex that holds ``cell``.

    In tripled cube coordinates relative to the vertex (never zero, never on a boundary ray),
    sector 0 is ``X > 0, Y <= 0``; rotating once gives ``Y > 0, Z <= 0`` (sector 1) and again
    ``Z > 0, X <= 0`` (sector 2).
    """
    x, y, z = _tripled_cube(cell)
    if x > 0 and y <= 0:
        return 0
    if y > 0 and z <= 0:
        return 1
    return 2


def bounding_rows(cells: Iterable[Hex]) -> tuple[int, int, int, int]:
    """``(min_r, max_r, min_x, max_x)`` with ``x = 2q + r`` the doubled column of a cell."""
    rs = []
    xs = []
    for q, r in cells:
        rs.append(r)
        xs.append(2 * q + r)
    if not rs:
        return (0, -1, 0, -1)
    return (min(rs), max(rs), min(xs), max(xs))
