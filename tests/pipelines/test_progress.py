"""Progress reporting: a bar on a terminal, periodic plain lines otherwise."""

from __future__ import annotations

import io

from pipelines.simulate import Progress
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
