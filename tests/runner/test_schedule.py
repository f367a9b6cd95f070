"""The game schedule: seeds, islands and seatings from the game index alone."""

from __future__ import annotations

from sim.runner.schedule import plan_game
from sim.seeding import derive_seed

ISLANDS = ("abc-1", "ABC-2", "aBc-3")


def test_rotation_blocks_share_seed_and_island_and_rotate_seats() -> None:
    plans = [plan_game(g, 9, 4, "rotate", ISLANDS) for g in range(8)]
    assert [p.block for p in plans] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert [p.order for p in plans[:4]] == [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]
    assert len({p.seed for p in plans[:4]}) == 1 and plans[0].seed != plans[4].seed
    assert plans[0].seed == derive_seed(9, "game", 0)
    assert [p.island for p in plans] == ["abc-1"] * 4 + ["ABC-2"] * 4
    three = [plan_game(g, 9, 3, "rotate", ISLANDS).order for g in range(3)]
    assert three == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]


def test_random_seating_is_a_seeded_permutation_per_game() -> None:
    plans = [plan_game(g, 9, 4, "random", ISLANDS) for g in range(50)]
    assert all(sorted(p.order) == [0, 1, 2, 3] for p in plans)
    assert len({p.order for p in plans}) > 5
    assert plans[7] == plan_game(7, 9, 4, "random", ISLANDS)
    assert [p.island for p in plans[:4]] == ["abc-1", "ABC-2", "aBc-3", "abc-1"]
