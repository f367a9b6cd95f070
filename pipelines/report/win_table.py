"""What ``tourney simulate`` prints when a run ends: per player count, each strategy's win
share with its 95% interval (ties count 1/k) and mean score, best first; then every warning
about the run (games cut off, strategy failures) with a command that replays one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipelines.metrics import win_rate
from pipelines.metrics.source import RunInfo, connect, open_run
from pipelines.report.run_groups import group_runs
from pipelines.report.run_warnings import run_warnings
from reports import numbers


def _opened(run: RunInfo | Path | str) -> RunInfo:
    return run if isinstance(run, RunInfo) else open_run(run)


def win_table(run: RunInfo | Path | str) -> list[dict[str, Any]]:
    """Rows of :func:`pipelines.metrics.win_rate.by_strategy` (finished games), per player
    count, best win share first."""
    with connect([_opened(run)]) as con:
        rows: list[dict[str, Any]] = win_rate.by_strategy(con).to_pylist()
    return sorted(rows, key=lambda r: (r["n_players"], -r["win_share"], r["strategy"]))


def format_win_table(rows: list[dict[str, Any]]) -> list[str]:
    """The table as text lines."""
    width = max([len("strategy"), *(len(str(r["strategy"])) for r in rows)])
    lines = [
        f"{'players':>7}  {'strategy':<{width}}  {'games':>9}  {'win share':>9}  "
        f"{'95% interval':>14}  {'score':>6}"
    ]
    for r in rows:
        lines.append(
            f"{r['n_players']:>7}  {r['strategy']!s:<{width}}  {numbers.count(r['seats']):>9}  "
            f"{numbers.pct(r['win_share']):>9}  {numbers.interval(r['low'], r['high']):>14}  "
            f"{r['mean_score']:>6.1f}"
        )
    return lines


def warning_lines(opened: RunInfo | Path | str) -> list[str]:
    """The run's warnings as text lines (none when every game ended and nothing failed)."""
    run = _opened(opened)
    with connect([run]) as con:
        found = run_warnings(con, group_runs([run]), include_unfinished=False)
    lines = []
    for w in found:
        lines.append(f"warning: {w.text}")
        if w.command:
            lines.append(f"  replay one: {w.command}")
    return lines
