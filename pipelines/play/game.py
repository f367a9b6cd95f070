"""Playing single games and benchmarking the engines on one core.

``play_game`` plays one seeded game of either game and returns it with what is needed to
show it as text or JSON rows; ``bench`` plays many games in this process and reports games
and decisions per second, with python-chess random games per second measured in the same run
as a yardstick that travels between machines.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pipelines.play.ablation import ablated
from sim.errors import InputError
from sim.game import GamePlan
from sim.outcome import END_REASONS
from sim.runner.games import NO_ISLAND, game_kind
from sim.runner.schedule import Schedule
from strategies.registry import DEFAULT_PLAYERS, StrategySpec, parse_strategy, split_specs


def check_game(game: str) -> None:
    """``InputError`` unless ``game`` is a game this build plays."""
    game_kind(game)


def parse_players(text: str | None, game: str) -> list[StrategySpec]:
    """Seat strategies from a comma-separated list (default: the game's default players)."""
    names = split_specs(text) if text else list(DEFAULT_PLAYERS[game])
    specs = [parse_strategy(x, game) for x in names]
    game_kind(game).check_players(len(specs), "--players")
    return specs


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished game and what is needed to show it."""

    game_name: str
    game: Any
    rules: Any
    players: list[StrategySpec]
    island: str


def play_game(
    seed: int,
    players: list[StrategySpec],
    island: str,
    rules_spec: str | None,
    game: str,
    ablate: str | None = None,
    observe: Callable[[Any], None] | None = None,
) -> PlayedGame:
    """Play one game (``island`` matters only to games played on islands; ``ablate`` plays
    the rules without curses or amulets, as a run's ``--ablate`` twin did). ``observe`` is
    given the game built and not yet played (a replay page watches its log)."""
    kind = game_kind(game)
    rules = kind.load_rules(rules_spec or kind.default_rules)
    if ablate:
        rules = ablated(rules, ablate, "--ablate")
    name = NO_ISLAND
    if kind.boards:
        board = kind.boards.resolve(island)
        kind.boards.fits(board, rules)
        name = kind.boards.name(board)
    # The plan names the island as given (a file's path): the engine resolves the board
    # from it, as the runner does from the run's island list.
    plan = GamePlan(0, 0, 0, seed, island if kind.boards else NO_ISLAND, tuple(range(len(players))))
    built = kind.build(plan, rules, [p.factory() for p in players])
    if observe is not None:
        observe(built)
    built.play()
    return PlayedGame(game, built, rules, players, name)


def game_text(played: PlayedGame) -> list[str]:
    """The game as readable lines, ending with the scores and the winner(s)."""
    g = played.game
    kind = game_kind(played.game_name)
    words = kind.board_words()
    where = f", {words[0]} {played.island}" if words else ""
    head = [
        f"{kind.title}, seed {g.seed}{where}, rules {played.rules.preset} ({played.rules.hash})",
        "seats: " + ", ".join(f"seat {i + 1} {p.label}" for i, p in enumerate(played.players)),
    ]
    body = kind.render(g)
    result = g.result
    assert result is not None
    winners = [
        f"seat {i + 1} {played.players[i].label}" for i, r in enumerate(result.ranks) if r == 1
    ]
    if result.end_reason == "deck_exhausted":
        won = ("winner: " if len(winners) == 1 else "shared win: ") + ", ".join(winners)
    else:  # a game cut short has a leader, not a winner (reports leave it out of win rates)
        won = f"not finished ({result.end_reason}); leading: " + ", ".join(winners)
    tail = ["scores: " + ", ".join(f"seat {i + 1} {sc}" for i, sc in enumerate(result.scores)), won]
    if g.violations:
        tail.append(f"strategy violations: {len(g.violations)}")
    return head + body + tail


def log_rows(played: PlayedGame) -> list[tuple[int, ...]]:
    flat = game_kind(played.game_name).log(played.game)
    return [tuple(flat[i : i + 6]) for i in range(0, len(flat), 6)]


def game_json_rows(played: PlayedGame) -> list[dict[str, Any]]:
    """One object per log row, then one ``result`` object."""
    g = played.game
    events = game_kind(played.game_name).event_names
    rows: list[dict[str, Any]] = [
        {"turn": t, "seat": seat, "event": events[kind], "a": a, "b": b, "c": c}
        for t, seat, kind, a, b, c in log_rows(played)
    ]
    result = g.result
    assert result is not None
    rows.append(
        {
            "event": "result",
            "game": played.game_name,
            "seed": g.seed,
            "island": played.island,
            "rules": played.rules.preset,
            "rules_hash": played.rules.hash,
            "players": [p.label for p in played.players],
            "scores": list(result.scores),
            "ranks": list(result.ranks),
            "win_shares": list(result.win_shares),
            "turns": result.turns,
            "truncated": result.truncated,
            "violations": len(g.violations),
        }
    )
    return rows


#: The root seed of the games ``bench`` plays.
BENCH_SEED = 0


def chess_games(seconds: float, games: int | None = None) -> tuple[int, float]:
    """Random full games of python-chess, from the same seed every call: for ``seconds``, or
    exactly ``games`` of them when given (the same games again). Returns (games, elapsed
    seconds); (0, 0) when chess is not installed."""
    try:
        import chess
    except ImportError:
        return 0, 0.0
    rng = random.Random(1)
    played = 0
    start = time.perf_counter()
    while (played < games) if games is not None else (time.perf_counter() - start < seconds):
        board = chess.Board()
        while not board.is_game_over(claim_draw=False):
            board.push(rng.choice(list(board.legal_moves)))
        played += 1
    return played, time.perf_counter() - start


def bench(
    games: int,
    players: list[StrategySpec],
    rules_spec: str | None,
    chess_seconds: float,
    game: str,
    rounds: int = 5,
    seating: str = "rotate",
) -> dict[str, Any]:
    """Play the first ``games`` games a run of ``players`` plays under ``seating`` (as
    :mod:`sim.runner.schedule` lays them out: with ``rotate``, the default, seed blocks of the
    lineup's rotations on one deal; with ``random``, a new deal and a shuffled seating every
    game; the built-in islands going round block by block); return the figures, with how many
    games ended for each reason.

    The games and the python-chess yardstick are timed in ``rounds`` alternating rounds, so
    that both sides see the same machine: on a shared machine other work only ever slows a
    round down, and the ratio of the two sides' fastest rounds (what ``timeit`` takes, for
    the same reason) is the steadiest figure. The overall rates are reported beside it.
    """
    kind = game_kind(game)
    rules = kind.load_rules(rules_spec or kind.default_rules)
    islands = tuple(kind.boards.builtin()) if kind.boards else (NO_ISLAND,)
    factories = [p.factory() for p in players]
    n = len(players)
    # The games are those of a run's schedule, whose plans are made before the clock starts:
    # the timed loop should cost only the games. The warm-up plays other seeds on every
    # island, so that per-island caches are warm.
    if seating not in ("rotate", "random"):
        raise InputError(f"--seating: {seating!r} is not allowed (rotate or random)")
    plans = [Schedule(BENCH_SEED, n, seating, islands).plan(g) for g in range(games)]
    warm_up = Schedule(BENCH_SEED + 1, n, seating, islands)
    for g in range(min(2 * n * len(islands), 128, games)):
        kind.play(warm_up.plan(g), rules, factories)

    def play_slice(first: int, stop: int) -> tuple[int, dict[str, int]]:
        decisions = 0
        ends: dict[str, int] = dict.fromkeys(END_REASONS, 0)
        for plan in plans[first:stop]:
            result = kind.play(plan, rules, factories)
            decisions += result.decisions
            assert result.result is not None
            ends[result.result.end_reason] += 1
        return decisions, ends

    head = {"game": game, "players": [p.label for p in players], "seating": seating}
    return timed_rounds(games, rounds, chess_seconds, play_slice, head)


#: Plays the bench's games ``[first, stop)``; returns their decisions and how many ended for
#: each reason (:data:`sim.outcome.END_REASONS`).
SlicePlayer = Callable[[int, int], tuple[int, dict[str, int]]]


def timed_rounds(
    games: int,
    rounds: int,
    chess_seconds: float,
    play_slice: SlicePlayer,
    head: dict[str, Any],
) -> dict[str, Any]:
    """Time ``games`` games in ``rounds`` rounds of ``play_slice`` alternating with the
    python-chess yardstick (``chess_seconds`` in all, none when 0); the bench's figures,
    after the keys of ``head``."""
    rounds = max(1, min(rounds, games))
    # The first chess round plays for its share of the time; the later ones play the same
    # games again, so that rounds differ only by what the machine was doing.
    chess_round: int | None = None
    decisions = 0
    ends: dict[str, int] = dict.fromkeys(END_REASONS, 0)
    seconds = chess_played = chess_time = 0.0
    per_round: list[dict[str, Any]] = []
    for r in range(rounds):
        first, stop = games * r // rounds, games * (r + 1) // rounds
        start = time.perf_counter()
        slice_decisions, slice_ends = play_slice(first, stop)
        took = time.perf_counter() - start
        seconds += took
        decisions += slice_decisions
        for reason, count in slice_ends.items():
            ends[reason] += count
        row: dict[str, Any] = {
            "games": stop - first,
            "games_per_s": round((stop - first) / took, 2),
        }
        if chess_seconds > 0:
            played, elapsed = chess_games(chess_seconds / rounds, chess_round)
            chess_round = played
            if played:
                chess_played += played
                chess_time += elapsed
                row["chess_random_games_per_s"] = round(played / elapsed, 2)
        per_round.append(row)
    out: dict[str, Any] = {
        **head,
        "games": games,
        "seconds": round(seconds, 4),
        "games_per_s": round(games / seconds, 2),
        "decisions_per_s": round(decisions / seconds, 1),
        # How the games ended: a benchmark over many seeds doubles as the stall count.
        "end_reasons": ends,
        "best_round_games_per_s": max(row["games_per_s"] for row in per_round),
        "rounds": per_round,
    }
    if chess_played:
        out.update(_chess_ratios(out, per_round, chess_played / chess_time))
    return out


def _chess_ratios(
    out: dict[str, Any], per_round: list[dict[str, Any]], chess_rate: float
) -> dict[str, Any]:
    """The python-chess yardstick's rates, and the games' against them (fastest rounds and
    overall)."""
    best_chess = max(row["chess_random_games_per_s"] for row in per_round)
    overall = round(chess_rate, 2)
    return {
        "chess_random_games_per_s": overall,
        "best_round_chess_random_games_per_s": best_chess,
        "ratio_to_chess": round(out["best_round_games_per_s"] / best_chess, 2),
        "overall_ratio_to_chess": round(out["games_per_s"] / overall, 2),
    }
