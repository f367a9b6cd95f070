"""Any game of a run replayed exactly (``play --run --game-id``), and plug-ins kept in the
current directory."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.metrics.source import open_run

runner = CliRunner()
SIM = ["simulate", "--backend", "serial", "--shard-size", "8", "--islands", "abc-1,ABC-2"]


def _moves(run: Path, game_id: int) -> list[dict[str, object]]:
    info = open_run(run)
    files = [str(p.path(run)) for p in info.parts["moves"]]
    rows = (
        duckdb.connect()
        .execute(
            "SELECT turn, seat, event::VARCHAR AS event, a, b, c FROM read_parquet(?) "
            "WHERE game_id = ? ORDER BY ply",
            [files, game_id],
        )
        .fetchall()
    )
    return [dict(zip(("turn", "seat", "event", "a", "b", "c"), r, strict=True)) for r in rows]


def test_a_game_of_a_run_replays_row_for_row(tmp_path: Path) -> None:
    run = tmp_path / "r"
    assert (
        runner.invoke(app, [*SIM, "--games", "16", "--seed", "4", "--out", str(run)]).exit_code == 0
    )
    result = runner.invoke(app, ["play", "--run", str(run), "--game-id", "6", "--json"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in result.output.strip().splitlines()]
    assert lines[:-1] == _moves(run, 6) and lines[-1]["event"] == "result"
    text = runner.invoke(app, ["play", "--run", str(run), "--game-id", "6"])
    assert text.exit_code == 0 and "move rows match the run's" in text.output


def test_an_ablation_twin_and_a_changed_rules_file_still_replay(tmp_path: Path) -> None:
    rules = tmp_path / "five.toml"
    rules.write_text('preset = "rulebook"\nhand_size = 5\n')
    run = tmp_path / "five"
    args = [*SIM, "--games", "8", "--rules", str(rules), "--ablate", "curses", "--out", str(run)]
    assert runner.invoke(app, args).exit_code == 0
    rules.write_text('preset = "rulebook"\nhand_size = 3\n')  # the file changed since
    result = runner.invoke(app, ["play", "--run", str(run), "--game-id", "3"])
    assert result.exit_code == 0, result.output
    assert "curse_hit" not in result.output and "move rows match the run's" in result.output


def test_a_replay_that_differs_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.py").write_text(
        "from strategies.tobago.styles import Hunter\n\nclass Mine(Hunter):\n    pass\n"
    )
    run = tmp_path / "r"
    args = [*SIM, "--games", "8", "--players", "mine:Mine,cautious", "--out", str(run)]
    assert runner.invoke(app, args).exit_code == 0
    # The plug-in changes after the run: its game can no longer be replayed as logged.
    (tmp_path / "mine.py").write_text(
        "from strategies.tobago.styles import Cautious\n\nclass Mine(Cautious):\n    pass\n"
    )
    import importlib
    import sys

    importlib.reload(sys.modules["mine"])
    result = runner.invoke(app, ["play", "--run", str(run), "--game-id", "2"])
    assert result.exit_code == 1 and "replayed differently from its logged moves" in result.stderr


def test_bad_replay_requests_are_one_line(tmp_path: Path) -> None:
    run = tmp_path / "r"
    assert runner.invoke(app, [*SIM, "--games", "8", "--out", str(run)]).exit_code == 0
    for args, message in (
        (["--run", str(run), "--game-id", "8"], "the run has games 0 to 7"),
        (["--run", str(run)], "--run and --game-id go together"),
        (["--run", str(run), "--game-id", "1", "--seed", "3"], "--seed cannot be given too"),
    ):
        result = runner.invoke(app, ["play", *args])
        assert result.exit_code == 2 and message in result.stderr, result.stderr


def test_plug_ins_are_found_in_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bold.py").write_text(
        "from strategies.tobago.styles import Hunter\n\nclass Bold(Hunter):\n    pass\n"
    )
    run = tmp_path / "r"
    args = [*SIM, "--games", "8", "--players", "bold:Bold,cautious", "--backend", "process",
            "--workers", "2", "--out", str(run)]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "bold:Bold" in result.output
    missing = runner.invoke(app, ["play", "--players", "nowhere:X,hunter"])
    assert missing.exit_code == 2
    assert "no module 'nowhere' in the current directory" in missing.stderr
    assert str(tmp_path) in missing.stderr
