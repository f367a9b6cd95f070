"""The games the runner plays: for each, how to load its rules, build and play a scheduled
game, build its tables, and what a replay page reads of it.

Everything game-specific the runner, the comparisons and the reports need goes through a
:class:`GameKind`, looked up by name (``tobago``, ``treasure-island``) or from a rules object
(each rules class names its game).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from sim.errors import InputError
from sim.guard import NO_GUARD, Guard
from sim.outcome import GameResult, Violation
from sim.runner.schedule import GamePlan
from sim.tobago import rules as tobago_rules
from sim.tobago import snapshot as tobago_snapshot
from sim.tobago.board import Board
from sim.tobago.catalog import resolve_board
from sim.tobago.engine import TobagoGame
from sim.treasure_island import rules as ti_rules
from sim.treasure_island import snapshot as ti_snapshot
from sim.treasure_island.engine import TreasureIslandGame

if TYPE_CHECKING:
    import pyarrow as pa

#: The rules object of either game.
Rules = tobago_rules.TobagoRules | ti_rules.TreasureIslandRules
#: ``rng -> strategy`` for either game.
Factory = Callable[..., Any]
#: What a game without boards puts in the ``island`` column.
NO_ISLAND = "-"


class PlayedGame(Protocol):
    """What the runner reads of a finished game of any kind."""

    result: GameResult | None
    violations: list[Violation]
    decisions: int


class PlayGame(Protocol):
    """Plays one scheduled game; ``boards`` maps island arguments to the boards a run
    recorded for its island files (any other island is resolved by name)."""

    def __call__(
        self,
        plan: GamePlan,
        rules: Any,
        factories: Sequence[Factory],
        boards: Mapping[str, Board] | None = None,
        guard: Guard = NO_GUARD,
    ) -> Any: ...


class BuildGame(Protocol):
    """Builds one scheduled game, ready to play (``game.play()`` plays it)."""

    def __call__(
        self,
        plan: GamePlan,
        rules: Any,
        factories: Sequence[Factory],
        boards: Mapping[str, Board] | None = None,
        guard: Guard = NO_GUARD,
    ) -> Any: ...


@dataclass(frozen=True)
class ReplayHooks:
    """What a replay page reads of a game, as plain data (see ``sim.tobago.snapshot``)."""

    #: What never changes in the game (built, not yet played).
    scene: Callable[[Any], dict[str, Any]]
    #: The state now.
    snapshot: Callable[[Any], dict[str, Any]]
    #: ``watch(game, on_row)``: call ``on_row(row index)`` after every row the game logs.
    watch: Callable[[Any, Callable[[int], None]], None]
    #: ``describer(game)(row)``: a logged row in words.
    describer: Callable[[Any], Callable[[tuple[int, ...]], dict[str, Any]]]
    #: The game's move log, flat (six ints a row).
    log: Callable[[Any], list[int]]


class Builder(Protocol):
    """Collects finished games and builds a shard's tables."""

    def add(self, plan: GamePlan, game: Any) -> None: ...

    def build(self) -> dict[str, pa.Table]: ...


@dataclass(frozen=True)
class GameKind:
    """One game as the runner and the pipelines see it."""

    name: str
    title: str
    #: The run's tables, ``games`` last (its part file marks a shard complete).
    tables: tuple[str, ...]
    #: Whether games are played on islands (Tobago) or need none.
    boards: bool
    load_rules: Callable[[str], Any]
    with_overrides: Callable[[Any, dict[str, Any], str], Any]
    rules_keys: tuple[str, ...]
    play: PlayGame
    builder: Callable[[str, list[str]], Builder]
    build: BuildGame
    replay: ReplayHooks


@functools.lru_cache(maxsize=256)
def _board(name: str) -> Board:
    return resolve_board(name)


def _tobago_builder(game: str, labels: list[str]) -> Builder:
    # Imported when a shard is built: numpy and pyarrow are not needed to play a game, and
    # commands such as ``tourney play`` start faster without them.
    from sim.runner.tables import TableBuilder

    return TableBuilder(game, labels)


def _treasure_island_builder(game: str, labels: list[str]) -> Builder:
    from sim.runner.treasure_island_tables import TreasureIslandTableBuilder

    return TreasureIslandTableBuilder(game, labels)


def _build_tobago(
    plan: GamePlan,
    rules: Any,
    factories: Sequence[Factory],
    boards: Mapping[str, Board] | None = None,
    guard: Guard = NO_GUARD,
) -> TobagoGame:
    board = (boards or {}).get(plan.island) or _board(plan.island)
    return TobagoGame(rules, board, [factories[p] for p in plan.order], plan.seed, guard=guard)


def _play_tobago(
    plan: GamePlan,
    rules: Any,
    factories: Sequence[Factory],
    boards: Mapping[str, Board] | None = None,
    guard: Guard = NO_GUARD,
) -> TobagoGame:
    game = _build_tobago(plan, rules, factories, boards, guard)
    game.play()
    return game


def _build_treasure_island(
    plan: GamePlan,
    rules: Any,
    factories: Sequence[Factory],
    boards: Mapping[str, Board] | None = None,
    guard: Guard = NO_GUARD,
) -> TreasureIslandGame:
    return TreasureIslandGame(rules, [factories[p] for p in plan.order], plan.seed, guard=guard)


def _play_treasure_island(
    plan: GamePlan,
    rules: Any,
    factories: Sequence[Factory],
    boards: Mapping[str, Board] | None = None,
    guard: Guard = NO_GUARD,
) -> TreasureIslandGame:
    game = _build_treasure_island(plan, rules, factories, boards, guard)
    game.play()
    return game


def _tobago_log(game: TobagoGame) -> list[int]:
    return game.state.log.flat


def _treasure_island_log(game: TreasureIslandGame) -> list[int]:
    return game.log


GAMES: dict[str, GameKind] = {
    "tobago": GameKind(
        name="tobago",
        title="Tobago",
        tables=("failures", "treasures", "moves", "seats", "games"),
        boards=True,
        load_rules=tobago_rules.load_rules,
        with_overrides=tobago_rules.with_overrides,
        rules_keys=tobago_rules.KEYS,
        play=_play_tobago,
        builder=_tobago_builder,
        build=_build_tobago,
        replay=ReplayHooks(
            tobago_snapshot.scene,
            tobago_snapshot.snapshot,
            tobago_snapshot.watch,
            tobago_snapshot.describer,
            _tobago_log,
        ),
    ),
    "treasure-island": GameKind(
        name="treasure-island",
        title="Treasure Island",
        tables=("failures", "draws", "turns", "moves", "seats", "games"),
        boards=False,
        load_rules=ti_rules.load_rules,
        with_overrides=ti_rules.with_overrides,
        rules_keys=ti_rules.KEYS,
        play=_play_treasure_island,
        builder=_treasure_island_builder,
        build=_build_treasure_island,
        replay=ReplayHooks(
            ti_snapshot.scene,
            ti_snapshot.snapshot,
            ti_snapshot.watch,
            ti_snapshot.describer,
            _treasure_island_log,
        ),
    ),
}


def game_kind(name: str) -> GameKind:
    """The game called ``name``; ``InputError`` lists the games there are."""
    kind = GAMES.get(name)
    if kind is None:
        raise InputError(f"unknown game {name!r} (allowed: {', '.join(GAMES)})")
    return kind


def kind_of(rules: Any) -> GameKind:
    """The game a rules object belongs to."""
    return GAMES[rules.game]


def play_planned(
    plan: GamePlan,
    rules: Any,
    factories: Sequence[Factory],
    boards: Mapping[str, Board] | None = None,
    guard: Guard = NO_GUARD,
) -> Any:
    """Play the scheduled game ``plan`` (any game: the rules say which), on the board
    ``boards`` gives for its island, if any."""
    return kind_of(rules).play(plan, rules, factories, boards, guard)
