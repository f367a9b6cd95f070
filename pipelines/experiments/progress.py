"""The progress of every long command (``simulate``, ``compare``, ``sweep``, ``tune``,
``regress``) on stderr: games done of the total, games per second and the time left.

On a terminal it is a live bar (rich) that keeps moving through a pause, such as workers
starting or the first games compiling their caches: a spinner and the time so far. Anywhere
else (a CI log, a pipe, a test) it is plain ``progress:`` lines, at most one every ``every``
seconds: the first at once, the last always, never a flood.

The command says when its work starts (:meth:`Progress.begin`: the games to play and how
many workers play them at once) and what is done (:meth:`Progress.update`, or the runner's
shard reports); this module owns the speed, the time left and how they are shown. The speed
is measured after the warm-up (:class:`Throughput`), so that starting a Ray instance or a
pool of worker processes does not read as slow play. The clock is a parameter: tests drive
it by hand.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichProgress
from rich.table import Column

from sim.runner.shard import ShardSummary


class Progress:
    """Games done, games per second and time left of one command (``label``: its name, shown
    first). ``begin`` for each piece of work, then ``update`` (or the shard reports of
    :func:`sim.runner.run.run`: the object itself and :meth:`in_shard`), then ``finish``
    (also when the work stops early or fails)."""

    def __init__(
        self,
        label: str = "",
        *,
        stream: TextIO | None = None,
        every: float = 10.0,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.every = every
        self.clock = clock
        self.tty = self.stream.isatty()
        self.bar: RichProgress | None = None
        self.pending = ""  # a plain line not shown yet (shown by finish)
        self.begin(0)

    def begin(self, total: int, workers: int = 1, may_stop_early: bool = False) -> None:
        """Start counting ``total`` games from now, played ``workers`` at a time (the speed is
        measured once each has reported); ``may_stop_early``: the total is an upper bound (a
        sequential test), so the time left is one too. On a terminal the bar shows from now."""
        self.finish()
        self.total = total
        self.upper_bound = may_stop_early
        self.speed = Throughput(workers)
        self.start = self.clock()
        self.last = -self.every  # the first plain line is shown at once
        self.pending = ""  # a plain line not shown yet (shown by finish)
        self.finished = 0
        self.shards_done: set[int] = set()
        self.playing: dict[int, int] = {}  # games finished inside shards still playing
        if self.tty and total > 0:
            self.bar = _bar(self.stream, self.clock)
            self.bar.add_task(self.label, total=total, detail="", speed="starting", left="")
            self.bar.start()

    def update(self, done: int, detail: str = "") -> None:
        """``done`` of the total games are played; ``detail`` says where the work is (a case,
        a grid point, the test statistic so far)."""
        self.finished = done
        self.speed.reached(done, self.clock())
        self._show(detail)

    def retotal(self, total: int) -> None:
        """The work's total is now ``total`` (a command that learns its size as it goes, such
        as a search that stops its weak candidates early, says so after each step)."""
        self.total = total
        if self.bar is not None:
            self.bar.update(self.bar.task_ids[0], total=total)

    def stage(self, text: str) -> None:
        """Say what the work does before its first games (the runner's ``on_stage``: a
        compiled engine loading), at once: on a terminal in the bar, else as a line."""
        if self.bar is not None:
            self.bar.update(self.bar.task_ids[0], detail=text, refresh=True)
        else:
            prefix = f"{self.label}: " if self.label else ""
            print(f"progress: {prefix}{text}", file=self.stream, flush=True)

    def __call__(self, summary: ShardSummary) -> None:
        """Shard ``summary.shard`` ended (the runner's ``on_done``)."""
        self.playing.pop(summary.shard, None)
        self.shards_done.add(summary.shard)
        self.finished += summary.games
        self.speed.saw(summary.shard, self.clock(), summary.seconds)
        self._show()

    def in_shard(self, shard: int, games: int, seconds: float) -> None:
        """``games`` of shard ``shard`` finished after ``seconds`` of play (the runner's
        ``on_playing``; a late report of a shard already done is ignored)."""
        if shard in self.shards_done:
            return
        self.playing[shard] = games
        self.speed.saw(shard, self.clock(), seconds)
        self._show()

    @property
    def done(self) -> int:
        """Games finished, those of shards still playing included."""
        return self.finished + sum(self.playing.values())

    def numbers(self) -> tuple[str, str]:
        """The speed and the time left as shown: ``measuring the speed`` and no time left
        while warming up. At the end a speed is always shown (over the whole work if it could
        not be measured after the warm-up) and no time is left."""
        done, now = self.done, self.clock()
        rate = self.speed.rate(done, now)
        if done >= self.total:
            if rate is None:
                rate = done / (now - self.start) if now > self.start else 0.0
            return f"{rate:,.0f} games/s", f"{duration(0)} left"
        if rate is None:
            return "measuring the speed", ""
        left = f"{duration((self.total - done) / rate if rate > 0 else 0.0)} left"
        return f"{rate:,.0f} games/s", f"at most {left}" if self.upper_bound else left

    def line(self, detail: str = "") -> str:
        """The plain line of the state now (without its ``progress:`` prefix)."""
        parts = [f"{self.done:,}/{self.total:,} games", detail, *self.numbers()]
        text = ", ".join(part for part in parts if part)
        return f"{self.label}: {text}" if self.label else text

    def _show(self, detail: str = "") -> None:
        done = self.done
        if self.bar is not None:
            speed, left = self.numbers()
            task = self.bar.task_ids[0]
            self.bar.update(
                task, completed=done, detail=detail, speed=speed, left=left, refresh=True
            )
        elif done > 0:
            now = self.clock() - self.start
            if now - self.last >= self.every or done >= self.total:
                self.last = now
                self.pending = ""
                print(f"progress: {self.line(detail)}", file=self.stream, flush=True)
            else:
                self.pending = self.line(detail)
        if done >= self.total:
            self.finish()

    def finish(self) -> None:
        """End the bar (its last state stays on screen), or show the last plain line if it
        was held back. Safe to call twice."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
        elif self.pending:
            print(f"progress: {self.pending}", file=self.stream, flush=True)
        self.pending = ""


def _bar(stream: TextIO, clock: Callable[[], float]) -> RichProgress:
    """The live bar: spinner, label, bar, games, speed, time left, time so far, then the
    detail, cut first when the terminal is narrow."""
    console = Console(file=stream, force_terminal=True, force_interactive=True, highlight=False)
    return RichProgress(
        SpinnerColumn(),
        TextColumn("{task.description}", markup=False),
        BarColumn(bar_width=30),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f} games", markup=False),
        TextColumn("{task.fields[speed]}", markup=False),
        TextColumn("{task.fields[left]}", markup=False),
        TimeElapsedColumn(),
        TextColumn(
            "{task.fields[detail]}",
            markup=False,
            table_column=Column(no_wrap=True, overflow="ellipsis", min_width=0),
        ),
        console=console,
        get_time=clock,
    )


class Throughput:
    """Games per second after the warm-up (starting workers, the first games' caches): from
    when the first piece of work began, known from the runner's shard reports (:meth:`saw`)
    and only once ``parallel`` pieces have reported (before that, the games of ``parallel``
    workers would be taken for those of one); or, for a command that only reports totals
    (:meth:`reached`), from the report that ends the first round of ``parallel`` pieces,
    without that round's games, and only once a second round has reported (workers that
    end together would otherwise count one piece's games over the time of a whole round)."""

    def __init__(self, parallel: int = 1) -> None:
        self.parallel = max(1, parallel)
        self.since: float | None = None
        self.base = 0  # games done at ``since``, not counted in the speed
        self.pieces: set[int] = set()
        self.reports = 0

    def saw(self, piece: int, now: float, running_for: float) -> None:
        """Piece ``piece`` reported at ``now``, having run for ``running_for`` seconds."""
        began = now - max(0.0, running_for)
        self.since = began if self.since is None else min(self.since, began)
        self.pieces.add(piece)

    def reached(self, done: int, now: float) -> None:
        """``done`` games were played by ``now`` (when each piece began is not known)."""
        self.reports += 1
        if self.reports == self.parallel:
            self.since, self.base = now, done

    def rate(self, done: float, now: float) -> float | None:
        """Games per second; None while still warming up."""
        measured = len(self.pieces) >= self.parallel or self.reports >= 2 * self.parallel
        if self.since is None or not measured or now <= self.since:
            return None
        return (done - self.base) / (now - self.since)


def duration(seconds: float) -> str:
    """A time left as people plan by it: seconds, minutes or hours."""
    if seconds < 90:
        return f"{seconds:,.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:,.0f} min"
    return f"{seconds / 3600:,.1f} h"
