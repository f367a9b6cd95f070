"""``tourney report``: metrics over one or more runs -> tables, figures, HTML, Markdown, JSON.

Reads the runs' Parquet parts out of core through DuckDB views, groups the runs into cohorts
(pooled only when game, rules, players, islands and code agree) and seed-matched pairings
(:mod:`pipelines.report.run_groups`), computes every metric as a tidy table, and writes them as
Parquet and CSV under ``tables/`` with ``index.html`` (self-contained), ``summary.md`` and
``report.json``. Games cut off at the turn cap or by a deadlock are left out of win rates
unless ``include_unfinished``; the report says how many, at the top.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from pipelines.metrics.source import RunInfo, open_run
from pipelines.play.choices import SAMPLE
from pipelines.report.common import GameReport, ReportOutput, write_report
from pipelines.report.files import check_out_dir
from sim.errors import InputError
from sim.runner.games import game_kind, game_part

FORMATS = ("html", "md", "json")
#: The top-level keys of ``report.json``, in order.
JSON_KEYS = (
    "report",
    "game",
    "runs",
    "complete",
    "games",
    "include_unfinished",
    "headline",
    "warnings",
    "findings",
    "games_to_look_at",
    "gaps",
    "cohorts",
    "meta_game",
    "game_shape",
    "comparisons",
)


@functools.cache
def game_report(game: str) -> GameReport:
    """The report part ``game``'s kind names (``GameKind.report``). A game that names none
    gets the common report alone (win rates, seats, ratings, scores in points, game length);
    one whose part is broken is refused with one line naming the game and the part."""
    kind = game_kind(game)
    report = game_part(game, "report", GameReport)
    if report is None:
        return GameReport(
            game=game,
            title=kind.title,
            score_unit="points",
            compute=lambda con, cohort: {},
            findings=lambda data: [],
            sections=lambda data: [],
            json_sections={},
        )
    if report.game != game:
        raise InputError(
            f"game {game!r}: its report ({kind.report}) is the report of {report.game!r}"
        )
    return report


def default_out(run: RunInfo) -> Path:
    """Where a report goes without ``--out``: ``<run>/report`` for a local run; for a run in
    an object store, ``data/reports/<run name>`` here (reports are local files)."""
    if run.remote:
        return Path("data") / "reports" / run.where.rstrip("/").rsplit("/", 1)[-1]
    return run.path / "report"


def build_report(
    run_dirs: Sequence[Path | str],
    out: Path | None,
    formats: set[str],
    include_unfinished: bool = False,
    allow_mixed_code: bool = False,
    choice_games: int = SAMPLE,
) -> ReportOutput:
    """Compute and write the report; ``out`` defaults to :func:`default_out` of the first
    run. Runs of one lineup played by different code are refused unless
    ``allow_mixed_code`` (each code is then a cohort of its own). Choices per decision are
    counted in up to ``choice_games`` games per table size played again (0: not counted)."""
    if choice_games < 0:
        raise InputError(
            f"--choices {choice_games}: the games to play again per table size must be 0 "
            "(not counted) or more"
        )
    if out is not None:
        check_out_dir(out)  # before anything is read or written
    runs = [open_run(p) for p in run_dirs]
    games = sorted({r.game for r in runs})
    if len(games) > 1:
        listed = ", ".join(f"{r.where} ({r.game})" for r in runs)
        raise InputError(f"runs of different games cannot be reported together: {listed}")
    out_dir = out or default_out(runs[0])
    return write_report(
        game_report(runs[0].game),
        runs,
        out_dir,
        formats,
        include_unfinished,
        allow_mixed_code,
        choice_games,
    )
