"""The built-in players' shortcuts (the continue question and power choices asked by method,
``sim.treasure_island.engine.Shortcuts``) give the games ``decide`` gives: the same moves, the
same decision counts, and the same record when a player fails or cheats."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from sim.outcome import StrategyError
from sim.runner.games import NO_ISLAND, game_kind
from sim.runner.schedule import Schedule
from sim.sealed import TRUSTED
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.rules import preset
from sim.treasure_island.view import PlayerView
from strategies.registry import parse_strategy
from strategies.treasure_island.stopping import StopAt


@pytest.fixture
def untrusted() -> Iterator[Callable[[], None]]:
    """Call to play the built-in players as plug-ins (no shortcuts, sealed views); trust is
    restored afterwards."""
    saved = set(TRUSTED)
    yield TRUSTED.clear
    TRUSTED.clear()
    TRUSTED.update(saved)


def _games(lineup: str, preset_name: str, games: int) -> list[tuple[Any, ...]]:
    kind = game_kind("treasure-island")
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


def _flaky_game(seed: int, strict: bool = False) -> TreasureIslandGame:
    game = TreasureIslandGame(
        preset("standard"), [_Flaky, _Flaky, lambda rng: StopAt(rng, n=2)], seed, strict=strict
    )
    game.play()
    return game


def test_a_failing_or_cheating_shortcut_is_recorded_as_through_decide() -> None:
    TRUSTED.add(_Flaky)
    try:
        fast = [_flaky_game(seed) for seed in range(6)]
        with pytest.raises(StrategyError):
            _flaky_game(0, strict=True)
    finally:
        TRUSTED.discard(_Flaky)
    slow = [_flaky_game(seed) for seed in range(6)]
    kinds = {v.kind for game in fast for v in game.violations}
    assert {"pistol", "continue"} <= kinds  # each failure happened
    for a, b in zip(fast, slow, strict=True):
        assert a.violations == b.violations
        assert (a.decisions, a.log, a.turn_rows, a.result) == (
            b.decisions,
            b.log,
            b.turn_rows,
            b.result,
        )
