"""``tourney bench --engine compiled``: the compiled Treasure Island engine timed like the
reference (:func:`pipelines.play.game.bench`): the same games of a run's schedule, in
rounds alternating with the python-chess yardstick, on one core. A round is one call of the
compiled engine over its games (the seeds derived in Python, the games played compiled), so
its time is what a run would pay for those games' ``games`` and ``seats`` rows, less the
building of the tables.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from pipelines.play.game import BENCH_SEED, chess_games
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
    rounds = max(1, min(rounds, games))
    chess_round: int | None = None
    decisions = 0
    ends = np.zeros(len(END_REASONS), dtype=np.int64)
    seconds = chess_played = chess_time = 0.0
    per_round: list[dict[str, Any]] = []
    for r in range(rounds):
        first, stop = games * r // rounds, games * (r + 1) // rounds
        start = time.perf_counter()
        played = play(plans[first:stop], rules, lineup)
        took = time.perf_counter() - start
        seconds += took
        decisions += int(played.game_out[:, 3].sum())
        ends += np.bincount(played.game_out[:, 2], minlength=len(END_REASONS))
        row: dict[str, Any] = {
            "games": stop - first,
            "games_per_s": round((stop - first) / took, 2),
        }
        if chess_seconds > 0:
            chess, elapsed = chess_games(chess_seconds / rounds, chess_round)
            chess_round = chess
            if chess:
                chess_played += chess
                chess_time += elapsed
                row["chess_random_games_per_s"] = round(chess / elapsed, 2)
        per_round.append(row)
    out: dict[str, Any] = {
        "game": game,
        "engine": "compiled",
        "players": [p.label for p in players],
        "seating": seating,
        "games": games,
        "seconds": round(seconds, 4),
        "games_per_s": round(games / seconds, 2),
        "decisions_per_s": round(decisions / seconds, 1),
        "end_reasons": dict(zip(END_REASONS, ends.tolist(), strict=True)),
        "best_round_games_per_s": max(row["games_per_s"] for row in per_round),
        "rounds": per_round,
    }
    if chess_played:
        best_chess = max(row["chess_random_games_per_s"] for row in per_round)
        out["chess_random_games_per_s"] = round(chess_played / chess_time, 2)
        out["best_round_chess_random_games_per_s"] = best_chess
        out["ratio_to_chess"] = round(out["best_round_games_per_s"] / best_chess, 2)
        out["overall_ratio_to_chess"] = round(
            out["games_per_s"] / out["chess_random_games_per_s"], 2
        )
    return out
