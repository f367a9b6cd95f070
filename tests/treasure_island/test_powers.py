"""Scenario tests of every power and of the rulings of rules spec §9 (hand-computed)."""

from __future__ import annotations

import dataclasses

import pytest

from sim.outcome import StrategyError
from sim.treasure_island.cards import HELM, KEY, KNIFE, PARROT, PISTOL
from sim.treasure_island.decisions import Decision, DecisionKind
from sim.treasure_island.engine import BUSTED, CHOSEN, PILE_EMPTY, SPYGLASS_BACK, TreasureIslandGame
from sim.treasure_island.movelog import CODE
from sim.treasure_island.rules import preset
from sim.treasure_island.view import PlayerView
from tests.treasure_island.scenario import card, cards, make_game, names, stash_cards


def events(game: object) -> list[str]:
    from sim.treasure_island.movelog import EVENTS

    log = game.log  # type: ignore[attr-defined]
    return [EVENTS[log[i + 2]][0] for i in range(0, len(log), 6)]


# -- Anchor (§6.1, §9.5) ---------------------------------------------------------------------


def test_anchor_keeps_the_cards_before_it_as_in_the_seed_example() -> None:
    # Parrot, Knife, Anchor, Pistol, then a second Knife busts (no opponent stash: the Knife
    # and the Pistol have nothing to act on).
    game, _ = make_game(["draw"] * 4, [])
    game.arrange(cards("parrot 5", "knife 3", "anchor 4", "pistol 5", "knife 6"))
    game.play_turn(0)
    assert names(stash_cards(game, 0)) == names(cards("parrot 5", "knife 3"))
    assert names(game.discard) == names(cards("anchor 4", "pistol 5", "knife 6"))
    assert "anchor_keep" in events(game)
    assert game.turn_rows[3] == BUSTED and game.turn_rows[4] == 2


def test_an_anchor_placed_first_protects_nothing() -> None:
    game, _ = make_game(["draw", "draw"], [])
    game.arrange(cards("anchor 3", "parrot 5", "parrot 6"))
    game.play_turn(0)
    assert stash_cards(game, 0) == []


def test_anchored_key_and_chest_pay_no_bonus_unless_the_rule_says_so() -> None:
    pile = cards("key 3", "chest 3", "anchor 4", "key 5")
    discard = cards("parrot 4", "helm 2", "rum 2")
    game, _ = make_game(["draw"] * 3, [])
    game.arrange(pile, discard=discard)
    game.play_turn(0)
    assert names(stash_cards(game, 0)) == names(cards("key 3", "chest 3"))
    rules = dataclasses.replace(preset("standard"), key_chest_on_anchored_bust=True)
    game, _ = make_game(["draw"] * 3, [], rules=rules)
    game.arrange(pile, discard=discard)
    game.play_turn(0)
    assert len(stash_cards(game, 0)) == 2 + 2  # the kept pair and a bonus of two cards


# -- Helm (§6.2, §9.10) ----------------------------------------------------------------------


def test_helm_places_the_top_card_of_a_chosen_own_pile_and_it_returns_on_plunder() -> None:
    game, (p0, _) = make_game([PARROT, "plunder"], [])
    game.arrange(cards("helm 4"), stashes=[cards("knife 7", "parrot 6", "parrot 5")])
    game.play_turn(0)
    assert p0.asked[0].kind == DecisionKind.HELM and p0.asked[0].options == (KNIFE, PARROT)
    assert names(stash_cards(game, 0)) == names(cards("helm 4", "knife 7", "parrot 6", "parrot 5"))
    assert game.score(0) == 4 + 7 + 6


def test_helm_is_forced_even_when_it_busts_and_the_card_is_lost() -> None:
    game, (p0, _) = make_game(["draw"], [])
    game.arrange(cards("parrot 5", "helm 3"), stashes=[cards("parrot 6")])
    game.play_turn(0)
    assert [d.kind for d in p0.asked] == [DecisionKind.CONTINUE]  # one pile: no choice to ask
    assert stash_cards(game, 0) == []
    assert card("parrot 6") in game.discard


def test_helm_with_an_empty_stash_does_nothing() -> None:
    game, _ = make_game([], [])
    game.arrange(cards("helm 3", "parrot 5"))
    game.play_turn(0)
    assert "no_effect" in events(game) and stash_cards(game, 0) == [card("helm 3")]


# -- Key + Chest (§6.3, §9.6) ----------------------------------------------------------------


def test_key_and_chest_bonus_takes_as_many_cards_as_were_plundered() -> None:
    game, _ = make_game(["draw", "draw", "plunder"], [])
    discard = cards("anchor 2", "helm 2", "rum 2", "candle 2", "parrot 4")
    game.arrange(cards("key 3", "parrot 5", "chest 4"), discard=discard)
    game.play_turn(0)
    assert len(stash_cards(game, 0)) == 3 + 3
    assert len(game.discard) == 2
    assert game.turn_rows[5] == 3 and game.turn_rows[7] == 1


def test_a_short_discard_gives_what_it_has_and_bonus_cards_have_no_power() -> None:
    game, _ = make_game(["draw", "plunder"], [])
    game.arrange(cards("key 3", "chest 4"), discard=cards("pistol 2"), stashes=[[], cards("key 7")])
    game.play_turn(0)
    assert names(stash_cards(game, 0)) == names(cards("key 3", "chest 4", "pistol 2"))
    assert stash_cards(game, 1) == [card("key 7")]  # the bonus Pistol did not fire


def test_no_bonus_on_a_bust() -> None:
    game, _ = make_game(["draw", "draw"], [])
    game.arrange(cards("key 3", "chest 4", "key 5"), discard=cards("parrot 4"))
    game.play_turn(0)
    assert stash_cards(game, 0) == [] and "bonus" not in events(game)


# -- Candle (§6.4, §9.7) ---------------------------------------------------------------------


def test_candle_reveals_three_places_the_chosen_one_and_returns_the_others() -> None:
    game, (p0, _) = make_game([card("parrot 7"), "plunder"], [])
    game.arrange(cards("candle 3"), discard=cards("parrot 7", "spyglass 2", "key 2"))
    game.play_turn(0)
    assert p0.asked[0].kind == DecisionKind.CANDLE
    assert sorted(p0.asked[0].options) == sorted(cards("parrot 7", "spyglass 2", "key 2"))
    assert names(stash_cards(game, 0)) == names(cards("candle 3", "parrot 7"))
    assert names(game.discard) == names(cards("spyglass 2", "key 2"))


def test_candle_reveals_at_most_three_and_the_choice_is_forced_even_if_it_busts() -> None:
    game, (p0, _) = make_game(["draw", "draw"], [])
    big = cards("anchor 2", "helm 2", "rum 2", "knife 2", "parrot 4")
    game.arrange(cards("key 3", "parrot 5", "candle 4"), discard=big)
    game.play_turn(0)
    candle = [d for d in p0.asked if d.kind == DecisionKind.CANDLE]
    assert len(candle) == 1 and len(candle[0].options) == 3
    assert len(game.discard) + len(stash_cards(game, 0)) == 5 + 3  # nothing lost


def test_candle_choice_that_busts_ends_the_turn() -> None:
    game, _ = make_game(["draw", card("key 2")], [])
    game.arrange(cards("key 3", "candle 4"), discard=cards("key 2", "parrot 7"))
    game.play_turn(0)
    assert stash_cards(game, 0) == [] and game.turn_rows[3] == BUSTED


def test_candle_with_an_empty_discard_does_nothing_and_a_placed_card_triggers() -> None:
    game, _ = make_game([], [])
    game.arrange(cards("candle 4", "parrot 5"))
    game.play_turn(0)
    assert "no_effect" in events(game)
    game, _ = make_game([], [])
    game.arrange(cards("candle 4"), discard=cards("helm 2"), stashes=[cards("parrot 8")])
    game.play_turn(0)  # the Helm from the discard places the Parrot 8 from the stash
    assert names(stash_cards(game, 0)) == names(cards("candle 4", "helm 2", "parrot 8"))


# -- Knife (§6.5, §9.8) ----------------------------------------------------------------------


def test_knife_steals_a_top_card_of_a_kind_not_in_the_own_stash() -> None:
    game, (p0, _) = make_game([(1, PARROT), "plunder"], [])
    game.arrange(
        cards("knife 4"),
        stashes=[cards("key 7"), cards("parrot 9", "parrot 6", "anchor 6", "key 5")],
    )
    game.play_turn(0)
    assert p0.asked[0].kind == DecisionKind.KNIFE
    assert set(p0.asked[0].options) == {(1, PARROT), (1, 0)}  # not the key: P0 has keys
    assert card("parrot 9") in stash_cards(game, 0)
    assert game.score(1) == 6 + 6 + 5


def test_knife_ignores_the_play_area_and_a_stolen_card_that_busts_is_discarded() -> None:
    game, _ = make_game(["draw"], [])
    game.arrange(cards("parrot 5", "knife 4"), stashes=[[], cards("parrot 9")])
    game.play_turn(0)  # the only legal pile is a Parrot: in play, so it busts
    assert game.turn_rows[3] == BUSTED
    assert card("parrot 9") in game.discard and stash_cards(game, 1) == []


def test_knife_may_check_the_play_area_under_that_rule_and_no_pile_does_nothing() -> None:
    rules = dataclasses.replace(preset("standard"), knife_checks_play_area=True)
    game, _ = make_game(["draw"], [], rules=rules)
    game.arrange(cards("parrot 5", "knife 4"), stashes=[[], cards("parrot 9")])
    game.play_turn(0)
    assert "no_effect" in events(game) and stash_cards(game, 1) == [card("parrot 9")]


def test_a_stolen_card_applies_its_power() -> None:
    game, _ = make_game([(1, PISTOL)], [])
    game.arrange(cards("knife 4"), stashes=[[], cards("pistol 6", "key 5")])
    game.play_turn(0)  # steals the Pistol, which shoots the Key
    assert card("key 5") in game.discard and card("pistol 6") in stash_cards(game, 0)


# -- Rum bottle (§6.6, §9.4) -----------------------------------------------------------------


def test_rum_forces_two_more_cards_before_a_plunder() -> None:
    game, (p0, _) = make_game(["plunder"], [])
    game.arrange(cards("rum 3", "parrot 5", "key 4", "chest 6"))
    game.play_turn(0)
    assert [d.kind for d in p0.asked] == [DecisionKind.CONTINUE]
    assert names(stash_cards(game, 0)) == names(cards("rum 3", "parrot 5", "key 4"))


def test_a_card_placed_by_the_first_cards_power_counts_as_the_second() -> None:
    game, (_p0, _) = make_game(["plunder"], [])
    game.arrange(cards("rum 3", "helm 5", "key 4"), stashes=[cards("parrot 8")])
    game.play_turn(0)
    assert names(stash_cards(game, 0)) == names(cards("rum 3", "helm 5", "parrot 8"))
    assert game.pile == [card("key 4")]


def test_a_power_with_nothing_to_do_leaves_the_second_card_to_the_pile() -> None:
    game, _ = make_game(["plunder"], [])
    game.arrange(cards("rum 3", "helm 5", "parrot 6", "key 4"))
    game.play_turn(0)
    assert names(stash_cards(game, 0)) == names(cards("rum 3", "helm 5", "parrot 6"))


def test_rum_requirement_shrinks_with_the_pile_and_stands_through_a_bust() -> None:
    game, _ = make_game([], [])
    game.arrange(cards("rum 3", "parrot 5"))
    game.play_turn(0)
    assert game.turn_rows[3] == PILE_EMPTY and len(stash_cards(game, 0)) == 2
    game, _ = make_game([], [])
    game.arrange(cards("rum 3", "rum 4", "parrot 5"))
    game.play_turn(0)
    assert game.turn_rows[3] == BUSTED and stash_cards(game, 0) == []


def test_rum_placed_inside_a_chain_sets_its_requirement_then() -> None:
    game, (p0, _) = make_game(["plunder"], [])
    game.arrange(cards("helm 4", "parrot 5", "key 6", "chest 2"), stashes=[cards("rum 7")])
    game.play_turn(0)  # Helm -> Rum from the stash -> two forced draws
    assert [d.kind for d in p0.asked] == [DecisionKind.CONTINUE]
    assert names(stash_cards(game, 0)) == names(cards("helm 4", "rum 7", "parrot 5", "key 6"))


# -- Pistol (§6.7, §9.9) ---------------------------------------------------------------------


def test_pistol_discards_the_top_card_of_a_chosen_opponent_pile() -> None:
    game, (p0, _) = make_game([(1, KEY), "plunder"], [])
    game.arrange(cards("pistol 4"), stashes=[[], cards("key 7", "key 3", "parrot 9")])
    game.play_turn(0)
    assert set(p0.asked[0].options) == {(1, KEY), (1, PARROT)}
    assert card("key 7") in game.discard and game.score(1) == 3 + 9


def test_pistol_never_hits_its_owner_and_does_nothing_without_targets() -> None:
    game, _ = make_game([], [])
    game.arrange(cards("pistol 4"), stashes=[cards("key 7")])
    game.play_turn(0)
    assert "no_effect" in events(game) and card("key 7") in stash_cards(game, 0)


# -- Spyglass (§6.9, §9.13) ------------------------------------------------------------------


def test_spyglass_put_back_plunders_at_once_and_the_card_stays_known() -> None:
    game, (p0, _) = make_game(["back"], [])
    game.arrange(cards("spyglass 3", "parrot 6", "key 4"))
    game.play_turn(0)
    assert p0.asked[0].kind == DecisionKind.SPYGLASS and p0.asked[0].value == card("parrot 6")
    assert stash_cards(game, 0) == [card("spyglass 3")] and game.turn_rows[3] == SPYGLASS_BACK
    assert game.views[1].known_top == card("parrot 6")
    assert game.pile[-1] == card("parrot 6")


def test_spyglass_place_is_a_normal_placement() -> None:
    game, (_p0, _) = make_game(["place", "plunder"], [])
    game.arrange(cards("spyglass 3", "parrot 6", "key 4"))
    game.play_turn(0)
    assert names(stash_cards(game, 0)) == names(cards("spyglass 3", "parrot 6"))
    assert game.views[1].known_top == -1


def test_spyglass_under_rum_places_without_a_choice_and_empty_pile_does_nothing() -> None:
    game, (p0, _) = make_game(["plunder"], [])
    game.arrange(cards("rum 2", "spyglass 4", "parrot 6", "key 5"))
    game.play_turn(0)
    assert [d.kind for d in p0.asked] == [DecisionKind.CONTINUE]
    assert names(stash_cards(game, 0)) == names(cards("rum 2", "spyglass 4", "parrot 6"))
    game, _ = make_game([], [])
    game.arrange(cards("spyglass 4"))
    game.play_turn(0)
    assert "no_effect" in events(game)


# -- strategies that fail ---------------------------------------------------------------------


def test_a_raising_or_cheating_strategy_is_recorded_and_the_fallback_applies() -> None:
    class Raises:
        def decide(self, view: object, decision: object) -> object:
            raise RuntimeError("boom")

    class Cheats:
        def decide(self, view: object, decision: object) -> object:
            return "steal everything"

    from sim.treasure_island.engine import TreasureIslandGame

    game = TreasureIslandGame(preset("standard"), [lambda r: Raises(), lambda r: Cheats()], 3)
    result = game.play()
    assert game.violations and {v.seat for v in game.violations} == {0, 1}
    assert result.turns > 0 and CODE["violation"] in game.log[2::6]
    strict = TreasureIslandGame(preset("standard"), [lambda r: Cheats(), lambda r: Cheats()], 3,
                                strict=True)  # fmt: skip
    with pytest.raises(StrategyError):
        strict.play()


def test_the_fallback_of_each_decision_is_its_first_option() -> None:
    game, (p0, _) = make_game(["draw"], [], strict=False)
    game.arrange(cards("parrot 5", "key 3"))
    game.play_turn(0)
    assert p0.asked[0].fallback() == "plunder"
    assert HELM == 1 and CHOSEN == 0


# -- chains and the remaining rulings of §9 ------------------------------------------------------


def test_chains_resolve_depth_first_and_a_bust_inside_ends_the_turn() -> None:
    # Helm -> the Knife from P0's stash -> steals P1's Candle -> the Candle places the discard's
    # Parrot 7 -> plunder: every placed card applied its power before the next.
    game, _ = make_game([KNIFE, "plunder"], [])
    game.arrange(
        cards("helm 3", "key 4"),
        discard=cards("parrot 7"),
        stashes=[cards("knife 6", "anchor 5"), cards("candle 5")],
    )
    game.play_turn(0)
    assert names(stash_cards(game, 0)) == names(
        cards("helm 3", "knife 6", "candle 5", "parrot 7", "anchor 5")
    )
    assert events(game)[:5] == ["draw_forced", "place", "place", "reveal", "place"]
    # The same chain whose Candle can only show a Helm busts at once, mid-chain.
    game, _ = make_game([KNIFE], [])
    game.arrange(
        cards("helm 3", "key 4"),
        discard=cards("helm 2"),
        stashes=[cards("knife 6", "anchor 5"), cards("candle 5")],
    )
    game.play_turn(0)
    assert game.turn_rows[3] == BUSTED and game.pile == [card("key 4")]
    assert names(stash_cards(game, 0)) == names(cards("anchor 5"))


def test_an_anchor_placed_by_the_helm_protects_what_was_placed_before_it() -> None:
    game, _ = make_game(["draw", "draw"], [])
    game.arrange(cards("parrot 5", "helm 3", "parrot 6"), stashes=[cards("anchor 7")])
    game.play_turn(0)  # Parrot, Helm, Anchor (from the stash), then the Parrot 6 busts
    assert names(stash_cards(game, 0)) == names(cards("parrot 5", "helm 3"))
    assert card("anchor 7") in game.discard


def test_a_pile_the_helm_emptied_is_not_in_the_stash_for_the_knife() -> None:
    game, (_p0, _) = make_game(["draw"], [])
    game.arrange(cards("helm 3", "knife 4"), stashes=[cards("parrot 5"), cards("parrot 9")])
    game.play_turn(0)  # Helm places P0's only Parrot, so the Knife may take a Parrot: it busts
    assert game.turn_rows[3] == BUSTED
    assert card("parrot 9") in game.discard and card("parrot 5") in game.discard


def test_the_knife_and_pistol_may_pick_any_opponent() -> None:
    game, (p0, _, _) = make_game([(2, KEY), "plunder"], [], [])
    game.arrange(cards("pistol 4"), stashes=[[], cards("parrot 9"), cards("key 7")])
    game.play_turn(0)
    assert set(p0.asked[0].options) == {(1, PARROT), (2, KEY)}
    assert card("key 7") in game.discard and stash_cards(game, 1) == [card("parrot 9")]


def test_powers_still_resolve_on_the_last_card_of_the_pile() -> None:
    game, _ = make_game([], [])
    game.arrange(cards("pistol 4"), stashes=[[], cards("key 7")])
    result = game.play()
    assert card("key 7") in game.discard and game.turn_rows[3] == PILE_EMPTY
    assert result.turns == 1


def test_the_view_shows_the_piles_make_up_but_not_its_order() -> None:
    game, _ = make_game([], [])
    game.arrange(cards("parrot 5", "key 3", "chest 4"), discard=cards("helm 2"))
    view = game.views[1]
    assert view.pile_size == 3 and view.known_top == -1 and view.known_cards == ()
    assert view.pile_mask == sum(1 << c for c in cards("parrot 5", "key 3", "chest 4"))
    assert view.pile_piles == (0, 0, 1 << 1, 1 << 2, 0, 0, 0, 0, 1 << 1, 0)
    assert view.discard_mask == 1 << card("helm 2")
    # Everything a strategy can read; none of it is the order of the draw pile or discard.
    assert {name for name in dir(view) if name[0] != "_"} == {
        "anchor_at", "area", "area_cards_of", "area_gain", "area_kinds", "area_size", "at_risk",
        "bust_chance", "busting", "characters", "discard_mask", "discard_size", "known_cards",
        "known_top", "my_stash", "n", "pile_mask", "pile_piles", "pile_size", "rules",
        "rum_pending", "safe_gain_total", "score", "scores", "seat", "stash", "stash_pile",
        "stashes", "turn",
    }  # fmt: skip


def test_the_views_gain_and_risk_queries_match_a_hand_count() -> None:
    # Seat 0 holds parrot 6 and key 3, then draws key 4 (+1 point), anchor 3 (+3) and
    # chest 5 (+5). A bust would lose the Anchor and what follows it: 8 points in 2 cards.
    # Left in the pile: parrot 5 (+0, below the 6), helm 4 (+4) and key 6 (busts).
    seen: list[tuple[object, ...]] = []

    class Probe:
        def decide(self, view: PlayerView, decision: Decision) -> object:
            if decision.kind == DecisionKind.CONTINUE and view.area_size == 3:
                risk, gains = view.at_risk(), (view.area_gain(), view.area_gain(1))
                seen.append(
                    (risk, *gains, view.safe_gain_total(), view.busting, view.bust_chance())
                )
                return "plunder"
            return "draw"

    game = TreasureIslandGame(preset("standard"), [lambda rng: Probe()] * 2, 1, strict=True)
    game.arrange(
        cards("key 4", "anchor 3", "chest 5", "parrot 5", "helm 4", "key 6"),
        stashes=[cards("parrot 6", "key 3")],
    )
    game.play_turn(0)
    assert seen == [((8, 2), 9, 8, 4, 1, 1 / 3)]
