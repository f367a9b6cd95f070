"""The games the runner plays: for each, how to load its rules, play a scheduled game and
build its tables.

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
from sim.outcome import GameResult, Violation
from sim.runner.schedule import GamePlan
from sim.tobago import rules as tobago_rules
from sim.tobago.board import Board
from sim.tobago.catalog import resolve_board
from sim.tobago.engine import TobagoGame
from sim.treasure_island import rules as ti_rules
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
    ) -> Any: ...


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


def _play_tobago(
    plan: GamePlan,
    rules: Any,
    factories: Sequence[Factory],
    boards: Mapping[str, Board] | None = None,
) -> TobagoGame:
    board = (boards or {}).get(plan.island) or _board(plan.island)
    game = TobagoGame(rules, board, [factories[p] for p in plan.order], plan.seed)
    game.play()
    return game


def _play_treasure_island(
    plan: GamePlan,
    rules: Any,
    factories: Sequence[Factory],
    boards: Mapping[str, Board] | None = None,
) -> TreasureIslandGame:
    game = TreasureIslandGame(rules, [factories[p] for p in plan.order], plan.seed)
    game.play()
    return game


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
) -> Any:
    """Play the scheduled game ``plan`` (any game: the rules say which), on the board
    ``boards`` gives for its island, if any."""
    return kind_of(rules).play(plan, rules, factories, boards)
