"""A full-size balance study against its exhaustive answer: every setting of the space played
by ``sweep`` on the same seeds as the search's last rung, then the study itself; prints the
exhaustive best and its 95% interval, the search's pick and its exhaustive figure, whether
the pick lies inside the best's interval, and the games each took.

    .venv/bin/python scripts/balance_known_answer.py
    .venv/bin/python scripts/balance_known_answer.py --trials 40 --games 100 --target 20

The default tests run the same check on a small space
(tests/pipelines/test_balance_known_answer.py).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from pipelines.experiments import balance
from pipelines.experiments.balance_spec import load_spec
from pipelines.experiments.balance_study import grid_sweep, run_study, sweep_spec
from pipelines.experiments.progress import Progress
from pipelines.experiments.sweep import sweep

STUDY = """
game = "tobago"
players = ["hunter", "cartographer", "collector", "cautious"]
seed = {seed}
trials = {trials}
games = {games}
rungs = 3
eta = 3
confirm_games = 0
workers = {workers}
[space.hand_size]
low = 3
high = 6
[space.legs_per_move]
low = 2
high = 4
[space.curse_count]
low = 0
high = 3
[[objective]]
metric = "game_length"
target = {target}
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--games", type=int, default=100, help="games of the first rung")
    parser.add_argument("--target", type=float, default=20.0, help="turns (planted optimum)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "study.toml"
        path.write_text(STUDY.format(**vars(args)))
        spec = load_spec(path)
        last = spec.rung_games(spec.rungs - 1, 4)
        grid = grid_sweep(spec, last)
        start = time.perf_counter()
        rows = sweep(grid, Progress("exhaustive sweep"))
        swept = time.perf_counter() - start
        o = spec.objectives[0]
        keys = [d.key for d in spec.space]
        exhaustive = {tuple(r[k] for k in keys): o.from_row(r) for r in rows}
        best_at, best = min(exhaustive.items(), key=lambda kv: kv[1][0])
        start = time.perf_counter()
        result = run_study(spec, Path(tmp) / "out", sweep_spec(spec), Progress("balance"))
        searched = time.perf_counter() - start
    found = balance.candidates(spec, result["trials"])[0]["params"]
    pick = exhaustive[tuple(found[k] for k in keys)]
    inside = best[1] <= pick[0] <= best[2]
    print(
        f"exhaustive: {len(rows)} settings x {last:,} games = {len(rows) * last:,} games, "
        f"{swept:.0f} s; best {dict(zip(keys, best_at, strict=True))}: "
        f"{best[0]:.2f} turns [{best[1]:.2f}, {best[2]:.2f}]"
    )
    print(
        f"search: {result['candidates_searched']} candidates, {result['search_games']:,} "
        f"games ({result['search_games'] / (len(rows) * last):.1%} of the grid's), "
        f"{searched:.0f} s; pick {found}: {pick[0]:.2f} turns exhaustively, "
        f"{'inside' if inside else 'outside'} the best's interval"
    )
    return 0 if inside and result["search_games"] * 3 <= len(rows) * last else 1


if __name__ == "__main__":
    sys.exit(main())
