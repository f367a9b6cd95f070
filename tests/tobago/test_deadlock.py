"""Deadlock (sim.tobago.deadlock): a position no seat can ever change again ends the game
with end_reason "deadlock"; every way out that the rules leave keeps it going.

The position: the 9-cell row island, two players. Map 0 shows two markers (cells 0 and 1,
one clue); maps 1-3 are empty. Every card in the hands covers the whole island, so none can
eliminate a cell anywhere: no clue play is legal. No amulets, no located map, nobody short
of cards; the clue draw pile holds two cards.
"""

from __future__ import annotations

from typing import Any

from sim.tobago import decisions
from sim.tobago.deadlock import deadlocked
from sim.tobago.engine import TobagoGame
from sim.tobago.movelog import CODE
from sim.tobago.state import GameState
from tests.tobago.drawing import draw
from tests.tobago.scenario import Scripted, make_game

ROW = "J J M M S S S L B"
ALL = (1 << 9) - 1


def dead(**overrides: Any) -> tuple[TobagoGame, GameState, list[Scripted]]:
    game, s, seats = make_game(2, island=draw(ROW), **overrides)
    s.clue_masks = (ALL,) * 8 + (0b11,) * (len(s.clue_masks) - 8)
    s.map_cards[0] = [9]
    s.map_roses[0] = [1]
    s.roses[1] -= 1
    s.map_cand[0] = 0b11
    s.hands = [[0, 1, 2], [3, 4, 5]]
    s.hand_size = 3
    s.clue_draw = [6, 7]
    return game, s, seats


def test_the_engine_ends_a_dead_position_after_the_first_stuck_turn() -> None:
    game, s, seats = dead()
    assert deadlocked(s)
    # Seat 0 can only move (no clue is legal), drives one leg and ends its turn.
    seats[0].queue.extend(
        [
            (decisions.TURN, decisions.MOVE),
            (decisions.LEG, 1),
            (decisions.LEG, decisions.STOP),
            (decisions.TURN, decisions.END),
        ]
    )
    result = game.play_turns()
    assert seats[0].asked[0].actions == (decisions.MOVE,)
    assert result.end_reason == "deadlock" and not result.truncated
    assert result.turns == 1 and s.turn == 1
    rows = s.log.rows()
    assert rows[-3][1:4] == (-1, CODE["game_end"], 2)  # a = END_REASONS.index("deadlock")
    assert [r[2] for r in rows[-2:]] == [CODE["score"]] * 2
    assert not seats[1].asked  # seat 1 never got a turn


def test_a_position_dead_when_the_cap_comes_is_a_deadlock_not_a_cut_off() -> None:
    # The cap is reached before any stuck turn could run the check: the engine checks there.
    game, _, seats = dead(max_turns=0)
    result = game.play_turns()
    assert result.end_reason == "deadlock" and not result.truncated
    assert not seats[0].asked and not seats[1].asked


def test_a_game_that_can_progress_is_not_ended() -> None:
    # One amulet on the board at cell 5: the seats could fetch it and exchange a hand. The
    # game runs on until the (lowered) turn cap.
    game, s, seats = dead(max_turns=2)
    s.amulet_board = 1 << 5
    seats[0].queue.extend(
        [
            (decisions.TURN, decisions.MOVE),
            (decisions.LEG, 1),
            (decisions.LEG, decisions.STOP),
            (decisions.TURN, decisions.END),
        ]
    )
    seats[1].queue.extend(
        [
            (decisions.TURN, decisions.MOVE),
            (decisions.LEG, 1),
            (decisions.LEG, decisions.STOP),
            (decisions.TURN, decisions.END),
        ]
    )
    result = game.play_turns()
    assert result.end_reason == "turn_cap" and result.truncated and result.turns == 2


def test_amulets_held_or_on_the_board_keep_it_alive_while_they_can_do_something() -> None:
    _, s, _ = dead()
    s.amulet_board = 1 << 5
    assert not deadlocked(s)
    _, s, _ = dead()
    s.amulets[1] = 1  # seat 1 could exchange its hand
    assert not deadlocked(s)
    s.clue_draw = []  # nothing to draw: no exchange, but map 0's two markers: remove one
    assert not deadlocked(s)
    s.map_cand[0] = 0b111  # three candidates: still markers to remove
    assert not deadlocked(s)
    s.map_cards[0] = []  # no map shows markers: the amulet can do nothing
    s.map_roses[0] = []
    s.map_cand[0] = ALL
    assert deadlocked(s)


def test_a_located_map_keeps_it_alive_while_someone_can_raise() -> None:
    _, s, _ = dead()
    s.map_cand[0] = 0b10  # located at cell 1: any ATV can drive there and raise
    assert not deadlocked(s)
    s.roses = [0, 0]  # nobody has a rose left to raise with
    assert deadlocked(s)
    _, s, _ = dead(raise_needs_rose=False)
    s.map_cand[0] = 0b10
    s.roses = [0, 0]
    assert not deadlocked(s)


def test_hands_that_can_still_change() -> None:
    _, s, _ = dead()
    s.hand_short[1] = True  # tops up at seat 1's next turn
    assert not deadlocked(s)
    s.clue_draw = []  # ... unless there is nothing to draw
    assert deadlocked(s)
    _, s, _ = dead(exchange_as_main_action=True)  # C7: anyone may exchange
    assert not deadlocked(s)
    s.clue_draw = []
    assert deadlocked(s)


def test_a_legal_card_in_any_hand_with_a_rose_keeps_it_alive() -> None:
    _, s, _ = dead()
    s.hands[1][0] = 8  # card 8 leaves only cells 0 and 1: legal on the empty maps
    assert not deadlocked(s)
    s.roses[1] = 0  # but seat 1 has no rose to mark it with
    assert deadlocked(s)


def test_no_rose_left_anywhere_is_a_deadlock_whatever_else_could_change() -> None:
    # Hands could change (an amulet, cards to draw), but clue plays and raises both need a
    # rose and roses only come back from a raise: the game can never end.
    _, s, _ = dead()
    s.amulets[1] = 1
    s.hands[1][0] = 8  # even a card that would be legal
    s.roses = [0, 0]
    assert deadlocked(s)
    _, s, _ = dead(raise_needs_rose=False)  # ... unless raising needs no rose
    s.amulets[1] = 1
    s.roses = [0, 0]
    assert not deadlocked(s)
