"""Where things happen: heat per cell and ATV start cells, by hand on the fixture."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.metrics.source import connect, open_run
from pipelines.tobago import cells
from sim.seeding import stream
from sim.tobago.catalog import resolve_board
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
    table = cells.cell_geometry({"abc-1": resolve_board("abc-1")}).to_pylist()
    assert len(table) == 75 and table[0]["cell"] == 0
    assert {r["terrain"] for r in table} == {
        "jungle",
        "mountain",
        "scrub",
        "beach",
        "river",
        "lake",
    }


def test_landmark_frequency_replays_the_games_placements() -> None:
    board = resolve_board("abc-1")
    one = cells.landmark_frequency(board, [7], 4).to_pylist()
    placed = board.landmarks(stream(7, "landmarks"), 4)  # what the engine places for seed 7
    assert {(r["kind"], r["cell"]) for r in one} == {
        *(("hut", c) for c in placed.huts),
        *(("palm", c) for c in placed.palms),
        *(("statue", c) for c in placed.statues),
    }
    assert all(r["share"] == 1.0 and r["facing"] == -1 for r in one)
    many = cells.landmark_frequency(board, list(range(200)), 4).to_pylist()
    huts = sum(r["share"] for r in many if r["kind"] == "hut")
    assert huts == pytest.approx(4.0)  # four huts in every game


def test_fixed_landmarks_stand_in_every_game() -> None:
    board = resolve_board("data/islands/example.island")
    assert board.fixed is not None
    rows = cells.landmark_frequency(board, [1, 2, 3], 4).to_pylist()
    assert all(r["share"] == 1.0 for r in rows)
    assert {r["cell"] for r in rows if r["kind"] == "hut"} == set(board.fixed.huts)
