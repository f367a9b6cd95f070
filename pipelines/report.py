"""``tourney report``: metrics over one or more runs -> tables, figures, HTML, Markdown, JSON.

Reads the runs' Parquet parts out of core through DuckDB views, computes every metric as a
tidy table, writes them as Parquet and CSV under ``tables/``, and assembles ``index.html``
(self-contained), ``summary.md`` and ``report.json`` (top-level sections ``win_rate``,
``curse_impact``, ``board_fairness``). An unfinished run is reported for the games it has,
and the report says so.
"""

from __future__ import annotations

import html
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.csv as pacsv

from pipelines.metrics import cells, curses, fairness, rating, win_rate
from pipelines.metrics.source import RunInfo, connect, open_run
from reports import documents, figures
from sim.runner.shard import write_part

FORMATS = ("html", "md", "json")
JSON_KEYS = ("report", "runs", "complete", "games", "win_rate", "curse_impact", "board_fairness")


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


def compute(runs: list[RunInfo]) -> dict[str, pa.Table]:
    """Every metric table of the Tobago report."""
    with connect(runs) as con:
        tables = common_tables(con)
        tables.update(
            {
                "curse_frequency": curses.frequency(con),
                "curse_positions": curses.positions(con),
                "curse_by_island": curses.by_island(con),
                "curse_victims": curses.victims(con),
                "curse_hit_vs_not_hit": curses.hit_vs_not_hit(con),
                "amulet_value": curses.amulet_value(con),
                "cell_heat": cells.heat(con),
                "start_cells": cells.start_cells(con),
            }
        )
        if len(runs) == 2:
            tables["paired_difference"] = curses.paired_difference(con)
        islands = sorted({str(r["island"]) for r in rows_of(tables["island_fairness"])})
        games = con.sql("SELECT count(*) FROM games").fetchall()[0][0]
    tables["cell_geometry"] = cells.cell_geometry(islands)
    tables["_games"] = pa.table({"games": [int(games)]})
    return tables


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


def build_report(run_dirs: list[Path], out: Path | None, formats: set[str]) -> ReportOutput:
    """Compute and write the report; ``out`` defaults to ``<first run>/report``."""
    runs = [open_run(p) for p in run_dirs]
    out_dir = out or runs[0].path / "report"
    if runs[0].game == "treasure-island":
        from pipelines import report_treasure_island

        return report_treasure_island.build(runs, out_dir, formats)
    tables = compute(runs)
    games = int(tables.pop("_games").column("games")[0].as_py())
    complete = all(r.complete for r in runs)
    files = write_tables(tables, out_dir)

    run_names = [str(r.path) for r in runs]
    win = json_section(
        tables,
        ["win_rate_by_strategy", "win_rate_by_seat", "win_rate_by_players",
         "win_rate_by_opponents", "head_to_head", "ratings", "game_length"],
    )  # fmt: skip
    curse = json_section(
        tables,
        ["curse_frequency", "curse_positions", "curse_by_island", "curse_victims",
         "curse_hit_vs_not_hit", "amulet_value", "paired_difference"],
    )  # fmt: skip
    board = json_section(tables, ["island_fairness", "seat_win_shares", "start_cells"])
    note = "" if complete else "unfinished run: reported for the games it has"
    if "json" in formats:
        obj = {
            "report": "tourney",
            "runs": run_names,
            "complete": complete,
            "games": games,
            "win_rate": win,
            "curse_impact": curse,
            "board_fairness": board,
        }
        path = out_dir / "report.json"
        path.write_text(json.dumps(obj, indent=1, default=str) + "\n")
        files.append(path)
    if "md" in formats:
        path = out_dir / "summary.md"
        path.write_text(_markdown(tables, run_names, games, note))
        files.append(path)
    if "html" in formats:
        path = out_dir / "index.html"
        path.write_text(_html(tables, run_names, games, note))
        files.append(path)
    return ReportOutput(out_dir, files, games, complete)


def _markdown(tables: dict[str, pa.Table], runs: list[str], games: int, note: str) -> str:
    md = documents.markdown_table
    parts = [
        "# tourney report\n",
        f"Runs: {', '.join(runs)}; {games} games.{' ' + note.capitalize() + '.' if note else ''}\n",
        "## Win rate\n",
        md(rows_of(tables["win_rate_by_strategy"])),
        md(rows_of(tables["ratings"])),
        "## Curse impact\n",
        md(rows_of(tables["curse_frequency"])),
        md(rows_of(tables["curse_victims"])),
        md(rows_of(tables["curse_by_island"])),
        "## Board fairness (fairest first)\n",
        md(sorted(rows_of(tables["island_fairness"]), key=lambda r: r["fairness_index"])),
    ]
    return "\n".join(parts)


def _html(tables: dict[str, pa.Table], runs: list[str], games: int, note: str) -> str:
    doc = documents
    by_strategy = rows_of(tables["win_rate_by_strategy"])
    islands = sorted(rows_of(tables["island_fairness"]), key=lambda r: r["fairness_index"])
    geometry = rows_of(tables["cell_geometry"])
    heat = rows_of(tables["cell_heat"])
    maps = []
    for name in [r["island"] for r in islands[:1] + islands[-1:]]:
        cells_of = [c for c in geometry if c["island"] == name]
        raises = {int(h["cell"]): float(h["raises"]) for h in heat if h["island"] == name}
        amulets = {int(h["cell"]): float(h["amulets"]) for h in heat if h["island"] == name}
        title = f"{name}: treasures located and raised"
        maps.append(doc.image(figures.hex_heat(cells_of, raises, title), f"{name} raises"))
        maps.append(
            doc.image(
                figures.hex_heat(cells_of, amulets, f"{name}: amulets appeared"), f"{name} amulets"
            )
        )
    intro = f"<p>Runs: {html.escape(', '.join(runs))}. Games: {games}.</p>" + (
        f'<p class="note">{html.escape(note)}.</p>' if note else ""
    )
    fairness_text = (
        "<p>Fairness index: the largest distance of any seat's win share from the fair share "
        "1/n (0 = perfectly fair). First-seat advantage: seat 0's win share minus 1/n. The "
        "chi-square test asks whether wins are spread evenly over the seats.</p>"
    )
    sections = [
        ("summary", "Summary", intro),
        (
            "win-rate",
            "Win rate",
            doc.image(figures.win_share_bars(by_strategy), "win share by strategy")
            + doc.html_table(by_strategy)
            + doc.image(
                figures.seat_shares(rows_of(tables["win_rate_by_seat"])), "win share by seat"
            )
            + "<h3>Ratings</h3><p>Bradley-Terry by maximum likelihood on the pairwise results "
            "inside games (Elo scale, pool mean 0); 95% intervals by bootstrap over chunks of "
            "whole games.</p>"
            + doc.html_table(rows_of(tables["ratings"]))
            + doc.image(figures.score_distribution(rows_of(tables["score_distribution"])), "scores")
            + "<h3>By opponent mix</h3>"
            + doc.html_table(rows_of(tables["win_rate_by_opponents"]))
            + "<h3>Head to head</h3>"
            + doc.html_table(rows_of(tables["head_to_head"]))
            + "<h3>Game length</h3>"
            + doc.html_table(rows_of(tables["game_length"])),
        ),
        (
            "curse-impact",
            "Curse impact",
            doc.html_table(rows_of(tables["curse_frequency"]))
            + doc.html_table(rows_of(tables["curse_positions"]))
            + "<h3>Per island</h3>"
            + doc.html_table(rows_of(tables["curse_by_island"]))
            + doc.html_table(rows_of(tables["curse_victims"]))
            + doc.html_table(rows_of(tables["curse_hit_vs_not_hit"]))
            + doc.html_table(rows_of(tables["amulet_value"]))
            + (
                doc.html_table(rows_of(tables["paired_difference"]))
                if "paired_difference" in tables
                else ""
            ),
        ),
        (
            "board-fairness",
            "Board fairness",
            fairness_text + doc.html_table(islands) + "".join(maps),
        ),
    ]
    return doc.html_page("tourney report", sections)
