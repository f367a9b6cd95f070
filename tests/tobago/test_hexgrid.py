"""Hex geometry: neighbours, distance, rings, and the assembly symmetries."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sim.tobago.hexgrid import (
    DIRECTIONS,
    disc,
    distance,
    mirror_about_vertex,
    neighbour,
    neighbours,
    ring,
    rotate_about_vertex,
    sector_of,
)

coord = st.integers(min_value=-30, max_value=30)
cells = st.tuples(coord, coord)


def test_six_neighbours_clockwise_from_east() -> None:
    assert neighbours((0, 0)) == ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
    # Opposite directions cancel: direction d and d + 3.
    for d in range(3):
        assert DIRECTIONS[d][0] == -DIRECTIONS[d + 3][0]
        assert DIRECTIONS[d][1] == -DIRECTIONS[d + 3][1]


def test_distance_examples() -> None:
    assert distance((0, 0), (0, 0)) == 0
    assert distance((0, 0), (3, 0)) == 3
    assert distance((0, 0), (2, -1)) == 2
    assert distance((0, 2), (2, 1)) == 2
    assert distance((-2, 2), (2, -2)) == 4


def test_ring_and_disc_sizes() -> None:
    assert list(ring((5, 5), 0)) == [(5, 5)]
    for k in range(1, 6):
        members = list(ring((1, -2), k))
        assert len(members) == 6 * k == len(set(members))
        assert all(distance((1, -2), c) == k for c in members)
    assert len(set(disc((0, 0), 3))) == 37


@given(cells, cells)
def test_distance_is_a_metric(a: tuple[int, int], b: tuple[int, int]) -> None:
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)
    for d in range(6):
        assert abs(distance(neighbour(a, d), b) - distance(a, b)) <= 1


@given(cells)
def test_rotation_cycles_sectors_and_keeps_distances(c: tuple[int, int]) -> None:
    k = sector_of(c)
    assert sector_of(rotate_about_vertex(c)) == (k + 1) % 3
    assert rotate_about_vertex(c, 3) == c
    assert mirror_about_vertex(mirror_about_vertex(c)) == c
    for d in range(6):
        n = neighbour(c, d)
        assert distance(rotate_about_vertex(c), rotate_about_vertex(n)) == 1
        assert distance(mirror_about_vertex(c), mirror_about_vertex(n)) == 1


def test_centre_cells_fill_one_sector_each() -> None:
    assert sorted(sector_of(c) for c in [(0, 0), (1, 0), (0, 1)]) == [0, 1, 2]
    assert rotate_about_vertex((1, 0)) == (0, 0)
