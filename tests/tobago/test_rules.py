"""Rules as data: presets, TOML overrides, validation messages, the stable hash."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from sim.errors import InputError
from sim.tobago.rules import KEYS, TobagoRules, load_rules, preset, rules_hash


def test_rulebook_preset_is_the_default_object() -> None:
    assert preset("rulebook") == TobagoRules()
    r = preset("rulebook")
    assert (r.marker_threshold, r.hand_size, r.hand_size_two_players) == (17, 4, 6)
    assert (r.amulet_count, r.curse_count, r.curse_free_top) == (20, 2, 12)
    assert len(r.treasure_values) == 39 and sum(r.treasure_values) == 154
    assert r.hand_size_for(2) == 6 and r.hand_size_for(3) == 4


def test_bga_preset_flips_the_disputed_readings() -> None:
    b = preset("bga")
    assert b.preset == "bga"
    assert (
        b.raise_ends_turn and b.curse_amulet_optional and b.bga_allow_non_reducing_without_markers
    )
    assert b.marker_threshold == 16
    assert rules_hash(b) != rules_hash(preset("rulebook"))


def test_every_key_is_listed_in_the_rulebook_file() -> None:
    text = (Path(__file__).parents[2] / "data" / "rules" / "rulebook.toml").read_text()
    for key in KEYS:
        assert f"\n{key} = " in text, key


def test_override_file_on_a_preset(tmp_path: Path) -> None:
    path = tmp_path / "five.toml"
    path.write_text('preset = "bga"\nhand_size = 5\ndescription = "five cards"\n')
    rules = load_rules(str(path))
    assert rules.hand_size == 5 and rules.raise_ends_turn and rules.preset == "bga"
    assert rules_hash(rules) != rules_hash(preset("bga"))


def test_hash_is_stable_and_ignores_how_rules_were_written(tmp_path: Path) -> None:
    path = tmp_path / "same.toml"
    path.write_text("hand_size = 4\n")
    assert rules_hash(load_rules(str(path))) == rules_hash(preset("rulebook"))
    assert rules_hash(preset("rulebook")) == "cf6544ee6e2928b5"  # changes only with the rules
    changed = dataclasses.replace(preset("rulebook"), treasure_values=(2,) * 39)
    assert rules_hash(changed) != rules_hash(preset("rulebook"))


def test_clue_deck_path_is_relative_to_the_rules_file(tmp_path: Path) -> None:
    (tmp_path / "deck.toml").write_text('cards = ["in jungle", "next_to hut"]\n')
    (tmp_path / "r.toml").write_text('clue_deck = "deck.toml"\n')
    rules = load_rules(str(tmp_path / "r.toml"))
    assert [c.text for c in rules.deck.cards] == ["in jungle", "next_to hut"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("hand_sise = 5", "unknown rules key 'hand_sise' (allowed: preset, marker_threshold,"),
        ("hand_size = 0", "hand_size = 0 is not allowed (an integer from 1 to 12)"),
        ("hand_size = 4.5", "hand_size = 4.5 is not allowed (an integer from 1 to 12)"),
        ("raise_ends_turn = 1", "raise_ends_turn = 1 is not allowed (true or false)"),
        (
            "same_object_min_distance = 7",
            "same_object_min_distance = 7 is not allowed (an integer from 1 to 6; a wider "
            "spacing leaves some built-in islands without a legal landmark placement)",
        ),
        ("same_object_min_distance = 0", "same_object_min_distance = 0 is not allowed (an"),
        ('tie_break = "coin"', "tie_break = 'coin' is not allowed (one of shared, amulets)"),
        ('preset = "house"', "preset = 'house' is not allowed (one of rulebook, bga)"),
        ("treasure_values = [2, -1]", "treasure_values = [2, -1] is not allowed (a list of 1"),
        ("curse_free_top = 40", "curse_free_top = 40 is not allowed (at most the 39"),
        ('clue_deck = "missing.toml"', "missing.toml: clue deck file not found"),
        ("hand_size = ", "not valid TOML"),
    ],
)
def test_bad_rules_files(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "r.toml"
    path.write_text(body + "\n")
    with pytest.raises(InputError) as err:
        load_rules(str(path))
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_unknown_preset_name() -> None:
    with pytest.raises(InputError, match="unknown rules 'house'"):
        load_rules("house")
