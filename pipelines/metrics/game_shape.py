"""The shape of play, from the move logs: per finished game, how often the lead changed, whether
the leader at two thirds of the game lost, how early the winner was known, and the scores of
the winner and of the others through the game; per table size, each with its 95% interval.

A game gives its scores as a SELECT over the connection's views (its report part's
``score_events``) with the columns ``run, game_id, turn, seat`` and either ``score`` (a
seat's running score after the row's turn, at least for every turn in which it changed; one
row per seat and turn) or ``change`` (what the row adds to the seat's score; the rows of a
seat add up to its score). The seats' final scores (the ``seats`` table) close every game,
after its last turn. From those rows, per game (:mod:`pipelines.metrics.game_shape_games`):

- the scores after each turn in which one changed (a seat's score holds until its next row;
  0 before its first);
- the **leader** after a turn: the seat with the highest score when no other seat has as
  much; a tie for the highest score (0 for everyone at the start included) is no leader;
- ``lead_changes``: how many times the leader is a different seat from the last leader
  before it, with the turns without one skipped (A leads, A and B tie, B leads: one change;
  A leads, a tie, A leads again: none; the first leader of the game is no change);
- ``leader_at_two_thirds``: the leader after the first ⌊2T/3⌋ turns (at least 1) of a game
  of T turns, null for a tie there; ``leader_lost`` whether that seat is not among the
  winners (null for a tie: the comeback rate is over the games with a leader at that point,
  and the ties are counted apart);
- ``decided_at``: with a sole winner, the fewest turns k after which the winner leads alone
  after every turn to the end, as a fraction k/T of the game; 1 when the winner does not
  lead alone at the end (a shared win, a score tie broken by the rules' tie-break);
- ``winner_at_1`` … ``winner_at_10`` and ``others_at_1`` … ``others_at_10``: the sole
  winner's score and the mean of the other seats' after the first ⌈jT/10⌉ turns, j = 1 … 10
  (null in a game without a sole winner).

The trajectories are read at tenths of each game rather than at turn numbers: every game then
counts at every point, whereas by turn number the games that ended drop out and the mean
moves with who is left.

Intervals treat a seed block (``run, block``) as the independent unit, as every interval of
the reports (:mod:`pipelines.metrics.clustered`). Player counts are never pooled: every
figure is per table size.

Each measure is one line for a caller that wants it as an objective, per table size with
its interval: ``measure(con, scores, "comeback")`` (or ``"lead_changes"``,
``"tied_at_two_thirds"``, ``"decided_at"``), with ``scores`` the game's report part's
``score_events``; ``per_game(con, scores)`` gives every game's row.
"""

from __future__ import annotations

from typing import Any

import duckdb
import numpy as np
import pyarrow as pa

from pipelines.metrics import game_shape_games as rows
from pipelines.metrics.clustered import clustered, rows_table
from pipelines.metrics.source import all_cores
from sim.errors import InputError

#: The temporary table :func:`shape_table` makes, one row per finished game.
TABLE = "game_shape"
#: Points of the score trajectories: after each tenth of a game's turns.
POINTS = rows.POINTS

#: The measures of the shape table: column of :data:`TABLE`, whether it is a share, and the
#: rows it is over (a SQL condition).
MEASURES: dict[str, tuple[str, bool, str]] = {
    "lead_changes": ("lead_changes", False, "true"),
    "comeback": ("leader_lost::DOUBLE", True, "leader_lost IS NOT NULL"),
    "tied_at_two_thirds": ("(leader_at_two_thirds IS NULL)::DOUBLE", True, "true"),
    "decided_at": ("decided_at", False, "true"),
}


#: The columns of :data:`TABLE`.
SCHEMA = pa.schema(
    [
        ("run", pa.int64()),
        ("game_id", pa.int64()),
        ("block", pa.int64()),
        ("n_players", pa.int32()),
        ("turns", pa.int32()),
        ("lead_changes", pa.int32()),
        ("leader_at_two_thirds", pa.int32()),
        ("leader_lost", pa.bool_()),
        ("decided_at", pa.float64()),
        ("winner", pa.int32()),
        *(
            (f"{who}_at_{j}", pa.float64())
            for j in range(1, POINTS + 1)
            for who in ("winner", "others")
        ),
    ]
)
#: Games read at a time: a batch's score rows are a few million at most, whatever the run.
BATCH = 20_000


def _changes(con: duckdb.DuckDBPyConnection, score_events: str) -> bool:
    """Whether the game's score rows are changes (a ``change`` column) rather than running
    scores (``score``)."""
    columns = con.sql(f"SELECT * FROM ({score_events}) LIMIT 0").columns
    if "change" in columns:
        return True
    if "score" in columns:
        return False
    raise InputError(f"score events {score_events.strip()!r}: no column change or score")


def _fetch(con: duckdb.DuckDBPyConnection, sql: str) -> dict[str, np.ndarray]:
    return {k: np.asarray(v) for k, v in con.sql(sql).fetchnumpy().items()}


def _batch(
    con: duckdb.DuckDBPyConnection, score_events: str, changes: bool, run: int, lo: int, hi: int
) -> pa.Table | None:
    """The rows of :data:`TABLE` of the finished games of ``run`` with ids ``lo`` to
    ``hi - 1`` (None when it has none)."""
    where = f"run = {run} AND game_id >= {lo} AND game_id < {hi}"
    g = _fetch(con, f"SELECT game_id, block, n_players, turns FROM games WHERE {where} "
                    "ORDER BY game_id")  # fmt: skip
    if not len(g["game_id"]):
        return None
    ids = g["game_id"].astype(np.int64)
    s = _fetch(con, f"SELECT game_id, seat, score, win_share FROM seats WHERE {where}")
    seats = int(g["n_players"].max())
    row, seat = np.searchsorted(ids, s["game_id"]), s["seat"].astype(np.int64)
    final = np.full((len(ids), seats), rows.ABSENT, dtype=np.int64)
    final[row, seat] = s["score"]
    share = np.zeros((len(ids), seats))
    share[row, seat] = s["win_share"]
    sole = (share == 1.0).sum(axis=1) == 1
    games = rows.Games(ids, g["n_players"].astype(np.int64), g["turns"].astype(np.int64),
                       final, np.where(sole, share.argmax(axis=1), -1))  # fmt: skip
    value = "change" if changes else "score"
    e = _fetch(con, f"SELECT game_id, turn, seat, {value} AS v FROM ({score_events}) ev "
                    f"WHERE {where}")  # fmt: skip
    at = np.minimum(np.searchsorted(ids, e["game_id"]), len(ids) - 1)
    kept = ids[at] == e["game_id"]  # the games left out (unfinished) have no games row
    scores = rows.Scores(at[kept], e["turn"][kept].astype(np.int64),
                         e["seat"][kept].astype(np.int64), e["v"][kept].astype(np.int64),
                         changes)  # fmt: skip
    out = rows.per_game(games, scores)
    third = out.pop("leader_at_two_thirds")
    lost = share[np.arange(len(ids)), np.maximum(third, 0)] == 0
    columns: dict[str, pa.Array] = {
        "run": pa.array(np.full(len(ids), run, dtype=np.int64)),
        "game_id": pa.array(ids),
        "block": pa.array(g["block"].astype(np.int64)),
        "n_players": pa.array(games.n_players.astype(np.int32)),
        "turns": pa.array(games.turns.astype(np.int32)),
        "lead_changes": pa.array(out.pop("lead_changes")),
        "leader_at_two_thirds": pa.array(third, mask=third < 0),
        "leader_lost": pa.array(lost, mask=third < 0),
        "decided_at": pa.array(out.pop("decided_at")),
        "winner": pa.array(games.winner.astype(np.int32), mask=~sole),
    }
    for name, values in out.items():
        columns[name] = pa.array(values, mask=np.isnan(values))
    return pa.table(columns, schema=SCHEMA)


def shape_table(con: duckdb.DuckDBPyConnection, score_events: str) -> str:
    """The name of the temporary table of one row per finished game (:data:`TABLE`), made on
    the first call over the connection's runs, a batch of :data:`BATCH` games at a time."""
    made = con.sql(
        f"SELECT count(*) FROM duckdb_tables() WHERE table_name = '{TABLE}' AND temporary"
    ).fetchall()[0][0]
    if made:
        return TABLE
    changes = _changes(con, score_events)
    con.register("game_shape_rows", SCHEMA.empty_table())
    con.execute(f"CREATE TEMP TABLE {TABLE} AS SELECT * FROM game_shape_rows")
    spans = con.sql("SELECT run, min(game_id), max(game_id) FROM games GROUP BY run ORDER BY run")
    for run, lo, hi in spans.fetchall():
        for start in range(int(lo), int(hi) + 1, BATCH):
            # Integers only, and nothing below depends on the order rows arrive in (a
            # running source has one row per seat and turn): so on every core.
            with all_cores(con):
                part = _batch(con, score_events, changes, int(run), start, start + BATCH)
            if part is not None:  # one batch in memory at a time, as DuckDB stores the rows
                con.register("game_shape_rows", part)
                con.execute(f"INSERT INTO {TABLE} SELECT * FROM game_shape_rows")
    con.unregister("game_shape_rows")
    return TABLE


def per_game(con: duckdb.DuckDBPyConnection, score_events: str) -> pa.Table:
    """One row per finished game of the connection's runs: ``run``, ``game_id``, ``block``,
    ``n_players``, ``turns``, ``lead_changes``, ``leader_at_two_thirds`` (a seat, null for a
    tie), ``leader_lost``, ``decided_at``, ``winner`` (the sole winner's seat, null without
    one) and the trajectory points ``winner_at_j``, ``others_at_j`` (module docstring)."""
    return con.sql(f"SELECT * FROM {shape_table(con, score_events)}").to_arrow_table()


SHAPE_TYPES: dict[str, pa.DataType] = {
    "n_players": pa.int32(),
    "measure": pa.string(),
    "games": pa.int64(),
    "blocks": pa.int64(),
    "estimate": pa.float64(),
    "low": pa.float64(),
    "high": pa.float64(),
}


def measure(con: duckdb.DuckDBPyConnection, score_events: str, name: str) -> list[dict[str, Any]]:
    """One measure of :data:`MEASURES` per table size: ``n_players``, ``games`` (the rows it
    is over), ``blocks``, ``estimate`` and its 95% interval ``low``/``high`` (a Wilson interval
    at the effective size for a share, else normal), seed blocks as the independent unit."""
    value, share, where = MEASURES[name]
    table = shape_table(con, score_events)
    source = f"SELECT run, block, n_players, {value} AS v FROM {table} WHERE {where}"
    return [
        {
            "n_players": r["n_players"],
            "measure": name,
            "games": r["n"],
            "blocks": r["clusters"],
            "estimate": r["mean"],
            "low": r["low"],
            "high": r["high"],
        }
        for r in clustered(con, source, ["n_players"], "v", share=share)
    ]


def shape_by_size(con: duckdb.DuckDBPyConnection, score_events: str) -> pa.Table:
    """Every measure of :data:`MEASURES` per table size (:func:`measure`), one row each."""
    rows = [r for name in MEASURES for r in measure(con, score_events, name)]
    rows.sort(key=lambda r: (r["n_players"], list(MEASURES).index(r["measure"])))
    return rows_table(rows, SHAPE_TYPES)


TRAJECTORY_TYPES: dict[str, pa.DataType] = {
    "n_players": pa.int32(),
    "point": pa.int32(),
    "who": pa.string(),
    "games": pa.int64(),
    "blocks": pa.int64(),
    "mean": pa.float64(),
    "low": pa.float64(),
    "high": pa.float64(),
}


def trajectory(con: duckdb.DuckDBPyConnection, score_events: str) -> pa.Table:
    """Per table size, tenth of the game (``point`` 1 … 10) and ``who`` (``winner``, the sole
    winner; ``others``, the mean of the other seats): the mean score with its 95% interval over
    seed blocks, over the games with a sole winner."""
    table = shape_table(con, score_events)
    out: list[dict[str, Any]] = []
    for j in range(1, POINTS + 1):
        for who in ("winner", "others"):
            source = (
                f"SELECT run, block, n_players, {who}_at_{j} AS v FROM {table} "
                "WHERE winner IS NOT NULL"
            )
            for r in clustered(con, source, ["n_players"], "v"):
                kept = {k: r[k] for k in ("n_players", "mean", "low", "high")}
                out.append({**kept, "point": j, "who": who, "games": r["n"],
                            "blocks": r["clusters"]})  # fmt: skip
    out.sort(key=lambda r: (r["n_players"], r["point"], r["who"] != "winner"))
    return rows_table(out, TRAJECTORY_TYPES)
