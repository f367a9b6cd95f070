"""Generated islands: valid, sized like the built-ins, and a pure function of the seed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sim.tobago.catalog import resolve_board
from sim.tobago.generated import generated_island
from sim.tobago.validation import island_problems


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**40))
def test_generated_islands_are_valid(seed: int) -> None:
    island = generated_island(seed)
    assert island_problems(island) == []
    assert 60 <= island.n <= 120
    assert island.name == f"generated:{seed}"


def test_same_seed_same_island_and_seeds_differ() -> None:
    a = generated_island.__wrapped__(5)
    b = generated_island.__wrapped__(5)
    c = generated_island.__wrapped__(6)
    assert (a.coords, a.terrain) == (b.coords, b.terrain)
    assert (a.coords, a.terrain) != (c.coords, c.terrain)


def test_resolve_generated_name() -> None:
    assert resolve_board("generated:12").island.name == "generated:12"
