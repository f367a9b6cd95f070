"""Replay-page test helpers: a game stopped at any step of its log, read straight from the
engine, to compare a page's frames (and what the page shows) with."""

from __future__ import annotations

from typing import Any

from pipelines.play.game import parse_players, play_game
from sim.runner.games import game_kind


class _StopError(Exception):
    """Raised from the watched log to stop a game at a row."""


def game_at(game: str, seed: int, step: int, island: str = "aBc-2") -> Any:
    """The game ``game`` of ``seed`` (default players) as the engine holds it at ``step``:
    built and untouched for step 0, else stopped right after logging row ``step - 1``."""
    held: list[Any] = []

    def observe(built: Any) -> None:
        held.append(built)

        def on_row(index: int) -> None:
            if index == step - 1:
                raise _StopError

        game_kind(game).replay_hooks().watch(built, on_row)
        if step == 0:
            raise _StopError

    try:
        play_game(seed, parse_players(None, game), island, None, game, None, observe)
    except _StopError:
        return held[0]
    raise AssertionError(f"the game has fewer than {step} rows")
