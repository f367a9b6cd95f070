"""The Treasure Island report: win rate, seat advantage, and the push-your-luck figures.

The same outputs as the Tobago report (metric tables as Parquet and CSV, ``report.json``,
``summary.md``, a self-contained ``index.html``) with this game's sections. ``report.json``
has the top-level keys of :data:`JSON_KEYS`.
"""

from __future__ import annotations

import pyarrow as pa

from pipelines.metrics import push_luck
from pipelines.metrics.source import RunInfo, connect
from pipelines.report_common import (
    GameReport,
    common_tables,
    intro_html,
    ratings_html,
    rows_of,
)
from reports import documents, figures

JSON_KEYS = (
    "report",
    "game",
    "runs",
    "complete",
    "games",
    "win_rate",
    "seat_advantage",
    "push_your_luck",
)
_WIN = [
    "win_rate_by_strategy",
    "win_rate_by_players",
    "win_rate_by_opponents",
    "head_to_head",
    "ratings",
    "game_length",
]
_SEAT = ["win_rate_by_seat", "seat_win_shares", "island_fairness"]
_LUCK = [
    "bust_by_kinds",
    "turns_by_strategy",
    "turn_endings",
    "plunder_sizes",
    "key_chest",
    "power_use",
]


def compute(runs: list[RunInfo]) -> dict[str, pa.Table]:
    """Every metric table of the Treasure Island report."""
    with connect(runs) as con:
        tables = common_tables(con)
        tables.update(
            {
                "bust_by_kinds": push_luck.bust_by_kinds(con),
                "turns_by_strategy": push_luck.turns_by_strategy(con),
                "turn_endings": push_luck.turn_endings(con),
                "plunder_sizes": push_luck.plunder_sizes(con),
                "key_chest": push_luck.key_chest(con),
                "power_use": push_luck.power_use(con),
            }
        )
        games = int(con.sql("SELECT count(*) FROM games").fetchall()[0][0])
    tables["_games"] = pa.table({"games": [games]})
    return tables


def _markdown(tables: dict[str, pa.Table], runs: list[str], games: int, note: str) -> str:
    md = documents.markdown_table
    parts = [
        "# tourney report: Treasure Island\n",
        f"Runs: {', '.join(runs)}; {games} games.{' ' + note.capitalize() + '.' if note else ''}\n",
        "## Win rate\n",
        md(rows_of(tables["win_rate_by_strategy"])),
        md(rows_of(tables["ratings"])),
        "## Seat advantage\n",
        md(rows_of(tables["island_fairness"])),
        "## Bust rate against the exact chance\n",
        md(rows_of(tables["bust_by_kinds"])),
        "## Turns\n",
        md(rows_of(tables["turns_by_strategy"])),
        md(rows_of(tables["key_chest"])),
    ]
    return "\n".join(parts)


def _html(tables: dict[str, pa.Table], runs: list[str], games: int, note: str) -> str:
    doc = documents
    rows = rows_of
    intro = intro_html(runs, games, note)
    seat_text = (
        "<p>Win share by seat with 95% intervals; first-seat advantage is seat 0's share minus "
        "1/n, the fairness index the largest distance of any seat from 1/n, and the "
        "chi-square test asks whether wins are spread evenly over the seats.</p>"
    )
    bust_text = (
        "<p>Every card taken blind from the draw pile busts with an exact chance known from "
        "the pile's make-up: the cards left of kinds already in play over the cards left. "
        "Observed against exact, by kinds in play (cards a Spyglass showed are left out); "
        "intervals and z use the spread between seed blocks.</p>"
    )
    sections: list[tuple[str, str, str]] = [
        ("summary", "Summary", intro),
        (
            "win-rate",
            "Win rate",
            doc.image(figures.win_share_bars(rows(tables["win_rate_by_strategy"])), "win share")
            + doc.html_table(rows(tables["win_rate_by_strategy"]))
            + ratings_html(tables)
            + "<h3>Game length (turns)</h3>"
            + doc.html_table(rows(tables["game_length"])),
        ),
        (
            "seat-advantage",
            "Seat advantage",
            seat_text
            + doc.image(figures.seat_shares(rows(tables["win_rate_by_seat"])), "seat shares")
            + doc.html_table(rows(tables["island_fairness"]))
            + doc.html_table(rows(tables["seat_win_shares"])),
        ),
        (
            "busts",
            "Bust rate against the exact chance",
            bust_text
            + doc.image(figures.bust_vs_exact(rows(tables["bust_by_kinds"])), "bust rate")
            + doc.html_table(rows(tables["bust_by_kinds"]))
            + "<h3>Turns by strategy</h3>"
            + doc.html_table(rows(tables["turns_by_strategy"]))
            + doc.html_table(rows(tables["turn_endings"])),
        ),
        (
            "plunder",
            "Plunder sizes",
            doc.image(figures.plunder_sizes(rows(tables["plunder_sizes"])), "plunder sizes")
            + doc.html_table(rows(tables["plunder_sizes"])),
        ),
        (
            "key-chest",
            "Key + Chest bonus",
            "<p>Share of plunders that moved both a Key and a Chest, and what the bonus brought "
            "(cards from the discard, and the points they added).</p>"
            + doc.html_table(rows(tables["key_chest"])),
        ),
        (
            "powers",
            "Use of each power",
            "<p>Powers applied per game a strategy played; <code>_nothing</code>: the power "
            "had nothing to act on.</p>" + doc.html_table(rows(tables["power_use"])),
        ),
    ]
    return doc.html_page("tourney report: Treasure Island", sections)


REPORT = GameReport(
    compute=compute,
    head={"game": "treasure-island"},
    sections={"win_rate": _WIN, "seat_advantage": _SEAT, "push_your_luck": _LUCK},
    markdown=_markdown,
    html=_html,
)
