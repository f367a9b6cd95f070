"""What every game's report shares: the common metric tables, writing the tables, and
assembling ``report.json``, ``summary.md`` and ``index.html`` from a game's own parts.

A game's report is a :class:`GameReport`: its metric tables, its JSON sections, and its
Markdown and HTML pages; :func:`write_report` does the rest the same way for every game.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.csv as pacsv

from pipelines.metrics import fairness, rating, win_rate
from pipelines.metrics.source import RunInfo
from reports import documents, figures
from sim.runner.shard import write_part

#: A page of the report: (tables, run names, games, note) -> text.
Page = Callable[[dict[str, pa.Table], list[str], int, str], str]


@dataclass
class ReportOutput:
    """Where the report went and what it holds."""

    out_dir: Path
    files: list[Path]
    games: int
    complete: bool


def rows_of(table: pa.Table) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = table.to_pylist()
    return rows


def intro_html(runs: list[str], games: int, note: str) -> str:
    """The summary section of a page: the runs, the games, and a note if there is one."""
    return f"<p>Runs: {html.escape(', '.join(runs))}. Games: {games}.</p>" + (
        f'<p class="note">{html.escape(note)}.</p>' if note else ""
    )


def ratings_html(tables: dict[str, pa.Table]) -> str:
    """The part of the win-rate section every game shows: ratings, the score distribution,
    win rates by opponent mix and head to head."""
    doc = documents
    return (
        "<h3>Ratings</h3><p>Bradley-Terry by maximum likelihood on the pairwise results "
        "inside games (Elo scale, pool mean 0); 95% intervals by bootstrap over chunks of "
        "whole games.</p>"
        + doc.html_table(rows_of(tables["ratings"]))
        + doc.image(figures.score_distribution(rows_of(tables["score_distribution"])), "scores")
        + "<h3>By opponent mix</h3>"
        + doc.html_table(rows_of(tables["win_rate_by_opponents"]))
        + "<h3>Head to head</h3>"
        + doc.html_table(rows_of(tables["head_to_head"]))
    )


def common_tables(con: duckdb.DuckDBPyConnection) -> dict[str, pa.Table]:
    """The metric tables every game has: win rates, ratings, scores, length, seat fairness."""
    return {
        "win_rate_by_strategy": win_rate.by_strategy(con),
        "win_rate_by_seat": win_rate.by_seat(con),
        "win_rate_by_players": win_rate.by_players(con),
        "win_rate_by_opponents": win_rate.by_opponents(con),
        "head_to_head": win_rate.head_to_head(con),
        "ratings": rating.bradley_terry(con),
        "score_distribution": con.sql(
            """SELECT strategy::VARCHAR AS strategy, score, count(*)::BIGINT AS seats
               FROM seats GROUP BY 1, 2 ORDER BY 1, 2"""
        ).to_arrow_table(),
        "game_length": con.sql(
            """SELECT n_players, count(*)::BIGINT AS games, avg(turns)::DOUBLE AS mean_turns,
                      coalesce(stddev_samp(turns), 0)::DOUBLE AS sd_turns,
                      min(turns) AS min_turns, max(turns) AS max_turns,
                      sum(truncated::INT)::BIGINT AS truncated
               FROM games GROUP BY 1 ORDER BY 1"""
        ).to_arrow_table(),
        "seat_win_shares": fairness.seat_win_shares(con),
        "island_fairness": fairness.island_summary(con),
    }


@dataclass(frozen=True)
class GameReport:
    """One game's report: its tables, the keys of ``report.json`` after ``report`` and before
    ``runs`` (``head``), its JSON sections (section -> table names) and its pages."""

    compute: Callable[[list[RunInfo]], dict[str, pa.Table]]
    head: dict[str, Any]
    sections: dict[str, list[str]]
    markdown: Page
    html: Page


def _write_table(table: pa.Table, path: Path) -> None:
    if path.suffix == ".parquet":
        write_part(table, path)
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    pacsv.write_csv(table, tmp)
    os.replace(tmp, path)


def write_tables(tables: dict[str, pa.Table], out_dir: Path) -> list[Path]:
    """Every metric table as Parquet and CSV under ``out_dir/tables``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "tables").mkdir(exist_ok=True)
    files: list[Path] = []
    for name, table in tables.items():
        for suffix in (".parquet", ".csv"):
            path = out_dir / "tables" / f"{name}{suffix}"
            _write_table(table, path)
            files.append(path)
    return files


def json_section(tables: dict[str, pa.Table], names: list[str]) -> dict[str, Any]:
    return {name: rows_of(tables[name]) for name in names if name in tables}


def write_report(
    report: GameReport, runs: list[RunInfo], out_dir: Path, formats: set[str]
) -> ReportOutput:
    """Compute ``report`` over ``runs`` and write its tables and the chosen ``formats``."""
    tables = report.compute(runs)
    games = int(tables.pop("_games").column("games")[0].as_py())
    complete = all(r.complete for r in runs)
    files = write_tables(tables, out_dir)
    names = [str(r.path) for r in runs]
    note = "" if complete else "unfinished run: reported for the games it has"
    if "json" in formats:
        obj = {
            "report": "tourney",
            **report.head,
            "runs": names,
            "complete": complete,
            "games": games,
            **{key: json_section(tables, parts) for key, parts in report.sections.items()},
        }
        path = out_dir / "report.json"
        path.write_text(json.dumps(obj, indent=1, default=str) + "\n")
        files.append(path)
    for fmt, name, page in (
        ("md", "summary.md", report.markdown),
        ("html", "index.html", report.html),
    ):
        if fmt in formats:
            path = out_dir / name
            path.write_text(page(tables, names, games, note))
            files.append(path)
    return ReportOutput(out_dir, files, games, complete)
