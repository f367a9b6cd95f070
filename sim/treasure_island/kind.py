"""Treasure Island as the runner and the pipelines see it: its :class:`~sim.game.GameKind`,
registered under the ``tourney.games`` entry point ``treasure-island``, the game's one entry
point: the kind also names its players (``strategies.treasure_island``), its part of the
report (``pipelines.treasure_island``) and its replay page's script, by import path."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from sim.game import Board, Builder, Factory, GameFacts, GameKind, GamePlan, ReplayHooks
from sim.guard import NO_GUARD, Guard
from sim.treasure_island import rules as ti_rules
from sim.treasure_island import snapshot as ti_snapshot
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.movelog import EVENTS, render
from sim.treasure_island.rules import TreasureIslandRules

if TYPE_CHECKING:
    import pyarrow as pa


def _builder(game: str, labels: list[str]) -> Builder[TreasureIslandGame]:
    from sim.treasure_island.tables import TreasureIslandTableBuilder

    return TreasureIslandTableBuilder(game, labels)


def _schemas() -> Mapping[str, pa.Schema]:
    from sim.treasure_island.tables import SCHEMAS

    return SCHEMAS


def build(
    plan: GamePlan,
    rules: TreasureIslandRules,
    factories: Sequence[Factory],
    boards: Mapping[str, Board] | None = None,
    guard: Guard = NO_GUARD,
) -> TreasureIslandGame:
    """The scheduled game, built (Treasure Island has no boards)."""
    return TreasureIslandGame(rules, [factories[p] for p in plan.order], plan.seed, guard=guard)


def _log(game: TreasureIslandGame) -> list[int]:
    return game.log


def _render(game: TreasureIslandGame) -> list[str]:
    characters = game.characters
    head = ["characters: " + ", ".join(f"seat {i + 1} {c}" for i, c in enumerate(characters))]
    return (head if any(characters) else []) + render(game.log)


KIND: GameKind[TreasureIslandRules, TreasureIslandGame] = GameKind(
    name="treasure-island",
    title="Treasure Island",
    tables=("failures", "draws", "turns", "moves", "seats", "games"),
    boards=None,
    load_rules=ti_rules.load_rules,
    with_overrides=ti_rules.with_overrides,
    rules_keys=ti_rules.KEYS,
    builder=_builder,
    build=build,
    default_rules="standard",
    render=_render,
    event_names=tuple(name for name, _ in EVENTS),
    log=_log,
    replay=ReplayHooks(
        ti_snapshot.scene,
        ti_snapshot.snapshot,
        ti_snapshot.watch,
        ti_snapshot.describer,
        renderer=("pipelines.treasure_island", "replay.js"),
    ),
    schemas=_schemas,
    facts=GameFacts(players=(2, 4), end_reasons=("deck_exhausted", "turn_cap", "timeout")),
    strategies="strategies.treasure_island.catalog:CATALOG",
    report="pipelines.treasure_island.report:REPORT",
    compiled="sim.treasure_island.compiled.kind:ENGINE",
)
