"""The game schedule: seeds, islands, lineups and seatings from the game index alone."""

from __future__ import annotations

import math
from collections import Counter

from sim.runner.schedule import Schedule, cycle_games_per_size, plan_game
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


def test_a_pool_of_four_at_2_3_4_players_is_balanced_per_table_size() -> None:
    assert cycle_games_per_size(4, (2, 3, 4), "rotate") == 12  # lcm(6 x 2, 4 x 3, 1 x 4)
    schedule = Schedule(9, 4, "rotate", ISLANDS, (2, 3, 4))
    cycles = 5
    plans = [schedule.plan(g) for g in range(cycles * 36)]
    games = Counter(len(p.order) for p in plans)
    assert games == {2: 60, 3: 60, 4: 60}
    for size in (2, 3, 4):
        at = [p for p in plans if len(p.order) == size]
        played = Counter(player for p in at for player in p.order)
        assert played == dict.fromkeys(range(4), 60 * size // 4)  # each member equally often
        seats = Counter((seat, player) for p in at for seat, player in enumerate(p.order))
        assert set(seats.values()) == {60 // 4}  # every member from every seat equally
        lineups = Counter(tuple(sorted(p.order)) for p in at)
        assert len(lineups) == math.comb(4, size) and len(set(lineups.values())) == 1
    # A block is every rotation of one combination on one deal (seed and island).
    by_block: dict[int, list[tuple[int, ...]]] = {}
    for p in plans:
        by_block.setdefault(p.block, []).append(p.order)
        first = next(q for q in plans if q.block == p.block)
        assert (p.seed, p.island) == (first.seed, first.island)
    for orders in by_block.values():
        s = len(orders[0])
        assert len(orders) == s and {o[0] for o in orders} == set(orders[0])
        assert all(o[k:] + o[:k] in orders for o in orders[:1] for k in range(s))
    assert len({p.seed for p in plans}) == len(by_block)
    # Every combination goes round the islands.
    pairs = {(tuple(sorted(p.order)), p.island) for p in plans}
    assert all((combo, i) in pairs for combo, _ in pairs for i in ISLANDS)


def test_a_fixed_lineup_is_the_one_size_pool_of_everybody() -> None:
    for seating in ("rotate", "random"):
        pool = Schedule(3, 4, seating, ISLANDS, (4,))
        assert [pool.plan(g) for g in range(40)] == [
            plan_game(g, 3, 4, seating, ISLANDS) for g in range(40)
        ]
    shuffled = [Schedule(3, 4, "random", ISLANDS, (2, 3)).plan(g) for g in range(96)]
    assert Counter(len(p.order) for p in shuffled) == {2: 48, 3: 48}  # lcm(6, 4) = 12 each
