"""Runs on island files: the run records the board it played, reports draw that board from
any directory (even after the file is gone), and a resume refuses a file that changed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments.simulate import resolve
from pipelines.metrics.source import island_file_argument, open_run, recorded_board
from sim.paths import data_dir
from sim.runner.run import read_manifest, run
from sim.runner.shard import ShardSummary
from sim.tobago.boards import board_from_record, board_record, read_island_file
from sim.tobago.catalog import resolve_board

runner = CliRunner()
EXAMPLE = data_dir() / "islands" / "example.island"


def simulate(island: str, out: Path, games: int = 16) -> None:
    args = ["simulate", "--backend", "serial", "--games", str(games), "--shard-size", "8",
            "--islands", island, "--out", str(out)]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output


def drawn_cells(report_dir: Path) -> set[tuple[int, int]]:
    table = pq.read_table(report_dir / "tables" / "map_cells.parquet").to_pylist()
    return {(r["q"], r["r"]) for r in table}


def test_a_run_on_the_example_island_file_is_reported_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(EXAMPLE, work / "example.island")
    monkeypatch.chdir(work)
    simulate("example.island", tmp_path / "run")  # the spec holds the relative path
    manifest = read_manifest(tmp_path / "run")
    assert manifest is not None
    entry = manifest["boards"]["example.island"]
    assert entry["name"] == "example" and entry["sha256"] == read_island_file(str(EXAMPLE))[0]
    monkeypatch.chdir(tmp_path)  # where example.island means nothing
    result = runner.invoke(app, ["report", str(tmp_path / "run"), "--format", "json"])
    assert result.exit_code == 0, result.output
    board = resolve_board(str(EXAMPLE))
    assert drawn_cells(tmp_path / "run" / "report") == set(board.island.coords)
    info = open_run(tmp_path / "run")
    assert island_file_argument(info, "example") == "example.island"
    assert island_file_argument(info, "aBc-2") is None
    # A game of it replays from anywhere: the run recorded the board it played.
    replayed = runner.invoke(app, ["play", "--run", str(tmp_path / "run"), "--game-id", "3"])
    assert replayed.exit_code == 0, replayed.output
    assert "island example" in replayed.output and "move rows match the run's" in replayed.output


def test_an_edited_export_is_drawn_with_its_own_cells(tmp_path: Path) -> None:
    """An island file named like a built-in (an exported aBc-2, redrawn): the report draws
    the file's cells, not the built-in island's, even once the file is gone."""
    exported = runner.invoke(app, ["board", "export", "generated:11"]).stdout
    mine = tmp_path / "mine.island"
    mine.write_text(exported.replace('name = "generated:11"', 'name = "aBc-2"'))
    simulate(str(mine), tmp_path / "run")
    mine.unlink()
    result = runner.invoke(app, ["report", str(tmp_path / "run"), "--format", "json"])
    assert result.exit_code == 0, result.output
    drawn = drawn_cells(tmp_path / "run" / "report")
    assert drawn == set(resolve_board("generated:11").island.coords)
    assert drawn != set(resolve_board("aBc-2").island.coords)


def test_a_resume_refuses_an_island_file_that_changed(tmp_path: Path) -> None:
    island = tmp_path / "isle.island"
    shutil.copy(EXAMPLE, island)
    config = resolve(
        {"games": 32, "shard_size": 8, "islands": str(island), "backend": "serial",
         "out": str(tmp_path / "run")}, {}, "test",
    )  # fmt: skip

    def stop(summary: ShardSummary) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(config, stop)
    island.write_text(island.read_text() + "# a comment is a change too\n")
    args = ["simulate", "--backend", "serial", "--games", "32", "--shard-size", "8",
            "--islands", str(island), "--out", str(tmp_path / "run")]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "the island file changed since the run started" in lines[0]
    shutil.copy(EXAMPLE, island)  # restored: the run goes on
    assert runner.invoke(app, args).exit_code == 0


@pytest.mark.parametrize("fixed", [True, False])
def test_the_recorded_board_is_the_board_played(tmp_path: Path, fixed: bool) -> None:
    text = EXAMPLE.read_text()
    if not fixed:
        text = text.split("[landmarks]")[0]  # every game places its own landmarks
    path = tmp_path / "isle.island"
    path.write_text(text)
    _, board = read_island_file(str(path))
    again = board_from_record(json.loads(json.dumps(board_record(board))), "record")
    assert again.island.coords == board.island.coords
    assert again.island.terrain == board.island.terrain
    assert again.island.name == board.island.name
    assert again.fixed == board.fixed and (board.fixed is not None) == fixed
    simulate(str(path), tmp_path / "run", games=8)
    assert recorded_board(open_run(tmp_path / "run"), "example").fixed == board.fixed
