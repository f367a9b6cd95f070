"""Each clue relation on tiny hand-drawn islands, with hand-computed cells (rules §3.2)."""

from __future__ import annotations

import pytest

from sim.tobago.clues import ClueCard, ClueDeck, clue_masks
from sim.tobago.landmarks import Landmarks
from tests.tobago.drawing import cells, draw

# A straight row, r = 0, q = 0..8:  J S M M S S S L B
# Scrub areas: {q1} and {q4, q5, q6}, so the largest scrub is q4-q6.
ROW = draw("J S M M S S S L B")
HUT_AT_4 = Landmarks(huts=(4,), palms=(), statues=(), facings=())


def row(*qs: int) -> set[tuple[int, int]]:
    return {(q, 0) for q in qs}


def mask(island_text: str | None, relation: str, target: str, **kw: bool) -> set[tuple[int, int]]:
    island = ROW if island_text is None else draw(island_text)
    deck = ClueDeck("t", (ClueCard(0, relation, target),))
    return cells(island, clue_masks(island, HUT_AT_4, deck, **kw)[0])


@pytest.mark.parametrize(
    ("relation", "target", "expected"),
    [
        ("in", "jungle", row(0)),
        ("not_in", "jungle", row(1, 2, 3, 4, 5, 6, 7, 8)),
        ("next_to", "jungle", row(1)),  # the target itself is not next to it
        ("not_next_to", "jungle", row(0, 2, 3, 4, 5, 6, 7, 8)),
        ("within_sight", "jungle", row(1, 2)),  # distance 1 or 2
        ("not_within_sight", "jungle", row(0, 3, 4, 5, 6, 7, 8)),  # includes the target itself
        ("in", "scrub", row(1, 4, 5, 6)),
        ("next_to", "scrub", row(0, 2, 3, 7)),
        ("in", "largest_scrub", row(4, 5, 6)),
        ("not_in", "largest_scrub", row(0, 1, 2, 3, 7, 8)),
        ("next_to", "largest_scrub", row(3, 7)),
        ("not_next_to", "largest_scrub", row(0, 1, 2, 4, 5, 6, 8)),
        ("within_sight", "largest_scrub", row(2, 3, 7, 8)),
        ("not_within_sight", "largest_scrub", row(0, 1, 4, 5, 6)),
        ("in", "hut", row(4)),
        ("next_to", "hut", row(3, 5)),
        ("not_next_to", "hut", row(0, 1, 2, 4, 6, 7, 8)),
        ("within_sight", "hut", row(2, 3, 5, 6)),
        ("not_within_sight", "hut", row(0, 1, 4, 7, 8)),
    ],
)
def test_relations_on_a_row(relation: str, target: str, expected: set[tuple[int, int]]) -> None:
    assert mask(None, relation, target) == expected


def test_object_next_to_may_include_its_own_cell() -> None:
    assert mask(None, "next_to", "hut", object_next_to_includes_self=True) == row(3, 4, 5)
    assert mask(None, "not_next_to", "hut", object_next_to_includes_self=True) == row(
        0, 1, 2, 6, 7, 8
    )
    # Terrains are not objects: the flag leaves them alone.
    assert mask(None, "next_to", "jungle", object_next_to_includes_self=True) == row(1)


# A hexagon of radius 2 around (0, 0): 12 coast cells, 6 at distance 2 from the ocean and the
# centre at distance 3.
HEXAGON = """
  J J J
 J J J J
J J J J J
 J J J J
  J J J
"""


def test_ocean_relations() -> None:
    island = draw(HEXAGON)
    centre = island.coords[9]
    assert centre == (1, 2)
    assert len(island.coords) == 19
    coast = cells(island, island.coast_mask)
    assert len(coast) == 12
    inner = set(island.coords) - coast
    assert len(inner) == 7 and centre in inner
    assert mask(HEXAGON, "next_to", "ocean") == coast
    assert mask(HEXAGON, "not_next_to", "ocean") == inner
    assert mask(HEXAGON, "within_sight", "ocean") == set(island.coords) - {centre}
    assert mask(HEXAGON, "not_within_sight", "ocean") == {centre}


# A horseshoe around a bay: the lake at (0, 2) and the cell (2, 1) are 2 apart across the
# water but 4 apart by land; (2, 0) is 2 apart across the water and 3 by land. Clue
# distances are plain grid distances (rules §2.4).
#   row 0:  . J J        -> (1, 0) (2, 0)
#   row 1:   J . J       -> (0, 1) [(1, 1) ocean] (2, 1)
#   row 2:  . L .        -> (0, 2)
HORSESHOE = """
. J J
 J . J
. L .
"""


def test_sight_counts_steps_across_the_ocean() -> None:
    island = draw(HORSESHOE)
    assert set(island.coords) == {(1, 0), (2, 0), (0, 1), (2, 1), (0, 2)}
    assert mask(HORSESHOE, "next_to", "lake") == {(0, 1)}
    assert mask(HORSESHOE, "not_next_to", "lake") == {(0, 2), (1, 0), (2, 0), (2, 1)}
    assert mask(HORSESHOE, "within_sight", "lake") == {(0, 1), (1, 0), (2, 0), (2, 1)}
    assert mask(HORSESHOE, "not_within_sight", "lake") == {(0, 2)}
    assert mask(HORSESHOE, "in", "largest_lake") == {(0, 2)}
