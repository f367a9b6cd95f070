"""The built-in players' shortcuts (the continue question and power choices asked by method,
``sim.treasure_island.engine.Shortcuts``) give the games ``decide`` gives: the same moves, the
same decision counts, and the same record when a player fails or cheats."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from sim.game import NO_ISLAND
from sim.outcome import StrategyError
from sim.runner.schedule import Schedule
from sim.sealed import TRUSTED
from sim.treasure_island.decisions import CONTINUE, PLUNDER, Decision
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.kind import KIND
from sim.treasure_island.movelog import CODE
from sim.treasure_island.rules import preset
from sim.treasure_island.view import PlayerView
from strategies.registry import parse_strategy
from strategies.treasure_island.random_player import RandomPlayer
from strategies.treasure_island.stopping import ExpectedValue, StopAt


@pytest.fixture
def untrusted() -> Iterator[Callable[[], None]]:
    """Call to play the built-in players as plug-ins (no shortcuts, sealed views); trust is
    restored afterwards."""
    saved = set(TRUSTED)
    yield TRUSTED.clear
    TRUSTED.clear()
    TRUSTED.update(saved)


def _games(lineup: str, preset_name: str, games: int) -> list[tuple[Any, ...]]:
    kind = KIND
    rules = kind.load_rules(preset_name)
    specs = [parse_strategy(name, "treasure-island") for name in lineup.split(",")]
    factories = [s.factory() for s in specs]
    schedule = Schedule(11, len(specs), "rotate", (NO_ISLAND,))
    out = []
    for g in range(games):
        game = kind.play(schedule.plan(g), rules, factories)
        out.append((game.decisions, tuple(game.log), tuple(game.turn_rows), game.result))
    return out


@pytest.mark.parametrize("preset_name", ["standard", "characters"])
def test_the_shortcuts_play_the_games_decide_plays(
    preset_name: str, untrusted: Callable[[], None]
) -> None:
    lineup = "expected-value,bust-threshold,stop-at,random"
    fast = _games(lineup, preset_name, 120)
    untrusted()
    assert _games(lineup, preset_name, 120) == fast


class _Flaky(StopAt):
    """A stopping player whose Pistol raises on its first use and cheats on its second, and
    whose stopping rule raises on its 5th question."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng, n=3)
        self.pistols = 0
        self.asked = 0

    def keep_drawing(self, view: PlayerView) -> bool:
        self.asked += 1
        if self.asked == 5:
            raise RuntimeError("no idea")
        return super().keep_drawing(view)

    def pistol(self, view: PlayerView, options: tuple[tuple[int, int], ...]) -> tuple[int, int]:
        self.pistols += 1
        if self.pistols == 1:
            raise ValueError("jammed")
        if self.pistols == 2:
            return (9, 9)
        return super().pistol(view, options)


def _same_through_decide(*players: Any, seeds: int = 6) -> list[TreasureIslandGame]:
    """Play ``players`` (classes, the first ones trusted for the duration) with shortcuts and
    through ``decide``, and check that the games are the same; return the former."""

    def games(strict: bool = False) -> list[TreasureIslandGame]:
        out = []
        for seed in range(seeds):
            game = TreasureIslandGame(preset("standard"), list(players), seed, strict=strict)
            game.play()
            out.append(game)
        return out

    added = {p for p in players if isinstance(p, type)} - TRUSTED
    TRUSTED.update(added)
    try:
        fast = games()
        if any(game.violations for game in fast):
            with pytest.raises(StrategyError):
                games(strict=True)
    finally:
        TRUSTED.difference_update(added)
    slow = games()
    for a, b in zip(fast, slow, strict=True):
        assert a.violations == b.violations
        assert (a.decisions, a.log, a.turn_rows, a.result) == (
            b.decisions,
            b.log,
            b.turn_rows,
            b.result,
        )
    return fast


def _stop_at_2(rng: random.Random) -> StopAt:
    return StopAt(rng, n=2)


def test_a_failing_or_cheating_shortcut_is_recorded_as_through_decide() -> None:
    fast = _same_through_decide(_Flaky, _Flaky, _stop_at_2)
    kinds = {v.kind for game in fast for v in game.violations}
    assert {"pistol", "continue"} <= kinds  # each failure happened


class _Loose(ExpectedValue):
    """Answers that equal a legal one but are not of its type: illegal, as through decide."""

    def helm(self, view: PlayerView, options: tuple[int, ...]) -> int:
        return float(super().helm(view, options))  # type: ignore[return-value]

    def candle(self, view: PlayerView, options: tuple[int, ...]) -> int:
        return True

    def pistol(self, view: PlayerView, options: tuple[tuple[int, int], ...]) -> tuple[int, int]:
        victim, kind = super().pistol(view, options)
        return (bool(victim), kind)


class _NoTruth:
    def __bool__(self) -> bool:
        raise RuntimeError("no truth")


class _Ambiguous(StopAt):
    """A stopping rule whose answer has no truth value (its test is strategy code too)."""

    def keep_drawing(self, view: PlayerView) -> bool:
        return _NoTruth()  # type: ignore[return-value]


class _Timid(RandomPlayer):
    """A random player with its own decide (always plunders): it gets no shortcuts."""

    def decide(self, view: PlayerView, decision: Decision) -> object:
        return PLUNDER if decision.kind == CONTINUE else decision.options[0]


def test_loose_types_and_a_truthless_answer_are_recorded_as_through_decide() -> None:
    fast = _same_through_decide(_Loose, _Ambiguous, _stop_at_2, seeds=12)
    kinds = {v.kind for game in fast for v in game.violations}
    assert {"helm", "candle", "pistol", "continue"} <= kinds


def test_a_subclass_with_its_own_decide_is_asked_through_it() -> None:
    assert RandomPlayer.shortcuts()[0] is not None and _Timid.shortcuts() == (None, {})
    fast = _same_through_decide(_Timid, RandomPlayer, _stop_at_2)
    timid_draws = [
        row for game in fast for row in zip(*[iter(game.log)] * 6, strict=True)
        if row[1] == 0 and row[2] == CODE["draw"]
    ]  # fmt: skip
    assert not timid_draws  # seat 0 never chose to draw
