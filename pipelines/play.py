"""Playing single games and benchmarking the engine on one core.

``play_game`` plays one seeded game and returns its text rendering (or JSON rows);
``bench`` plays many games in this process and reports games and decisions per second, with
python-chess random games per second measured in the same run as a yardstick that travels
between machines.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from sim.errors import InputError
from sim.tobago.catalog import resolve_board
from sim.tobago.engine import TobagoGame
from sim.tobago.modular import island_names
from sim.tobago.movelog import EVENTS, render
from sim.tobago.rules import TobagoRules, load_rules, rules_hash
from strategies.registry import SCRIPTED, StrategySpec, parse_strategy, split_specs

GAMES = ("tobago",)


def check_game(game: str) -> None:
    """``InputError`` unless ``game`` is a game this build plays."""
    if game not in GAMES:
        raise InputError(f"unknown game {game!r} (allowed: {', '.join(GAMES)})")


def parse_players(text: str | None) -> list[StrategySpec]:
    """Seat strategies from a comma-separated list (default: the four scripted styles)."""
    specs = (
        [parse_strategy(x) for x in split_specs(text)]
        if text
        else [parse_strategy(x) for x in SCRIPTED]
    )
    if not 2 <= len(specs) <= 4:
        raise InputError(f"--players: Tobago takes 2 to 4 players, got {len(specs)}")
    return specs


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished game and what is needed to show it."""

    game: TobagoGame
    rules: TobagoRules
    players: list[StrategySpec]
    island: str


def play_game(seed: int, players: list[StrategySpec], island: str, rules_spec: str) -> PlayedGame:
    """Play one game."""
    rules = load_rules(rules_spec)
    board = resolve_board(island)
    game = TobagoGame(rules, board, [p.factory() for p in players], seed)
    game.play()
    return PlayedGame(game, rules, players, board.name)


def game_text(played: PlayedGame) -> list[str]:
    """The game as readable lines, ending with the scores and the winner(s)."""
    g = played.game
    s = g.state
    head = [
        f"Tobago, seed {g.seed}, island {played.island}, rules {played.rules.preset} "
        f"({rules_hash(played.rules)})",
        "seats: " + ", ".join(f"P{i} {p.label}" for i, p in enumerate(played.players)),
    ]
    cards = tuple(c.text for c in played.rules.deck.cards)
    body = render(s.log, s.island, cards)
    result = g.result
    assert result is not None
    winners = [f"P{i} {played.players[i].label}" for i, r in enumerate(result.ranks) if r == 1]
    tail = [
        "scores: " + ", ".join(f"P{i} {sc}" for i, sc in enumerate(result.scores)),
        ("winner: " if len(winners) == 1 else "shared win: ") + ", ".join(winners),
    ]
    if g.violations:
        tail.append(f"strategy violations: {len(g.violations)}")
    return head + body + tail


def game_json_rows(played: PlayedGame) -> list[dict[str, Any]]:
    """One object per log row, then one ``result`` object."""
    g = played.game
    rows: list[dict[str, Any]] = [
        {"turn": t, "seat": seat, "event": EVENTS[kind][0], "a": a, "b": b, "c": c}
        for t, seat, kind, a, b, c in g.state.log.rows()
    ]
    result = g.result
    assert result is not None
    rows.append(
        {
            "event": "result",
            "seed": g.seed,
            "island": played.island,
            "rules": played.rules.preset,
            "rules_hash": rules_hash(played.rules),
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


def chess_games_per_second(seconds: float = 3.0) -> float | None:
    """Random full games of python-chess per second (None when chess is not installed)."""
    try:
        import chess
    except ImportError:
        return None
    rng = random.Random(1)
    played = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False):
            board.push(rng.choice(list(board.legal_moves)))
        played += 1
    return played / (time.perf_counter() - start)


def bench(
    games: int, players: list[StrategySpec], rules_spec: str, chess_seconds: float
) -> dict[str, Any]:
    """Play ``games`` games on the 32 built-in islands in turn; return the figures."""
    rules = load_rules(rules_spec)
    boards = [resolve_board(name) for name in island_names()]
    factories = [p.factory() for p in players]
    for warm in range(min(64, games)):  # two games per island: per-island caches warm
        TobagoGame(rules, boards[warm % 32], factories, 10**9 + warm).play()
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        game = TobagoGame(rules, boards[seed % 32], factories, seed)
        game.play()
        decisions += game.decisions
    seconds = time.perf_counter() - start
    out: dict[str, Any] = {
        "game": "tobago",
        "players": [p.label for p in players],
        "games": games,
        "seconds": round(seconds, 4),
        "games_per_s": round(games / seconds, 2),
        "decisions_per_s": round(decisions / seconds, 1),
    }
    chess_rate = chess_games_per_second(chess_seconds) if chess_seconds > 0 else None
    if chess_rate is not None:
        out["chess_random_games_per_s"] = round(chess_rate, 2)
        out["ratio_to_chess"] = round(out["games_per_s"] / chess_rate, 2)
    return out
