"""Landmark placement (rules §9.2): legal over many seeds, uniform, and deterministic."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from sim.seeding import stream
from sim.tobago.generated import generated_island
from sim.tobago.hexgrid import distance
from sim.tobago.landmarks import (
    KINDS,
    Landmarks,
    find_placement,
    landmark_problems,
    place_landmarks,
)
from sim.tobago.modular import island_names, load_island
from tests.tobago.drawing import draw


def assert_legal(island_name: str, marks: Landmarks, min_distance: int = 4) -> None:
    island = load_island(island_name) if "-" in island_name else generated_island(int(island_name))
    assert landmark_problems(island, marks, min_distance) == []
    assert (len(marks.huts), len(marks.palms), len(marks.statues)) == (4, 3, 3)
    everything = marks.huts + marks.palms + marks.statues
    assert len(set(everything)) == 10
    for kind in KINDS:
        for a, b in itertools.combinations(marks.cells(kind), 2):
            assert distance(island.coords[a], island.coords[b]) >= min_distance
    for s in marks.statues:
        assert len(island.neighbours[s]) == 6
    assert all(0 <= f < 6 for f in marks.facings)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(island_names()), st.integers(min_value=0, max_value=2**63))
def test_placement_is_legal_on_builtin_islands(name: str, seed: int) -> None:
    marks = place_landmarks(load_island(name), random.Random(seed))
    assert_legal(name, marks)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=2**32))
def test_placement_is_legal_on_generated_islands(island_seed: int, seed: int) -> None:
    marks = place_landmarks(generated_island(island_seed), random.Random(seed))
    assert_legal(str(island_seed), marks)


def test_placement_is_a_pure_function_of_the_seed() -> None:
    island = load_island("AbC-3")
    a = place_landmarks(island, stream(42, "landmarks"))
    b = place_landmarks(island, stream(42, "landmarks"))
    c = place_landmarks(island, stream(43, "landmarks"))
    assert a == b != c


def test_wider_spacing_is_respected() -> None:
    island = load_island("ABC-1")
    for seed in range(50):
        marks = place_landmarks(island, random.Random(seed), min_distance=5)
        assert landmark_problems(island, marks, 5) == []


def test_placement_is_uniform_over_legal_sets() -> None:
    # A row of 9 cells with two huts at least 4 apart: the legal pairs are hand-countable:
    # (0,4) (0,5) ... (4,8) -> 5 + 4 + 3 + 2 + 1 = 15 pairs, each to be drawn equally often.
    island = draw("J J J J J J J J J")
    counts: Counter[tuple[int, ...]] = Counter()
    rng = random.Random(7)
    trials = 15_000
    for _ in range(trials):
        marks = place_landmarks(island, rng, counts={"hut": 2, "palm": 0, "statue": 0})
        counts[tuple(sorted(marks.huts))] += 1
    assert len(counts) == 15
    expected = trials / 15
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 36.1  # 14 degrees of freedom, p = 0.001


def test_no_placement_on_a_cramped_island() -> None:
    island = draw(" J J\nS M R\n L B")
    assert find_placement(island) is None
