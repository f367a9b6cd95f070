"""The report's game-shape section on small real runs of both games (page, summary and
``report.json``), a run that kept no move log, and the choices per decision counted in games
played again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.metrics.source import connect, open_run
from pipelines.play import choices
from pipelines.play.replay import replay_game
from pipelines.report.game_shape import NO_MOVE_LOG, NOT_COUNTED

runner = CliRunner()
MEASURES = ("lead_changes", "comeback", "tied_at_two_thirds", "decided_at")


def _report(run: Path, out: Path) -> dict[str, Any]:
    result = runner.invoke(app, ["report", str(run), "--out", str(out)])
    assert result.exit_code == 0, result.output
    obj: dict[str, Any] = json.loads((out / "report.json").read_text())
    return obj


def _check_section(obj: dict[str, Any], out: Path, games: int) -> None:
    (record,) = obj["game_shape"]  # one cohort, one table size
    assert record["n_players"] == 4 and record["note"] is None
    for name in MEASURES:
        m = record[name]
        assert m["low"] <= m["estimate"] <= m["high"] and 0 < m["games"] <= games
    assert record["lead_changes"]["games"] == games
    c = record["choices_per_decision"]
    assert c["games"] == min(choices.SAMPLE, games) and c["low"] <= c["mean"] <= c["high"]
    assert c["choices"] >= c["decisions"] > 0 and record["choices_note"] is None
    assert sorted({p["point"] for p in record["trajectory"]}) == list(range(1, 11))
    summary = (out / "summary.md").read_text()
    assert "## Game shape" in summary and record["text"] in summary
    assert "### Game shape, 4 players" in summary
    page = (out / "index.html").read_text()
    assert 'id="game-shape"' in page and "Line chart of the eventual winner" in page
    assert (out / "tables" / "game_shape.parquet").is_file()


def test_a_tobago_report_has_the_game_shape(small_run: Path, tmp_path: Path) -> None:
    _check_section(_report(small_run, tmp_path / "rep"), tmp_path / "rep", 48)


def test_a_treasure_island_report_has_the_game_shape(tmp_path: Path) -> None:
    run = tmp_path / "ti"
    result = runner.invoke(app, ["simulate", "--game", "treasure-island", "--games", "60",
                                 "--seed", "3", "--engine", "reference", "--backend", "serial",
                                 "--out", str(run)])  # fmt: skip
    assert result.exit_code == 0, result.output
    _check_section(_report(run, tmp_path / "rep"), tmp_path / "rep", 60)


def test_a_run_without_a_move_log_says_so(tmp_path: Path) -> None:
    run = tmp_path / "compiled"
    result = runner.invoke(app, ["simulate", "--game", "treasure-island", "--games", "40",
                                 "--seed", "3", "--engine", "compiled", "--backend", "serial",
                                 "--out", str(run)])  # fmt: skip
    assert result.exit_code == 0, result.output
    obj = _report(run, tmp_path / "rep")
    assert obj["game_shape"] == [{"cohort": 0, "n_players": None, "note": NO_MOVE_LOG}]
    summary = (tmp_path / "rep" / "summary.md").read_text()
    assert NO_MOVE_LOG in summary.split("## Game shape", 1)[1]
    assert not (tmp_path / "rep" / "tables" / "game_shape.parquet").exists()


def test_choices_are_counted_at_every_decision_the_referee_counts(small_run: Path) -> None:
    run = open_run(small_run)
    for game_id in (0, 7):
        tally = choices.count_game(run, game_id)  # replayed and checked against its log
        played, _ = replay_game(run, game_id)
        assert tally.decisions == played.game.decisions > 0
        assert tally.choices > tally.decisions  # some decisions offer more than one answer


def test_the_sample_is_spread_evenly_over_the_games(small_run: Path) -> None:
    with connect([open_run(small_run)]) as con:
        picked = choices.sample(con, 5)
    assert [g for _, _, _, g in picked] == [0, 9, 18, 27, 36]  # every 48 // 5 = 9th game


@pytest.mark.parametrize("size", [1, 3])
def test_a_smaller_sample_counts_fewer_games(small_run: Path, size: int) -> None:
    run = open_run(small_run)
    with connect([run]) as con:
        table, why = choices.choices_per_decision(con, [run], size)
    assert why is None and table.column("games").to_pylist() == [size]
    low, high = table.column("low")[0].as_py(), table.column("high")[0].as_py()
    assert (low is None) == (size == 1)  # one block: no interval
    assert high is None or low <= table.column("mean")[0].as_py() <= high


def test_a_report_can_count_choices_in_fewer_games_or_none(small_run: Path, tmp_path: Path) -> None:
    # A search player's games cost as much to play again as in the run: --choices bounds it.
    args = ["report", str(small_run), "--format", "md,json", "--out"]
    made = runner.invoke(app, [*args, str(tmp_path / "three"), "--choices", "3"])
    assert made.exit_code == 0, made.output
    (record,) = json.loads((tmp_path / "three" / "report.json").read_text())["game_shape"]
    assert record["choices_per_decision"]["games"] == 3
    assert (
        "counted in up to 3 games per table size" in (tmp_path / "three" / "summary.md").read_text()
    )
    made = runner.invoke(app, [*args, str(tmp_path / "none"), "--choices", "0"])
    assert made.exit_code == 0, made.output
    (record,) = json.loads((tmp_path / "none" / "report.json").read_text())["game_shape"]
    assert record["choices_per_decision"] is None and record["choices_note"] == NOT_COUNTED
    assert record["lead_changes"]["games"] == 48  # the other measures are all there
    summary = (tmp_path / "none" / "summary.md").read_text()
    assert NOT_COUNTED in summary and "choices per decision (games played again)" not in summary


def test_a_negative_choices_is_one_line_exit_2(small_run: Path, tmp_path: Path) -> None:
    made = runner.invoke(app, ["report", str(small_run), "--out", str(tmp_path / "r"),
                               "--choices", "-1"])  # fmt: skip
    assert made.exit_code == 2 and made.output.strip().count("\n") == 0
    assert "--choices -1" in made.output and "0 (not counted) or more" in made.output
    assert not (tmp_path / "r").exists()  # nothing written


def test_the_command_and_the_api_default_to_the_sample() -> None:
    import inspect

    from pipelines.cli.games import report_cmd
    from tourney import api

    assert inspect.signature(api.report).parameters["choices"].default == choices.SAMPLE
    assert inspect.signature(report_cmd).parameters["choices"].default == choices.SAMPLE
