"""Dice Race gone wrong, for the tests of the runner's shard check: each game here is Dice
Race with one fault in its tables (in the shard that holds game :data:`FAULTY_GAME` only, so
the shards before it are sound) or in its engine. Registered through this folder's dist-info,
beside ``tests/plugins/dice_race``, whose players they play (each kind names Dice Race's)."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pyarrow as pa
import pyarrow.compute as pc
from tourney_dice_race.game import DiceRaceGame, DiceRaceRules
from tourney_dice_race.kind import KIND

from sim.game import Builder, Factory, GameKind, GamePlan
from sim.guard import NO_GUARD, Guard

#: The game whose shard's tables are broken.
FAULTY_GAME = 150
Tables = dict[str, pa.Table]


class Faulty:
    """Dice Race's own table builder, with ``fault`` applied to the tables of a shard that
    holds :data:`FAULTY_GAME`."""

    def __init__(self, inner: Builder[DiceRaceGame], fault: Callable[[Tables], Tables]) -> None:
        self.inner, self.fault, self.ids = inner, fault, set[int]()

    def add(self, plan: GamePlan, game: DiceRaceGame) -> None:
        self.ids.add(plan.game_id)
        self.inner.add(plan, game)

    def build(self) -> Tables:
        tables = self.inner.build()
        return self.fault(tables) if FAULTY_GAME in self.ids else tables


def _kind(name: str, fault: Callable[[Tables], Tables]) -> GameKind[DiceRaceRules, DiceRaceGame]:
    def builder(game: str, labels: list[str]) -> Builder[DiceRaceGame]:
        return Faulty(KIND.builder(game, labels), fault)

    return dataclasses.replace(KIND, name=name, builder=builder)


def _duplicate(t: Tables) -> Tables:
    games = t["games"]
    return {**t, "games": pa.concat_tables([games.slice(0, 4), games.slice(3)])}


def _drop(t: Tables) -> Tables:
    games = t["games"]
    return {**t, "games": pa.concat_tables([games.slice(0, 3), games.slice(4)])}


def _shift(t: Tables) -> Tables:
    out = {}
    for name, table in t.items():
        i = table.schema.get_field_index("game_id")
        out[name] = table.set_column(i, "game_id", pc.add(table.column(i), 1))
    return out


def _wrong_type(t: Tables) -> Tables:
    seats = t["seats"]
    i = seats.schema.get_field_index("score")
    return {**t, "seats": seats.set_column(i, "score", seats.column(i).cast(pa.int32()))}


def _drop_seat(t: Tables) -> Tables:
    seats = t["seats"]
    return {**t, "seats": pa.concat_tables([seats.slice(0, 5), seats.slice(6)])}


def _foreign_move(t: Tables) -> Tables:
    moves = t["moves"]
    i = moves.schema.get_field_index("game_id")
    ids = moves.column(i).to_pylist()
    ids[-1] = 10_000
    return {**t, "moves": moves.set_column(i, "game_id", pa.array(ids, pa.int64()))}


DUPLICATE = _kind("dice-race-duplicate", _duplicate)
DROP = _kind("dice-race-drop", _drop)
SHIFT = _kind("dice-race-shift", _shift)
WRONG_TYPE = _kind("dice-race-type", _wrong_type)
DROP_SEAT = _kind("dice-race-seat", _drop_seat)
FOREIGN_MOVE = _kind("dice-race-foreign", _foreign_move)

#: How many games this process has built: a game that reads it is not a function of its
#: seed, rules and players.
_built = itertools.count()


@dataclass(frozen=True)
class UnsteadyRules(DiceRaceRules):
    """Dice Race's rules under this game's name (a scheduled game is played by the game its
    rules name)."""

    game: ClassVar[str] = "dice-race-random"


def _load_unsteady(spec: str) -> UnsteadyRules:
    return UnsteadyRules(**dataclasses.asdict(KIND.load_rules(spec)))


def _build_unsteadily(
    plan: GamePlan,
    rules: DiceRaceRules,
    factories: Sequence[Factory],
    boards: Mapping[str, Any] | None = None,
    guard: Guard = NO_GUARD,
) -> DiceRaceGame:
    seed = plan.seed + next(_built)
    return DiceRaceGame(rules, [factories[p] for p in plan.order], seed, guard)


RANDOM = dataclasses.replace(
    KIND, name="dice-race-random", load_rules=_load_unsteady, build=_build_unsteadily
)
