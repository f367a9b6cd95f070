"""Where things happen: heat per cell and ATV start cells, by hand on the fixture."""

from __future__ import annotations

from pathlib import Path

from pipelines.metrics import cells
from pipelines.metrics.source import connect, open_run
from tests.metrics.fixture import write_fixture


def test_heat_and_start_cells(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    heat = {(r["island"], r["cell"]): r for r in cells.heat(con).to_pylist()}
    assert heat[("isle-1", 5)]["raises"] == 2 and heat[("isle-1", 5)]["amulets"] == 0
    assert heat[("isle-1", 7)]["amulets"] == 1 and heat[("isle-1", 7)]["raises"] == 0
    starts = {(r["island"], r["cell"]): r for r in cells.start_cells(con).to_pylist()}
    assert starts[("isle-1", 3)]["seats"] == 2 and starts[("isle-1", 3)]["win_share"] == 0.5
    assert starts[("isle-2", 1)]["seats"] == 1 and starts[("isle-2", 1)]["win_share"] == 0.0


def test_cell_geometry_lists_every_cell() -> None:
    table = cells.cell_geometry(["abc-1"]).to_pylist()
    assert len(table) == 75 and table[0]["cell"] == 0
    assert {r["terrain"] for r in table} == {
        "jungle",
        "mountain",
        "scrub",
        "beach",
        "river",
        "lake",
    }
