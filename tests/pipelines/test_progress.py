"""Progress of the long commands: a live bar on a terminal, periodic plain lines otherwise; a
time left measured after the warm-up; games reported from inside slow shards; the report
command last."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments.progress import Progress
from pipelines.experiments.simulate import resolve, simulate
from sim.runner import shard as shard_module
from sim.runner.shard import ShardSummary

SHOW_CURSOR = "\x1b[?25h"


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def summary(games: int, shard: int = 0) -> ShardSummary:
    return ShardSummary(shard, games, 0, 0, 0, 0.1, 0.01, 0.01, 100.0)


def seconds_left(line: str) -> float:
    """The time left a progress line states, in seconds."""
    amount, unit = line.rsplit(", ", maxsplit=1)[-1].removesuffix(" left").split()
    return float(amount.replace(",", "")) * {"s": 1, "min": 60, "h": 3600}[unit]


def ended(text: str, last: str) -> bool:
    """The bar's last frame shows ``last``, its line is ended and the cursor shown again."""
    tail = text.rsplit(last, maxsplit=1)[-1]
    return last in text and "\n" in tail and tail.endswith(SHOW_CURSOR)


def test_terminal_gets_a_live_bar_from_the_start_with_rate_and_time_left() -> None:
    out, clock = Tty(), Clock()
    progress = Progress("simulate", stream=out, clock=clock)
    progress.begin(400)
    # Before any game ends (workers starting) the bar is there, its clock running.
    assert "0/400 games" in out.getvalue() and "starting" in out.getvalue()
    clock.now = 30.0
    assert progress.bar is not None
    progress.bar.refresh()
    assert "0:00:30" in out.getvalue()
    clock.now = 35.0
    progress(summary(100))
    frame = out.getvalue().rsplit("100/400 games", maxsplit=1)[-1].splitlines()[0]
    assert "games/s" in frame and "s left" in frame
    assert "progress:" not in out.getvalue()  # no plain lines on a terminal
    progress(summary(300, shard=1))
    assert ended(out.getvalue(), "400/400 games")
    assert progress.bar is None  # stopped at the total


def test_a_bar_stopped_early_still_ends_its_line() -> None:
    out = Tty()
    progress = Progress("compare", stream=out)
    progress.begin(100, may_stop_early=True)
    progress.update(20, "20/100 blocks")
    assert not ended(out.getvalue(), "20/100 blocks")
    progress.finish()  # a decided test stops before its most blocks
    assert ended(out.getvalue(), "20/100 blocks")
    shown = out.getvalue()
    progress.finish()  # twice is harmless
    assert out.getvalue() == shown


def test_logs_get_the_first_line_then_one_per_interval_and_the_last() -> None:
    out, clock = io.StringIO(), Clock()
    progress = Progress("sweep", stream=out, every=10, clock=clock)
    progress.begin(100)
    for k in range(1, 6):
        clock.now = 4.0 * k
        progress.update(k, f"at {k}")
    progress.finish()
    lines = out.getvalue().splitlines()
    assert [line.split(", ")[:2] for line in lines] == [
        ["progress: sweep: 1/100 games", "at 1"],
        ["progress: sweep: 4/100 games", "at 4"],
        ["progress: sweep: 5/100 games", "at 5"],  # held back, shown by finish
    ]
    assert "\r" not in out.getvalue() and "\x1b" not in out.getvalue()


def test_logs_never_repeat_and_always_show_the_total() -> None:
    out = io.StringIO()
    progress = Progress(stream=out, every=3600)
    progress.begin(300)
    progress(summary(100))  # the first line comes at once, then at most one per interval
    progress(summary(100, shard=1))
    progress(summary(100, shard=2))  # the last one always
    progress.finish()  # nothing held back: nothing repeated
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("progress: 100/300 games")
    assert lines[-1].startswith("progress: 300/300 games")
    assert len(lines) == 2


def test_first_time_left_is_measured_after_a_slow_start() -> None:
    # Two workers, 30 s to start them (Ray, say), then shards of 100 games that take 5 s
    # each, two at a time: 20 shards end at 35, 35, 40, 40, ... 80 s.
    clock = Clock()
    out = io.StringIO()
    progress = Progress(stream=out, every=0, clock=clock)
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


@pytest.mark.parametrize("stagger", [0.0, 2.5])
def test_time_left_from_totals_is_measured_after_the_first_round(stagger: float) -> None:
    # A pool of two workers that takes 30 s to start, then chunks of 100 games of 5 s each,
    # reported as totals only (compare, sweep, regress): the workers end their chunks
    # together (stagger 0) or half a chunk apart.
    clock = Clock()
    out = io.StringIO()
    progress = Progress("regress", stream=out, every=0, clock=clock)
    progress.begin(2000, workers=2)
    for chunk in range(20):
        clock.now = 30.0 + 5.0 * (chunk // 2 + 1) + stagger * (chunk % 2)
        progress.update(100 * (chunk + 1), f"chunk {chunk + 1}")
    lines = out.getvalue().splitlines()
    assert lines[0] == "progress: regress: 100/2,000 games, chunk 1, measuring the speed"
    first = next(k for k, line in enumerate(lines) if "left" in line)
    assert first <= 3  # after the warm-up round and one more
    # The last chunk ends at 80 s (+ stagger); line k is the report of chunk k.
    truth = (80.0 + stagger) - (30.0 + 5.0 * (first // 2 + 1) + stagger * (first % 2))
    assert truth / 1.5 <= seconds_left(lines[first]) <= truth * 1.5


def test_a_sequential_test_has_at_most_its_time_left() -> None:
    clock = Clock()
    out = io.StringIO()
    progress = Progress("compare", stream=out, every=0, clock=clock)
    progress.begin(1000, may_stop_early=True)
    for k in (1, 2):
        clock.now = 10.0 * k
        progress.update(100 * k, f"{k}/10 blocks")
    assert out.getvalue().splitlines()[-1] == (
        "progress: compare: 200/1,000 games, 2/10 blocks, 10 games/s, at most 80 s left"
    )


def test_work_too_short_to_measure_ends_with_its_overall_speed() -> None:
    clock = Clock()
    out = io.StringIO()
    progress = Progress("tune", stream=out, clock=clock)
    progress.begin(12)
    clock.now = 4.0
    progress.update(12)
    assert out.getvalue() == "progress: tune: 12/12 games, 3 games/s, 0 s left\n"


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
        progress = Progress(stream=out, every=0)
        progress.begin(4)
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
    assert lines[-1].endswith(" left")
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
