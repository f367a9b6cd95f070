"""``tourney board``: list, show (text and JSON), export, and one-line errors with exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli.main import app
from sim.tobago.island_file import parse_island_text
from sim.tobago.modular import load_island

runner = CliRunner()


def test_board_list_json_has_all_islands_with_sizes() -> None:
    result = runner.invoke(app, ["board", "list", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == 32
    by_name = {r["island"]: r for r in rows}
    assert by_name["aBc-2"]["cells"] == load_island("aBc-2").n
    assert all(r["cells"] == r["coast_cells"] + r["inland_cells"] for r in rows)


def test_board_list_text() -> None:
    result = runner.invoke(app, ["board", "list"])
    assert result.exit_code == 0
    assert len(result.stdout.strip().splitlines()) == 33
    assert result.stdout.splitlines()[0].split() == ["island", "cells", "coast", "inland"]


def test_board_show_text_draws_island_landmarks_and_clues() -> None:
    result = runner.invoke(app, ["board", "show", "aBc-2", "--landmarks", "7"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("aBc-2: ")
    assert "h hut  p palm" in out
    assert "in largest_lake" in out
    assert sum(line.count("h ") for line in out.splitlines() if "~" in line) >= 1


def test_board_show_json_matches_the_documented_shape() -> None:
    result = runner.invoke(app, ["board", "show", "generated:3", "--landmarks", "2", "--json"])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["island"] == "generated:3"
    assert set(obj["cells"][0]) == {"q", "r", "terrain"}
    assert set(obj["landmarks"][0]) == {"kind", "q", "r", "facing"}
    assert set(obj["clues"][0]) == {"id", "relation", "target", "cells"}
    assert len(obj["landmarks"]) == 10


def test_board_export_parses_back(tmp_path: Path) -> None:
    result = runner.invoke(app, ["board", "export", "AbC-3", "--landmarks", "4"])
    assert result.exit_code == 0
    board = parse_island_text(result.stdout, "x.island")
    assert board.fixed is not None
    path = tmp_path / "mine.island"
    path.write_text(result.stdout)
    shown = runner.invoke(app, ["board", "show", str(path), "--json"])
    assert shown.exit_code == 0
    assert json.loads(shown.stdout)["island"] == "AbC-3"


def test_unknown_island_is_one_line_exit_2() -> None:
    result = runner.invoke(app, ["board", "show", "atlantis"])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("tourney: error: unknown island 'atlantis' (allowed: a built-in")


def test_bad_island_file_is_one_line_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.island"
    path.write_text("[map]\nJ M S B R\n")
    result = runner.invoke(app, ["board", "show", str(path)])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"tourney: error: {path}: [map]: terrain lake is missing (all six are required)"
    )


def test_bad_deck_is_one_line_exit_2(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('cards = ["in lava"]')
    result = runner.invoke(app, ["board", "show", "abc-1", "--deck", str(deck)])
    assert result.exit_code == 2
    assert "cards[0]: unknown target 'lava'" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_negative_landmark_seed_is_a_usage_error() -> None:
    result = runner.invoke(app, ["board", "show", "abc-1", "--landmarks", "-1"])
    assert result.exit_code == 2


def test_generated_seed_must_be_a_number() -> None:
    result = runner.invoke(app, ["board", "show", "generated:x"])
    assert result.exit_code == 2
    assert "SEED must be a non-negative integer" in result.stderr


def test_console_script_prints_no_traceback(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = Path(sys.executable).parent / "tourney"
    done = subprocess.run(
        [str(script), "board", "show", "generated:-4"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "tourney: error: island 'generated:-4': SEED must be a non-negative integer"
    )
    assert "Traceback" not in done.stderr


def test_board_bench_json_reports_timings() -> None:
    result = runner.invoke(app, ["board", "bench", "--repeat", "1", "--json"])
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["islands"] == 32 and obj["rounds"] == 1
    for key in ("cold_setup", "per_game_setup"):
        row = obj[key]
        assert 0 < row["median_ms"] <= row["p99_ms"] <= row["max_ms"]
