"""The deal (landmarks, clue masks, treasure deck, first player) a seed block's games share:
a game handed the kept deal plays exactly as one that made its own."""

from __future__ import annotations

from typing import Any

from pipelines.play.game import parse_players
from sim.runner.schedule import Schedule
from sim.tobago import deal as engine_deal
from sim.tobago.catalog import resolve_board
from sim.tobago.kind import KIND


def _play(plans: list[Any], rules: Any, keep: bool) -> list[tuple[Any, ...]]:
    kind = KIND
    factories = [s.factory() for s in parse_players("hunter,cartographer,random", "tobago")]
    out = []
    for plan in plans:
        if not keep:
            engine_deal._last_deal[0] = None  # forget the last deal: this game makes its own
        game = kind.play(plan, rules, factories)
        out.append((game.decisions, tuple(game.state.log.flat), game.result))
    return out


def test_a_kept_deal_plays_the_games_a_fresh_one_plays() -> None:
    kind = KIND
    assert kind.boards is not None
    # One island: consecutive blocks differ only by their seed.
    schedule = Schedule(21, 3, "rotate", kind.boards.builtin()[:1])
    plans = [schedule.plan(g) for g in range(18)]  # six blocks of three rotations
    for preset in ("rulebook", "bga"):
        rules = kind.load_rules(preset)
        assert _play(plans, rules, keep=True) == _play(plans, rules, keep=False)


def test_the_deal_is_kept_only_for_the_same_board_seed_rules_and_players() -> None:
    kind = KIND
    rules = kind.load_rules("rulebook")
    other_rules = kind.with_overrides(rules, {"curse_count": 1}, "test")
    boards = kind.boards
    assert boards is not None
    a, b = (resolve_board(name) for name in boards.builtin()[:2])
    first = engine_deal.deal(a, 7, rules, 4)
    assert engine_deal.deal(a, 7, rules, 4) is first
    variants = ((b, 7, rules, 4), (a, 8, rules, 4), (a, 7, other_rules, 4), (a, 7, rules, 2))
    for board, seed, r, n in variants:
        kept = engine_deal.deal(a, 7, rules, 4)
        assert kept == first and engine_deal.deal(a, 7, rules, 4) is kept  # kept ...
        assert engine_deal.deal(board, seed, r, n) is not kept  # ... but not for another game
    assert engine_deal.deal(a, 7, rules, 2).treasure_deck == first.treasure_deck
    curses = other_rules.curse_count
    assert engine_deal.deal(a, 7, other_rules, 4).treasure_deck.count(-1) == curses
