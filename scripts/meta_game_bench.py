"""The meta-game of a full-size pool study, timed: plays the study (or takes a run already
played) and prints, per table size, the time and peak memory of the meta-game tables, the
blocks behind them and the headline the report gives.

    .venv/bin/python scripts/meta_game_bench.py data/runs/styles-pool
    .venv/bin/python scripts/meta_game_bench.py data/runs/styles-pool \\
        --simulate hunter,cartographer,collector,cautious --games 66672 --seed 7

The default tests run the same code on a tiny pool (tests/pipelines/test_meta_game_report.py);
this is where the full-size figures of docs/reports.md come from.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path

from pipelines.metrics.meta_game import meta_game_tables
from pipelines.metrics.source import connect, open_run
from pipelines.report.meta_game import headline


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--simulate", default="", help="play this pool into RUN first")
    parser.add_argument("--table-sizes", default="2,3,4")
    parser.add_argument("--games", type=int, default=66672, help="games per table size")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    if args.simulate:
        subprocess.run(
            [str(Path(sys.executable).parent / "tourney"), "simulate", "--pool", args.simulate,
             "--table-sizes", args.table_sizes, "--games", str(args.games), "--seed",
             str(args.seed), "--backend", "process", "--workers", "2", "--out", str(args.run)],
            check=True,
        )  # fmt: skip
    run = open_run(args.run)
    with connect([run]) as con:
        start = time.perf_counter()
        tables = meta_game_tables(con)
        seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{run.where}: meta-game tables in {seconds:.1f} s; peak memory {peak:.0f} MB")
    mix = tables["meta_game_mix"].to_pylist()
    for row in tables["meta_game"].to_pylist():
        n = row["n_players"]
        print(f"  {n} players ({row['method']}, {row['blocks']:,} blocks, {row['games']:,} games)")
        print(f"    {headline(row, [r for r in mix if r['n_players'] == n])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
