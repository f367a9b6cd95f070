"""Treasure Island's built-in strategies, named by its kind (:mod:`sim.treasure_island.kind`).
The default lineup is the three stopping rules and the random floor (``optimal`` and
``pimc`` are slow references, named on demand)."""

from __future__ import annotations

from strategies.catalog import StrategyCatalog
from strategies.treasure_island.ismcts import Ismcts
from strategies.treasure_island.optimal import OptimalStopping
from strategies.treasure_island.pimc import Pimc
from strategies.treasure_island.random_player import RandomPlayer
from strategies.treasure_island.stopping import BustThreshold, ExpectedValue, StopAt

CATALOG = StrategyCatalog(
    strategies={
        "random": RandomPlayer,
        "stop-at": StopAt,
        "bust-threshold": BustThreshold,
        "expected-value": ExpectedValue,
        "optimal": OptimalStopping,
        "pimc": Pimc,
        "ismcts": Ismcts,
    },
    defaults=("expected-value", "bust-threshold", "stop-at", "random"),
)
