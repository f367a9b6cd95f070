"""Treasure Island metrics: busts against their exact chance, plunders, Key + Chest, powers.

- **Bust rate by kinds in play**: every card taken blind from the draw pile (not one a
  Spyglass made public) busts with the exact chance (cards left of kinds in play) / (cards
  left), known from the pile's make-up. Per number of kinds in play: draws, busts, the
  observed rate with a 95% interval, the expected rate (the mean exact chance), and a z test
  of observed against expected. Busts minus their exact chances have mean zero draw by draw
  whatever the players decide (a martingale), so the test checks the engine and the data.
- **Turns by strategy**: bust rate, points per turn, cards placed.
- **Plunder sizes**: how many cards each plunder banked, overall and per strategy.
- **Key + Chest**: how often a plunder pays the bonus, the bonus cards and points it brings.
- **Power use**: per strategy and kind, powers applied per game and powers with nothing to act
  on.
"""

from __future__ import annotations

import math

import duckdb
import pyarrow as pa

from pipelines.metrics.source import all_cores
from pipelines.stats import clustered_share, wilson

_SEATS = "JOIN seats s USING (run, game_id, seat)"


def _normal_sf2(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def bust_by_kinds(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Blind draws from the pile by kinds in play: observed vs exact bust rate.

    The games of a seed block share their deal (rotated seating), so their draws are not
    independent: intervals and the z statistic use the variance between seed blocks
    (cluster-robust), which stays honest under any seating. Every game's draws count,
    finished or not: the test checks the engine draw by draw, and keeping only the games
    that reached their natural end would choose draws by how their game went (with a low
    turn cap, the games that still end are those whose pile ran out fast) and bias it."""
    rows = con.sql(
        """WITH per_block AS (
               SELECT d.run, g.block, d.kinds_in_play AS m, count(*) AS draws,
                      sum(d.bust::INT) AS busts,
                      sum(d.busting::DOUBLE / d.pile_size) AS expected
               FROM draws d JOIN games_all g USING (run, game_id)
               WHERE d.draw != 'draw_known'
               GROUP BY 1, 2, 3)
           SELECT m, sum(draws)::BIGINT, sum(busts)::BIGINT, sum(expected)::DOUBLE,
                  list(draws), list(busts), list(expected)
           FROM per_block GROUP BY 1 ORDER BY 1"""
    ).fetchall()
    out: dict[str, list[object]] = {
        k: []
        for k in (
            "kinds_in_play", "draws", "busts", "observed", "low", "high", "exact", "z",
            "p_value", "blocks",
        )
    }  # fmt: skip
    for m, draws, busts, expected, n_c, b_c, e_c in rows:
        rate = busts / draws
        spread = sum((b - rate * n) ** 2 for b, n in zip(b_c, n_c, strict=True))
        clusters = len(n_c)
        se = math.sqrt(spread * clusters / max(1, clusters - 1)) / draws
        low, high = clustered_share(busts, draws, se, clusters)
        gap = sum((b - e) ** 2 for b, e in zip(b_c, e_c, strict=True))
        z = (busts - expected) / math.sqrt(gap) if gap > 0 else 0.0
        out["kinds_in_play"].append(int(m))
        out["draws"].append(int(draws))
        out["busts"].append(int(busts))
        out["observed"].append(rate)
        out["low"].append(low)
        out["high"].append(high)
        out["exact"].append(expected / draws)
        out["z"].append(z)
        out["p_value"].append(_normal_sf2(z) if gap > 0 else 1.0)
        out["blocks"].append(len(n_c))
    return pa.table(
        out,
        schema=pa.schema(
            [
                ("kinds_in_play", pa.int64()),
                ("draws", pa.int64()),
                ("busts", pa.int64()),
                ("observed", pa.float64()),
                ("low", pa.float64()),
                ("high", pa.float64()),
                ("exact", pa.float64()),
                ("z", pa.float64()),
                ("p_value", pa.float64()),
                ("blocks", pa.int64()),
            ]
        ),
    )


def turns_by_strategy(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per strategy: turns, bust rate (Wilson interval), points and cards per turn."""
    table = con.sql(
        f"""SELECT s.strategy::VARCHAR AS strategy, count(*)::BIGINT AS turns,
                  sum((t.reason = 'bust')::INT)::BIGINT AS busts,
                  avg(t.points)::DOUBLE AS points_per_turn,
                  avg(t.placed)::DOUBLE AS cards_placed,
                  avg(CASE WHEN t.reason != 'bust' THEN t.banked END)::DOUBLE AS plunder_size
           FROM turns t {_SEATS} GROUP BY 1 ORDER BY 1"""
    ).to_arrow_table()
    busts = table.column("busts").to_pylist()
    turns = table.column("turns").to_pylist()
    bounds = [wilson(float(b), int(n)) for b, n in zip(busts, turns, strict=True)]
    table = table.append_column(
        "bust_rate", pa.array([b / n for b, n in zip(busts, turns, strict=True)], pa.float64())
    )
    table = table.append_column("low", pa.array([b[0] for b in bounds], pa.float64()))
    return table.append_column("high", pa.array([b[1] for b in bounds], pa.float64()))


def turn_endings(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """How turns end: chosen plunder, Spyglass plunder, empty pile, bust; share of turns."""
    return con.sql(
        """SELECT reason::VARCHAR AS reason, count(*)::BIGINT AS turns,
                  (count(*) / sum(count(*)) OVER ())::DOUBLE AS share
           FROM turns GROUP BY 1 ORDER BY 2 DESC"""
    ).to_arrow_table()


def plunder_sizes(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per strategy and cards banked by a plunder: plunders and their share."""
    return con.sql(
        f"""WITH counted AS (
                SELECT s.strategy::VARCHAR AS strategy, t.banked AS cards,
                       count(*)::BIGINT AS plunders
                FROM turns t {_SEATS} WHERE t.reason != 'bust' GROUP BY 1, 2)
           SELECT strategy, cards, plunders,
                  (plunders / sum(plunders) OVER (PARTITION BY strategy))::DOUBLE AS share
           FROM counted ORDER BY 1, 2"""
    ).to_arrow_table()


def key_chest(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per strategy: plunders, those paying the Key + Chest bonus (share with interval), and
    the bonus's mean cards and points."""
    with all_cores(con):  # integer counts, and means of integers (exact in DuckDB)
        table = con.sql(
            f"""WITH bonus AS (
                    SELECT run, game_id, turn, sum(b)::BIGINT AS points
                    FROM moves WHERE event = 'bonus' GROUP BY 1, 2, 3)
               SELECT s.strategy::VARCHAR AS strategy,
                      sum((t.reason != 'bust')::INT)::BIGINT AS plunders,
                      sum(t.key_chest::INT)::BIGINT AS bonuses,
                      avg(CASE WHEN t.key_chest THEN t.bonus_cards END)::DOUBLE AS mean_cards,
                      avg(CASE WHEN t.key_chest THEN coalesce(b.points, 0) END)::DOUBLE
                          AS mean_points
               FROM turns t {_SEATS}
               LEFT JOIN bonus b ON b.run = t.run AND b.game_id = t.game_id AND b.turn = t.turn
               GROUP BY 1 ORDER BY 1"""
        ).to_arrow_table()
    bonuses = table.column("bonuses").to_pylist()
    plunders = table.column("plunders").to_pylist()
    share = [b / p if p else 0.0 for b, p in zip(bonuses, plunders, strict=True)]
    bounds = [wilson(float(b), int(p)) for b, p in zip(bonuses, plunders, strict=True)]
    table = table.append_column("share", pa.array(share, pa.float64()))
    table = table.append_column("low", pa.array([b[0] for b in bounds], pa.float64()))
    return table.append_column("high", pa.array([b[1] for b in bounds], pa.float64()))


#: Power events of the move log: (power, SQL condition on a moves row).
_POWERS = (
    ("helm", "event = 'place' AND b = 1"),
    ("knife", "event = 'place' AND b = 2"),
    ("candle", "event = 'place' AND b = 3"),
    ("pistol", "event = 'pistol'"),
    ("rum", "event = 'rum'"),
    ("spyglass_back", "event = 'spyglass_back'"),
    ("spyglass_reveal", "event = 'reveal' AND b = 4"),
    ("anchor_keep", "event = 'anchor_keep'"),
    ("key_chest", "event = 'bonus' AND a > 0 AND c = -1"),
)

#: The events any of the power conditions above can match.
_POWER_EVENTS = ", ".join(
    f"'{e}'"
    for e in ("place", "pistol", "rum", "spyglass_back", "reveal", "anchor_keep", "bonus",
              "no_effect")
)  # fmt: skip


def power_use(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per strategy and power: uses, and uses per game the strategy played (one seat of one
    game); ``*_nothing`` counts powers that had nothing to act on."""
    cases = ",\n".join(f"sum(({cond})::INT)::BIGINT AS {name}" for name, cond in _POWERS)
    empties = ",\n".join(
        f"sum((event = 'no_effect' AND a = {k})::INT)::BIGINT AS {name}_nothing"
        for k, name in ((1, "helm"), (4, "candle"), (5, "knife"), (7, "pistol"), (9, "spyglass"))
    )
    names = [name for name, _ in _POWERS]
    names += [f"{n}_nothing" for n in ("helm", "candle", "knife", "pistol", "spyglass")]
    totals = ", ".join(f"coalesce(sum(u.{n}), 0)::BIGINT AS {n}" for n in names)
    # Power rows are a few percent of the move log: they are picked out and counted per seat
    # of a game before the join to seats, instead of joining every move row (a third of a
    # million-game report's time). A strategy that used no power still gets its zeros.
    with all_cores(con):  # integer counts only
        table = con.sql(
            f"""WITH per_seat AS (
                    SELECT run, game_id, seat, {cases}, {empties}
                    FROM moves WHERE event IN ({_POWER_EVENTS}) GROUP BY 1, 2, 3),
               played AS (
                    SELECT strategy::VARCHAR AS strategy, count(*)::BIGINT AS games
                    FROM seats GROUP BY 1),
               used AS (
                    SELECT s.strategy::VARCHAR AS strategy, {totals}
                    FROM seats s LEFT JOIN per_seat u USING (run, game_id, seat) GROUP BY 1)
               SELECT * FROM played JOIN used USING (strategy) ORDER BY strategy"""
        ).to_arrow_table()
    rows = table.to_pylist()
    long: dict[str, list[object]] = {k: [] for k in ("strategy", "power", "uses", "per_game")}
    for r in rows:
        for name in table.column_names[2:]:
            long["strategy"].append(r["strategy"])
            long["power"].append(name)
            long["uses"].append(int(r[name]))
            long["per_game"].append(int(r[name]) / max(1, int(r["games"])))
    return pa.table(long)
