"""Board fairness: per island and player count, win share by seat with intervals, the
first-seat advantage, a chi-square test of seat uniformity, mean game length, and a fairness
index.

The fairness index of an island is the largest distance of any seat's win share from the fair
1/n, over the player counts played there: 0 is perfectly fair, 0.1 means some seat wins ten
points more (or less) often than its fair share.
"""

from __future__ import annotations

import duckdb
import pyarrow as pa

from pipelines.stats import chi_square_uniform, wilson


def seat_win_shares(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per island, player count and seat: games, wins, win share with Wilson interval, and the
    deviation from the fair share 1/n."""
    query = """
        SELECT g.island::VARCHAR AS island, g.n_players, s.seat,
               count(*)::BIGINT AS games, sum(s.win_share)::DOUBLE AS wins,
               avg(s.win_share)::DOUBLE AS win_share
        FROM seats s JOIN games g USING (run, game_id)
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    """
    table = con.sql(query).to_arrow_table()
    rows = table.to_pylist()
    bounds = [wilson(r["wins"], r["games"]) for r in rows]
    table = table.append_column("low", pa.array([b[0] for b in bounds], pa.float64()))
    table = table.append_column("high", pa.array([b[1] for b in bounds], pa.float64()))
    deviation = [r["win_share"] - 1 / r["n_players"] for r in rows]
    return table.append_column("deviation", pa.array(deviation, pa.float64()))


def island_summary(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per island and player count: games, mean turns, first-seat advantage, chi-square
    statistic and p-value of the seat wins against uniform, and the fairness index."""
    seats = seat_win_shares(con).to_pylist()
    lengths = {
        (island, n): (games, turns)
        for island, n, games, turns in con.sql(
            """SELECT island::VARCHAR, n_players, count(*), avg(turns)::DOUBLE
               FROM games GROUP BY 1, 2"""
        ).fetchall()
    }
    groups: dict[tuple[str, int], list[dict[str, object]]] = {}
    for r in seats:
        groups.setdefault((str(r["island"]), int(str(r["n_players"]))), []).append(r)
    out: dict[str, list[object]] = {
        k: []
        for k in (
            "island", "n_players", "games", "mean_turns", "first_seat_advantage",
            "chi_square", "p_value", "fairness_index",
        )
    }  # fmt: skip
    for (island, n), rows in sorted(groups.items()):
        wins = [float(str(r["wins"])) for r in rows]
        stat, p = chi_square_uniform(wins)
        games, turns = lengths[(island, n)]
        out["island"].append(island)
        out["n_players"].append(n)
        out["games"].append(games)
        out["mean_turns"].append(turns)
        out["first_seat_advantage"].append(float(str(rows[0]["win_share"])) - 1 / n)
        out["chi_square"].append(stat)
        out["p_value"].append(p)
        out["fairness_index"].append(max(abs(float(str(r["deviation"]))) for r in rows))
    return pa.table(out)
