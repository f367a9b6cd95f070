"""Test helper: build an unvalidated island from a small hand drawing."""

from __future__ import annotations

from sim.tobago.island import Island
from sim.tobago.island_file import drawn_cells
from sim.tobago.terrain import OCEAN_LETTER, TERRAIN_BY_LETTER


def draw(text: str, name: str = "test") -> Island:
    """Rows of terrain letters (row 0 = r 0, first hex column = q 0) as an Island."""
    rows = [(i + 1, line) for i, line in enumerate(text.strip("\n").splitlines())]
    cells, _ = drawn_cells("<test>", rows, "JMSBRL.", "terrain", 0, 0)
    return Island(name, [(c, TERRAIN_BY_LETTER[ch]) for c, ch, _ in cells if ch != OCEAN_LETTER])


def cells(island: Island, mask: int) -> set[tuple[int, int]]:
    """The axial coordinates of the cells in ``mask``."""
    return {island.coords[i] for i in range(island.n) if (mask >> i) & 1}
