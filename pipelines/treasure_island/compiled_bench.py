"""``tourney bench --engine compiled``: the compiled Treasure Island engine timed like the
reference (:func:`pipelines.play.game.bench`): the same games of a run's schedule, in
rounds alternating with the python-chess yardstick, on one core. A round is what a run
pays for its games' ``games`` and ``seats`` tables: their plans (a
:meth:`~sim.runner.schedule.Schedule.plan_batch`), the games played (their stream seeds
derived in Python, the games compiled) and the tables built; the figures add each part's
microseconds a game (``split_us_per_game``).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pyarrow.compute as pc

from pipelines.play.game import BENCH_SEED, timed_rounds
from sim.errors import InputError
from sim.outcome import END_REASONS
from sim.runner.engine_choice import unsupported
from sim.runner.games import NO_ISLAND, game_kind
from sim.runner.schedule import Schedule
from sim.treasure_island.compiled.tables import Player, play_batch, played_tables
from sim.treasure_island.rules import TreasureIslandRules
from strategies.registry import StrategySpec, builtin_name

#: The engines ``bench`` can time.
ENGINES = ("reference", "compiled")
_GAME = "treasure-island"


def compiled_players(players: list[StrategySpec], game: str) -> list[Player]:
    """The lineup as the compiled engine takes it; ``InputError`` for a game or a player
    the compiled engine cannot play (the runner's check, :func:`sim.runner.engine_choice.
    unsupported`)."""
    seats = [(builtin_name(spec, game), spec.params) for spec in players]
    kind = game_kind(game)
    why = unsupported(game, [p.label for p in players], seats, kind.load_rules(kind.default_rules))
    if why is not None:
        raise InputError(f"--engine compiled: {why}")
    return [(name, dict(params)) for name, params in seats]


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
    schedule = Schedule(BENCH_SEED, n, seating, (NO_ISLAND,))
    labels = [p.label for p in players]
    # Loads (or compiles, the first time) the engine before the clock starts.
    warm_up = Schedule(BENCH_SEED + 1, n, seating, (NO_ISLAND,))
    play_batch(warm_up.plan_batch(0, min(2 * n, games)), rules, lineup)
    split = dict.fromkeys(("plan", "play", "tables"), 0.0)

    def play_slice(first: int, stop: int) -> tuple[int, dict[str, int]]:
        start = time.perf_counter()
        batch = schedule.plan_batch(first, stop - first)
        planned = time.perf_counter()
        played = play_batch(batch, rules, lineup)
        done = time.perf_counter()
        games_table = played_tables(_GAME, batch, rules, played, labels)["games"]
        split["plan"] += planned - start
        split["play"] += done - planned
        split["tables"] += time.perf_counter() - done
        ends = np.bincount(played.game_out[:, 2], minlength=len(END_REASONS))
        decisions = pc.sum(games_table["decisions"]).as_py()
        return decisions, dict(zip(END_REASONS, ends.tolist(), strict=True))

    head = {
        "game": game,
        "engine": "compiled",
        "players": [p.label for p in players],
        "seating": seating,
    }
    out = timed_rounds(games, rounds, chess_seconds, play_slice, head)
    out["split_us_per_game"] = {k: round(v / games * 1e6, 3) for k, v in split.items()}
    return out
