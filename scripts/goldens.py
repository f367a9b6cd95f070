"""Regenerate every golden file the tests compare with: each game's playthrough
(``tests/golden/*.txt``) and each metric query's answer over the golden runs
(``tests/golden/metrics/*.parquet``). Run it on purpose, after a change that is meant to
change a game or a metric, and read the diff before committing it::

    .venv/bin/python -m scripts.goldens      # or: make goldens
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.golden import metric_answers, playthroughs


def main() -> int:
    root = Path(__file__).resolve().parents[1]
    for case in playthroughs.PLAYTHROUGHS:
        print(playthroughs.write(case).relative_to(root))
    wanted = {c.path for c in metric_answers.cases()}
    for stale in set(metric_answers.ANSWERS.glob("*.parquet")) - wanted:
        stale.unlink()  # an answer whose query is gone
    with tempfile.TemporaryDirectory() as tmp:
        runs = metric_answers.GoldenRuns(metric_answers.make_runs(Path(tmp)))
        for c in metric_answers.cases():
            metric_answers.write(c, runs)
        runs.close()
    total = sum(p.stat().st_size for p in wanted)
    print(f"{len(wanted)} metric answers in {metric_answers.ANSWERS.relative_to(root)} "
          f"({total / 1000:.0f} kB)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
