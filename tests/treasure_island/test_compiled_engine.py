"""The compiled engine against the reference: the same ``games`` and ``seats`` rows, value
for value, for every compiled player at 2, 3 and 4 players, characters off and on, and the
rules' other readings (about 2,000 games; scripts/compiled_diff.py plays 100,000 a lineup)."""

from __future__ import annotations

import dataclasses

import pytest

from sim.errors import InputError
from sim.treasure_island.compiled import strategies as compiled_strategies
from sim.treasure_island.compiled.strategies import seat_code
from sim.treasure_island.compiled.tables import play
from sim.treasure_island.rules import preset
from strategies.treasure_island import powers
from tests.treasure_island.compiled_cases import PLAYERS, mismatches, plans_of

STANDARD = preset("standard")
CHARACTERS = preset("characters")


@pytest.mark.parametrize("rules", [STANDARD, CHARACTERS], ids=["standard", "characters"])
@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_every_compiled_player_in_a_pool_plays_the_reference_games(
    rules: object, n_players: int
) -> None:
    # A pool of every compiled player at one table size: every lineup of n_players of them,
    # in rotation (300 games each).
    plans = plans_of(len(PLAYERS), 300, 11 + n_players, sizes=(n_players,))
    assert mismatches(rules, PLAYERS, plans) == []  # type: ignore[arg-type]


RULE_VARIANTS = {
    "rum0-candle1": {"rum_cards": 0, "candle_reveal": 1},
    "rum3-candle5-anchored": {
        "rum_cards": 3,
        "candle_reveal": 5,
        "key_chest_on_anchored_bust": True,
    },
    "knife-area-random-first": {"knife_checks_play_area": True, "first_player": "random"},
    "no-tie-breaks-capped": {"tie_break_cards": False, "tie_break_kinds": False, "max_turns": 12},
    "dealt1": {"characters": True, "characters_dealt": 1},
    "dealt3-small-pool": {
        "characters": True,
        "characters_dealt": 3,
        "character_pool": ("plunderer", "wrecker", "mystic", "navigator"),
    },
    "shooters": {"characters": True, "character_pool": ("master_gunner", "scavenger")},
}


@pytest.mark.parametrize("variant", list(RULE_VARIANTS))
def test_the_rules_other_readings_play_the_reference_games(variant: str) -> None:
    rules = dataclasses.replace(STANDARD, **RULE_VARIANTS[variant])  # type: ignore[arg-type]
    plans = plans_of(len(PLAYERS), 60, 3, seating="random", sizes=(2, 3, 4))
    assert mismatches(rules, PLAYERS, plans) == []


def test_the_power_choice_tables_are_the_strategies() -> None:
    cs = compiled_strategies
    assert cs.POWER_BONUS.tolist() == list(powers.POWER_BONUS)
    assert cs.STEAL.tolist() == [list(row) for row in powers.STEAL]
    assert cs.CHARACTER_ORDER == powers.CHARACTER_ORDER


def test_a_player_that_does_not_compile_is_refused() -> None:
    with pytest.raises(ValueError, match="'ismcts' has no compiled player"):
        seat_code("ismcts", {})
    with pytest.raises(ValueError, match="no parameter 'm'"):
        seat_code("stop-at", {"m": 2})
    assert seat_code("expected-value", {"k": 2}) == (compiled_strategies.EXPECTED_VALUE, 2.0, 0.5)


def test_a_pool_too_small_for_the_table_is_an_input_error() -> None:
    rules = dataclasses.replace(CHARACTERS, character_pool=("mystic", "wrecker"))
    with pytest.raises(InputError, match="character_pool has 2 characters"):
        play(plans_of(3, 3, 1), rules, [("random", {})] * 3)
