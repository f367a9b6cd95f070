"""The 32 built-in islands: names, sizes, validity, and how the faces assemble."""

from __future__ import annotations

import pytest

from sim.errors import InputError
from sim.tobago.hexgrid import mirror_about_vertex, rotate_about_vertex, sector_of
from sim.tobago.modular import (
    assemble,
    island_names,
    load_faces,
    load_island,
    parse_faces,
    parse_name,
    sections_path,
)
from sim.tobago.terrain import BEACH, TERRAINS
from sim.tobago.validation import island_problems


def test_thirty_two_distinct_names() -> None:
    names = island_names()
    assert len(names) == len(set(names)) == 32
    assert "aBc-2" in names and "ABC-4" in names and "abc-1" in names
    assert parse_name("aBc-2") == (("a", "B", "c"), 2)
    for bad in ("aBc-5", "bBc-1", "abc1", "ABCD-1", "aBc-0"):
        assert parse_name(bad) is None


@pytest.mark.parametrize("name", island_names())
def test_every_builtin_island_is_valid(name: str) -> None:
    island = load_island(name)
    assert island_problems(island) == []
    assert island.is_connected()
    assert all(island.terrain_mask[t] for t in TERRAINS)
    assert all(island.largest_area[t] >= 0 for t in TERRAINS)
    assert island.terrain_mask[BEACH] & ~island.coast_mask == 0


def test_face_sizes_follow_the_small_and_large_classes() -> None:
    faces = load_faces()
    for name, face in faces.items():
        if name.islower():
            assert 20 <= len(face) <= 28, name
        else:
            assert 30 <= len(face) <= 40, name
        assert all(sector_of(c) == 0 for c in face)
        assert set(face.values()) == set(TERRAINS), name


def test_island_size_is_the_sum_of_its_faces() -> None:
    faces = load_faces()
    for name in island_names():
        parsed = parse_name(name)
        assert parsed is not None
        assert load_island(name).n == sum(len(faces[f]) for f in parsed[0])


def test_arrangements_place_and_mirror_the_faces() -> None:
    faces = load_faces()
    plain = assemble(faces, ("a", "B", "c"), 1)
    swapped = assemble(faces, ("a", "B", "c"), 2)
    mirrored = assemble(faces, ("a", "B", "c"), 3)
    # Section 1 stays in sector 0; sections 2 and 3 trade sectors in arrangement 2.
    for cell, t in faces["a"].items():
        assert plain[cell] == t == swapped[cell]
    for cell, t in faces["B"].items():
        assert plain[rotate_about_vertex(cell, 1)] == t
        assert swapped[rotate_about_vertex(cell, 2)] == t
    assert mirrored == {mirror_about_vertex(c): t for c, t in plain.items()}
    islands = {tuple(sorted(assemble(faces, ("a", "B", "c"), a).items())) for a in (1, 2, 3, 4)}
    assert len(islands) == 4


def test_face_outside_its_sector_is_rejected() -> None:
    text = sections_path().read_text()
    # Put land on the first drawn cell of face [a], which is far from the centre but inside the
    # sector; then shift the whole block one hex left so its cells leave the sector.
    head, rest = text.split("[a]\n", 1)
    block, tail = rest.split("[A]\n", 1)
    moved = "\n".join(line[2:] if line.startswith("  ") else line for line in block.splitlines())
    moved = moved.replace(".", "J")
    with pytest.raises(InputError, match=r"\[a\] line \d+, column \d+ .*outside the face's sector"):
        parse_faces(head + "[a]\n" + moved + "\n[A]\n" + tail, "sections.txt")
