"""Tobago's built-in strategies, named by its kind (:mod:`sim.tobago.kind`)."""

from __future__ import annotations

from strategies.catalog import StrategyCatalog
from strategies.tobago.ismcts import Ismcts
from strategies.tobago.pimc import Pimc
from strategies.tobago.random_player import RandomPlayer
from strategies.tobago.styles import Cartographer, Cautious, Collector, Hunter

#: The four scripted styles of the demo tournament.
SCRIPTED = ("hunter", "cartographer", "collector", "cautious")

CATALOG = StrategyCatalog(
    strategies={
        "random": RandomPlayer,
        "hunter": Hunter,
        "cartographer": Cartographer,
        "collector": Collector,
        "cautious": Cautious,
        "pimc": Pimc,
        "ismcts": Ismcts,
    },
    defaults=SCRIPTED,
)
