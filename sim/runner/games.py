"""The games the runner plays, found through the ``tourney.games`` entry points
(:mod:`sim.game`): looked up by name (``tobago``, ``treasure-island``...) or from a rules
object (each rules class names its game). This module imports no game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sim.errors import InputError
from sim.game import NO_ISLAND, Factory, GameKind, PlayedGame, Rules, discover
from sim.guard import NO_GUARD, Guard
from sim.runner.schedule import GamePlan

__all__ = [
    "GAMES",
    "NO_ISLAND",
    "Factory",
    "GameKind",
    "PlayedGame",
    "Rules",
    "game_kind",
    "kind_of",
    "play_planned",
]

#: Every registered game that loaded, by name; and why any other did not.
GAMES, BROKEN = discover()


def game_kind(name: str) -> GameKind:
    """The game called ``name``; ``InputError`` lists the games there are."""
    kind = GAMES.get(name)
    if kind is None:
        if name in BROKEN:
            raise InputError(f"game {name!r}: {BROKEN[name]}")
        raise InputError(f"unknown game {name!r} (allowed: {', '.join(GAMES)})")
    return kind


def kind_of(rules: Any) -> GameKind:
    """The game a rules object belongs to."""
    return game_kind(rules.game)


def play_planned(
    plan: GamePlan,
    rules: Any,
    factories: Sequence[Factory],
    boards: Mapping[str, Any] | None = None,
    guard: Guard = NO_GUARD,
) -> Any:
    """Play the scheduled game ``plan`` (any game: the rules say which), on the board
    ``boards`` gives for its island, if any."""
    return kind_of(rules).play(plan, rules, factories, boards, guard)
