"""Where things happen on the island: per island and cell, treasures raised, amulets that
appeared, and ATV start cells with the win share of the players who started there.

Cells are the island's cell ids (as in the move log); :func:`cell_geometry` adds their axial
coordinates and terrain, and :func:`landmark_frequency` where landmarks stood, so that
reports can draw hex maps without knowing the game.
"""

from __future__ import annotations

import duckdb
import pyarrow as pa

from pipelines.metrics.clustered import clustered
from sim.seeding import stream
from sim.tobago.board import Board
from sim.tobago.terrain import TERRAIN_NAMES


def heat(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per island and cell: treasures raised there and amulets that appeared there."""
    # One filter per event: DuckDB pushes a single equality on the dictionary-encoded event
    # into the Parquet scan (an IN list or OR is several times slower on large runs).
    return con.sql(
        """
        WITH r AS (
            SELECT g.island::VARCHAR AS island, m.b AS cell, count(*)::BIGINT AS raises
            FROM moves m JOIN games g USING (run, game_id)
            WHERE m.event = 'raise' GROUP BY 1, 2),
        a AS (
            SELECT g.island::VARCHAR AS island, m.a AS cell, count(*)::BIGINT AS amulets
            FROM moves m JOIN games g USING (run, game_id)
            WHERE m.event = 'amulet_appears' GROUP BY 1, 2)
        SELECT island, cell, coalesce(r.raises, 0)::BIGINT AS raises,
               coalesce(a.amulets, 0)::BIGINT AS amulets
        FROM r FULL OUTER JOIN a USING (island, cell)
        ORDER BY 1, 2
        """
    ).to_arrow_table()


def start_cells(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per island and ATV start cell: seats that started there and their win share with its
    95% interval (seed blocks as the unit)."""
    rows = clustered(
        con,
        """SELECT s.island::VARCHAR AS island, m.a AS cell, s.run, s.block, s.win_share
           FROM moves m JOIN seat_games s USING (run, game_id, seat)
           WHERE m.event = 'start_cell'""",
        ["island", "cell"],
        "win_share",
        share=True,
    )
    f = pa.float64()
    return pa.table(
        {
            "island": pa.array([r["island"] for r in rows], pa.string()),
            "cell": pa.array([r["cell"] for r in rows], pa.int64()),
            "seats": pa.array([r["n"] for r in rows], pa.int64()),
            "win_share": pa.array([r["mean"] for r in rows], f),
            "low": pa.array([r["low"] for r in rows], f),
            "high": pa.array([r["high"] for r in rows], f),
        }
    )


def cell_geometry(boards: dict[str, Board]) -> pa.Table:
    """Every cell of the given boards (name -> board): island, cell id, axial q and r,
    terrain name."""
    cols: dict[str, list[object]] = {"island": [], "cell": [], "q": [], "r": [], "terrain": []}
    for name, board in boards.items():
        island = board.island
        for i, ((q, r), t) in enumerate(zip(island.coords, island.terrain, strict=True)):
            cols["island"].append(name)
            cols["cell"].append(i)
            cols["q"].append(q)
            cols["r"].append(r)
            cols["terrain"].append(TERRAIN_NAMES[t])
    return pa.table(cols)


def landmark_frequency(board: Board, seeds: list[int], min_distance: int) -> pa.Table:
    """Where the landmarks stood in the games of ``seeds`` on ``board``: per kind and cell,
    the share of those games with that landmark there, and a statue's facing when the board
    fixes it (-1 otherwise). Games place landmarks from their own seed (the same stream the
    engine uses), so this replays the placements without replaying the games."""
    counts: dict[tuple[str, int], int] = {}
    facing: dict[int, int] = {}
    fixed = board.fixed
    for seed in seeds:
        placed = board.landmarks(stream(seed, "landmarks"), min_distance)
        for kind, where in (
            ("hut", placed.huts),
            ("palm", placed.palms),
            ("statue", placed.statues),
        ):
            for cell in where:
                counts[(kind, cell)] = counts.get((kind, cell), 0) + 1
    if fixed is not None:
        for cell, f in zip(fixed.statues, fixed.facings, strict=True):
            facing[cell] = -1 if f is None else f
    rows = sorted(counts.items())
    total = max(1, len(seeds))
    return pa.table(
        {
            "kind": pa.array([k for (k, _), _ in rows], pa.string()),
            "cell": pa.array([c for (_, c), _ in rows], pa.int32()),
            "share": pa.array([n / total for _, n in rows], pa.float64()),
            "facing": pa.array([facing.get(c, -1) for (_, c), _ in rows], pa.int8()),
        }
    )
