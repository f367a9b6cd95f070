"""``summary.md``: the report in Markdown (the headline, warnings, findings and the headline
tables), rendered by the ``summary.md`` template."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipelines.report.data import ReportData
from pipelines.report.gaps import GAP_NOTE, gap_rows, gap_table
from pipelines.report.labels import NO_FINDINGS, grouped_findings
from pipelines.report.page import (
    PAIR_COLUMNS,
    RATING_COLUMNS,
    SEAT_COLUMNS,
    WIN_COLUMNS,
    player_counts,
    seat_rows,
)
from reports import documents, numbers
from reports.documents import Column

if TYPE_CHECKING:
    from pipelines.report.game_report import GameReport


def markdown_sections(data: ReportData, parts: list[tuple[str, str, list[Column]]]) -> list[str]:
    """A game's Markdown sections, per cohort: ``(heading, table name, columns)``."""
    out = []
    for result in data.cohorts:
        suffix = f" — {result.cohort.label}" if len(data.cohorts) > 1 else ""
        for heading, name, columns in parts:
            out += [f"## {heading}{suffix}\n", documents.markdown_table(result.rows(name), columns)]
    return out


def markdown(report: GameReport, data: ReportData) -> str:
    """``summary.md``: the headline, the warnings, the findings and the main tables."""
    md = documents.markdown_table
    parts: list[str] = []
    if data.warnings:
        parts.append("## Warnings\n")
        parts += [
            f"- {w.text}" + (f" Replay one: `{w.command}`" if w.command else "")
            for w in data.warnings
        ]
        parts.append("")
    parts.append("## Findings\n")
    grouped = grouped_findings(data)
    if not grouped:
        parts += [NO_FINDINGS, ""]
    for label, items in grouped:
        parts.append(f"**{label}**\n")
        parts += [f"- {f.text}" for f in items]
        parts.append("")
    if data.look_at:
        parts.append("## Games to look at\n")
        parts += [
            f"- {g.text}"
            + (f" [Replay page]({g.link})." if g.page else f" ({g.note})" if g.note else "")
            + f" Replay it: `{g.command}`"
            for g in data.look_at
        ]
        parts.append("")
    for result in data.cohorts:
        for n in player_counts(result):
            title = f"## Win rate, {n} players"
            if len(data.cohorts) > 1:
                title += f" — {result.cohort.label}"
            rows = [r for r in result.rows("win_rate_by_strategy") if r["n_players"] == n]
            parts += [title + "\n", md(sorted(rows, key=lambda r: -r["win_share"]), WIN_COLUMNS)]
            if gap_rows(result, n):
                parts += [GAP_NOTE + "\n", gap_table(result, n, markdown=True)]
            parts += [md(seat_rows(result, n), SEAT_COLUMNS)]
        title = "## Ratings, every table size at once (Plackett-Luce, Elo scale)"
        if len(data.cohorts) > 1:
            title += f" — {result.cohort.label}"
        ranked = sorted(result.rows("ratings"), key=lambda r: -r["rating"])
        parts += [title + "\n", md(ranked, RATING_COLUMNS)]
    parts += report.markdown(data)
    for pair in data.pairs:
        parts += [
            f"## Paired: {pair.pairing.title}\n",
            f"{pair.pairing.sign}.\n",
            md(pair.rows("win_share"), PAIR_COLUMNS),
        ]
    return documents.markdown_page(
        f"tourney report: {report.title}",
        f"{numbers.count(data.games)} games; every figure with its 95% interval.",
        data.headline,
        ["\n".join(parts)],
    )
