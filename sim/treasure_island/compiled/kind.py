"""Treasure Island's compiled engine as the runner sees it (:class:`sim.compiled_engine.
CompiledEngine`), named by the game's kind and imported only for a run it plays (importing
it loads numba)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pyarrow as pa

from sim.compiled_engine import CompiledEngine, CompiledSeat
from sim.game import GamePlan, PlanBatch, RulesLike
from sim.treasure_island.compiled import tables as compiled_tables
from sim.treasure_island.compiled.strategies import PLAYERS, seat_code
from sim.treasure_island.rules import TreasureIslandRules

#: The tables the compiled engine writes: no move log, so neither ``moves`` nor what is
#: derived from it (``turns``, ``draws``); ``failures`` is written, empty (its players do
#: not fail).
TABLES = ("failures", "seats", "games")


def _rules(rules: RulesLike) -> TreasureIslandRules:
    if not isinstance(rules, TreasureIslandRules):
        raise TypeError(f"the compiled Treasure Island engine plays its own rules, not {rules!r}")
    return rules


def unsupported(seats: Sequence[CompiledSeat], rules: RulesLike) -> str | None:
    """Why ``seats`` cannot be played compiled under ``rules`` (one line), or None."""
    if not isinstance(rules, TreasureIslandRules):
        return f"the rules are {rules.game}'s, not Treasure Island's"
    for name, params in seats:
        try:
            seat_code(name, dict(params))
        except (ValueError, TypeError) as exc:
            return str(exc)
    return None


def load() -> None:
    """Compile the engine (or load it from numba's cache): one game, played and dropped."""
    plan = GamePlan(0, 0, 0, 0, "-", (0, 1))
    compiled_tables.play([plan], TreasureIslandRules(), [("random", {}), ("random", {})])


def play(
    game: str,
    batch: PlanBatch,
    rules: RulesLike,
    seats: Sequence[CompiledSeat],
    labels: Sequence[str],
) -> Mapping[str, pa.Table]:
    """The ``failures`` (empty), ``seats`` and ``games`` tables of ``batch``."""
    from sim.treasure_island.tables import SCHEMAS

    players = [(name, dict(params)) for name, params in seats]
    out = dict(compiled_tables.batch_tables(game, batch, _rules(rules), players, labels))
    out["failures"] = SCHEMAS["failures"].empty_table()
    return out


ENGINE = CompiledEngine(
    tables=TABLES,
    players=tuple(PLAYERS),
    unsupported=unsupported,
    load=load,
    play=play,
)
