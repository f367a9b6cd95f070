"""Run directory paths are data, not patterns: a directory called ``exp[1]`` is read as itself
(never as ``exp1``), and paths with spaces, braces, dollars, backslashes, quotes, glob
characters or ``key=value`` parts simulate, verify and report."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.metrics.source import connect, open_run

runner = CliRunner()


def simulate(out: Path, games: int, seed: int) -> None:
    args = ["simulate", "--backend", "serial", "--games", str(games), "--shard-size", "8",
            "--seed", str(seed), "--islands", "abc-1", "--out", str(out)]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output


def report_games(run_dir: Path) -> int:
    result = runner.invoke(app, ["report", str(run_dir), "--format", "json"])
    assert result.exit_code == 0, result.output
    return int(json.loads((run_dir / "report" / "report.json").read_text())["games"])


def test_a_directory_named_like_a_glob_is_read_as_itself(tmp_path: Path) -> None:
    simulate(tmp_path / "exp1", 32, 1)
    simulate(tmp_path / "exp[1]", 16, 2)
    with connect([open_run(tmp_path / "exp[1]")]) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (16,)
    assert report_games(tmp_path / "exp[1]") == 16


def test_paths_with_special_characters_work(tmp_path: Path) -> None:
    odd = tmp_path / "we ird {x}" / "$HOME \\ it's" / "st*r?" / "k=v [1]"
    simulate(odd, 16, 3)
    verified = runner.invoke(app, ["verify", str(odd)])
    assert verified.exit_code == 0, verified.output
    with connect([open_run(odd)]) as con:
        # No column "k" from the k=v directory (hive partitioning is off).
        columns = [c[0] for c in con.execute("SELECT * FROM games LIMIT 0").description]
        assert "k" not in columns
    assert report_games(odd) == 16
