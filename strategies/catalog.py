"""What a game's strategies are to the registry: a :class:`StrategyCatalog` per game, found by
game name through the ``tourney.strategies`` entry-point group (as games are through
``tourney.games``), so a game in its own package brings its own players."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import entry_points

#: The entry-point group games register their strategies under, by game name.
GROUP = "tourney.strategies"


@dataclass(frozen=True)
class StrategyCatalog:
    """A game's built-in strategies by name, and the players of its default lineup."""

    strategies: dict[str, type]
    defaults: tuple[str, ...]


def discover() -> dict[str, StrategyCatalog]:
    """Every registered game's catalog, by game name (one that fails to load is left out:
    its game then has no named strategies, and naming one says so)."""
    out: dict[str, StrategyCatalog] = {}
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        try:
            catalog = point.load()
        except Exception:  # a broken plug-in's players are refused by name, not everything
            continue
        if isinstance(catalog, StrategyCatalog) and point.name not in out:
            out[point.name] = catalog
    return out
