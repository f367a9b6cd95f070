"""The shape of play, from the move logs: per finished game, how often the lead changed, whether
the leader at two thirds of the game lost, how early the winner was known, and the scores of
the winner and of the others through the game; per table size, each with its 95% interval.

A game gives its scores as a SELECT over the connection's views (its report part's
``score_events``) with the columns ``run, game_id, turn, seat, score``: a seat's score after
the row's turn, for at least every turn in which it changed. The seats' final scores (the
``seats`` table) close every game, after its last turn. From those rows, per game:

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
"""

from __future__ import annotations

from typing import Any

import duckdb
import pyarrow as pa

from pipelines.metrics.clustered import clustered, rows_table

#: The temporary table :func:`shape_table` makes, one row per finished game.
TABLE = "game_shape"
#: Points of the score trajectories: after each tenth of a game's turns.
POINTS = 10

#: The measures of the shape table: column of :data:`TABLE`, whether it is a share, and the
#: rows it is over (a SQL condition).
MEASURES: dict[str, tuple[str, bool, str]] = {
    "lead_changes": ("lead_changes", False, "true"),
    "comeback": ("leader_lost::DOUBLE", True, "leader_lost IS NOT NULL"),
    "tied_at_two_thirds": ("(leader_at_two_thirds IS NULL)::DOUBLE", True, "true"),
    "decided_at": ("decided_at", False, "true"),
}


def _seats(con: duckdb.DuckDBPyConnection) -> int:
    found = con.sql("SELECT max(n_players) FROM games").fetchall()[0][0]
    return int(found or 0)


def _pivot(seats: int, value: str) -> str:
    return ", ".join(f"max({value}) FILTER (WHERE seat = {i}) AS x{i}" for i in range(seats))


def _scores_sql(score_events: str, seats: int) -> str:
    """Per game and turn with a change: every seat's score after it (``s0`` …; null for a
    seat the game does not have), ordered by ``ord`` (2 turn; the final scores at
    2 (T - 1) + 1, after the last turn's rows)."""
    filled = ", ".join(
        f"coalesce(last_value(x{i} IGNORE NULLS) OVER w, "
        f"CASE WHEN {i} < n_players THEN 0 END)::BIGINT AS s{i}"
        for i in range(seats)
    )
    return f"""
        WITH ev AS ({score_events}),
        wide AS (
            SELECT run, game_id, 2 * turn AS ord, {_pivot(seats, "score")}
            FROM ev SEMI JOIN games USING (run, game_id) GROUP BY run, game_id, turn
            UNION ALL
            SELECT s.run, s.game_id, 2 * (g.turns - 1) + 1 AS ord, {_pivot(seats, "s.score")}
            FROM seats s JOIN games g USING (run, game_id) GROUP BY s.run, s.game_id, g.turns
        )
        SELECT run, game_id, g.n_players, g.turns, ord, {filled}
        FROM wide JOIN games g USING (run, game_id)
        WINDOW w AS (PARTITION BY run, game_id ORDER BY ord
                     ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"""


def _leaders_sql(score_events: str, seats: int) -> str:
    """:func:`_scores_sql` with ``leader`` (the sole highest seat, null for a tie), the sole
    ``winner`` (null without one), the winner's score ``ws`` and the others' mean ``os``."""
    cols = [f"s{i}" for i in range(seats)]
    top = f"greatest({', '.join(cols)})" if seats > 1 else cols[0]
    at_top = " + ".join(f"coalesce(({c} = top)::INT, 0)" for c in cols)
    which = " ".join(f"WHEN {c} = top THEN {i}" for i, c in enumerate(cols))
    pick = " ".join(f"WHEN {i} THEN {c}" for i, c in enumerate(cols))
    total = " + ".join(f"coalesce({c}, 0)" for c in cols)
    return f"""
        WITH sc AS ({_scores_sql(score_events, seats)}),
        topped AS (SELECT *, {top} AS top FROM sc),
        won AS (
            SELECT run, game_id, min(seat) AS winner FROM seats
            WHERE win_share = 1 GROUP BY run, game_id
        )
        SELECT t.*, CASE WHEN {at_top} = 1 THEN CASE {which} END END AS leader, w.winner,
               CASE w.winner {pick} END AS ws,
               ({total} - CASE w.winner {pick} END) / (n_players - 1) AS os
        FROM topped t LEFT JOIN won w USING (run, game_id)"""


def _per_game_sql(score_events: str, seats: int) -> str:
    """One row per finished game: the measures of the module's docstring."""
    trajectory = ", ".join(
        f"coalesce(arg_max(ws, ord) FILTER (WHERE ord < 2 * ceil({j} * turns / {POINTS})), "
        f"CASE WHEN any_value(winner) IS NOT NULL THEN 0 END)::DOUBLE AS winner_at_{j}, "
        f"coalesce(arg_max(os, ord) FILTER (WHERE ord < 2 * ceil({j} * turns / {POINTS})), "
        f"CASE WHEN any_value(winner) IS NOT NULL THEN 0 END)::DOUBLE AS others_at_{j}"
        for j in range(1, POINTS + 1)
    )
    return f"""
        WITH l AS ({_leaders_sql(score_events, seats)}),
        marked AS (
            SELECT *,
                last_value(leader IGNORE NULLS) OVER (PARTITION BY run, game_id ORDER BY ord
                    ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS previous,
                bool_and(leader IS NOT DISTINCT FROM winner AND winner IS NOT NULL)
                    OVER (PARTITION BY run, game_id ORDER BY ord
                          ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS holds
            FROM l
        ),
        per AS (
            SELECT run, game_id, any_value(n_players) AS n_players, any_value(turns) AS turns,
                count(*) FILTER (WHERE leader <> previous)::INTEGER AS lead_changes,
                arg_max(coalesce(leader, -1), ord)
                    FILTER (WHERE ord < 2 * greatest(1, (2 * turns) // 3)) AS two_thirds,
                min(ord) FILTER (WHERE holds) AS decided_ord,
                any_value(winner) AS winner,
                {trajectory}
            FROM marked GROUP BY run, game_id
        )
        SELECT p.run, p.game_id, g.block, p.n_players::INTEGER AS n_players,
            p.turns::INTEGER AS turns, p.lead_changes,
            CASE WHEN two_thirds >= 0 THEN two_thirds END::INTEGER AS leader_at_two_thirds,
            CASE WHEN two_thirds >= 0 THEN s.win_share = 0 END AS leader_lost,
            CASE WHEN decided_ord IS NULL THEN 1.0
                 ELSE (decided_ord // 2 + 1) / p.turns END::DOUBLE AS decided_at,
            p.winner::INTEGER AS winner,
            {", ".join(f"winner_at_{j}, others_at_{j}" for j in range(1, POINTS + 1))}
        FROM per p JOIN games g USING (run, game_id)
        LEFT JOIN seats s ON s.run = p.run AND s.game_id = p.game_id AND s.seat = p.two_thirds
        ORDER BY p.run, p.game_id"""


def shape_table(con: duckdb.DuckDBPyConnection, score_events: str) -> str:
    """The name of the temporary table of one row per finished game (:data:`TABLE`), made on
    the first call over the connection's runs."""
    made = con.sql(
        f"SELECT count(*) FROM duckdb_tables() WHERE table_name = '{TABLE}' AND temporary"
    ).fetchall()[0][0]
    if not made:
        seats = _seats(con)
        con.execute(f"CREATE TEMP TABLE {TABLE} AS {_per_game_sql(score_events, max(seats, 1))}")
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
