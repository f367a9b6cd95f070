"""The games of a balance study: a rules setting played on a range of seed blocks, in chunks
of whole blocks on a pool of worker processes (or in this process with one worker), through
the sweep's own chunk (:func:`pipelines.experiments.sweep.play_chunk`), so that a setting's
block sums are the sweep's for the same games. One pool serves the whole study: starting
workers once, not once per candidate. Every setting plays the same game indices, so the
same seed blocks and deals (common random numbers). A pool's games are played in whole
cycles of its schedule (every combination at each table size), so that every candidate plays
the same combinations on the same deals and every member sits equally often at each size.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from pipelines.experiments.balance_objectives import (
    Blocks,
    Objective,
    search_figures,
    totals_read,
)
from pipelines.experiments.play_issues import ISSUES
from pipelines.experiments.progress import Progress
from pipelines.experiments.sweep import CHUNK, SweepSpec, play_chunk, point_row
from sim.seeding import derive_seed

Parts = list[dict[str, Any]]


@dataclass
class Player:
    """Plays settings' games for a study and counts them for its progress line."""

    sweep: SweepSpec
    map: Callable[[Callable[[Any], Any], list[Any]], Iterator[Any]]
    progress: Progress | None = None
    played: int = 0

    def play(self, overrides: dict[str, Any], start: int, stop: int, detail: str) -> Parts:
        """The chunks of games ``start`` to ``stop`` (whole seed blocks) under ``overrides``
        of the base rules, in order."""
        n = self.sweep.schedule.cycle_games  # a fixed lineup's: its seed block
        step = max(n, CHUNK - CHUNK % n)
        jobs = [(self.sweep, overrides, a, min(stop, a + step)) for a in range(start, stop, step)]
        parts = []
        for part in self.map(play_chunk, jobs):
            parts.append(part)
            self.played += part["games"]
            if self.progress is not None:
                self.progress.update(self.played, detail)
        return parts

    def row(self, overrides: dict[str, Any], parts: Parts) -> dict[str, Any]:
        """The sweep's figures of a setting over the games of ``parts`` (which start at the
        first game of a range and run on without a gap)."""
        games = sum(p["games"] for p in parts)
        return point_row(dataclasses.replace(self.sweep, games=games), overrides, parts)

    def figures(
        self, objectives: Sequence[Objective], overrides: dict[str, Any], parts: Parts
    ) -> tuple[dict[str, Any], list[tuple[float, float, float]]]:
        """A fixed lineup's setting over the games of ``parts``: the sweep's row, and each
        objective's figures from it, or for a measure the sweep does not report (a game-shape
        one, the choices per decision) by a bootstrap over the blocks (:meth:`pool_row`'s
        resamples)."""
        row = self.row(overrides, parts)
        boot = [o for o in objectives if o.bootstrapped]
        found = dict(zip(boot, self.bootstrap(boot, overrides, parts), strict=True))
        return row, [found[o] if o in found else o.from_row(row) for o in objectives]

    def bootstrap(
        self, objectives: Sequence[Objective], overrides: dict[str, Any], parts: Parts
    ) -> list[tuple[float, float, float]]:
        """Each objective's figures by a bootstrap over the blocks of ``parts``, the
        resamples drawn from the study's seed, the setting and its games (the same figures
        for the same games, resumed or not)."""
        if not objectives:
            return []
        games = sum(p["games"] for p in parts)
        where = ",".join(f"{k}={v}" for k, v in sorted(overrides.items()))
        rng = np.random.default_rng(derive_seed(self.sweep.seed, "balance-search", where, games))
        return search_figures(objectives, self.blocks(parts, totals_read(objectives)), rng)

    def blocks(self, parts: Parts, totals: Sequence[str]) -> Blocks:
        """The block sums of ``parts`` as a matrix (a pool's by table size)."""
        if self.sweep.table_sizes:
            return Blocks.of_pool(blocks_of(parts), totals, len(self.sweep.labels))
        return Blocks.of(blocks_of(parts), totals)

    def pool_row(
        self, objectives: Sequence[Objective], overrides: dict[str, Any], parts: Parts
    ) -> tuple[dict[str, Any], list[tuple[float, float, float]]]:
        """A pool's setting over the games of ``parts``: its games and issue counts, and
        each objective (at its table size) by a bootstrap over the blocks
        (:meth:`bootstrap`)."""
        row: dict[str, Any] = {"games": sum(p["games"] for p in parts)}
        row.update({key: sum(p["issues"][key] for p in parts) for key in ISSUES})
        return row, self.bootstrap(objectives, overrides, parts)


@contextmanager
def player(sweep: SweepSpec, progress: Progress | None) -> Iterator[Player]:
    """A :class:`Player` on ``sweep.workers`` processes (spawned: the workers import the
    product afresh, as the sweep's do), closed on leaving."""
    if sweep.workers <= 1:
        yield Player(sweep, map, progress)
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(sweep.workers) as pool:
        yield Player(sweep, pool.imap, progress)


def blocks_of(parts: Parts) -> dict[int, dict[str, Any]]:
    """The seed blocks of ``parts`` by block index (chunks hold whole blocks)."""
    return {k: b for p in parts for k, b in p["blocks"].items()}
