"""The single-turn solver's values pinned to the last bit on fixed positions, and the tables
its search reads checked against their plain definitions.

The pinned values were computed by the solver itself, not by hand: they say nothing of
whether it is right (tests/treasure_island/test_optimal.py does), only that a change meant to
make it faster leaves every value, and so every answer, exactly as it was. Each position is a
start of turn with eight to ten unknown cards, a discard of three to five and the stashes of
two or three players; together they play each character once, in both modes.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from sim.treasure_island.cards import N_CARDS, N_KINDS
from strategies.treasure_island.turn_bounds import reach_bounds
from strategies.treasure_island.turn_solver import TurnSolver
from strategies.treasure_island.turn_state import ALL_KINDS, cards_of, order_statistic_mean
from tests.treasure_island.brute_force import Setup, _Never, build_game, random_setup

#: (character, seed of :func:`random_setup` with at most 10 unknown cards, exact, the
#: solver's value of drawing at the start of the turn, as float.hex).
PINNED = [
    ("", 2, False, "0x1.94bcc343abb23p+3"),
    ("", 2, True, "0x1.8e7f529fd4a7dp+3"),
    ("navigator", 95, False, "0x1.103ecb642dba6p+4"),
    ("navigator", 95, True, "0x1.eb1984cb7feb3p+3"),
    ("master_gunner", 100, False, "0x1.0d1ad97a64732p+4"),
    ("master_gunner", 100, True, "0x1.09a42ab19a08ap+4"),
    ("scavenger", 162, False, "0x1.14ec6c499cc75p+4"),
    ("scavenger", 162, True, "0x1.ea195b2f4c8e6p+3"),
    ("mystic", 279, False, "0x1.b4ba453ded787p+2"),
    ("mystic", 279, True, "0x1.b4ba453ded787p+2"),
    ("plunderer", 279, False, "0x1.914f7b5e1c483p+2"),
    ("plunderer", 279, True, "0x1.914f7b5e1c483p+2"),
    ("treasure_hunter", 310, False, "0x1.37941d41d41d4p+4"),
    ("treasure_hunter", 310, True, "0x1.2c5dfd1304638p+4"),
    ("wrecker", 368, False, "0x1.5efbefbefbefcp+2"),
    ("wrecker", 368, True, "0x1.5efbefbefbefcp+2"),
]


def _setup(character: str, seed: int) -> Setup:
    setup = random_setup(random.Random(seed), max_unknown=10, characters=False)
    rules = dataclasses.replace(setup.rules, characters=bool(character))
    return dataclasses.replace(setup, character=character, rules=rules)


def _solver(setup: Setup, exact: bool) -> tuple[TurnSolver, float]:
    view = build_game(setup, setup.unknown, _Never()).views[0]
    solver = TurnSolver(view, exact=exact)
    return solver, solver.draw_value(solver.state(view))


@pytest.mark.parametrize(("character", "seed", "exact", "pinned"), PINNED)
def test_the_solvers_values_are_pinned_to_the_bit(
    character: str, seed: int, exact: bool, pinned: str
) -> None:
    setup = _setup(character, seed)
    # The positions are the ones the values were computed on (random_setup has not moved).
    assert 8 <= len(setup.unknown) <= 10 and 3 <= len(setup.discard) <= 5
    _, value = _solver(setup, exact)
    assert value.hex() == pinned


def test_the_reach_table_adds_each_kind_not_in_play_once() -> None:
    # reach[m]: what the rest of the turn can add with the kinds of m in play, a constant
    # (reach[ALL_KINDS], nothing left to place) plus one card's reach per kind not in m.
    solver, _ = _solver(_setup("scavenger", 162), exact=False)
    contexts = list(solver._contexts.values())[:20]
    some = False
    for context in contexts:
        context.reach = ()
        reach = reach_bounds(solver, context)
        assert len(reach) == 1 << N_KINDS
        own = [reach[ALL_KINDS & ~(1 << k)] - reach[ALL_KINDS] for k in range(N_KINDS)]
        assert min(own) >= 0
        some = some or max(own) > 0
        for m in range(1 << N_KINDS):
            assert reach[m] == reach[ALL_KINDS] + sum(
                own[k] for k in range(N_KINDS) if not m >> k & 1
            )
    assert some


def test_the_card_tables_match_their_definitions() -> None:
    rng = random.Random(7)
    for _ in range(200):
        mask = rng.getrandbits(N_CARDS)
        assert cards_of(mask) == [c for c in range(N_CARDS) if mask >> c & 1]
    solver, _ = _solver(_setup("", 2), exact=True)
    for context in list(solver._contexts.values())[:20]:
        context.inc = ()
        increments = solver.increments(context)
        assert increments == tuple(solver.increment(c, context.cur) for c in range(N_CARDS))


def test_the_order_statistic_is_the_same_from_its_kept_weights() -> None:
    # The second call reads the weights the first one kept.
    values = [3.5, 1.0, 7.25, 7.25, 0.0]
    first = order_statistic_mean(values, 2)
    assert order_statistic_mean(list(reversed(values)), 2) == first
    # By hand: the largest of two of five, each pair equally likely (10 pairs).
    pairs = [max(a, b) for i, a in enumerate(values) for b in values[i + 1 :]]
    assert first == pytest.approx(sum(pairs) / 10)
