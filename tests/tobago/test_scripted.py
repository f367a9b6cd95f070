"""The scripted styles' amulet powers, start cells and curse choice on a hand-made island.

The island is a row of nine cells, ``J J M M S S S L B`` (q = 0..8). One leg drives within an
area or steps onto the next terrain, so the legs between cells are: 0-1 one leg (jungle),
1-2 one (a terrain change), 2-3 one (mountain), 3-4 one, 4-5 and 4-6 one (scrub), 6-7 one,
7-8 one. From cell 0: cell 2 is 2 legs away, 3 is 3, 5 is 5, 8 is 7.

Cards 0-7 cover the whole island, so they can never be played (they eliminate nothing);
the other cards' cells are set per test.
"""

from __future__ import annotations

import functools
from typing import Any

from sim.tobago import decisions
from sim.tobago.engine import StrategyFactory, TobagoGame
from sim.tobago.movelog import CODE
from sim.tobago.state import GameState
from strategies.tobago.scripted import ScriptedPlayer
from strategies.tobago.styles import Cartographer, Cautious, Collector, Hunter
from tests.tobago.drawing import draw
from tests.tobago.scenario import make_game

ROW = "J J M M S S S L B"
ALL = (1 << 9) - 1
DEAD_HAND = [0, 1, 2, 3, 4, 5]  # a two-player hand of cards legal nowhere


def cells(*ids: int) -> int:
    mask = 0
    for i in ids:
        mask |= 1 << i
    return mask


def row_game(
    player: StrategyFactory, **overrides: Any
) -> tuple[TobagoGame, GameState, ScriptedPlayer]:
    """Seat 0 plays ``player`` against a scripted seat 1; both ATVs at cell 0."""
    game, s, _ = make_game(2, island=draw(ROW), players=[player], **overrides)
    s.clue_masks = (ALL,) * 8 + (cells(0, 1),) * (len(s.clue_masks) - 8)
    s.hands[0] = list(DEAD_HAND)
    strategy = game.strategies[0]
    assert isinstance(strategy, ScriptedPlayer)
    return game, s, strategy


def events(s: GameState, seat: int = 0) -> list[tuple[int, int, int, int]]:
    """``(kind, a, b, c)`` of the seat's log rows."""
    return [(k, a, b, c) for _, who, k, a, b, c in s.log.rows() if who == seat]


def kinds(s: GameState, seat: int = 0) -> list[int]:
    return [k for k, *_ in events(s, seat)]


def test_a_dead_hand_is_exchanged_with_a_spare_amulet_then_played() -> None:
    game, s, _ = row_game(Hunter)
    s.amulets[0] = 2  # one beyond the reserve of 1
    s.clue_draw = [6, 8, 9, 10, 11, 12, 13]  # 8-13: cells 0 and 1, legal on empty maps
    game.play_turn(0)
    assert kinds(s)[:2] == [CODE["amulet_exchange"], CODE["clue"]]
    assert s.amulets == [1, 0]
    assert s.clue_discard == DEAD_HAND
    assert s.map_cand.count(cells(0, 1)) == 1  # the new hand's clue narrowed one map


def test_without_a_spare_amulet_a_dead_hand_drives_to_the_nearest_amulet() -> None:
    # The reserve (1) is not spent; the amulet at cell 5 is 5 legs away: the whole move
    # drives toward it (0 -> 1 -> 2 -> 3), where the plain rule would stop after one leg.
    game, s, _ = row_game(Hunter)
    s.amulets[0] = 1
    s.amulet_board = cells(5)
    s.clue_draw = [8, 9]
    game.play_turn(0)
    legs = [(a, b) for k, a, b, _ in events(s) if k == CODE["leg"]]
    assert legs == [(0, 1), (1, 2), (2, 3)]
    assert s.hands[0] == DEAD_HAND and s.amulets == [1, 0]
    # Switched off, the hunter drives one leg and stops, as before the parameter.
    game, s, _ = row_game(functools.partial(Hunter, exchange_stuck=False))
    s.amulets[0] = 1
    s.amulet_board = cells(5)
    game.play_turn(0)
    assert [(a, b) for k, a, b, _ in events(s) if k == CODE["leg"]] == [(0, 1)]


def test_the_reserve_goes_once_the_game_has_stalled() -> None:
    # Cautious keeps 2 amulets. With a dead hand and no amulet on the board it waits; after
    # stall_turns (8) turns in which no map changed it exchanges anyway.
    game, s, _ = row_game(Cautious)
    s.amulets[0] = 2
    s.clue_draw = [8, 9, 10, 11, 12, 13]
    game.play_turn(0)
    assert CODE["amulet_exchange"] not in kinds(s)
    s.turn = 7
    game.play_turn(0)
    assert CODE["amulet_exchange"] not in kinds(s)
    s.turn = 8
    game.play_turn(0)
    assert kinds(s).count(CODE["amulet_exchange"]) == 1 and s.amulets[0] == 1


def test_a_marker_is_removed_to_locate_a_treasure_reached_this_turn() -> None:
    # Map 0 shows two markers, at cells 2 (2 legs away) and 8 (7 legs away). The hunter's
    # spare amulet removes the far one (8): the treasure is located at 2, it drives there and
    # raises it. Its own rose is the map's only clue rose, so R is hunter, hunter: it draws
    # two cards plus the blind one and takes them.
    game, s, _ = row_game(Hunter)
    s.amulets[0] = 2
    s.map_cards[0] = [20]
    s.map_roses[0] = [0]
    s.roses[0] -= 1
    s.map_cand[0] = cells(2, 8)
    s.t_deck = [9, 9, 9, 4, 5, 6]
    game.play_turn(0)
    log = events(s)
    assert log[0] == (CODE["amulet_marker"], 0, 8, 1)
    legs = [(a, b) for k, a, b, _ in log if k == CODE["leg"]]
    assert legs == [(0, 1), (1, 2)]
    assert (CODE["raise"], 0, 2, 2) in log
    assert s.treasures[0] == [4, 5] and s.amulets[0] == 1


def test_an_extra_clue_locates_a_treasure_then_the_move_raises_it() -> None:
    # Map 0 has three candidates (2, 5, 7): two markers to remove, but only one amulet to
    # spare. Card 9 (cells 2 and 4) leaves only cell 2, 2 legs away: an extra clue, then
    # the main move drives there and raises.
    game, s, _ = row_game(Hunter)
    s.clue_masks = (*s.clue_masks[:9], cells(2, 4), *s.clue_masks[10:])
    s.hands[0] = [0, 1, 2, 3, 4, 9]
    s.amulets[0] = 2
    s.map_cards[0] = [20]
    s.map_roses[0] = [0]
    s.roses[0] -= 1
    s.map_cand[0] = cells(2, 5, 7)
    s.clue_draw = [6]
    s.t_deck = [9, 9, 9, 9, 4, 5, 6]
    game.play_turn(0)
    log = events(s)
    assert log[0] == (CODE["amulet_clue"], 9, 0, 1)
    assert [(a, b) for k, a, b, _ in log if k == CODE["leg"]] == [(0, 1), (1, 2)]
    assert (CODE["raise"], 0, 2, 3) in log


def test_an_extra_move_races_only_when_a_rival_is_near() -> None:
    # The main action is done; map 1 is located at cell 3, 3 legs away: an amulet move gets
    # there. Cautious (move_race_only) spends one only when a rival could take it first.
    game, s, player = row_game(Cautious)
    s.amulets[0] = 3  # one beyond its reserve of 2
    s.map_cards[1] = [20]
    s.map_cand[1] = cells(3)
    turn = decisions.Decision(
        decisions.TURN, 0, (decisions.END, decisions.AMULET_MOVE, decisions.AMULET_EXCHANGE)
    )
    s.atv[1] = 8  # 4 legs from the treasure
    assert player.decide(game.views[0], turn) == decisions.END
    s.atv[1] = 5  # 2 legs from it: it would raise it on its turn
    assert player.decide(game.views[0], turn) == decisions.AMULET_MOVE
    game, s, player = row_game(Hunter)
    s.amulets[0] = 2
    s.map_cards[1] = [20]
    s.map_cand[1] = cells(3)
    s.atv[1] = 8
    assert player.decide(game.views[0], turn) == decisions.AMULET_MOVE  # the hunter always races


def test_curse_choice_pays_the_amulet_only_when_a_card_is_at_stake() -> None:
    game, s, player = row_game(Cautious, curse_amulet_optional=True)
    curse = decisions.Decision(decisions.CURSE, 0, decisions.CURSE_ACTIONS)
    s.amulets[0] = 1
    assert player.decide(game.views[0], curse) == decisions.PAY_CARD  # no card: losing one is free
    s.treasures[0] = [2]
    assert player.decide(game.views[0], curse) == decisions.PAY_AMULET


def test_the_c7_exchange_action_replaces_a_dead_hand() -> None:
    game, s, _ = row_game(Hunter, exchange_as_main_action=True)
    s.clue_draw = [8, 9, 10, 11, 12, 13]
    game.play_turn(0)
    assert kinds(s)[0] == CODE["exchange"] and s.hands[0] == [13, 12, 11, 10, 9, 8]


def test_start_cells_follow_each_style() -> None:
    # Cells within two legs: 3, 4 and 6 reach 6 cells (the most), 2, 5 and 7 reach 5.
    # Terrains under or one leg from a cell: 7 sees scrub, lake and beach (3, the most).
    start = decisions.Decision(decisions.START_CELL, 0, cells=ALL)

    def choose(player: StrategyFactory, rival: int = -1, **kw: Any) -> int:
        game, s, strategy = row_game(player, **kw)
        s.atv = [-1, rival]
        answer = strategy.decide(game.views[0], start)
        assert isinstance(answer, int)
        return answer

    assert {choose(Hunter) for _ in range(3)} <= {3, 4, 6}  # the most central cells
    # With a rival on 3: hunter (apart 0.5) prefers 6 (2 legs from 3) to 4 (1 leg); cautious
    # (apart 1) goes to 7 (3 legs away, reach 5/6: 5/6 + 1 beats 6's 1 + 2/3).
    assert choose(Hunter, rival=3) == 6
    assert choose(Cautious, rival=3) == 7
    # Cartographer: half the reach plus the terrains: 7 scores 5/12 + 1, the best.
    assert choose(Cartographer) == 7
    # Collector: a statue on 2 looking east drops its first amulet on 8, the row's end:
    # 8 scores 3/12 + 1.5 against 7's 5/12 + 1.5 / 2.
    assert choose(Collector, statues=(2,), facings=(0,)) == 8


def test_the_parameter_table_in_the_docs_matches_the_styles() -> None:
    from dataclasses import fields
    from pathlib import Path

    from strategies.tobago.style import Style

    doc = (Path(__file__).parents[2] / "docs" / "strategies.md").read_text()
    rows = {}
    for line in doc.splitlines():
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if len(parts) == 6 and parts[0].startswith("`") and parts[0] != "`random`":
            rows[parts[0].strip("`")] = parts[2:]
    styles = (Hunter, Cartographer, Collector, Cautious)
    assert set(rows) == {f.name for f in fields(Style)}
    for name, documented in rows.items():
        for style, text in zip(styles, documented, strict=True):
            value = getattr(style.default_style, name)
            shown = text.lower() if isinstance(value, bool) else float(text)
            assert shown == (str(value).lower() if isinstance(value, bool) else value), name


def test_with_empty_clue_piles_a_dead_hand_removes_a_marker_instead() -> None:
    # A dead hand and a spare amulet, but nothing to exchange for: the hunter's amulet removes
    # a marker of the map showing the fewest (map 2: cells 5 and 7), keeping the nearer (5).
    game, s, _ = row_game(Hunter)
    s.amulets[0] = 2
    for m, cand in ((1, cells(4, 6, 7, 8)), (2, cells(5, 7))):
        s.map_cards[m] = [20 + m]
        s.map_roses[m] = [1]
        s.map_cand[m] = cand
    game.play_turn(0)
    assert events(s)[0] == (CODE["amulet_marker"], 2, 7, 1)
