"""The progress ticker of compare and sweep: a bar on a terminal, periodic plain lines
otherwise, the last state always shown."""

from __future__ import annotations

import io

from pipelines.experiments.ticker import Ticker


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_terminal_gets_one_redrawn_bar_ended_by_finish() -> None:
    out = Tty()
    ticker = Ticker(4, out)
    ticker(1, "step one")
    ticker(2, "step two")
    assert out.getvalue().startswith("\r[" + "#" * 7 + "." * 23 + "] step one")
    assert out.getvalue().count("\r") == 2 and "\n" not in out.getvalue()
    assert out.getvalue().count("\x1b[K") == 2  # what a longer line left is erased
    ticker.finish()  # stopped early (a decided test): the line is still ended
    assert out.getvalue().endswith("\n") and "[" + "#" * 15 + "." * 15 + "] step two" in (
        out.getvalue()
    )


def test_logs_get_the_first_line_then_one_per_interval_and_the_last() -> None:
    out = io.StringIO()
    clock = Clock()
    ticker = Ticker(100, out, every=10, clock=clock)
    for k in range(1, 6):
        clock.now = 4.0 * k
        ticker(k, f"at {k}")
    ticker.finish()
    assert out.getvalue().splitlines() == ["progress: at 1", "progress: at 4", "progress: at 5"]
    assert ticker.rate(30) == 1.5  # per second of the clock (20 s)
    done = io.StringIO()
    ticker = Ticker(2, done, every=3600, clock=clock)
    ticker(1, "half")
    ticker(2, "all")  # the total always shows
    ticker.finish()  # nothing held back: nothing repeated
    assert done.getvalue().splitlines() == ["progress: half", "progress: all"]
