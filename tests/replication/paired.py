"""Replication study of the paired intervals over seed blocks (B - A differences).

Per-game differences come in seed blocks of four games (one deal under every seat rotation):
a block effect shared by its games plus each game's own noise, normal or skewed (a shifted
gamma of skewness 1). They go through the reports' own estimator,
:func:`pipelines.metrics.clustered.clustered` with Student's t (as
:func:`pipelines.metrics.paired.differences` calls it), and beside it the normal 1.96 that it
replaced. Run the full study with ``.venv/bin/python -m tests.replication.paired``; its figures
are in docs/reports.md.
"""

from __future__ import annotations

import sys

import duckdb
import numpy as np
import numpy.typing as npt
import pyarrow as pa

from pipelines.metrics.clustered import clustered
from pipelines.stats.core import Z95

GAMES_PER_BLOCK = 4


def _values(rng: np.random.Generator, size: int, skewed: bool) -> npt.NDArray[np.float64]:
    if not skewed:
        return rng.standard_normal(size)
    shape = 4.0  # skewness 2 / sqrt(shape) = 1
    out: npt.NDArray[np.float64] = (rng.gamma(shape, 1.0, size) - shape) / np.sqrt(shape)
    return out


def replicate(blocks: int, reps: int, seed: int, skewed: bool = False) -> tuple[float, float, int]:
    """Coverage of the true mean (0) by the Student's t interval and by the normal one over
    ``reps`` data sets of ``blocks`` blocks, and how many had no interval."""
    rng = np.random.default_rng(seed)
    rows = blocks * GAMES_PER_BLOCK
    block = np.repeat(np.arange(blocks), GAMES_PER_BLOCK)
    covered = normal = missing = 0
    con = duckdb.connect()
    for _ in range(reps):
        effect = 2.0 * _values(rng, blocks, skewed)
        x = effect[block] + 3.0 * _values(rng, rows, skewed)
        table = pa.table({"run": np.zeros(rows, np.int64), "block": block, "x": x})
        con.register("t", table)
        r = clustered(con, "SELECT 'all' AS grp, run, block, x FROM t", ["grp"], "x",
                      student=True)[0]  # fmt: skip
        if r["low"] is None:
            missing += 1
        else:
            covered += r["low"] <= 0.0 <= r["high"]
        normal += r["mean"] - Z95 * r["se"] <= 0.0 <= r["mean"] + Z95 * r["se"]
    return covered / max(1, reps - missing), normal / reps, missing


def main(reps: int = 10_000) -> None:
    """The full study: 4, 5, 10, 25 blocks, normal and skewed."""
    print("blocks  draws    reps  Student's t  normal 1.96  no interval")
    for skewed in (False, True):
        for blocks in (4, 5, 10, 25):
            t, z, missing = replicate(blocks, reps, 100 + blocks + 1_000 * skewed, skewed)
            print(
                f"{blocks:6}  {'skewed' if skewed else 'normal':7} {reps:5}  {t:11.1%}  "
                f"{z:11.1%}  {missing:11}",
                flush=True,
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
