"""Progress reporting: a bar on a terminal, periodic plain lines otherwise; a time left
measured after the warm-up; games reported from inside slow shards; the report command last."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments.simulate import Progress, resolve, simulate
from sim.runner import shard as shard_module
from sim.runner.shard import ShardSummary


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def summary(games: int) -> ShardSummary:
    return ShardSummary(0, games, 0, 0, 0, 0.1, 0.01, 0.01, 100.0)


def test_terminal_gets_a_bar_with_rate_and_time_left() -> None:
    out = Tty()
    progress = Progress(400, out)
    progress(summary(100))
    text = out.getvalue()
    assert text.startswith("\r[")
    assert "100/400 games" in text and "games/s" in text and "s left" in text
    progress(summary(300))
    assert out.getvalue().endswith("\n")
    assert "[" + "#" * 30 + "]" in out.getvalue()


def test_logs_get_plain_periodic_lines() -> None:
    out = io.StringIO()
    progress = Progress(300, out, every=3600)
    progress(summary(100))  # the first line comes at once, then at most one per interval
    progress(summary(100))
    progress(summary(100))  # the last one always
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("progress: 100/300 games")
    assert lines[-1].startswith("progress: 300/300 games")
    assert len(lines) == 2
    assert "\r" not in out.getvalue()


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def seconds_left(line: str) -> float:
    """The time left a progress line states, in seconds."""
    amount, unit = line.rsplit(", ", maxsplit=1)[-1].removesuffix(" left").split()
    return float(amount.replace(",", "")) * {"s": 1, "min": 60, "h": 3600}[unit]


def test_first_time_left_is_measured_after_a_slow_start() -> None:
    # Two workers, 30 s to start them (Ray, say), then shards of 100 games that take 5 s
    # each, two at a time: 20 shards end at 35, 35, 40, 40, ... 80 s.
    clock = Clock()
    out = io.StringIO()
    progress = Progress(0, out, every=0, clock=clock)
    progress.begin(2000, workers=2)
    for shard in range(20):
        clock.now = 30.0 + 5.0 * (shard // 2 + 1)
        progress(ShardSummary(shard, 100, 0, 0, 0, 4.0, 0.5, 0.5, 100.0))
    lines = out.getvalue().splitlines()
    assert lines[0] == "progress: 100/2,000 games, measuring the speed"
    first = next(k for k, line in enumerate(lines) if "left" in line)
    assert first == 1  # as soon as both workers have reported
    truth = 80.0 - 35.0
    assert truth / 1.5 <= seconds_left(lines[first]) <= truth * 1.5
    assert lines[-1].startswith("progress: 2,000/2,000 games")


@pytest.mark.cluster
def test_games_inside_a_shard_show_before_it_ends(tmp_path: Path, monkeypatch: Any) -> None:
    # Slow players (optimal, pimc) can keep a shard busy for many minutes: the games it
    # has finished are reported while it plays, on every backend.
    monkeypatch.setattr(shard_module, "REPORT_EVERY", 0.0)  # after every game
    for backend in ("serial", "process", "ray"):
        out = io.StringIO()
        config = resolve(
            {"players": ["hunter", "cautious"]},
            {"games": 4, "shard_size": 4, "backend": backend, "workers": 1,
             "islands": "abc-1", "out": str(tmp_path / backend)},
            "test",
        )  # fmt: skip
        progress = Progress(4, out, every=0)
        simulate(config, progress)
        done = [line.split("/")[0] for line in out.getvalue().splitlines()]
        # One shard of four games: all but the last come from inside it.
        assert done == [f"progress: {n}" for n in (1, 2, 3, 4)], (backend, done)


def test_simulate_ends_with_the_report_command(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["simulate", "--backend", "serial", "--games", "8", "--shard-size", "4",
            "--islands", "abc-1", "--players", "hunter,cautious", "--out", str(out)]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == f"report: tourney report {out}"


def test_regress_shows_its_progress_on_stderr(tmp_path: Path) -> None:
    suite = tmp_path / "suite.toml"
    suite.write_text(
        '[[case]]\nname = "one"\nplayers = ["hunter", "cautious"]\ngames = 40\nseed = 1\n'
        'islands = "abc-1"\ngolden_games = 1\n\n'
        '[[case]]\nname = "two"\nplayers = ["hunter", "collector"]\ngames = 20\nseed = 2\n'
        'islands = "abc-1"\ngolden_games = 0\n'
    )
    args = ["regress", str(suite), "--baseline", str(tmp_path / "base.json"), "--out",
            str(tmp_path / "o"), "--workers", "1", "--update-baseline"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    # Every 10 s at most in a log: the first chunk at once, the suite's last always.
    assert lines[0].startswith("progress: regress: 10/60 games, case 1 of 2 (one), ")
    assert lines[-1].startswith("progress: regress: 60/60 games, case 2 of 2 (two), ")
    assert lines[-1].endswith(" games/s")
    assert "progress" not in result.stdout


def test_tune_shows_the_progress_of_each_run_on_stderr(tmp_path: Path) -> None:
    args = ["tune", "tests.pipelines.planted:Planted", "--game", "treasure-island",
            "--param", "x=0..1", "--points", "2", "--field", "expected-value", "--games", "12",
            "--confirm-games", "12", "--backend", "serial", "--out", str(tmp_path / "t"),
            "--json"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines[0].startswith("round 1: 3 settings, 12 games each")
    # Each setting's run, as simulate shows it: the first line at once, the last always.
    assert lines[1].startswith("progress: tune: 12/12 games, ")
    assert lines[1].endswith(" left")
    assert json.loads(result.stdout)["best"]
