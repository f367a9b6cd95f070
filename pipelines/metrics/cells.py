"""Where things happen on the island: per island and cell, treasures raised, amulets that
appeared, and ATV start cells with the win share of the players who started there.

Cells are the island's cell ids (as in the move log); :func:`cell_geometry` adds their axial
coordinates and terrain so that reports can draw hex maps without knowing the game.
"""

from __future__ import annotations

import duckdb
import pyarrow as pa

from sim.tobago.catalog import resolve_board
from sim.tobago.terrain import TERRAIN_NAMES


def heat(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per island and cell: treasures raised there and amulets that appeared there."""
    return con.sql(
        """
        SELECT g.island::VARCHAR AS island, m.cell,
               sum(CASE WHEN m.kind = 'raise' THEN 1 ELSE 0 END)::BIGINT AS raises,
               sum(CASE WHEN m.kind = 'amulet' THEN 1 ELSE 0 END)::BIGINT AS amulets
        FROM (
            SELECT run, game_id, 'raise' AS kind, b AS cell FROM moves WHERE event = 'raise'
            UNION ALL
            SELECT run, game_id, 'amulet' AS kind, a AS cell FROM moves
            WHERE event = 'amulet_appears'
        ) m JOIN games g USING (run, game_id)
        GROUP BY 1, 2 ORDER BY 1, 2
        """
    ).to_arrow_table()


def start_cells(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per island and ATV start cell: seats that started there and their win share."""
    return con.sql(
        """
        SELECT g.island::VARCHAR AS island, m.a AS cell, count(*)::BIGINT AS seats,
               avg(s.win_share)::DOUBLE AS win_share
        FROM moves m
        JOIN games g ON g.run = m.run AND g.game_id = m.game_id
        JOIN seats s ON s.run = m.run AND s.game_id = m.game_id AND s.seat = m.seat
        WHERE m.event = 'start_cell'
        GROUP BY 1, 2 ORDER BY 1, 2
        """
    ).to_arrow_table()


def cell_geometry(islands: list[str]) -> pa.Table:
    """Every cell of the named islands: island, cell id, axial q and r, terrain name."""
    cols: dict[str, list[object]] = {"island": [], "cell": [], "q": [], "r": [], "terrain": []}
    for name in islands:
        island = resolve_board(name).island
        for i, ((q, r), t) in enumerate(zip(island.coords, island.terrain, strict=True)):
            cols["island"].append(name)
            cols["cell"].append(i)
            cols["q"].append(q)
            cols["r"].append(r)
            cols["terrain"].append(TERRAIN_NAMES[t])
    return pa.table(cols)
