"""The output tables of a Tobago run, accumulated game by game and built as Arrow tables.

``games`` (one row per game), ``seats`` (one per game and seat), ``moves`` (one per logged
decision or event), ``treasures`` (one per distribution, derived from the move log) and
``failures`` (one per recorded strategy failure, with its error text). The
column list and types here are the data contract documented in ``data/README.md``; rows come
sorted by game id, then seat or ply.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from sim.outcome import GameResult, Violation
from sim.runner.schedule import GamePlan
from sim.tobago.engine import TobagoGame
from sim.tobago.movelog import CODE, EVENTS

#: 2: ``games.end_reason`` and the ``failures`` table. 3: the manifest records every part
#: file (rows, bytes, sha256) and the boards of island files. 4: every table has ``run_id``
#: (added as a shard's parts are written: :func:`sim.runner.shard.with_run_id`), ``seats``
#: has its game's ``n_players``, ``island`` and ``rules_hash``; the manifest records pools
#: (``pool``, ``table_sizes``, ``games_per_size``) and growth (``extents``).
SCHEMA_VERSION = 4
#: Failures kept per seat and game in the ``failures`` table (all are counted in
#: ``seats.violations``): enough to show what went wrong without a row per decision.
FAILURES_PER_SEAT = 3

EVENT_NAMES = [name for name, _ in EVENTS]
_DIST_EVENTS = {
    CODE[k]
    for k in (
        "draw",
        "extra_card",
        "reveal",
        "take",
        "pass",
        "unclaimed",
        "curse_hit",
        "leftover",
        "restart",
        "amulet_appears",
        "statues_turn",
        "treasure_reshuffle",
        "clue_reshuffle",
        "violation",
    )
}
_RAISE, _DRAW, _EXTRA, _REVEAL, _TAKE = (
    CODE["raise"],
    CODE["draw"],
    CODE["extra_card"],
    CODE["reveal"],
    CODE["take"],
)

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
GAMES_SCHEMA = pa.schema(
    [
        *GAME_COLUMNS,
        ("distributions", pa.int16()),
        ("decisions", pa.int32()),
        ("violations", pa.int32()),
    ]
)
SEATS_SCHEMA = pa.schema(
    [
        *SEAT_COLUMNS,
        ("treasure_cards", pa.int16()),
        ("treasures_raised", pa.int16()),
        ("clues_played", pa.int16()),
        ("amulets_collected", pa.int16()),
        ("amulets_used", pa.int16()),
        ("amulets_left", pa.int16()),
        ("curse_hits", pa.int16()),
        ("coins_lost", pa.int16()),
        ("violations", pa.int16()),
    ]
)
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
TREASURES_SCHEMA = pa.schema(
    [
        ("game_id", pa.int64()),
        ("distribution", pa.int16()),
        ("turn", pa.int32()),
        ("map", pa.int8()),
        ("raiser", pa.int8()),
        ("roses", pa.int8()),
        ("cards_drawn", pa.int8()),
        ("curse_revealed", pa.bool_()),
        ("curse_position", pa.int8()),
        ("coins_handed_out", pa.int16()),
        ("taker_seats", pa.list_(pa.int8())),
        ("taken_values", pa.list_(pa.int8())),
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
SCHEMAS: dict[str, pa.Schema] = {
    "games": GAMES_SCHEMA,
    "seats": SEATS_SCHEMA,
    "moves": MOVES_SCHEMA,
    "treasures": TREASURES_SCHEMA,
    "failures": FAILURES_SCHEMA,
}


class TableBuilder:
    """Columns of the five tables for a batch of games, filled game by game."""

    def __init__(self, game: str, labels: list[str]) -> None:
        self.game = game
        self.labels = labels
        self.cols: dict[str, dict[str, list[Any]]] = {
            name: {f.name: [] for f in schema} for name, schema in SCHEMAS.items()
        }
        self.move_flat: list[int] = []
        self.move_ids: list[int] = []

    def add(self, plan: GamePlan, game: TobagoGame) -> None:
        """Record one finished game."""
        s = game.state
        island = s.island.name
        result = game.result
        assert result is not None
        gid = plan.game_id
        rows = s.log.flat
        n_rows = len(rows) // 6
        dists = self._treasures(gid, rows)

        append_common(self.cols, plan, self.game, island, result, self.labels)
        g = self.cols["games"]
        g["distributions"].append(dists)
        g["decisions"].append(game.decisions)
        g["violations"].append(len(game.violations))

        st = self.cols["seats"]
        bad = append_failures(self.cols["failures"], plan, game.violations, self.labels)
        for seat in range(s.n):
            st["treasure_cards"].append(len(s.treasures[seat]))
            st["treasures_raised"].append(s.treasures_raised[seat])
            st["clues_played"].append(s.clues_played[seat])
            st["amulets_collected"].append(s.amulets_collected[seat])
            st["amulets_used"].append(s.amulets_used[seat])
            st["amulets_left"].append(s.amulets[seat])
            st["curse_hits"].append(s.curse_hits[seat])
            st["coins_lost"].append(s.coins_lost[seat])
            st["violations"].append(bad[seat])

        self.move_flat.extend(rows)
        self.move_ids.append(n_rows)

    def _treasures(self, gid: int, rows: list[int]) -> int:
        """Append one row per distribution found in a game's log; return how many."""
        t = self.cols["treasures"]
        count = 0
        i = 0
        n = len(rows)
        while i < n:
            if rows[i + 2] != _RAISE:
                i += 6
                continue
            turn, raiser, m, n_roses = rows[i], rows[i + 1], rows[i + 3], rows[i + 5]
            drawn = 0
            curse_at = -1
            seats: list[int] = []
            values: list[int] = []
            i += 6
            while i < n and rows[i + 2] in _DIST_EVENTS:
                kind = rows[i + 2]
                if kind in (_DRAW, _EXTRA):
                    drawn += 1
                elif kind == _REVEAL and rows[i + 3] < 0:
                    curse_at = rows[i + 4]
                elif kind == _TAKE:
                    seats.append(rows[i + 1])
                    values.append(rows[i + 3])
                i += 6
            t["game_id"].append(gid)
            t["distribution"].append(count)
            t["turn"].append(turn)
            t["map"].append(m)
            t["raiser"].append(raiser)
            t["roses"].append(n_roses)
            t["cards_drawn"].append(drawn)
            t["curse_revealed"].append(curse_at >= 0)
            t["curse_position"].append(curse_at)
            t["coins_handed_out"].append(sum(values))
            t["taker_seats"].append(seats)
            t["taken_values"].append(values)
            count += 1
        return count

    def build(self) -> dict[str, pa.Table]:
        """The tables of the games added so far."""
        out = {
            name: table_of(self.cols[name], SCHEMAS[name])
            for name in ("games", "seats", "treasures", "failures")
        }
        game_ids = self.cols["games"]["game_id"]
        out["moves"] = moves_table(self.move_flat, self.move_ids, game_ids, EVENT_NAMES)
        return out


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
    cols: dict[str, dict[str, list[Any]]],
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
    cols: dict[str, list[Any]], plan: GamePlan, violations: list[Violation], labels: list[str]
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


def table_of(cols: dict[str, list[Any]], schema: pa.Schema) -> pa.Table:
    """An Arrow table of ``schema`` from columns of Python values."""
    return pa.Table.from_arrays([column(cols[f.name], f.type) for f in schema], schema=schema)


def column(values: list[Any], kind: pa.DataType) -> pa.Array:
    """An Arrow column of ``kind`` (dictionary types are encoded from strings)."""
    if pa.types.is_dictionary(kind):
        return pa.array(values, pa.string()).dictionary_encode().cast(kind)
    return pa.array(values, kind)
