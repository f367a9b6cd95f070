"""``tourney report``: metrics over one or more runs -> tables, figures, HTML, Markdown, JSON.

Reads the runs' Parquet parts out of core through DuckDB views, computes every metric as a
tidy table, writes them as Parquet and CSV under ``tables/``, and assembles ``index.html``
(self-contained), ``summary.md`` and ``report.json`` (top-level sections ``win_rate``,
``curse_impact``, ``board_fairness``). An unfinished run is reported for the games it has,
and the report says so.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from pipelines import report_treasure_island
from pipelines.metrics import cells, curses
from pipelines.metrics.source import RunInfo, connect, open_run
from pipelines.report_common import (
    GameReport,
    ReportOutput,
    common_tables,
    intro_html,
    ratings_html,
    rows_of,
    write_report,
)
from reports import documents, figures

FORMATS = ("html", "md", "json")
JSON_KEYS = ("report", "runs", "complete", "games", "win_rate", "curse_impact", "board_fairness")


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
    intro = intro_html(runs, games, note)
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
            + ratings_html(tables)
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


TOBAGO = GameReport(
    compute=compute,
    head={},
    sections={
        "win_rate": [
            "win_rate_by_strategy",
            "win_rate_by_seat",
            "win_rate_by_players",
            "win_rate_by_opponents",
            "head_to_head",
            "ratings",
            "game_length",
        ],
        "curse_impact": [
            "curse_frequency",
            "curse_positions",
            "curse_by_island",
            "curse_victims",
            "curse_hit_vs_not_hit",
            "amulet_value",
            "paired_difference",
        ],
        "board_fairness": ["island_fairness", "seat_win_shares", "start_cells"],
    },
    markdown=_markdown,
    html=_html,
)


def build_report(run_dirs: list[Path], out: Path | None, formats: set[str]) -> ReportOutput:
    """Compute and write the report; ``out`` defaults to ``<first run>/report``."""
    runs = [open_run(p) for p in run_dirs]
    out_dir = out or runs[0].path / "report"
    reports = {"tobago": TOBAGO, "treasure-island": report_treasure_island.REPORT}
    return write_report(reports[runs[0].game], runs, out_dir, formats)
