"""Turn rules on hand-made islands: clues and markers (§5), legs (§6), amulets (§8),
raising limits (§7.1), the turn (§10.1), statues' gaze (§8.2), setup (§9) and the end (§10)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from sim.outcome import StrategyError
from sim.tobago import decisions
from sim.tobago.board import Board
from sim.tobago.decisions import ActionKind
from sim.tobago.distribution import gaze_cell, raise_treasure
from sim.tobago.engine import TobagoGame
from sim.tobago.movelog import CODE
from sim.tobago.rules import preset
from sim.tobago.state import CURSE
from tests.tobago.drawing import draw
from tests.tobago.scenario import Scripted, cell, hex3, make_game

ROW = "J J M M S S S L B"  # q = 0..8 on r = 0; areas: J{0,1} M{2,3} S{4,5,6} L{7} B{8}


def first(view: object, decision: decisions.Decision) -> object:
    return decision.fallback()


# -- clues and markers (§5) ----------------------------------------------------------------


def test_clue_must_eliminate_and_must_leave_a_cell() -> None:
    _game, s, _ = make_game(2, island=draw(ROW))
    s.clue_masks = (0b111111111, 0b000000111, 0b100000000, 0, 0b000000011)
    s.map_cards[0] = [1]
    s.map_cand[0] = 0b000000111
    assert not s.clue_legal(0, 0)  # eliminates nothing
    assert not s.clue_legal(2, 0)  # contradicts: nothing left
    assert s.clue_legal(4, 0)  # leaves two of three cells
    assert not s.clue_legal(1, 0)  # the same clue again eliminates nothing
    assert s.clue_legal(1, 1)  # an empty map: all cells are candidates


def test_markers_threshold_and_location() -> None:
    _game, s, _ = make_game(2, island=draw(ROW), marker_threshold=3)
    s.map_cards[0] = [1]
    s.map_cand[0] = 0b1111
    assert not s.markers_shown(0) and s.located(0) == -1
    s.map_cand[0] = 0b0111
    assert s.markers_shown(0) and s.located(0) == -1
    s.map_cand[0] = 0b0100
    assert s.located(0) == 2


def test_bga_allows_a_non_reducing_clue_only_while_no_markers_are_out() -> None:
    _game, s, _ = make_game(2, island=draw(ROW), marker_threshold=3)
    s.clue_masks = (511, *s.clue_masks[1:])
    s.map_cards[0] = [5]
    s.map_cand[0] = 0b11111
    assert not s.clue_legal(0, 0)
    bga = dataclasses.replace(s.rules, bga_allow_non_reducing_without_markers=True)
    s.rules = bga
    assert s.clue_legal(0, 0)  # 5 candidates > 3: no markers yet
    s.map_cand[0] = 0b111
    assert not s.clue_legal(0, 0)  # markers out: it must remove one


def test_playing_a_clue_places_a_rose_and_refills_the_hand() -> None:
    game, s, seats = make_game(3, island=draw(ROW))
    s.clue_masks = (3, 1, 6, *s.clue_masks[3:])
    s.hands[0] = [0, 1, 2, 3]
    s.clue_draw = [7, 8]
    seats[0].queue.extend(
        [(decisions.TURN, (ActionKind.CLUE, 0, 2)), (decisions.TURN, decisions.END)]
    )
    game.play_turn(0)
    assert s.map_cards[2] == [0] and s.map_roses[2] == [0]
    assert s.roses[0] == 14
    assert s.hands[0] == [1, 2, 3, 8]
    assert s.map_cand[2] == 0b11
    turn = seats[0].asked[0]
    assert decisions.END not in turn.actions  # the main action is mandatory
    assert seats[0].asked[1].actions[0] == decisions.END  # once done, ending comes first


# -- legs (§6) ---------------------------------------------------------------------------


def test_legs_within_an_area_or_one_step_to_another_terrain() -> None:
    island = draw(ROW)
    assert island.leg_mask[0] == 0b10
    assert island.leg_mask[1] == 0b101
    assert island.leg_mask[4] == 0b1101000  # S area {5, 6} and the mountain at 3
    assert island.leg_mask[7] == 0b101000000  # lake: scrub at 6, beach at 8


def test_a_move_has_up_to_three_legs_and_may_stop_early() -> None:
    game, s, seats = make_game(2, island=draw(ROW))
    s.atv[0] = 0
    seats[0].queue.extend(
        [
            (decisions.TURN, decisions.MOVE),
            (decisions.LEG, 1),
            (decisions.LEG, 2),
            (decisions.LEG, 3),
            (decisions.TURN, decisions.END),
        ]
    )
    game.play_turn(0)
    assert s.atv[0] == 3
    legs = [x for x in seats[0].asked if x.kind == decisions.LEG]
    assert legs[0].actions == ()  # the first leg is compulsory
    assert legs[1].actions[0] == decisions.STOP
    game2, s2, seats2 = make_game(2, island=draw(ROW))
    seats2[0].queue.extend(
        [
            (decisions.TURN, decisions.MOVE),
            (decisions.LEG, 1),
            (decisions.LEG, decisions.STOP),
            (decisions.TURN, decisions.END),
        ]
    )
    game2.play_turn(0)
    assert s2.atv[0] == 1


def test_amulets_collect_at_leg_ends_not_on_the_way_nor_by_amulet_move() -> None:
    game, s, seats = make_game(2, island=draw(ROW))
    s.atv[0] = 4
    s.amulet_board = (1 << 5) | (1 << 6) | (1 << 7)
    seats[0].queue.extend(
        [
            (decisions.TURN, decisions.MOVE),
            (decisions.LEG, 6),
            (decisions.LEG, 7),
            (decisions.LEG, decisions.STOP),
        ]
    )
    seats[0].queue.append((decisions.TURN, decisions.END))
    game.play_turn(0)
    # Drove through 5 without stopping; ended legs on 6 and 7: two amulets.
    assert s.amulets[0] == 2 and s.amulet_board == 1 << 5
    assert s.amulets_collected[0] == 2

    game, s, seats = make_game(2, island=draw(ROW))
    s.atv[0] = 4
    s.amulets[0] = 1
    s.amulet_board = 1 << 6
    s.hands[0] = []
    seats[0].queue.extend(
        [
            (decisions.TURN, decisions.AMULET_MOVE),
            (decisions.LEG, 6),
            (decisions.LEG, decisions.STOP),
        ]
    )
    seats[0].queue.extend(
        [
            (decisions.TURN, decisions.MOVE),
            (decisions.LEG, 5),
            (decisions.LEG, 6),
            (decisions.LEG, decisions.STOP),
            (decisions.TURN, decisions.END),
        ]
    )
    game.play_turn(0)
    # The amulet move could not collect; the normal move ended a leg there and did.
    assert s.amulets[0] == 1 and s.amulet_board == 0 and s.amulets_used[0] == 1


def test_starting_a_leg_on_an_amulet_does_not_collect_it() -> None:
    game, s, seats = make_game(2, island=draw(ROW))
    s.atv[0] = 4
    s.amulets[0] = 1
    s.amulet_board = 1 << 6
    seats[0].queue.extend(
        [
            (decisions.TURN, decisions.AMULET_MOVE),
            (decisions.LEG, 6),
            (decisions.LEG, decisions.STOP),
        ]
    )
    seats[0].queue.extend(
        [
            (decisions.TURN, decisions.MOVE),
            (decisions.LEG, 7),
            (decisions.LEG, decisions.STOP),
            (decisions.TURN, decisions.END),
        ]
    )
    game.play_turn(0)
    assert s.amulet_board == 1 << 6 and s.amulets[0] == 0


def test_turn_start_pickup_is_free() -> None:
    game, s, seats = make_game(2, island=draw(ROW))
    s.atv[1] = 3
    s.amulet_board = 1 << 3
    s.hands[1] = []
    seats[1].queue.extend(
        [
            (decisions.TURN, decisions.MOVE),
            (decisions.LEG, 2),
            (decisions.LEG, decisions.STOP),
            (decisions.TURN, decisions.END),
        ]
    )
    game.play_turn(1)
    assert s.amulets[1] == 1 and s.amulet_board == 0


# -- raising limits (§7.1, §6.4) ---------------------------------------------------------


def test_raising_ends_movement_but_not_the_turn() -> None:
    game, s, seats = make_game(2, island=draw(ROW))
    s.clue_masks = (7, *s.clue_masks[1:])
    s.map_cards[1] = [9]
    s.map_roses[1] = [1]
    s.roses[1] -= 1
    s.map_cand[1] = 1 << 2  # located at q=2
    s.t_deck = [2, 2, 2, 2, 2, 2]
    s.hands[0] = [0]
    seats[0].queue.extend(
        [
            (decisions.TURN, decisions.MOVE),
            (decisions.LEG, 1),
            (decisions.LEG, 2),
            (decisions.LEG, (ActionKind.RAISE, 1)),
        ]
    )
    # R: seat 0 (raiser), seat 1; each takes one card, seat 1 last, with no clue to restart.
    seats[0].queue.extend([(decisions.OFFER, decisions.TAKE), (decisions.TURN, decisions.END)])
    seats[1].queue.extend([(decisions.OFFER, decisions.TAKE)])
    game.play_turn(0)
    assert s.atv[0] == 2 and s.treasures_raised[0] == 1
    last = seats[0].asked[-1]
    assert last.kind == decisions.TURN
    assert decisions.MOVE not in last.actions and decisions.AMULET_MOVE not in last.actions


def test_raise_ends_turn_under_bga() -> None:
    game, s, seats = make_game(2, island=draw(ROW), raise_ends_turn=True)
    s.map_cards[1] = [9]
    s.map_roses[1] = [1]
    s.roses[1] -= 1
    s.map_cand[1] = 1 << 0  # located under seat 0's ATV
    s.t_deck = [2, 2, 2, 2]
    s.hands[0] = []
    seats[0].queue.extend(
        [(decisions.TURN, (ActionKind.RAISE, 1)), (decisions.OFFER, decisions.TAKE)]
    )
    seats[1].queue.extend([(decisions.OFFER, decisions.TAKE)])
    game.play_turn(0)
    assert not seats[0].queue and s.treasures == [[2], [2]]


# -- amulet powers (§8.4) ----------------------------------------------------------------


def test_marker_removal_never_takes_the_last_marker_and_needs_markers_out() -> None:
    game, s, seats = make_game(2, island=draw(ROW), marker_threshold=3)
    s.amulets[0] = 2
    s.map_cards[0] = [1]
    s.map_cand[0] = 0b11000
    s.map_cards[1] = [2]
    s.map_cand[1] = 0b1111  # 4 candidates > 3: no markers out
    s.map_cards[2] = [3]
    s.map_cand[2] = 0b1  # located: its last marker cannot go
    s.hands[0] = []
    seats[0].queue.extend(
        [
            (decisions.TURN, (ActionKind.AMULET_MARKER, 0)),
            (decisions.MARKER, 4),
            (decisions.TURN, decisions.MOVE),
        ]
    )
    seats[0].queue.extend(
        [(decisions.LEG, 1), (decisions.LEG, decisions.STOP), (decisions.TURN, decisions.END)]
    )
    game.play_turn(0)
    offered = {a for a in seats[0].asked[0].actions if a[0] == ActionKind.AMULET_MARKER}
    assert offered == {(ActionKind.AMULET_MARKER, 0)}  # map 1 shows no markers; map 2 has its last
    marker = seats[0].asked[1]
    assert marker.kind == decisions.MARKER and marker.value == 0 and marker.cells == 0b11000
    assert s.map_cand[0] == 0b1000 and s.located(0) == 3
    assert s.map_removed[0] == 0b10000


def test_exchange_replaces_the_whole_hand() -> None:
    game, s, seats = make_game(3, island=draw(ROW))
    s.amulets[0] = 1
    s.hands[0] = [1, 2, 3, 4]
    s.clue_draw = [10, 11, 12, 13, 14]
    seats[0].queue.extend(
        [
            (decisions.TURN, decisions.AMULET_EXCHANGE),
            (decisions.TURN, decisions.MOVE),
            (decisions.LEG, 1),
        ]
    )
    seats[0].queue.extend([(decisions.LEG, decisions.STOP), (decisions.TURN, decisions.END)])
    game.play_turn(0)
    assert s.hands[0] == [14, 13, 12, 11]
    assert s.clue_discard == [1, 2, 3, 4]


# -- statues (§8.2) ----------------------------------------------------------------------


def test_amulets_appear_where_statues_look_then_statues_turn() -> None:
    island = hex3()
    centre = cell(island, 1, 3)
    west = cell(island, 0, 3)
    game, s, seats = make_game(2, island=island, statues=(centre, west), facings=(0, 0))
    east_end = cell(island, 4, 3)  # looking east from the centre: (2,3) (3,3) (4,3), then ocean
    assert gaze_cell(game, centre, 0) == east_end
    assert gaze_cell(game, west, 0) == east_end  # the same line: the same last cell
    s.map_cards[0] = [1]
    s.map_roses[0] = [1]
    s.roses[1] -= 1
    s.map_cand[0] = 1 << 0
    s.t_deck = [2, 2, 2, 2, 2, 2]
    seats[0].queue.extend([(decisions.OFFER, decisions.TAKE)])
    seats[1].queue.extend([(decisions.OFFER, decisions.TAKE)])
    raise_treasure(game, 0, 0)
    # The first statue places an amulet; the second finds one already there: skipped.
    assert s.amulet_board == 1 << east_end
    assert s.amulet_stack == s.rules.amulet_count - 1
    assert s.facings == [1, 1]
    # Next raise: both look south-east now.
    se_centre = gaze_cell(game, centre, 1)
    assert se_centre == cell(island, 1, 6)


def test_amulet_stack_runs_out_in_statue_order() -> None:
    island = hex3()
    a, b = cell(island, 1, 3), cell(island, 1, 2)
    game, s, seats = make_game(2, island=island, statues=(a, b), facings=(0, 3))
    s.amulet_stack = 1
    s.map_cards[0] = [1]
    s.map_roses[0] = [1]
    s.roses[1] -= 1
    s.map_cand[0] = 1 << 0
    s.t_deck = [2, 2, 2, 2, 2]
    seats[0].queue.extend([(decisions.OFFER, decisions.TAKE)])
    seats[1].queue.extend([(decisions.OFFER, decisions.TAKE)])
    raise_treasure(game, 0, 0)
    assert s.amulet_board == 1 << gaze_cell(game, a, 0)
    assert s.amulet_stack == 0


# -- setup and the end (§9, §10) -----------------------------------------------------------


@pytest.mark.parametrize(("n", "hand"), [(2, 6), (3, 4), (4, 4)])
def test_setup_deals_hands_and_starting_clues(n: int, hand: int) -> None:
    from strategies.tobago.random_player import RandomPlayer

    rules = preset("rulebook")
    board = Board(draw(ROW))
    island = hex3()
    board = Board(island, None)
    game = TobagoGame(rules, board, [RandomPlayer] * n, seed=3, strict=True)
    game.setup()
    s = game.state
    assert [len(h) for h in s.hands] == [hand] * n
    assert sorted(len(c) for c in s.map_cards) == [0] * (4 - n) + [1] * n
    assert sorted(r for roses in s.map_roses for r in roses) == list(range(n))
    deck = s.t_deck
    assert len(deck) == 41 and deck.count(CURSE) == 2
    assert CURSE not in deck[-12:]  # the top 12 cards (drawn first) are curse-free


def test_ties_share_the_win_and_the_turn_cap_truncates() -> None:
    from strategies.tobago.random_player import RandomPlayer

    rules = dataclasses.replace(preset("rulebook"), max_turns=3)
    game = TobagoGame(rules, Board(hex3()), [RandomPlayer] * 2, seed=5, strict=True)
    result = game.play()
    assert result.truncated and result.turns == 3
    assert result.scores == (0, 0) and result.win_shares == (0.5, 0.5)
    assert result.ranks == (1, 1)


def test_violations_are_recorded_and_fallback_applied() -> None:
    class Broken(Scripted):
        def decide(self, view: object, decision: decisions.Decision) -> object:
            if decision.kind == decisions.START_CELL:
                raise RuntimeError("boom")
            return ("nonsense",)

    rules = preset("rulebook")
    game = TobagoGame(rules, Board(hex3()), [Broken, Broken], seed=5, strict=False)
    result = game.play()
    assert not result.truncated or result.turns == rules.max_turns
    kinds = {v.kind for v in game.violations}  # recorded by name, as the tables store them
    assert kinds >= {"start_cell", "turn"}
    assert game.violations[0].error.startswith("RuntimeError")
    strict = TobagoGame(rules, Board(hex3()), [Broken, Broken], seed=5, strict=True)
    with pytest.raises(StrategyError):
        strict.play()


def test_amulets_between_legs_follow_the_flag() -> None:
    for flag in (True, False):
        game, s, seats = make_game(2, island=draw(ROW), amulet_use_between_legs=flag)
        s.amulets[0] = 1
        s.hands[0] = [5]
        s.clue_draw = [6]
        seats[0].queue.extend(
            [(decisions.TURN, decisions.MOVE), (decisions.LEG, 1), (decisions.LEG, decisions.STOP)]
        )
        seats[0].queue.append((decisions.TURN, decisions.END))
        game.play_turn(0)
        second_leg = seats[0].asked[2]
        assert (decisions.AMULET_EXCHANGE in second_leg.actions) == flag
        assert decisions.AMULET_MOVE not in second_leg.actions  # a move does not nest in a move


def test_amulet_clue_is_an_extra_clue_play() -> None:
    game, s, seats = make_game(2, island=draw(ROW))
    s.clue_masks = (0b11, 0b1, *s.clue_masks[2:])
    s.amulets[0] = 1
    s.hands[0] = [0, 1]
    s.clue_draw = [20, 21, 22, 23, 24, 25]
    seats[0].queue.extend(
        [
            (decisions.TURN, (ActionKind.AMULET_CLUE, 0, 0)),
            (decisions.TURN, (ActionKind.CLUE, 1, 0)),
        ]
    )
    seats[0].queue.append((decisions.TURN, decisions.END))
    game.play_turn(0)
    assert s.map_cards[0] == [0, 1] and s.map_roses[0] == [0, 0]
    assert s.map_cand[0] == 0b1 and s.located(0) == 0
    assert s.amulets_used[0] == 1 and len(s.hands[0]) == 6  # 2-player hands hold 6
    assert s.clues_played[0] == 2


def test_tie_break_by_amulets() -> None:
    from strategies.tobago.random_player import RandomPlayer

    rules = dataclasses.replace(preset("rulebook"), max_turns=2, tie_break="amulets")
    game = TobagoGame(rules, Board(hex3()), [RandomPlayer] * 3, seed=5, strict=True)
    game.setup()
    game.state.amulets[2] = 1
    game.state.turn = 2
    result = game._finish()
    assert result.ranks == (2, 2, 1) and result.win_shares == (0.0, 0.0, 1.0)


def test_random_first_player_is_seeded() -> None:
    from strategies.tobago.random_player import RandomPlayer

    rules = dataclasses.replace(preset("rulebook"), first_player="random")
    firsts = {
        TobagoGame(rules, Board(hex3()), [RandomPlayer] * 4, seed=k).first_player for k in range(40)
    }
    assert firsts == {0, 1, 2, 3}
    again = TobagoGame(rules, Board(hex3()), [RandomPlayer] * 4, seed=7).first_player
    assert again == TobagoGame(rules, Board(hex3()), [RandomPlayer] * 4, seed=7).first_player


def test_short_hand_tops_up_at_the_next_turn() -> None:
    game, s, seats = make_game(3, island=draw(ROW))
    s.hands[0] = [1]
    s.hand_short[0] = True
    s.clue_discard = [30, 31, 32]
    seats[0].queue.extend(
        [
            (decisions.TURN, decisions.MOVE),
            (decisions.LEG, 1),
            (decisions.LEG, decisions.STOP),
            (decisions.TURN, decisions.END),
        ]
    )
    game.play_turn(0)
    assert len(s.hands[0]) == 4 and not s.hand_short[0]


def test_a_raiser_needs_a_rose_unless_the_flag_is_off() -> None:
    # Map 1 is located under seat 0's ATV (cell 0); seat 1 has the only clue on it. Seat 0
    # has no rose left: with raise_needs_rose (the rulebook) no raise is offered.
    def position(flag: bool) -> tuple[Any, Any, list[Scripted]]:
        game, s, seats = make_game(2, island=draw(ROW), raise_needs_rose=flag)
        s.map_cards[1] = [9]
        s.map_roses[1] = [1]
        s.roses = [0, 14]
        s.map_cand[1] = 1 << 0
        s.t_deck = [5, 4, 3]
        s.hands[0] = []
        return game, s, seats

    game, s, seats = position(True)
    seats[0].queue.extend(
        [
            (decisions.TURN, decisions.MOVE),
            (decisions.LEG, 1),
            (decisions.LEG, decisions.STOP),
            (decisions.TURN, decisions.END),
        ]
    )
    game.play_turn(0)
    assert not any(a[0] == ActionKind.RAISE for a in seats[0].asked[0].actions)
    assert s.treasures_raised == [0, 0]
    # Without the flag seat 0 raises with no rose of its own: R holds seat 1's rose only, so
    # seat 1 draws one card (3), the blind card is 4; they turn up 4 (seat 1 takes it) and R
    # is empty: 3 is left over. Seat 0 draws nothing and gets nothing.
    game, s, seats = position(False)
    seats[0].queue.extend(
        [(decisions.TURN, (ActionKind.RAISE, 1)), (decisions.TURN, decisions.END)]
    )
    seats[1].queue.extend([(decisions.OFFER, decisions.TAKE)])
    game.play_turn(0)
    assert (ActionKind.RAISE, 1) in seats[0].asked[0].actions
    assert s.treasures == [[], [4]] and s.roses == [0, 15]
    assert s.t_discard == [3] and s.t_deck == [5]
    assert s.treasures_raised == [1, 0]


def test_exchange_is_a_main_action_only_with_the_c7_flag() -> None:
    # A 3-player hand of 4 cards, 5 cards in the draw pile. Rulebook: no ("exchange",).
    game, s, seats = make_game(3, island=draw(ROW))
    s.hands[0] = [1, 2, 3, 4]
    s.clue_draw = [10, 11, 12, 13, 14]
    seats[0].queue.extend(
        [
            (decisions.TURN, decisions.MOVE),
            (decisions.LEG, 1),
            (decisions.LEG, decisions.STOP),
            (decisions.TURN, decisions.END),
        ]
    )
    game.play_turn(0)
    assert decisions.EXCHANGE not in seats[0].asked[0].actions
    # With the flag it is offered after move (the fallback order), replaces the hand from the
    # top of the pile, and is the turn's main action: only ``end`` follows.
    game, s, seats = make_game(3, island=draw(ROW), exchange_as_main_action=True)
    s.hands[0] = [1, 2, 3, 4]
    s.clue_draw = [10, 11, 12, 13, 14]
    seats[0].queue.extend([(decisions.TURN, decisions.EXCHANGE), (decisions.TURN, decisions.END)])
    game.play_turn(0)
    first = seats[0].asked[0].actions
    assert first.index(decisions.EXCHANGE) == first.index(decisions.MOVE) + 1
    assert s.hands[0] == [14, 13, 12, 11] and s.clue_discard == [1, 2, 3, 4]
    assert seats[0].asked[1].actions == (decisions.END,)
    assert s.amulets_used[0] == 0
    assert game.state.log.rows()[-1][2:4] == (CODE["exchange"], 4)
    # With empty clue piles there is nothing to draw: no exchange.
    game, s, seats = make_game(3, island=draw(ROW), exchange_as_main_action=True)
    s.hands[0] = [1, 2, 3, 4]
    seats[0].queue.extend(
        [
            (decisions.TURN, decisions.MOVE),
            (decisions.LEG, 1),
            (decisions.LEG, decisions.STOP),
            (decisions.TURN, decisions.END),
        ]
    )
    game.play_turn(0)
    assert decisions.EXCHANGE not in seats[0].asked[0].actions


def test_exchange_main_action_after_a_raise_with_no_clue_to_play() -> None:
    # Raising ends movement; with no legal clue the main action left is the exchange (C7).
    game, s, seats = make_game(2, island=draw(ROW), exchange_as_main_action=True)
    s.map_cards[1] = [9]
    s.map_roses[1] = [1]
    s.roses[1] -= 1
    s.map_cand[1] = 1 << 0  # located under seat 0's ATV
    s.t_deck = [2, 2, 2, 2]
    s.hands[0] = [5]
    s.clue_masks = (*s.clue_masks[:5], 0, *s.clue_masks[6:])  # card 5 fits nowhere
    s.clue_draw = [20]
    seats[0].queue.extend(
        [(decisions.TURN, (ActionKind.RAISE, 1)), (decisions.OFFER, decisions.TAKE)]
    )
    seats[0].queue.extend([(decisions.TURN, decisions.EXCHANGE), (decisions.TURN, decisions.END)])
    seats[1].queue.extend([(decisions.OFFER, decisions.TAKE)])
    game.play_turn(0)
    assert seats[0].asked[-2].actions == (decisions.EXCHANGE,)
    assert s.hands[0] == [20]
