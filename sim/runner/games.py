"""The games the runner plays, found through the ``tourney.games`` entry points (the
contract is :mod:`sim.game`): looked up by name (``tobago``, ``treasure-island``...) or from
a rules object (each rules class names its game), and the parts a game's kind names for the
layers above (:func:`game_part`: its strategies' catalog, report part and commands), imported
by the layer that asks. This module imports no game.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from importlib.metadata import entry_points
from typing import TypeVar, cast

from sim.errors import InputError
from sim.game import (
    NO_ISLAND,
    AnyKind,
    Board,
    Factory,
    GameKind,
    GamePart,
    GamePlan,
    PlayableGame,
    PlayedGame,
    RulesLike,
)
from sim.guard import NO_GUARD, Guard

__all__ = [
    "GAMES",
    "GROUP",
    "NO_ISLAND",
    "UNNAMED_GAME",
    "AnyKind",
    "Factory",
    "GameKind",
    "PlayedGame",
    "Rules",
    "discover",
    "game_kind",
    "game_part",
    "kind_of",
    "play_planned",
]

#: The entry-point group games register their :class:`~sim.game.GameKind` under, by name.
GROUP = "tourney.games"
#: The game of a stored spec, suite case or run manifest that names none: those were
#: written when Tobago was the only game, so they are read as Tobago's. A rule for reading
#: old files only: a command that names no game is given none
#: (``pipelines.experiments.game_choice``).
UNNAMED_GAME = "tobago"
#: A rules object of any game (what generic code may read of it).
Rules = RulesLike


def discover() -> tuple[dict[str, AnyKind], dict[str, str]]:
    """Every registered game by name, and why any that failed to load did (by name)."""
    games: dict[str, AnyKind] = {}
    broken: dict[str, str] = {}
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        try:
            kind = point.load()
        except Exception as exc:  # a broken plug-in: its game is refused by name, not all
            broken[point.name] = f"{point.value} cannot be loaded ({type(exc).__name__}: {exc})"
            continue
        if not isinstance(kind, GameKind) or kind.name != point.name:
            broken[point.name] = f"{point.value} is not the GameKind of a game {point.name!r}"
            continue
        if point.name in games:
            broken[point.name] = f"two packages register a game {point.name!r}"
            continue
        # Each kind is typed over its own rules and game; held together, they are seen
        # through the protocols. Sound as generic code uses them: the rules it passes a
        # kind are what that kind loaded (``kind_of`` finds the kind from the rules).
        games[point.name] = cast(AnyKind, kind)
    if not games and not broken:
        raise InputError(
            f"no games are registered (entry points {GROUP!r}): install the project "
            "(pip install -e .) so that its games are found"
        )
    return games, broken


#: Every registered game that loaded, by name; and why any other did not.
GAMES, BROKEN = discover()


def game_kind(name: str) -> AnyKind:
    """The game called ``name``; ``InputError`` lists the games there are."""
    kind = GAMES.get(name)
    if kind is None:
        if name in BROKEN:
            raise InputError(f"game {name!r}: {BROKEN[name]}")
        raise InputError(f"unknown game {name!r} (allowed: {', '.join(GAMES)})")
    return kind


T = TypeVar("T")


def game_part(game: str, part: GamePart, expected: type[T]) -> T | None:
    """The ``part`` game ``game``'s kind names, imported now (a ``module:attribute``, or a
    module for ``commands``) and checked to be an ``expected``; None when the kind names
    none. ``InputError`` in one line naming the game and the part when it cannot be."""
    kind = game_kind(game)
    target = kind.named_parts().get(part)
    if target is None:
        _refuse_retired_group(game, part)
        return None
    where = f"game {game!r}: its {part} ({target})"
    module_name, colon, attribute = (t.strip() for t in target.partition(":"))
    if not module_name or bool(colon) != (part != "commands") or (colon and not attribute):
        form = "a module" if part == "commands" else "module:attribute"
        raise InputError(f"{where} is not {form}")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # a broken plug-in's part is refused by name, not a traceback
        raise InputError(f"{where} cannot be loaded ({type(exc).__name__}: {exc})") from None
    value = getattr(module, attribute, None) if colon else module
    if value is None:
        raise InputError(f"{where} cannot be loaded ({module_name} has no {attribute!r})")
    if not isinstance(value, expected):
        raise InputError(f"{where} is not a {expected.__name__}")
    return value


#: The entry-point groups a game's parts were once registered under, by part: a package
#: still using one would lose that part without a word, so it is refused by name instead.
RETIRED_GROUPS: dict[GamePart, str] = {
    "strategies": "tourney.strategies",
    "report": "tourney.reports",
    "commands": "tourney.commands",
}


def _refuse_retired_group(game: str, part: GamePart) -> None:
    """``InputError`` when a package registers ``game``'s ``part`` under its retired group
    (the kind now names every part): never a game played without its players or report."""
    group = RETIRED_GROUPS.get(part)
    if group is None:  # a part that never had a group of its own
        return
    for point in entry_points(group=group):
        if point.name == game:
            raise InputError(
                f"game {game!r}: its {part} ({point.value}) is registered under the retired "
                f"entry-point group {group!r}; name it in the game's kind instead "
                f"(GameKind({part}={point.value!r}))"
            )


def kind_of(rules: RulesLike) -> AnyKind:
    """The game a rules object belongs to."""
    return game_kind(rules.game)


def play_planned(
    plan: GamePlan,
    rules: RulesLike,
    factories: Sequence[Factory],
    boards: Mapping[str, Board] | None = None,
    guard: Guard = NO_GUARD,
) -> PlayableGame:
    """Play the scheduled game ``plan`` (any game: the rules say which), on the board
    ``boards`` gives for its island, if any."""
    return kind_of(rules).play(plan, rules, factories, boards, guard)
