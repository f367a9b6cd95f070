"""What a game's strategies are to the registry: a :class:`StrategyCatalog` per game, named
by the game's kind (``GameKind.strategies``, an import path such as
``strategies.tobago.catalog:CATALOG``) and imported here, by the layer that uses it, so that
a game in its own package brings its own players through its one entry point."""

from __future__ import annotations

from dataclasses import dataclass

from sim.errors import InputError
from sim.runner.games import GAMES, game_part


@dataclass(frozen=True)
class StrategyCatalog:
    """A game's built-in strategies by name, and the players of its default lineup."""

    strategies: dict[str, type]
    defaults: tuple[str, ...]


def load_catalog(game: str) -> StrategyCatalog | None:
    """``game``'s catalog (None when its kind names none); ``InputError`` naming the game
    and its strategies when the catalog cannot be loaded."""
    return game_part(game, "strategies", StrategyCatalog)


def discover() -> tuple[dict[str, StrategyCatalog], dict[str, str]]:
    """Every registered game's catalog, by game name, and why any that a kind names failed
    to load (by game name: its game then has no named strategies, and naming one, or asking
    for its default lineup, says why in one line)."""
    found: dict[str, StrategyCatalog] = {}
    broken: dict[str, str] = {}
    for game in sorted(GAMES):
        try:
            catalog = load_catalog(game)
        except InputError as exc:  # a broken plug-in's players are refused by name
            broken[game] = str(exc)
            continue
        if catalog is not None:
            found[game] = catalog
    return found, broken
