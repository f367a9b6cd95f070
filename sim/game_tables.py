"""The table half of the game contract (:mod:`sim.game`): what every game's tables share,
the first columns of ``games`` and ``seats``, the ``moves`` and ``failures`` tables, and the
helpers that fill and build them. Each game builds its own tables with these
(``sim.tobago.tables``, ``sim.treasure_island.tables``); the column lists and types are the
data contract documented in ``data/README.md``; rows come sorted by game id, then seat or
ply. It imports nothing of the runner, so that a game need not.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import pyarrow as pa

from sim.game import GamePlan, PlayableGame
from sim.outcome import GameResult, Violation

#: 2: ``games.end_reason`` and the ``failures`` table. 3: the manifest records every part
#: file (rows, bytes, sha256) and the boards of island files. 4: every table has ``run_id``
#: (added as a shard's parts are written: ``sim.runner.shard.with_run_id``), ``seats``
#: has its game's ``n_players``, ``island`` and ``rules_hash``; the manifest records pools
#: (``pool``, ``table_sizes``, ``games_per_size``) and growth (``extents``).
SCHEMA_VERSION = 4
#: Failures kept per seat and game in the ``failures`` table (all are counted in
#: ``seats.violations``): enough to show what went wrong without a row per decision.
FAILURES_PER_SEAT = 3

#: The first columns of every game's ``games`` table (the reports' win rates, ratings and
#: seat fairness read only these and the common ``seats`` columns).
GAME_COLUMNS: list[tuple[str, pa.DataType]] = [
    ("game_id", pa.int64()),
    ("seed", pa.uint64()),
    ("block", pa.int64()),
    ("rotation", pa.int8()),
    ("game", pa.dictionary(pa.int8(), pa.string())),
    ("rules", pa.dictionary(pa.int8(), pa.string())),
    ("rules_hash", pa.dictionary(pa.int8(), pa.string())),
    ("island", pa.dictionary(pa.int16(), pa.string())),
    ("n_players", pa.int8()),
    ("first_player", pa.int8()),
    ("turns", pa.int32()),
    ("truncated", pa.bool_()),
    ("end_reason", pa.dictionary(pa.int8(), pa.string())),
    ("winners", pa.int8()),
]
#: The first columns of every game's ``seats`` table (after ``run_id``). A seat row carries
#: its game's player count, island and rules hash so that seats of several runs can be
#: grouped or joined without the ``games`` table; dictionary-encoded and run-length encoded
#: within a game, they cost a few bytes per game.
SEAT_COLUMNS: list[tuple[str, pa.DataType]] = [
    ("game_id", pa.int64()),
    ("n_players", pa.int8()),
    ("island", pa.dictionary(pa.int16(), pa.string())),
    ("rules_hash", pa.dictionary(pa.int8(), pa.string())),
    ("seat", pa.int8()),
    ("player", pa.int8()),
    ("strategy", pa.dictionary(pa.int8(), pa.string())),
    ("score", pa.int16()),
    ("rank", pa.int8()),
    ("win_share", pa.float64()),
]
MOVES_SCHEMA = pa.schema(
    [
        ("game_id", pa.int64()),
        ("ply", pa.int32()),
        ("turn", pa.int32()),
        ("seat", pa.int8()),
        ("event", pa.dictionary(pa.int8(), pa.string())),
        ("a", pa.int32()),
        ("b", pa.int32()),
        ("c", pa.int32()),
    ]
)
#: One row per recorded strategy failure (the first :data:`FAILURES_PER_SEAT` of each seat
#: in a game): what was asked, what came back, the error.
FAILURES_SCHEMA = pa.schema(
    [
        ("game_id", pa.int64()),
        ("turn", pa.int32()),
        ("seat", pa.int8()),
        ("strategy", pa.dictionary(pa.int8(), pa.string())),
        ("decision", pa.dictionary(pa.int8(), pa.string())),
        ("answer", pa.string()),
        ("error", pa.string()),
    ]
)


def moves_table(
    flat: list[int], rows_per_game: list[int], game_ids: list[int], event_names: list[str]
) -> pa.Table:
    """The ``moves`` table from games' flat logs (six ints a row) laid end to end."""
    return moves_from_grid(log_grid(flat), rows_per_game, game_ids, event_names)


def log_grid(flat: list[int]) -> np.ndarray:
    """Flat log ints as an (rows, 6) int32 array (``fromiter``: the fastest copy of a long
    int list; numpy columns beat ``pa.array`` on lists ~10x)."""
    return np.fromiter(flat, dtype=np.int32, count=len(flat)).reshape(-1, 6)


def moves_from_grid(
    grid: np.ndarray, rows_per_game: list[int], game_ids: list[int], event_names: list[str]
) -> pa.Table:
    """The ``moves`` table from a :func:`log_grid`."""
    counts = np.array(rows_per_game, dtype=np.int64)
    ids = np.array(game_ids, dtype=np.int64)
    starts = np.cumsum(counts) - counts
    plies = np.arange(int(counts.sum()), dtype=np.int32) - np.repeat(starts, counts).astype(
        np.int32
    )
    kinds = pa.array(grid[:, 2].astype(np.int8))
    events = pa.DictionaryArray.from_arrays(kinds, pa.array(event_names, pa.string()))
    return pa.Table.from_arrays(
        [
            pa.array(np.repeat(ids, counts)),
            pa.array(plies),
            pa.array(grid[:, 0]),
            pa.array(grid[:, 1].astype(np.int8)),
            events,
            pa.array(grid[:, 3]),
            pa.array(grid[:, 4]),
            pa.array(grid[:, 5]),
        ],
        schema=MOVES_SCHEMA,
    )


def append_common(
    cols: dict[str, dict[str, list[object]]],
    plan: GamePlan,
    game: str,
    island: str,
    result: GameResult,
    labels: list[str],
) -> None:
    """Append a finished game's :data:`GAME_COLUMNS` row and its seats' :data:`SEAT_COLUMNS`
    rows (every game fills these the same way)."""
    n = len(plan.order)
    g = cols["games"]
    for name, value in (
        ("game_id", plan.game_id),
        ("seed", plan.seed),
        ("block", plan.block),
        ("rotation", plan.rotation),
        ("game", game),
        ("rules", result.rules),
        ("rules_hash", result.rules_hash),
        ("island", island),
        ("n_players", n),
        ("first_player", result.first_player),
        ("turns", result.turns),
        ("truncated", result.truncated),
        ("end_reason", result.end_reason),
        ("winners", result.ranks.count(1)),
    ):
        g[name].append(value)
    st = cols["seats"]
    st["game_id"] += [plan.game_id] * n
    st["n_players"] += [n] * n
    st["island"] += [island] * n
    st["rules_hash"] += [result.rules_hash] * n
    st["seat"] += range(n)
    st["player"] += plan.order
    st["strategy"] += [labels[p] for p in plan.order]
    st["score"] += result.scores
    st["rank"] += result.ranks
    st["win_share"] += result.win_shares


def append_failures(
    cols: dict[str, list[object]], plan: GamePlan, violations: list[Violation], labels: list[str]
) -> list[int]:
    """Append a game's first :data:`FAILURES_PER_SEAT` failures of each seat to the
    ``failures`` columns; return every seat's failure count."""
    bad = [0] * len(plan.order)
    for v in violations:
        bad[v.seat] += 1
        if bad[v.seat] <= FAILURES_PER_SEAT:
            cols["game_id"].append(plan.game_id)
            cols["turn"].append(v.turn)
            cols["seat"].append(v.seat)
            cols["strategy"].append(labels[plan.order[v.seat]])
            cols["decision"].append(v.kind)
            cols["answer"].append(v.answer)
            cols["error"].append(v.error)
    return bad


def table_of(cols: dict[str, list[object]], schema: pa.Schema) -> pa.Table:
    """An Arrow table of ``schema`` from columns of Python values."""
    return pa.Table.from_arrays([column(cols[f.name], f.type) for f in schema], schema=schema)


def column(values: list[object], kind: pa.DataType) -> pa.Array:
    """An Arrow column of ``kind`` (dictionary types are encoded from strings)."""
    if pa.types.is_dictionary(kind):
        return pa.array(values, pa.string()).dictionary_encode().cast(kind)
    return pa.array(values, kind)


#: The ``games`` and ``seats`` tables of a game with no columns of its own beyond the
#: common ones and the counts every report reads (decisions asked, strategy failures).
BASIC_GAMES_SCHEMA = pa.schema(
    [*GAME_COLUMNS, ("decisions", pa.int32()), ("violations", pa.int32())]
)
BASIC_SEATS_SCHEMA = pa.schema([*SEAT_COLUMNS, ("violations", pa.int16())])
#: The tables :class:`BasicTableBuilder` writes, ``games`` last.
BASIC_TABLES = ("failures", "moves", "seats", "games")
#: Their schemas, by table (what a game whose tables these are declares as its
#: ``GameKind.schemas``).
BASIC_SCHEMAS: dict[str, pa.Schema] = {
    "games": BASIC_GAMES_SCHEMA,
    "seats": BASIC_SEATS_SCHEMA,
    "moves": MOVES_SCHEMA,
    "failures": FAILURES_SCHEMA,
}


class LoggedGame(PlayableGame, Protocol):
    """A finished game with its flat move log (six ints a row: turn, seat, event, a, b, c)."""

    @property
    def log(self) -> list[int]: ...


class BasicTableBuilder:
    """The four tables every game has (``games``, ``seats``, ``moves``, ``failures``), for
    a game that records nothing else: what a new game can start from. The game object needs
    ``result``, ``violations``, ``decisions`` and ``log`` (its flat move log, six ints a row:
    turn, seat, event code, a, b, c)."""

    def __init__(self, game: str, labels: list[str], event_names: list[str]) -> None:
        self.game = game
        self.labels = labels
        self.event_names = event_names
        self.cols: dict[str, dict[str, list[object]]] = {
            "games": {f.name: [] for f in BASIC_GAMES_SCHEMA},
            "seats": {f.name: [] for f in BASIC_SEATS_SCHEMA},
            "failures": {f.name: [] for f in FAILURES_SCHEMA},
        }
        self.move_flat: list[int] = []
        self.move_rows: list[int] = []
        self.game_ids: list[int] = []

    def add(self, plan: GamePlan, game: LoggedGame) -> None:
        """Record one finished game."""
        result = game.result
        assert result is not None
        append_common(self.cols, plan, self.game, plan.island, result, self.labels)
        self.cols["games"]["decisions"].append(game.decisions)
        self.cols["games"]["violations"].append(len(game.violations))
        bad = append_failures(self.cols["failures"], plan, game.violations, self.labels)
        self.cols["seats"]["violations"] += bad
        self.move_flat += game.log
        self.move_rows.append(len(game.log) // 6)
        self.game_ids.append(plan.game_id)

    def build(self) -> dict[str, pa.Table]:
        """The tables of the games added so far."""
        game_ids = self.game_ids
        return {
            "games": table_of(self.cols["games"], BASIC_GAMES_SCHEMA),
            "seats": table_of(self.cols["seats"], BASIC_SEATS_SCHEMA),
            "failures": table_of(self.cols["failures"], FAILURES_SCHEMA),
            "moves": moves_table(self.move_flat, self.move_rows, game_ids, self.event_names),
        }
