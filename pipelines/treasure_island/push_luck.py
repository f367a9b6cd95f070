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
from typing import Any

import duckdb
import pyarrow as pa

from pipelines.metrics.clustered import clustered_ratios, rows_table
from pipelines.metrics.source import all_cores
from pipelines.stats.core import clustered_share

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


#: Turns with their seat's strategy and their game's seed block (the unit of every interval).
_TURNS = """(SELECT t.*, s.strategy::VARCHAR AS strategy, g.block
             FROM turns t JOIN seats s USING (run, game_id, seat)
             JOIN games g USING (run, game_id)) src"""


def _ratios(
    con: duckdb.DuckDBPyConnection,
    source: str,
    groups: list[str],
    ratios: dict[str, tuple[str, str]],
    shares: tuple[str, ...] = (),
) -> list[dict[str, Any]]:
    """:func:`clustered_ratios` on every core: every sum here is of integers (counts, points,
    cards) and their products, exact in a double whatever order DuckDB adds them in."""
    with all_cores(con):
        return clustered_ratios(con, source, groups, ratios, shares)


def turns_by_strategy(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per strategy: turns, busts and the bust rate, points and cards placed per turn, and
    cards banked per plunder, each with its 95% interval over seed blocks."""
    rows = _ratios(
        con,
        _TURNS,
        ["strategy"],
        {
            "bust_rate": ("(reason = 'bust')::INT", "1"),
            "points_per_turn": ("points", "1"),
            "cards_placed": ("placed", "1"),
            "plunder_size": ("CASE WHEN reason != 'bust' THEN banked ELSE 0 END",
                             "(reason != 'bust')::INT"),
        },
        shares=("bust_rate",),
    )  # fmt: skip
    for r in rows:
        r["turns"], r["busts"] = int(r["bust_rate_n"]), int(r["bust_rate_sum"])
        r["low"], r["high"] = r["bust_rate_low"], r["bust_rate_high"]
        r["plunders"] = int(r["plunder_size_n"])
    f, i = pa.float64(), pa.int64()
    return rows_table(
        rows,
        {
            "strategy": pa.string(), "turns": i, "busts": i, "bust_rate": f, "low": f, "high": f,
            "points_per_turn": f, "points_per_turn_low": f, "points_per_turn_high": f,
            "cards_placed": f, "cards_placed_low": f, "cards_placed_high": f, "plunders": i,
            "plunder_size": f, "plunder_size_low": f, "plunder_size_high": f,
        },
    )  # fmt: skip


def turn_endings(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """How turns end (chosen plunder, Spyglass plunder, empty pile, bust): turns and their
    share of all turns with its 95% interval over seed blocks, most frequent first."""
    reasons = [str(r[0]) for r in con.sql("SELECT DISTINCT reason::VARCHAR FROM turns").fetchall()]
    (row,) = _ratios(
        con,
        _TURNS,
        [],
        {r: (f"(reason::VARCHAR = '{r}')::INT", "1") for r in reasons},
        shares=tuple(reasons),
    )
    rows = [
        {
            "reason": r,
            "turns": int(row[f"{r}_sum"]),
            "share": row[r],
            "low": row[f"{r}_low"],
            "high": row[f"{r}_high"],
        }
        for r in reasons
    ]
    rows.sort(key=lambda r: (-r["turns"], r["reason"]))
    f = pa.float64()
    return rows_table(
        rows, {"reason": pa.string(), "turns": pa.int64(), "share": f, "low": f, "high": f}
    )


def plunder_sizes(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per strategy and cards banked by a plunder: plunders and their share of the
    strategy's plunders with its 95% interval over seed blocks."""
    sizes = [
        int(r[0])
        for r in con.sql(
            "SELECT DISTINCT banked FROM turns WHERE reason != 'bust' ORDER BY 1"
        ).fetchall()
    ]
    found = _ratios(
        con,
        _TURNS,
        ["strategy"],
        {
            f"c{k}": (f"(reason != 'bust' AND banked = {k})::INT", "(reason != 'bust')::INT")
            for k in sizes
        },
        shares=tuple(f"c{k}" for k in sizes),
    )
    rows = []
    for r in found:
        for k in sizes:
            count = int(r[f"c{k}_sum"])
            if count:
                rows.append(
                    {
                        "strategy": r["strategy"],
                        "cards": k,
                        "plunders": count,
                        "share": r[f"c{k}"],
                        "low": r[f"c{k}_low"],
                        "high": r[f"c{k}_high"],
                    }
                )
    f = pa.float64()
    return rows_table(
        rows,
        {
            "strategy": pa.string(), "cards": pa.int64(), "plunders": pa.int64(), "share": f,
            "low": f, "high": f,
        },
    )  # fmt: skip


def key_chest(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per strategy: plunders, those paying the Key + Chest bonus (share with interval; a
    bonus with nothing left in the discard pays none, counted in ``empty``), and the bonus's
    mean cards and points, each with its 95% interval over seed blocks."""
    rows = _ratios(
        con,
        f"""(SELECT src.*, coalesce(b.points, 0) AS bonus_points FROM {_TURNS}
             LEFT JOIN (SELECT run, game_id, turn, sum(b)::BIGINT AS points
                        FROM moves WHERE event = 'bonus' GROUP BY 1, 2, 3) b
             ON b.run = src.run AND b.game_id = src.game_id AND b.turn = src.turn) k""",
        ["strategy"],
        {
            "share": ("key_chest::INT", "(reason != 'bust')::INT"),
            "empty": ("(key_chest AND bonus_cards = 0)::INT", "key_chest::INT"),
            "mean_cards": ("CASE WHEN key_chest THEN bonus_cards ELSE 0 END", "key_chest::INT"),
            "mean_points": ("CASE WHEN key_chest THEN bonus_points ELSE 0 END",
                            "key_chest::INT"),
        },
        shares=("share",),
    )  # fmt: skip
    for r in rows:
        r["plunders"] = int(r["share_n"])
        r["bonuses"] = int(r["mean_cards_n"])
        r["empty_bonuses"] = int(r["empty_sum"])
        r["low"], r["high"] = r["share_low"], r["share_high"]
    f, i = pa.float64(), pa.int64()
    return rows_table(
        rows,
        {
            "strategy": pa.string(), "plunders": i, "bonuses": i, "empty_bonuses": i,
            "share": f, "low": f, "high": f, "mean_cards": f, "mean_cards_low": f,
            "mean_cards_high": f, "mean_points": f, "mean_points_low": f, "mean_points_high": f,
        },
    )  # fmt: skip


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
    # The bonus's summary row (c = -1): every bonus paid, the same count as the key_chest
    # table's; one with an empty discard brought nothing (key_chest_nothing).
    ("key_chest", "event = 'bonus' AND c = -1"),
)

#: The events any of the power conditions above can match.
_POWER_EVENTS = ", ".join(
    f"'{e}'"
    for e in ("place", "pistol", "rum", "spyglass_back", "reveal", "anchor_keep", "bonus",
              "no_effect")
)  # fmt: skip


def power_use(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per strategy and power: uses, and uses per game the strategy played (one seat of one
    game) with its 95% interval over seed blocks; ``*_nothing`` counts powers that had
    nothing to act on (``key_chest_nothing``: a bonus paid from an empty discard)."""
    cases = ",\n".join(f"sum(({cond})::INT)::BIGINT AS {name}" for name, cond in _POWERS)
    nothing = ((1, "helm"), (4, "candle"), (5, "knife"), (7, "pistol"), (9, "spyglass"))
    empties = ",\n".join(
        f"sum((event = 'no_effect' AND a = {k})::INT)::BIGINT AS {name}_nothing"
        for k, name in nothing
    )
    empties += ",\nsum((event = 'bonus' AND c = -1 AND a = 0)::INT)::BIGINT AS key_chest_nothing"
    names = [name for name, _ in _POWERS]
    names += [f"{n}_nothing" for _, n in nothing] + ["key_chest_nothing"]
    values = ", ".join(f"coalesce(u.{n}, 0) AS {n}" for n in names)
    # Power rows are a few percent of the move log: they are picked out and counted per seat
    # of a game before the join to seats, instead of joining every move row (a third of a
    # million-game report's time). A strategy that used no power still gets its zeros.
    source = f"""(WITH per_seat AS (
                      SELECT run, game_id, seat, {cases}, {empties}
                      FROM moves WHERE event IN ({_POWER_EVENTS}) GROUP BY 1, 2, 3)
                  SELECT s.strategy::VARCHAR AS strategy, g.run, g.block, {values}
                  FROM seats s JOIN games g USING (run, game_id)
                  LEFT JOIN per_seat u USING (run, game_id, seat)) p"""
    rows = _ratios(con, source, ["strategy"], {n: (n, "1") for n in names})
    long: dict[str, list[object]] = {
        k: [] for k in ("strategy", "power", "uses", "per_game", "low", "high")
    }
    for r in rows:
        for name in names:
            long["strategy"].append(r["strategy"])
            long["power"].append(name)
            long["uses"].append(int(r[f"{name}_sum"]))
            long["per_game"].append(r[name])
            long["low"].append(r[f"{name}_low"])
            long["high"].append(r[f"{name}_high"])
    return pa.table(long)
