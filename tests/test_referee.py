"""The referee (sim.referee): exact-type checks, fallbacks, strict mode, broken factories, and
what a plug-in's random stream and the module state let it see of the game."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pytest

import sim.seeding
import sim.tobago.deal as tobago_deal
from sim.guard import NO_GUARD, Guard
from sim.outcome import StrategyError
from sim.referee import FallbackPlayer, Referee, built_in, seat_game
from sim.seeding import LazyStream, Stream, derive_seed
from sim.tobago.catalog import resolve_board
from sim.tobago.engine import TobagoGame
from sim.tobago.rules import load_rules as tobago_rules
from sim.treasure_island.decisions import Decision
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.rules import load_rules as ti_rules
from strategies.registry import parse_strategy
from strategies.treasure_island.stopping import StopAt


@dataclass(frozen=True)
class Ask:
    """A decision of a made-up game."""

    kind: str
    seat: int

    def fallback(self) -> object:
        return "safe"


class Answers:
    """Answers whatever it is told to, once per decision."""

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def decide(self, view: object, decision: Ask) -> object:
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer


class Spoiler:
    """An answer whose own ``==`` agrees with everything (and counts its calls)."""

    calls = 0

    def __eq__(self, other: object) -> bool:
        Spoiler.calls += 1
        return True

    __hash__ = object.__hash__


class Tuple(tuple):  # type: ignore[type-arg]
    """A tuple subclass."""


def _referee(answer: object, strict: bool = False) -> tuple[Referee[Ask], list[tuple[int, str]]]:
    logged: list[tuple[int, str]] = []

    def record(seat: int, kind: str) -> int:
        logged.append((seat, kind))
        return 7

    return Referee([Answers(answer)], [None], record, strict=strict), logged


@pytest.mark.parametrize(
    ("answer", "options", "cells", "legal"),
    [
        ("safe", ("safe", "bold"), 0, True),
        ("bold", ("safe", "bold"), 0, True),
        (("move", 1), (("move", 1),), 0, True),
        (3, (), 0b1000, True),
        (2, (), 0b1000, False),
        (-1, (), 0b1000, False),
        (4, (3, 4), 0, True),
        (True, (False, True), 0, True),
        # A bool is not an int, nor an int a bool (True == 1).
        (True, (0, 1), 0, False),
        (1, (False, True), 0, False),
        (True, (), 0b10, False),
        (np.int64(3), (), 0b1000, False),
        (np.int64(4), (3, 4), 0, False),
        (Tuple(("move", 1)), (("move", 1),), 0, False),
        (("move", True), (("move", 1),), 0, False),
        (3.0, (3, 4), 0, False),
        ("other", ("safe", "bold"), 0, False),
        (None, ("safe", "bold"), 0, False),
    ],
)
def test_an_answer_is_legal_only_as_an_exact_plain_value(
    answer: object, options: tuple[Any, ...], cells: int, legal: bool
) -> None:
    referee, logged = _referee(answer)
    got = referee.ask(Ask("pick", 0), options, cells)
    assert referee.decisions == 1
    if legal:
        assert got == answer and type(got) is type(answer)
        assert not referee.violations and not logged
    else:
        assert got == "safe"  # the decision's fallback
        assert logged == [(0, "pick")]
        (violation,) = referee.violations
        assert (violation.turn, violation.seat, violation.kind) == (7, 0, "pick")
        assert violation.error == "illegal answer"


def test_no_strategy_code_runs_in_the_check() -> None:
    Spoiler.calls = 0
    referee, _ = _referee(Spoiler())
    assert referee.ask(Ask("pick", 0), ("bold",), 0) == "safe"
    assert Spoiler.calls == 0
    assert len(referee.violations) == 1


def test_a_strategy_that_raises_plays_the_fallback_and_strict_mode_raises() -> None:
    referee, logged = _referee(ValueError("boom"))
    assert referee.ask(Ask("pick", 0), ("bold",), 0) == "safe"
    (violation,) = referee.violations
    assert (violation.answer, violation.error) == ("<raised>", "ValueError('boom')")
    assert logged == [(0, "pick")]
    strict, _ = _referee(ValueError("boom"), strict=True)
    with pytest.raises(StrategyError, match="seat 1 failed on pick"):
        strict.ask(Ask("pick", 0), ("bold",), 0)
    strict, _ = _referee("other", strict=True)
    with pytest.raises(StrategyError, match="answered 'other' to pick: illegal"):
        strict.ask(Ask("pick", 0), ("bold",), 0)


def test_a_factory_that_fails_is_a_violation_and_the_seat_plays_the_fallbacks() -> None:
    def broken(rng: random.Random) -> Answers:
        raise RuntimeError("no")

    def no_decide(rng: random.Random) -> object:
        return object()

    referee = seat_game(5, [broken, no_decide], [None, None], lambda v: v, lambda seat, kind: 0)
    assert all(isinstance(s, FallbackPlayer) for s in referee.strategies)
    assert [(v.seat, v.kind, v.error) for v in referee.violations] == [
        (0, "create", "RuntimeError('no')"),
        (1, "create", "no decide method"),
    ]
    assert referee.ask(Ask("pick", 1), ("bold",), 0) == "safe"


class Seen:
    """A plug-in that keeps the generator it was given and looks at the module state the
    engines keep between games, at every decision."""

    rngs: ClassVar[list[Any]] = []
    deals: ClassVar[list[tuple[object, object]]] = []

    def __init__(self, rng: random.Random) -> None:
        Seen.rngs.append(rng)

    def decide(self, view: Any, decision: Any) -> object:
        Seen.deals.append((tobago_deal._last_deal[0], sim.seeding._last_shuffle.get("cards")))
        return decision.fallback()


def _attributes(obj: object) -> list[object]:
    """Every value reachable from ``obj`` by its attributes (one level down)."""
    names = [*getattr(type(obj), "__slots__", ()), *getattr(obj, "__dict__", {})]
    out: list[object] = []
    for name in names:
        try:
            out.append(object.__getattribute__(obj, name))
        except AttributeError:
            continue
    return out


def test_a_plugins_stream_reveals_no_other_seed() -> None:
    seed = 987_654_321
    Seen.rngs = []
    rules = ti_rules("standard")
    builtin = parse_strategy("stop-at", "treasure-island").factory()
    TreasureIslandGame(rules, [builtin, Seen, builtin], seed).play()
    (rng,) = Seen.rngs
    # Seeded from the seat's own derived seed: the same numbers the seat always drew.
    assert type(rng) is Stream
    assert rng.getstate() != Stream(seed).getstate()
    expected = Stream(derive_seed(seed, "seat", 1))
    assert [rng.random() for _ in range(5)] == [expected.random() for _ in range(5)]
    # Nothing it holds is the game seed or another seat's seed.
    others = {seed, *(derive_seed(seed, "seat", i) for i in (0, 2)), derive_seed(seed, "cards")}
    assert not others & {v for v in _attributes(rng) if type(v) is int}
    # A built-in player's stream stays lazy (the built-in players' own code sees it).
    game = TreasureIslandGame(rules, [builtin, builtin], seed)
    assert all(type(s.rng) is LazyStream for s in game.strategies)


@pytest.mark.parametrize("game", ["tobago", "treasure-island"])
def test_no_module_state_holds_the_deal_while_a_plugin_plays(game: str) -> None:
    Seen.deals = []
    seed = 31
    builtin = parse_strategy("hunter" if game == "tobago" else "stop-at", game).factory()

    def play(factories: list[Callable[[random.Random], Any]]) -> None:
        if game == "tobago":
            board = resolve_board("aBc-2")
            TobagoGame(tobago_rules("rulebook"), board, factories, seed).play()
        else:
            TreasureIslandGame(ti_rules("standard"), factories, seed).play()

    # A game of built-in players keeps its deal for the next game of its block...
    play([builtin, builtin])
    kept = tobago_deal._last_deal[0] if game == "tobago" else sim.seeding._last_shuffle["cards"]
    assert kept is not None
    # ...but a plug-in's game of the same seed neither reads nor leaves one.
    play([builtin, Seen])
    which = 0 if game == "tobago" else 1
    assert Seen.deals and all(seen[which] is None for seen in Seen.deals)
    if game == "tobago":
        assert tobago_deal._last_deal[0] is None
    else:
        assert "cards" not in sim.seeding._last_shuffle


def test_built_in_knows_the_registrys_factories() -> None:
    factory = parse_strategy("hunter(take_at=4)", "tobago").factory()
    assert isinstance(factory, functools.partial)
    assert built_in([factory])
    assert not built_in([factory, Seen])
    assert not built_in([functools.partial(Seen)])


def _question(kind: str, seat: int, options: tuple[Any, ...], value: int) -> Ask:
    return Ask(kind, seat)


@pytest.mark.parametrize(
    ("answer", "options", "legal"),
    [
        ("bold", ("safe", "bold"), True),
        (("move", 1), (("move", 1), ("move", 2)), True),
        (4, (3, 4), True),
        (True, (False, True), True),
        (True, (0, 1), False),
        (1, (False, True), False),
        (np.int64(4), (3, 4), False),
        (Tuple(("move", 1)), (("move", 1), ("move", 2)), False),
        (3.0, (3, 4), False),
        (None, ("safe", "bold"), False),
        (ValueError("boom"), ("safe", "bold"), False),
    ],
)
def test_a_pick_by_decide_is_checked_as_an_asker_checks_it_without_making_one(
    answer: object, options: tuple[Any, ...], legal: bool
) -> None:
    picked, logged = _referee(answer)
    got = picked.pick("pick", 0, options, -1, _question)
    asked, _ = _referee(answer)
    expected = asked.ask(Ask("pick", 0), options, 0)
    assert got == expected and type(got) is type(expected)
    assert picked.decisions == 1
    assert [(v.seat, v.kind, v.answer, v.error) for v in picked.violations] == [
        (v.seat, v.kind, v.answer, v.error) for v in asked.violations
    ]
    assert (type(got) is type(answer) and got == answer) is legal
    assert logged == ([] if legal else [(0, "pick")])
    # A seat asked only choices needs no asker (making one costs more than asking).
    assert picked.askers == [None]


def test_a_single_option_is_the_pick_and_nothing_is_asked() -> None:
    referee, _ = _referee("bold")
    assert referee.pick("pick", 0, ("safe",), -1, _question) == "safe"
    assert referee.decisions == 0 and not referee.violations


def _ti_referee(guard: Guard = NO_GUARD, seat_1: Any = None) -> Referee[Any]:
    stop_at = parse_strategy("stop-at", "treasure-island").factory()
    game = TreasureIslandGame(ti_rules("standard"), [stop_at, seat_1 or stop_at], 5, guard=guard)
    return game.referee


def test_yes_answers_by_the_shortcut_counted_with_no_asker() -> None:
    referee = _ti_referee()
    assert len(referee.yeses) == 2
    # An empty play area: stop-at draws, asked by its shortcut.
    assert referee.yeses[0]() is True
    assert referee.decisions == 1
    assert referee.askers == [None, None]
    # Without a guard the seats' own decide methods are asked: nothing is wrapped.
    assert [f for f, _ in referee.deciders] == [s.decide for s in referee.strategies]


class _Says(StopAt):
    """A plug-in (a subclass of a built-in player) answering the continue question with
    ``said``."""

    said: object = "draw"

    def decide(self, view: Any, decision: Any) -> object:
        if isinstance(self.said, BaseException):
            raise self.said
        return self.said


@pytest.mark.parametrize(
    ("said", "yes", "error"),
    [
        ("draw", True, None),
        ("plunder", False, None),
        ("maybe", False, "illegal answer"),
        (True, False, "illegal answer"),
        (ValueError("boom"), False, "ValueError('boom')"),
    ],
)
def test_yes_without_a_shortcut_is_asked_through_the_seats_asker(
    said: object, yes: bool, error: str | None
) -> None:
    _Says.said = said
    referee = _ti_referee(seat_1=_Says)
    assert referee.yeses[1]() is yes
    assert referee.decisions == 1
    assert referee.askers[1] is not None
    assert [v.error for v in referee.violations] == ([] if error is None else [error])


def test_under_a_guard_yes_and_pick_go_through_the_guarded_decide() -> None:
    referee = _ti_referee(guard=Guard(decision_timeout=60.0))
    player = referee.strategies[0]
    assert len(referee.deciders) == 2
    assert referee.deciders[0][0] != player.decide  # wrapped by the guard
    assert referee.yeses[0]() is True
    assert referee.askers[0] is not None
    choice = referee.pick("helm", 0, (1, 2), -1, lambda k, s, o, v: Decision(k, s, o))
    assert choice in (1, 2) and referee.decisions == 2
