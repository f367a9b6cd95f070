"""The optional characters (rules spec §8): the draft and each ability's hook."""

from __future__ import annotations

from sim.treasure_island.cards import KEY
from sim.treasure_island.characters import NAMES
from sim.treasure_island.decisions import DecisionKind
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.rules import preset
from strategies.treasure_island.stopping import ExpectedValue
from tests.treasure_island.scenario import card, cards, make_game, names, stash_cards


def with_character(seat: int, name: str, *scripts: list[object]) -> TreasureIslandGame:
    game, _ = make_game(*scripts)
    game.characters[seat] = name
    if name == "wrecker":
        game.wrecker = seat
    return game


def test_the_draft_deals_two_and_asks_which_to_keep() -> None:
    game, (p0, _p1) = make_game([], [], rules=preset("characters"))
    game.play()
    assert p0.asked[0].kind == DecisionKind.DRAFT and len(p0.asked[0].options) == 2
    assert game.characters[0] == p0.asked[0].options[0]  # the fallback keeps the first
    assert len(set(game.characters)) == 2 and all(c in NAMES for c in game.characters)
    four = TreasureIslandGame(preset("characters"), [ExpectedValue] * 4, 9)
    four.play()  # 7 known characters: one each for four players, nothing to choose
    assert len(set(four.characters)) == 4


def test_navigator_picks_any_card_of_the_discard() -> None:
    discard = cards("parrot 7", "key 2", "rum 2", "spyglass 2", "chest 2")
    game = with_character(0, "navigator", [card("parrot 7"), "plunder"], [])
    game.arrange(cards("candle 3"), discard=discard)
    game.play_turn(0)
    assert card("parrot 7") in stash_cards(game, 0) and len(game.discard) == 4


def test_master_gunner_discards_the_whole_pile() -> None:
    game = with_character(0, "master_gunner", [], [])
    game.arrange(cards("pistol 4"), stashes=[[], cards("key 7", "key 3")])
    game.play_turn(0)
    assert stash_cards(game, 1) == [] and names(game.discard) == names(cards("key 7", "key 3"))


def test_scavenger_keeps_what_the_pistol_shoots() -> None:
    game = with_character(0, "scavenger", [], [])
    game.arrange(cards("pistol 4"), stashes=[[], cards("key 7", "key 3")])
    game.play_turn(0)
    assert card("key 7") in stash_cards(game, 0) and stash_cards(game, 1) == [card("key 3")]


def test_mystic_sees_three_cards() -> None:
    game = with_character(0, "mystic", ["back"], [])
    game.arrange(cards("spyglass 3", "parrot 6", "key 4", "chest 5"))
    game.play_turn(0)
    assert game.views[1].known_cards == tuple(cards("parrot 6", "key 4", "chest 5"))


def test_plunderer_takes_the_bonus_from_opponents_stashes() -> None:
    game = with_character(0, "plunderer", ["draw"], [])
    game.arrange(cards("key 3", "chest 4"), stashes=[[], cards("parrot 9", "knife 6")])
    game.play_turn(0)
    assert names(stash_cards(game, 0)) == names(cards("key 3", "chest 4", "parrot 9", "knife 6"))
    assert stash_cards(game, 1) == []


def test_treasure_hunter_triples_the_bonus() -> None:
    game = with_character(0, "treasure_hunter", ["draw", "plunder"], [])
    game.arrange(cards("key 3", "chest 4"), discard=cards(*(f"{k} 2" for k in ("anchor", "helm",
                 "rum", "candle", "knife", "pistol", "spyglass"))))  # fmt: skip
    game.play_turn(0)
    assert len(stash_cards(game, 0)) == 2 + 6


def test_wrecker_takes_an_opponents_busted_cards() -> None:
    game = with_character(1, "wrecker", ["draw"], [])
    game.arrange(cards("parrot 5", "parrot 6"))
    game.play_turn(0)
    assert names(stash_cards(game, 1)) == names(cards("parrot 5", "parrot 6"))
    assert game.discard == [] and KEY == 2
