"""The short win table printed after a run: per strategy, seats played, mean win share with
its Wilson 95% interval (ties count 1/k), mean score; best first."""

from __future__ import annotations

from pathlib import Path

from pipelines.metrics import win_rate
from pipelines.metrics.source import connect, open_run


def win_table(run_dir: Path) -> list[dict[str, object]]:
    """Rows of :func:`pipelines.metrics.win_rate.by_strategy`, best win share first."""
    with connect([open_run(run_dir)]) as con:
        rows = win_rate.by_strategy(con).to_pylist()
    return sorted(rows, key=lambda r: (-float(str(r["win_share"])), str(r["strategy"])))


def format_win_table(rows: list[dict[str, object]]) -> list[str]:
    """The table as text lines."""
    width = max([len("strategy"), *(len(str(r["strategy"])) for r in rows)])
    lines = [
        f"{'strategy':<{width}}  {'seats':>7}  {'win share':>9}  {'95% interval':>15}  {'score':>6}"
    ]
    for r in rows:
        lines.append(
            f"{r['strategy']!s:<{width}}  {r['seats']:>7}  {r['win_share']:>9.3f}  "
            f"[{r['low']:.3f}, {r['high']:.3f}]  {r['mean_score']:>6.1f}"
        )
    return lines
