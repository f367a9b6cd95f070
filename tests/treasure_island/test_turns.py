"""Scenario tests of the turn, the bust, the plunder, the end and scoring (rules spec §5, §7)."""

from __future__ import annotations

from sim.treasure_island.cards import KIND_CODE
from sim.treasure_island.decisions import DecisionKind
from sim.treasure_island.engine import BUSTED, CHOSEN, PILE_EMPTY
from sim.treasure_island.rules import preset
from tests.treasure_island.scenario import card, cards, make_game, names, stash_cards

START = ["anchor 2", "helm 2", "key 2", "chest 2"]


def test_bust_sends_the_whole_play_area_to_the_discard() -> None:
    game, (p0, _) = make_game(["draw", "draw"], [])
    game.arrange(cards("parrot 5", "key 3", "parrot 6", "chest 4"), discard=cards(*START))
    game.play_turn(0)
    assert stash_cards(game, 0) == []
    assert names(game.discard) == names(cards(*START, "parrot 5", "key 3", "parrot 6"))
    assert game.turn_rows[3] == BUSTED
    assert [d.kind for d in p0.asked] == [DecisionKind.CONTINUE, DecisionKind.CONTINUE]
    assert game.pile == [card("chest 4")]


def test_plunder_banks_the_play_area_and_scores_each_kinds_top_card() -> None:
    game, _ = make_game(["draw", "plunder"], [])
    game.arrange(cards("parrot 9", "key 4", "chest 4"), stashes=[cards("key 7")])
    game.play_turn(0)
    assert names(stash_cards(game, 0)) == names(cards("parrot 9", "key 4", "key 7"))
    assert game.score(0) == 9 + 7  # the key pile scores its top card, the 7
    assert game.stash_cards(0) == 3
    assert game.turn_rows[3] == CHOSEN and game.turn_rows[6] == 9


def test_the_first_draw_is_mandatory_and_then_the_player_chooses() -> None:
    game, (p0, _) = make_game(["plunder"], [])
    game.arrange(cards("parrot 5", "key 3"))
    game.play_turn(0)
    assert len(p0.asked) == 1 and p0.asked[0].options == ("plunder", "draw")
    assert stash_cards(game, 0) == [card("parrot 5")]


def test_an_empty_draw_pile_ends_the_turn_with_a_plunder_and_the_game_after_it() -> None:
    game, (_p0, p1) = make_game(["draw", "draw"], [])
    game.arrange(cards("parrot 5", "key 4"))
    result = game.play()
    assert names(stash_cards(game, 0)) == names(cards("parrot 5", "key 4"))
    assert game.turn_rows[3] == PILE_EMPTY
    assert result.turns == 1 and not p1.asked  # the second player never plays


def test_score_ties_break_on_cards_then_kinds_then_share() -> None:
    game, _ = make_game([], [])
    game.arrange([], stashes=[cards("parrot 9"), cards("knife 7", "helm 2")])
    assert game.play().ranks == (2, 1)  # 9 points each: two cards beat one
    game, _ = make_game([], [])
    game.arrange(
        [], stashes=[cards("knife 7", "knife 3", "helm 2"), cards("knife 5", "helm 2", "key 2")]
    )
    assert game.play().ranks == (2, 1)  # 9 points and 3 cards each: three kinds beat two
    game, _ = make_game([], [])
    game.arrange([], stashes=[cards("knife 7", "helm 2"), cards("knife 7", "helm 2")])
    result = game.play()
    assert result.ranks == (1, 1) and result.win_shares == (0.5, 0.5)
    rules = preset("standard")
    no_breaks = rules.__class__(tie_break_cards=False, tie_break_kinds=False)
    game, _ = make_game([], [], rules=no_breaks)
    game.arrange([], stashes=[cards("parrot 9"), cards("knife 7", "helm 2")])
    assert game.play().win_shares == (0.5, 0.5)


def test_setup_is_the_nine_twos_and_the_parrot_four_in_the_discard() -> None:
    game, _ = make_game([], [])
    assert names(game.discard) == names(
        [card(f"{k} 2") for k in KIND_CODE if k != "parrot"] + [card("parrot 4")]
    )
    assert len(game.pile) == 50 and card("parrot 4") not in game.pile


def test_the_draw_pile_order_depends_only_on_the_seed() -> None:
    a, _ = make_game(["draw"], [])
    b, _ = make_game(["plunder", "plunder"], ["draw"] * 5)
    c, _ = make_game([], [], seed=2)
    assert a.pile == b.pile and a.pile != c.pile
