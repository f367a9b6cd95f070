"""Tobago as the runner and the pipelines see it: its :class:`~sim.game.GameKind`, registered
under the ``tourney.games`` entry point ``tobago``, the game's one entry point: the kind also
names its players (``strategies.tobago``), its part of the report and its ``tourney board``
command (``pipelines.tobago``) and its replay page's script, by import path."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from sim.game import Board as AnyBoard
from sim.game import (
    BoardHooks,
    Builder,
    Factory,
    GameFacts,
    GameKind,
    GamePlan,
    JsonDict,
    NotableGame,
    ReplayHooks,
)
from sim.guard import NO_GUARD, Guard
from sim.tobago import rules as tobago_rules
from sim.tobago import snapshot as tobago_snapshot
from sim.tobago.board import Board
from sim.tobago.boards import boards_manifest, check_boards, read_boards, recorded_board
from sim.tobago.catalog import resolve_board
from sim.tobago.engine import TobagoGame
from sim.tobago.modular import island_names
from sim.tobago.movelog import EVENTS, render
from sim.tobago.rules import TobagoRules

if TYPE_CHECKING:
    import pyarrow as pa


@functools.lru_cache(maxsize=256)
def _board(name: str) -> Board:
    return resolve_board(name)


def _builder(game: str, labels: list[str]) -> Builder[TobagoGame]:
    # Imported when a shard is built: numpy and pyarrow are not needed to play a game, and
    # commands such as ``tourney play`` start faster without them.
    from sim.tobago.tables import TableBuilder

    return TableBuilder(game, labels)


def _schemas() -> Mapping[str, pa.Schema]:
    from sim.tobago.tables import SCHEMAS

    return SCHEMAS


def _own(board: AnyBoard) -> Board:
    # The runner holds boards opaquely; the ones it hands back are the ones this game made.
    if not isinstance(board, Board):
        raise TypeError(f"not a Tobago board: {type(board).__name__}")
    return board


def build(
    plan: GamePlan,
    rules: TobagoRules,
    factories: Sequence[Factory],
    boards: Mapping[str, AnyBoard] | None = None,
    guard: Guard = NO_GUARD,
) -> TobagoGame:
    """The scheduled game, built on its island (a recorded board, or one by name)."""
    recorded = (boards or {}).get(plan.island)
    board = _own(recorded) if recorded is not None else _board(plan.island)
    return TobagoGame(rules, board, [factories[p] for p in plan.order], plan.seed, guard=guard)


def _log(game: TobagoGame) -> list[int]:
    return game.state.log.flat


def _render(game: TobagoGame) -> list[str]:
    s = game.state
    return render(s.log, s.island, tuple(c.text for c in s.rules.deck.cards))


def _fits(board: AnyBoard, rules: TobagoRules) -> None:
    _own(board).check_spacing(rules.same_object_min_distance)


def _manifest(boards: Mapping[str, tuple[str, AnyBoard]]) -> dict[str, JsonDict]:
    return boards_manifest({arg: (digest, _own(b)) for arg, (digest, b) in boards.items()})


def _sweep_totals(game: TobagoGame) -> dict[str, int]:
    s = game.state
    return {"curse_hits": sum(s.curse_hits), "coins_lost": sum(s.coins_lost)}


KIND: GameKind[TobagoRules, TobagoGame] = GameKind(
    name="tobago",
    title="Tobago",
    tables=("failures", "treasures", "moves", "seats", "games"),
    boards=BoardHooks(
        resolve=resolve_board,
        builtin=lambda: tuple(island_names()),
        fits=_fits,
        recorded=recorded_board,
        read=read_boards,
        manifest=_manifest,
        check=check_boards,
        name=lambda board: _own(board).name,
        noun=("island", "islands"),
    ),
    load_rules=tobago_rules.load_rules,
    with_overrides=tobago_rules.with_overrides,
    rules_keys=tobago_rules.KEYS,
    builder=_builder,
    build=build,
    default_rules="rulebook",
    render=_render,
    event_names=tuple(name for name, _ in EVENTS),
    log=_log,
    replay=ReplayHooks(
        tobago_snapshot.scene,
        tobago_snapshot.snapshot,
        tobago_snapshot.watch,
        tobago_snapshot.describer,
        renderer=("pipelines.tobago", "replay.js"),
    ),
    facts=GameFacts(
        players=(2, 4),
        data_files=("islands/*.txt", "clues/*.toml"),
        notable_games={
            "curse_winner": NotableGame("A curse changed the winner", event="curse_hit")
        },
    ),
    ablations={"curses": {"curse_count": 0}, "amulets": {"amulet_count": 0}},
    sweep_totals=_sweep_totals,
    schemas=_schemas,
    strategies="strategies.tobago.catalog:CATALOG",
    report="pipelines.tobago.report:REPORT",
    commands="pipelines.tobago.cli_board",
)
