"""Progress of a long command on stderr, in the style of ``simulate``'s progress: a bar that
redraws itself on a terminal (cut to the terminal's width), plain ``progress:`` lines at most
every ``every`` seconds otherwise (CI logs), the first at once and the last always.

The caller says what is done and writes the line's text (games, test statistics, estimate so
far); the ticker owns only when and how it is shown. :class:`Throughput` is the speed a time
left is computed from: measured after the warm-up, so that starting workers (a Ray instance
takes seconds) does not read as slow play.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from typing import TextIO


class Ticker:
    """``ticker(done, text)`` after each step of ``total``; ``ticker.finish()`` at the end."""

    def __init__(
        self,
        total: int,
        stream: TextIO | None = None,
        every: float = 10.0,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.total = max(1, total)
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.every = every
        self.clock = clock
        self.start = clock()
        self.last = -every  # the first line is shown at once
        self.pending = ""  # a plain line not shown yet (shown by finish)
        self.open_bar = False

    @property
    def elapsed(self) -> float:
        """Seconds since the ticker started."""
        return self.clock() - self.start

    def rate(self, done: float) -> float:
        """``done`` per second so far."""
        elapsed = self.elapsed
        return done / elapsed if elapsed > 0 else 0.0

    def __call__(self, done: int, text: str) -> None:
        """Show ``text`` for ``done`` of ``total`` (as a bar on a terminal)."""
        if self.tty:
            width = 30
            filled = min(width, int(width * done / self.total))
            line = f"[{'#' * filled}{'.' * (width - filled)}] {text}"
            # One screen row, the rest of the previous (longer) line erased: a wrapped line
            # could not be redrawn in place.
            columns = shutil.get_terminal_size().columns
            self.stream.write(f"\r{line[: max(40, columns - 1)]}\x1b[K")
            self.stream.flush()
            self.open_bar = True
            return
        now = self.elapsed
        if now - self.last >= self.every or done >= self.total:
            self.last = now
            self.pending = ""
            print(f"progress: {text}", file=self.stream, flush=True)
        else:
            self.pending = text

    def finish(self) -> None:
        """End the bar's line, or show the last plain line if it was held back."""
        if self.open_bar:
            self.stream.write("\n")
            self.stream.flush()
            self.open_bar = False
        elif self.pending:
            print(f"progress: {self.pending}", file=self.stream, flush=True)
            self.pending = ""


class Throughput:
    """Work per second, measured from when the first piece of work that reported began (what
    came before it, such as starting a Ray instance or worker processes, is not play), and
    only once ``parallel`` pieces have reported: before that, the work of ``parallel``
    workers would be taken for the work of one."""

    def __init__(self, parallel: int = 1) -> None:
        self.parallel = max(1, parallel)
        self.since: float | None = None
        self.pieces: set[int] = set()

    def saw(self, piece: int, now: float, running_for: float) -> None:
        """Piece ``piece`` reported at ``now``, having run for ``running_for`` seconds."""
        began = now - max(0.0, running_for)
        self.since = began if self.since is None else min(self.since, began)
        self.pieces.add(piece)

    def rate(self, done: float, now: float) -> float | None:
        """``done`` per second since the first piece began; None while still warming up."""
        if self.since is None or len(self.pieces) < self.parallel or now <= self.since:
            return None
        return done / (now - self.since)


def duration(seconds: float) -> str:
    """A time left as people plan by it: seconds, minutes or hours."""
    if seconds < 90:
        return f"{seconds:,.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:,.0f} min"
    return f"{seconds / 3600:,.1f} h"
