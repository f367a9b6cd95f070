"""The check every shard's tables pass before any of them is written.

A game is a plug-in: its table builder and its engine are code the runner does not own, and a
table that is wrong in a quiet way (a ``games`` row twice, a seat row missing, game ids off by
one, a column of another type, a game that plays differently when played again) would be
written, recorded and reported as sound. So a worker checks a shard's tables against what it
scheduled, in this order, and the first check that fails stops the run (:class:`RunError`,
exit 1) with one line naming the game, the shard and the check; nothing of the shard is
written.

``schema``
    every table of the game is there, each with its declared columns (names and Arrow types,
    in order): the game's own schemas (:attr:`sim.game.GameKind.schemas`), and in any case
    the common contract of :mod:`sim.game_tables` (``moves`` and ``failures`` begin with
    their columns, ``games`` and ``seats`` with the common ones, any other table with
    ``game_id``).
``games rows``
    exactly one ``games`` row per scheduled game, in game order: no duplicate, no missing
    game, no game id of another shard; each with the player count of its plan.
``seat rows``
    ``seats`` holds each game's seats ``0 .. n-1`` once, in order, with its player count.
``game ids``
    every other table references only the shard's game ids.
``replay``
    a sample of the shard's games (its first game and one chosen from the run's seed and
    the shard, at most :data:`SAMPLE` games) played again from its plan gives the same result
    and the same move log: a game that depends on anything but its seed, rules and players
    is caught in the run that plays it. A game that ended on a decision time limit is not
    compared (a time limit depends on the clock by design). A shard played by a compiled
    engine (:mod:`sim.compiled_engine`) has its sample played by the reference engine
    instead, whose rows its rows must equal in every table both keep
    (:meth:`ShardCheck.check_against`): a compiled engine that drifts from its reference is
    caught in the run too.

The checks read whole columns with numpy; with the replayed games they cost about 2.5 ms per
1,000-game Treasure Island shard (1% of its play and table building, whose games are short)
and 6 ms per 1,000-game Tobago shard (0.5%), measured on 2 cores; the manifest records the
time each run spent on them (``check_seconds``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sim.errors import RunError
from sim.game import AnyKind, GamePlan
from sim.game_tables import FAILURES_SCHEMA, GAME_COLUMNS, MOVES_SCHEMA, SEAT_COLUMNS
from sim.outcome import GameResult
from sim.seeding import derive_seed

#: The most games of a shard played a second time.
SAMPLE = 2
#: The checks, in the order they run (the names an error gives).
CHECKS = ("schema", "games rows", "seat rows", "game ids", "replay")


class ShardCheckError(Exception):
    """One failed check: its name (one of :data:`CHECKS`) and what was found."""

    def __init__(self, check: str, detail: str) -> None:
        super().__init__(detail)
        self.check = check
        self.detail = detail


def sample_ids(root_seed: int, shard: int, first_game: int, n_games: int) -> tuple[int, ...]:
    """The games of a shard that are played again: its first, and one drawn from the run's
    seed and the shard (the same games on every backend and every resume)."""
    if n_games <= 0:
        return ()
    other = first_game + derive_seed(root_seed, "shard-check", shard) % n_games
    return tuple(sorted({first_game, other}))[:SAMPLE]


Columns = list[tuple[str, pa.DataType]]


def declared_schemas(
    kind: AnyKind, tables: tuple[str, ...] | None = None
) -> dict[str, tuple[Columns, bool]]:
    """Each table's declared columns and whether they are all of its columns: a game's own
    schema is, for a table whose game declares none they are its leading columns (those of
    :data:`COMMON` for its name, or ``game_id`` for any other table). ``tables``: the ones
    a run keeps (default all the game's)."""
    own: Mapping[str, pa.Schema] = kind.schemas() if kind.schemas is not None else {}
    out: dict[str, tuple[Columns, bool]] = {}
    for name in kind.tables if tables is None else tables:
        schema = own.get(name)
        if schema is not None:
            out[name] = ([(f.name, f.type) for f in schema], True)
        else:
            out[name] = (COMMON.get(name, [("game_id", pa.int64())]), False)
    return out


#: The columns every game's tables begin with (see :mod:`sim.game_tables`).
COMMON: dict[str, Columns] = {
    "games": list(GAME_COLUMNS),
    "seats": list(SEAT_COLUMNS),
    "moves": [(f.name, f.type) for f in MOVES_SCHEMA],
    "failures": [(f.name, f.type) for f in FAILURES_SCHEMA],
}


class ShardCheck:
    """Collects what the check needs while a worker plays a shard (each game's player count,
    the sampled games' results and logs), then checks the shard's tables."""

    def __init__(
        self,
        kind: AnyKind,
        shard: int,
        first_game: int,
        n_games: int,
        root_seed: int,
        tables: tuple[str, ...] | None = None,
    ) -> None:
        self.kind = kind
        self.shard = shard
        self.first_game = first_game
        self.n_games = n_games
        self.sampled = frozenset(sample_ids(root_seed, shard, first_game, n_games))
        #: The tables the shard must hold (a compiled run keeps fewer than its game's).
        self.tables = kind.tables if tables is None else tables
        self.declared = declared_schemas(kind, self.tables)
        self.players: list[int] = []
        #: The sampled games as first played: plan, result and a copy of the move log.
        self.kept: list[tuple[GamePlan, GameResult, list[int]]] = []

    def saw(self, plan: GamePlan, game: Any) -> None:
        """Note a finished game (before the table builder reads it)."""
        self.players.append(len(plan.order))
        if plan.game_id in self.sampled:
            self.kept.append((plan, game.result, list(self.kind.log(game))))

    def saw_players(self, players: np.ndarray) -> None:
        """Note the player counts of games a compiled engine played, in game order (the
        sampled games, :attr:`sampled`, are the reference's to play again)."""
        self.players += players.tolist()

    def check(self, tables: Mapping[str, pa.Table], replay: Callable[[GamePlan], Any]) -> None:
        """``RunError`` naming the game, the shard and the first failed check, unless the
        tables hold exactly the games played; ``replay(plan)`` plays a game again."""
        self._raising(lambda: self.find(tables, replay))

    def check_against(
        self, tables: Mapping[str, pa.Table], reference: Mapping[str, pa.Table]
    ) -> None:
        """:meth:`check` for the tables of a compiled engine: the ``replay`` check compares
        the sampled games' rows with ``reference``, the tables the reference engine built
        for them (every table both keep, value for value)."""

        def find() -> None:
            self._layout(tables)
            self._same_rows(tables, reference)

        self._raising(find)

    def _raising(self, find: Callable[[], None]) -> None:
        try:
            find()
        except ShardCheckError as fault:
            last = self.first_game + self.n_games - 1
            raise RunError(
                f"{self.kind.name} shard {self.shard} (games {self.first_game}-{last}) fails "
                f"the {fault.check!r} check: {fault.detail}; nothing of the shard was written "
                f"(the game's engine or table builder is at fault, not the run's input)"
            ) from None

    def find(self, tables: Mapping[str, pa.Table], replay: Callable[[GamePlan], Any]) -> None:
        """The checks in order: :class:`ShardCheckError` for the first that fails (the
        conformance kit reports it as its own)."""
        self._layout(tables)
        self._replay(replay)

    def _layout(self, tables: Mapping[str, pa.Table]) -> None:
        """Every check but ``replay``."""
        self._schema(tables)
        self._games(tables["games"])
        self._seats(tables)
        self._ids(tables)

    def _schema(self, tables: Mapping[str, pa.Table]) -> None:
        if sorted(tables) != sorted(self.tables):
            raise ShardCheckError(
                "schema",
                f"the tables built are ({', '.join(sorted(tables))}), the run keeps "
                f"({', '.join(sorted(self.tables))})",
            )
        for name, (columns, exact) in self.declared.items():
            found = [(f.name, f.type) for f in tables[name].schema]
            # A game's own schema must begin with the common columns too: the checks below
            # and every report read them.
            common = COMMON.get(name, [("game_id", pa.int64())])
            if found[: len(common)] != common:
                raise ShardCheckError(
                    "schema", f"table {name}: {_column_difference(found[: len(common)], common)}"
                )
            have = found if exact else found[: len(columns)]
            if have != columns:
                raise ShardCheckError(
                    "schema", f"table {name}: {_column_difference(found, columns)}"
                )

    def _games(self, games: pa.Table) -> None:
        ids = games.column("game_id").to_numpy()
        expected = np.arange(self.first_game, self.first_game + self.n_games, dtype=np.int64)
        if not np.array_equal(ids, expected):
            raise ShardCheckError("games rows", _id_difference(ids, expected))
        counts = games.column("n_players").to_numpy()
        wrong = np.flatnonzero(counts != np.array(self.players))
        if wrong.size:
            i = int(wrong[0])
            raise ShardCheckError(
                "games rows",
                f"game {int(ids[i])} has n_players {int(counts[i])}, its plan seats "
                f"{self.players[i]}",
            )

    def _seats(self, tables: Mapping[str, pa.Table]) -> None:
        seats = tables.get("seats")
        if seats is None:
            return
        players = np.array(self.players, dtype=np.int64)
        ids = np.arange(self.first_game, self.first_game + self.n_games, dtype=np.int64)
        starts = np.cumsum(players) - players
        want_ids = np.repeat(ids, players)
        want_seats = np.arange(int(players.sum()), dtype=np.int64) - np.repeat(starts, players)
        got_ids = seats.column("game_id").to_numpy()
        got_seats = seats.column("seat").to_numpy().astype(np.int64)
        got_n = seats.column("n_players").to_numpy().astype(np.int64)
        if (
            got_ids.shape == want_ids.shape
            and np.array_equal(got_ids, want_ids)
            and np.array_equal(got_seats, want_seats)
            and np.array_equal(got_n, np.repeat(players, players))
        ):
            return
        for game_id, n in zip(ids.tolist(), players.tolist(), strict=True):
            mine = got_ids == game_id
            rows = got_seats[mine].tolist()
            if rows != list(range(n)) or not np.all(got_n[mine] == n):
                raise ShardCheckError(
                    "seat rows",
                    f"game {game_id} seats {n} players and has seats rows for seats {rows}",
                )
        foreign = got_ids[~np.isin(got_ids, ids)]
        if foreign.size:
            raise ShardCheckError(
                "seat rows", f"seats has rows of game {int(foreign[0])}, not of this shard"
            )
        raise ShardCheckError("seat rows", "seats rows are not in game and seat order")

    def _ids(self, tables: Mapping[str, pa.Table]) -> None:
        low, high = self.first_game, self.first_game + self.n_games
        for name in self.tables:
            if name in ("games", "seats") or tables[name].num_rows == 0:
                continue
            ids = tables[name].column("game_id").to_numpy()
            outside = ids[(ids < low) | (ids >= high)]
            if outside.size:
                raise ShardCheckError(
                    "game ids",
                    f"table {name} has rows of game {int(outside[0])}, not of this shard",
                )

    def _replay(self, replay: Callable[[GamePlan], Any]) -> None:
        for plan, result, log in self.kept:
            again = replay(plan)
            if "timeout" in (result.end_reason, again.result.end_reason):
                continue
            if again.result != result:
                raise ShardCheckError(
                    "replay",
                    f"game {plan.game_id} played again from its plan ended otherwise (scores "
                    f"{list(result.scores)}, then {list(again.result.scores)}, in "
                    f"{result.turns} and {again.result.turns} turns): the game depends on "
                    "something besides its seed, rules and players",
                )
            second = list(self.kind.log(again))
            if second != log:
                row = next(
                    (i // 6 for i, (a, b) in enumerate(zip(log, second, strict=False)) if a != b),
                    min(len(log), len(second)) // 6,
                )
                raise ShardCheckError(
                    "replay",
                    f"game {plan.game_id} played again from its plan logged other moves (from "
                    f"row {row} on): the game depends on something besides its seed, rules "
                    "and players",
                )

    def _same_rows(self, tables: Mapping[str, pa.Table], reference: Mapping[str, pa.Table]) -> None:
        ids = pa.array(sorted(self.sampled), pa.int64())
        for name in self.tables:
            if name not in reference:
                continue
            mine = tables[name].filter(pc.is_in(tables[name].column("game_id"), ids))
            theirs = reference[name]
            # Values, not buffers: a dictionary column may hold its words in another order.
            if mine.schema == theirs.schema and mine.to_pylist() == theirs.to_pylist():
                continue
            raise ShardCheckError(
                "replay",
                f"table {name}: {_row_difference(mine, theirs)}: the compiled engine does not "
                "play its reference's games",
            )


def _row_difference(mine: pa.Table, theirs: pa.Table) -> str:
    """The first difference between a compiled engine's rows and the reference's, in words."""
    if mine.schema != theirs.schema:
        return f"its columns are not the reference's ({mine.schema.names})"
    if mine.num_rows != theirs.num_rows:
        return f"{mine.num_rows} rows of the sampled games, the reference has {theirs.num_rows}"
    for column in mine.schema.names:
        a, b = mine.column(column).to_pylist(), theirs.column(column).to_pylist()
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                game = mine.column("game_id")[i].as_py()
                return f"game {game} has {column} = {x!r}, the reference engine {y!r}"
    return "its rows differ from the reference's"


def _column_difference(found: Columns, declared: Columns) -> str:
    """The first difference between a table's columns and its declared ones, in words."""
    for i, (want, have) in enumerate(zip(declared, found, strict=False)):
        if want[0] != have[0]:
            return f"column {i + 1} is {have[0]!r}, declared {want[0]!r}"
        if want[1] != have[1]:
            return f"column {want[0]!r} has type {have[1]}, declared {want[1]}"
    if len(found) < len(declared):
        return f"column {declared[len(found)][0]!r} is missing"
    return f"column {found[len(declared)][0]!r} is not declared"


def _id_difference(ids: np.ndarray, expected: np.ndarray) -> str:
    """Why a shard's ``games.game_id`` column is not its scheduled games, in words."""
    low, high = int(expected[0]), int(expected[-1]) + 1
    foreign = ids[(ids < low) | (ids >= high)]
    if foreign.size:
        return f"game {int(foreign[0])} has a games row but is not a game of this shard"
    values, counts = np.unique(ids, return_counts=True)
    twice = values[counts > 1]
    if twice.size:
        return f"game {int(twice[0])} has {int(counts[counts > 1][0])} games rows"
    missing = np.setdiff1d(expected, ids)
    if missing.size:
        return f"game {int(missing[0])} has no games row"
    return "the games rows are not in game order"
