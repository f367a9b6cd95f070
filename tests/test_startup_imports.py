"""Command-line processes import only the libraries they use: the suite and its users start
``tourney`` processes by the hundred, and a library imported for nothing costs each of them
its import time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_win_tables_leave_polars_unimported() -> None:
    # Every command that prints a win table (simulate's summary, report) imports these; only
    # the Polars cross-check of the win rates needs Polars, about a fifth of a second of CPU.
    code = (
        "import sys, pipelines.metrics.win_rate, pipelines.report.win_table; "
        "print('polars' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "False"
