"""``tourney bench --engine compiled``: the compiled Treasure Island engine timed like the
reference (:func:`pipelines.play.game.bench`): the same games of a run's schedule, in
rounds alternating with the python-chess yardstick, on one core. A round is one call of the
compiled engine over its games (the seeds derived in Python, the games played compiled), so
its time is what a run would pay for those games' ``games`` and ``seats`` rows, less the
building of the tables.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pipelines.play.game import BENCH_SEED, timed_rounds
from sim.errors import InputError
from sim.outcome import END_REASONS
from sim.runner.games import NO_ISLAND, game_kind
from sim.runner.schedule import Schedule
from sim.treasure_island.compiled.strategies import PLAYERS as COMPILED
from sim.treasure_island.compiled.tables import Player, play
from sim.treasure_island.rules import TreasureIslandRules
from strategies.registry import REGISTRIES, StrategySpec

#: The engines ``bench`` can time.
ENGINES = ("reference", "compiled")
_GAME = "treasure-island"


def compiled_players(players: list[StrategySpec], game: str) -> list[Player]:
    """The lineup as the compiled engine takes it; ``InputError`` for another game or a
    player that does not compile."""
    if game != _GAME:
        raise InputError(f"--engine compiled: only {_GAME} has a compiled engine, not {game!r}")
    out: list[Player] = []
    for spec in players:
        name = next((n for n, cls in REGISTRIES[game].items() if cls is spec.cls), None)
        if name is None or name not in COMPILED:
            raise InputError(
                f"--engine compiled: {spec.label!r} has no compiled player "
                f"(compiled: {', '.join(COMPILED)})"
            )
        out.append((name, dict(spec.params)))
    return out


def bench_compiled(
    games: int,
    players: list[StrategySpec],
    rules_spec: str | None,
    chess_seconds: float,
    game: str,
    rounds: int = 5,
    seating: str = "rotate",
) -> dict[str, Any]:
    """The figures of :func:`pipelines.play.game.bench` for the compiled engine."""
    lineup = compiled_players(players, game)
    kind = game_kind(game)
    rules = kind.load_rules(rules_spec or kind.default_rules)
    assert isinstance(rules, TreasureIslandRules)
    if seating not in ("rotate", "random"):
        raise InputError(f"--seating: {seating!r} is not allowed (rotate or random)")
    n = len(players)
    plans = [Schedule(BENCH_SEED, n, seating, (NO_ISLAND,)).plan(g) for g in range(games)]
    # Loads (or compiles, the first time) the engine before the clock starts.
    warm_up = Schedule(BENCH_SEED + 1, n, seating, (NO_ISLAND,))
    play([warm_up.plan(g) for g in range(min(2 * n, games))], rules, lineup)

    def play_slice(first: int, stop: int) -> tuple[int, dict[str, int]]:
        played = play(plans[first:stop], rules, lineup)
        ends = np.bincount(played.game_out[:, 2], minlength=len(END_REASONS))
        return int(played.game_out[:, 3].sum()), dict(zip(END_REASONS, ends.tolist(), strict=True))

    head = {
        "game": game,
        "engine": "compiled",
        "players": [p.label for p in players],
        "seating": seating,
    }
    return timed_rounds(games, rounds, chess_seconds, play_slice, head)
