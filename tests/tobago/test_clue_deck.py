"""Clue-deck files: the default 52-card proposal and the rejection of bad decks."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from sim.errors import InputError
from sim.seeding import stream
from sim.tobago.clues import RELATIONS, TARGETS, clue_masks, default_deck, load_clue_deck
from sim.tobago.landmarks import place_landmarks
from sim.tobago.modular import island_names, load_island


def test_default_deck_is_the_section_4_4_proposal() -> None:
    deck = default_deck()
    assert len(deck.cards) == 52
    assert [c.id for c in deck.cards] == list(range(52))
    texts = Counter(c.text for c in deck.cards)
    assert max(texts.values()) == 1
    terrains = ("jungle", "mountain", "scrub", "beach", "river", "lake")
    for t in terrains:
        for rel in ("in", "not_in", "next_to", "not_next_to"):
            assert f"{rel} {t}" in texts
        assert f"in largest_{t}" in texts and f"next_to largest_{t}" in texts
    for obj in ("hut", "palm", "statue"):
        for rel in ("next_to", "not_next_to", "within_sight", "not_within_sight"):
            assert f"{rel} {obj}" in texts
    for extra in ("next_to ocean", "not_next_to ocean", "within_sight river", "within_sight lake"):
        assert extra in texts


def test_no_default_card_is_empty_or_pins_one_cell_on_builtins() -> None:
    deck = default_deck()
    for name in island_names():
        island = load_island(name)
        masks = clue_masks(island, place_landmarks(island, stream(1, "landmarks")), deck)
        for card, m in zip(deck.cards, masks, strict=True):
            assert m.bit_count() >= 2, (name, card.text)


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "deck.toml"
    path.write_text(body)
    return path


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('cards = ["in lava"]', "cards[0]: unknown target 'lava' (allowed: jungle,"),
        ('cards = ["near hut"]', "cards[0]: unknown relation 'near' (allowed: in, not_in,"),
        ('cards = ["in jungle", "in ocean"]', "cards[1]: 'in' the ocean is meaningless"),
        ('cards = ["in"]', "cards[0]: 'in' is not 'relation target'"),
        ("cards = [3]", "cards[0] must be a string like 'next_to hut'"),
        ("cards = []", "'cards' must be a non-empty list"),
        (
            'colour = "red"\ncards = ["in jungle"]',
            "unknown key 'colour' (allowed: name, description, cards)",
        ),
        ("cards = [", "not valid TOML"),
    ],
)
def test_bad_decks_are_one_line_errors(tmp_path: Path, body: str, message: str) -> None:
    path = write(tmp_path, body)
    with pytest.raises(InputError) as err:
        load_clue_deck(path)
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_a_replacement_deck_loads(tmp_path: Path) -> None:
    path = write(tmp_path, 'name = "two"\ncards = ["in jungle", "not_within_sight statue"]')
    deck = load_clue_deck(path)
    assert deck.name == "two" and [c.text for c in deck.cards] == [
        "in jungle",
        "not_within_sight statue",
    ]
    assert set(RELATIONS) >= {c.relation for c in deck.cards}
    assert set(TARGETS) >= {c.target for c in deck.cards}
