"""The alternating-round timings (the reference game, the clue filter's calls on each side,
and what a full port pays around the game: the deal, the stream seeds, the random draws on a
compiled Mersenne Twister, the run's tables) and the report of their fastest rounds."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import sim.tobago.deal as deal_module
from sim import seeding
from sim.game import GamePlan
from sim.tobago.rules import TobagoRules
from sim.tobago.tables import TableBuilder
from sim.treasure_island.compiled import rng as mt

from .capture import LINEUP, Recorded
from .kernels import mt_loop
from .positions import Arrays, new_outputs, run_best, run_plays
from .replay import null_calls, python_calls, run_calls


def play_games(
    kind: Any, rules: TobagoRules, factories: list[Any], plans: list[GamePlan], played: list[Any]
) -> float:
    """Seconds to play ``plans`` with the reference engine; the games go into ``played``."""
    played.clear()
    start = time.perf_counter()
    for plan in plans:
        played.append(kind.play(plan, rules, factories))
    return time.perf_counter() - start


def table_seconds(plans: list[GamePlan], played: list[Any]) -> float:
    """Seconds to build the run's five tables of the ``played`` games, as a shard does."""
    start = time.perf_counter()
    builder = TableBuilder("tobago", LINEUP.split(","))
    for plan, game in zip(plans, played, strict=True):
        builder.add(plan, game)
    builder.build()
    return time.perf_counter() - start


def deal_seconds(kind: Any, rules: TobagoRules, plans: list[GamePlan]) -> float:
    """Seconds to make the deals of ``plans``: each seed block's once, as the engine keeps a
    block's deal for its games."""
    boards = {p.island: kind.boards.resolve(p.island) for p in plans}
    blocks = sorted({(p.seed, p.island, len(p.order)) for p in plans})
    start = time.perf_counter()
    for seed, island, n in blocks:
        deal_module._deal(boards[island], seed, rules, n)
    return time.perf_counter() - start


def seed_seconds(count: int) -> float:
    """Seconds to derive ``count`` stream seeds (BLAKE2b, in Python)."""
    start = time.perf_counter()
    for g in range(count):
        seeding.derive_seed(g, "seat", 3)
    return time.perf_counter() - start


def mt_seconds(games: int, streams: int, words: int) -> float:
    """Seconds for a compiled Mersenne Twister (Treasure Island's port of CPython's) to seed
    ``streams`` streams and draw ``words`` words per game, for ``games`` games."""
    state = mt.new_states(streams)
    mt_loop(state, 1, streams, words)  # compiled before the clock starts
    start = time.perf_counter()
    mt_loop(state, games, streams, words)
    return time.perf_counter() - start


def cpython_seed_seconds(count: int) -> float:
    """Seconds for CPython's own generator (C) to seed ``count`` streams and draw each one's
    first word (which twists its state)."""
    start = time.perf_counter()
    for s in range(count):
        seeding.Stream(s * 16 + 1).getrandbits(32)
    return time.perf_counter() - start


def timings(
    rounds: int,
    rec: Recorded,
    a: Arrays,
    replay: list[Callable[[], object]],
    setup: tuple[Any, TobagoRules, list[Any], list[GamePlan]],
) -> dict[str, list[float]]:
    """Every side's seconds in each of ``rounds`` rounds; the sides alternate within a round,
    so that each sees the same machine, and every cost can be set against the game's."""
    kind, rules, factories, plans = setup
    games = len(plans)
    split = len(rec.plays)
    per_call = python_calls(a)
    nulls = null_calls(len(replay))
    out = new_outputs(a)
    streams = round(sum(rec.seeded.values()) / games)
    words = round(sum(rec.words.values()) / games)
    run_calls(per_call)
    mt_seconds(1, streams, words)  # compiled (or loaded) before the clock starts
    played: list[Any] = []
    sides: tuple[tuple[str, Callable[[], float]], ...] = (
        ("games", lambda: play_games(kind, rules, factories, plans, played)),
        ("tables", lambda: table_seconds(plans, played)),
        ("ref plays", lambda: run_calls(replay[:split])),
        ("ref best", lambda: run_calls(replay[split:])),
        ("null", lambda: run_calls(nulls)),
        ("loop plays", lambda: run_plays(a, out)),
        ("loop best", lambda: run_best(a, out)),
        ("call plays", lambda: run_calls(per_call[:split])),
        ("call best", lambda: run_calls(per_call[split:])),
        ("deal", lambda: deal_seconds(kind, rules, plans)),
        ("seeds", lambda: seed_seconds(rec.derived)),
        ("mt", lambda: mt_seconds(games, streams, words)),
        ("mt one", lambda: mt_seconds(games, 1, 1)),
        ("cpython one", lambda: cpython_seed_seconds(games)),
    )
    t: dict[str, list[float]] = {key: [] for key, _ in sides}
    for _ in range(rounds):
        for key, seconds in sides:
            t[key].append(seconds())
    return t


def report(games: int, rec: Recorded, t: dict[str, list[float]]) -> None:
    """Print the fastest round of each side: the game, the clue filter's calls (reference and
    compiled), its share of a game and Amdahl's speed-ups, then what surrounds the game."""
    game = min(t["games"]) / games
    median = statistics.median(t["games"]) / games
    print(f"reference game: fastest {game * 1e6:,.0f} us, median {median * 1e6:,.0f} us")
    null = min(t["null"]) / (len(rec.plays) + len(rec.best))
    ref_total = loop_total = call_total = 0.0
    for part, calls in (("plays", len(rec.plays)), ("best", len(rec.best))):
        ref = min(t["ref " + part]) / calls - null
        loop = min(t["loop " + part]) / calls
        call = min(t["call " + part]) / calls
        ref_total += ref * calls
        loop_total += loop * calls
        call_total += call * calls
        print(
            f"{'listing' if part == 'plays' else 'scoring'} ({calls / games:.0f} calls a game), "
            f"per call: reference {ref * 1e9:,.0f} ns (replay's {null * 1e9:.0f} ns taken off); "
            f"compiled {loop * 1e9:,.0f} ns in a compiled loop ({ref / loop:.1f}x), "
            f"{call * 1e9:,.0f} ns called from Python ({ref / call:.2f}x)"
        )
    share = ref_total / games / game
    print(f"the clue filter's share of a reference game: {share:.1%}")
    for name, total in (("in a compiled loop", loop_total), ("called from Python", call_total)):
        speed = ref_total / total
        whole = 1 / ((1 - share) + share / speed)
        print(f"Amdahl, the clue filter alone compiled ({name}, {speed:.1f}x): {whole:.2f}x")
    draws_report(games, rec)
    for key, what in (
        ("mt", "the game's draws on a compiled Mersenne Twister (Treasure Island's)"),
        ("seeds", f"the game's {rec.derived / games:.2f} stream seeds (BLAKE2b, Python)"),
        ("deal", "the deal (landmarks, clue masks, treasure deck; Python; once a seed block)"),
        ("tables", "the run's five tables (TableBuilder, Python)"),
    ):
        cost = min(t[key]) / games
        print(f"{what}: {cost * 1e6:,.1f} us a game, {cost / game:.1%} of the reference game")
    one, c_one = min(t["mt one"]) / games, min(t["cpython one"]) / games
    print(
        f"a stream seeded and its first word drawn: {one * 1e6:.1f} us compiled, "
        f"{c_one * 1e6:.1f} us in CPython (C)"
    )


def draws_report(games: int, rec: Recorded) -> None:
    """The random draws of a game by stream."""
    words = sum(rec.words.values())
    seeded = sum(rec.seeded.values())
    print(f"random draws: {words / games:,.0f} words a game from {seeded / games:.2f} streams")
    for name in sorted(rec.words, key=lambda k: -rec.words[k]):
        print(
            f"  {name:14s} {rec.words[name] / games:8,.1f} words, "
            f"{rec.seeded.get(name, 0) / games:.2f} streams seeded, "
            f"{rec.drew.get(name, 0) / games:.2f} drew, a game"
        )
