"""``tourney sweep``: a grid over one or two rule parameters, every point on the same seeds.

Each point plays the same seed blocks (rotated seating) under the base rules with the point's
overrides, and reports seat fairness (first-seat win share minus 1/n, with a Wilson interval
on the first seat's wins), game length (mean with a 95% interval), curse impact (curse hits
and coins lost per game) and the spread between strategies (best minus worst win share).
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
from dataclasses import dataclass
from typing import Any

from pipelines.stats import Z95, wilson
from sim.errors import InputError
from sim.runner.games import Factory, play_planned
from sim.runner.schedule import plan_game
from sim.tobago.rules import KEYS, TobagoRules, with_overrides


def parse_param(text: str) -> tuple[str, list[Any]]:
    """``key=v1,v2,...`` -> the key and its values (ints, floats or true/false)."""
    key, eq, values = text.partition("=")
    key = key.strip()
    if not eq or key not in KEYS or key in ("preset", "clue_deck", "treasure_values"):
        raise InputError(
            f"--param {text!r}: give KEY=V1,V2,... with KEY a numeric or true/false rules key"
        )
    out: list[Any] = []
    for item in values.split(","):
        raw = item.strip().lower()
        if raw in ("true", "false"):
            out.append(raw == "true")
            continue
        try:
            out.append(int(raw))
        except ValueError:
            try:
                out.append(float(raw))
            except ValueError:
                raise InputError(f"--param {text!r}: {raw!r} is not a number") from None
    if not out:
        raise InputError(f"--param {text!r}: no values")
    return key, out


@dataclass(frozen=True)
class SweepSpec:
    """The grid and the games each point plays."""

    labels: tuple[str, ...]
    factories: tuple[Factory, ...]
    base: TobagoRules
    params: tuple[tuple[str, tuple[Any, ...]], ...]
    games: int
    seed: int
    islands: tuple[str, ...]
    workers: int = 2


def points(spec: SweepSpec) -> list[dict[str, Any]]:
    """Every combination of the parameters' values."""
    keys = [k for k, _ in spec.params]
    return [
        dict(zip(keys, combo, strict=True))
        for combo in itertools.product(*(v for _, v in spec.params))
    ]


def _play_point(args: tuple[SweepSpec, dict[str, Any]]) -> dict[str, Any]:
    spec, overrides = args
    rules = with_overrides(spec.base, overrides, "--param")
    n = len(spec.labels)
    first = 0.0
    turns: list[int] = []
    hits = 0
    lost = 0
    by_player = [0.0] * n
    for game_id in range(spec.games):
        plan = plan_game(game_id, spec.seed, n, "rotate", spec.islands)
        game = play_planned(plan, rules, spec.factories)
        result = game.result
        assert result is not None
        first += result.win_shares[0]
        turns.append(result.turns)
        hits += sum(game.state.curse_hits)
        lost += sum(game.state.coins_lost)
        for seat, share in enumerate(result.win_shares):
            by_player[plan.order[seat]] += share
    g = spec.games
    low, high = wilson(first, g)
    mean_turns = sum(turns) / g
    sd = math.sqrt(sum((t - mean_turns) ** 2 for t in turns) / (g - 1)) if g > 1 else 0.0
    shares = [w / g for w in by_player]
    return {
        **overrides,
        "games": g,
        "first_seat_advantage": first / g - 1 / n,
        "first_seat_low": low - 1 / n,
        "first_seat_high": high - 1 / n,
        "mean_turns": mean_turns,
        "turns_low": mean_turns - Z95 * sd / math.sqrt(g),
        "turns_high": mean_turns + Z95 * sd / math.sqrt(g),
        "curse_hits_per_game": hits / g,
        "coins_lost_per_game": lost / g,
        "strategy_spread": max(shares) - min(shares),
        **{f"win:{label}": share for label, share in zip(spec.labels, shares, strict=True)},
    }


def sweep(spec: SweepSpec) -> list[dict[str, Any]]:
    """One row of figures per grid point (every point validated before any game)."""
    grid = points(spec)
    for overrides in grid:
        with_overrides(spec.base, overrides, "--param")
    jobs = [(spec, p) for p in grid]
    if spec.workers > 1 and len(jobs) > 1:
        with multiprocessing.get_context("spawn").Pool(min(spec.workers, len(jobs))) as pool:
            return list(pool.map(_play_point, jobs, chunksize=1))
    return [_play_point(j) for j in jobs]
