"""The report's HTML page: its common sections (summary with the findings, win rates, paired
comparisons) as :class:`~reports.documents.Section` values, and the page assembled from them
and a game's own sections with the headline on top.

Kept short: the first cohort's answers are open; what describes rather than answers (score
distributions, head-to-head matrices, ratings, a twin's own tables) is folded, and the notes
that hold for the whole page are said once, folded, at its top.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pipelines.report.data import CohortResult, PairResult, ReportData, warning_link
from pipelines.report.gaps import GAP_NOTE, gap_table
from pipelines.report.headline import primary
from pipelines.report.labels import NO_FINDINGS, grouped_findings
from pipelines.report.run_groups import lineup_shape, rules_name, run_label, short_label
from reports import documents, figures, numbers
from reports.documents import Section, col

if TYPE_CHECKING:
    from pipelines.report.game_report import GameReport

#: What holds for every figure of a report, said once in the folded notes at the top.
NOTES = [
    "Intervals are 95% and treat each seed block (the seat rotations of one deal) as one "
    "observation; only games that reached their natural end count, unless the report says "
    "otherwise at the top.",
    "A difference is stated only when its interval excludes no difference; beside no clear "
    "difference stands the smallest one the run could have detected with 80% power.",
    "Win shares split ties; the fair share is 1/n at n players. Seats are numbered from 1 "
    "(seat 1 plays first).",
    GAP_NOTE,
    "Ratings are Plackett-Luce ratings fitted by maximum likelihood to every game's finishing "
    "order, all table sizes at once (Elo scale, pool mean 0: 100 points apart means the "
    "stronger is chosen first 64% of the time in a head-to-head); 95% intervals by a bootstrap "
    "over chunks of whole seed blocks.",
    "Paired comparisons play two runs on the same seeds that differ in one factor and compare "
    "them game by game: B - A, with 95% intervals over seed blocks.",
]


def cohort_heading(result: CohortResult, data: ReportData, n: int | None = None) -> str:
    """A sub-heading naming the cohort (when there are several) and the player count."""
    parts = []
    if len(data.cohorts) > 1:
        parts.append(result.cohort.label)
    if n is not None:
        parts.append(f"{n} players")
    return documents.subheading(" — ".join(parts)) if parts else ""


def player_counts(result: CohortResult) -> list[int]:
    return sorted({int(r["n_players"]) for r in result.rows("win_rate_by_strategy")})


def is_primary(result: CohortResult, data: ReportData) -> bool:
    """Whether the page shows this cohort's answers open (the one the headline speaks of,
    and every cohort that is no pairing's B)."""
    bs = {id(p.pairing.b) for p in data.pairs}
    return result is primary(data) or not any(id(r) in bs for r in result.cohort.runs)


WIN_COLUMNS = [
    col("strategy", "text"),
    col("games", "count", "seats"),
    col("win share [95% interval]", "share_ci", "win_share", "low", "high"),
    col("fair share", "pct", "fair_share"),
    col("mean score [95% interval]", "mean_ci", "mean_score", "score_low", "score_high"),
]
SEAT_COLUMNS = [
    col("seat", "text", "seat_label"),
    col("games", "count", "games"),
    col("win share [95% interval]", "share_ci", "win_share", "low", "high"),
    col("advantage, points [95% interval]", "points_ci", "advantage", "advantage_low",
        "advantage_high"),
]  # fmt: skip
RATING_COLUMNS = [
    col("strategy", "text"),
    col("rating (Elo scale)", "signed_ci", "rating", "low", "high"),
    col("games (every table size)", "count", "games"),
]
H2H_COLUMNS = [
    col("strategy", "text"),
    col("opponent", "text"),
    col("meetings", "count"),
    col("finishes ahead [95% interval]", "share_ci", "ahead", "low", "high"),
]
OPPONENT_COLUMNS = [
    col("strategy", "text"),
    col("opponents", "text"),
    col("games", "count", "seats"),
    col("win share [95% interval]", "share_ci", "win_share", "low", "high"),
]
LENGTH_COLUMNS = [
    col("players", "text", "n_players"),
    col("games", "count"),
    col("finished", "count"),
    col("in the figures", "count", "reported"),
    col("mean turns [95% interval]", "mean_ci", "mean_turns", "low", "high"),
    col("sd", "num1", "sd_turns"),
    col("min", "count", "min_turns"),
    col("max", "count", "max_turns"),
    col("turn cap", "count", "turn_cap"),
    col("deadlock", "count"),
    col("time limit", "count", "timeout"),
]


def seat_rows(result: CohortResult, n: int) -> list[dict[str, Any]]:
    rows = [dict(r) for r in result.rows("win_rate_by_seat") if r["n_players"] == n]
    for r in rows:
        r["seat_label"] = f"{int(r['seat']) + 1}" + (" (first)" if r["seat"] == 0 else "")
    return rows


def _win_block(result: CohortResult, n: int) -> str:
    """At ``n`` players: the win shares (figure beside the table and the gaps) and the seats
    (table; the figure per strategy folded)."""
    doc = documents
    rows = [r for r in result.rows("win_rate_by_strategy") if r["n_players"] == n]
    fair = 1 / n
    games = sum(int(r["seats"]) for r in rows) // max(1, n)
    bars = doc.figure(
        figures.win_share_bars(rows, fair, f"Win share by strategy, {n} players"),
        f"Bar chart of each strategy's win share in {n}-player games with 95% intervals and "
        "the fair share line",
        f"Share of games each strategy won, best first, over {numbers.count(games)} {n}-player "
        f"games, with 95% intervals; the dashed line is the fair share {numbers.pct(fair, 0)}.",
    )
    table = doc.html_table(sorted(rows, key=lambda r: -r["win_share"]), WIN_COLUMNS)
    gaps = gap_table(result, n, note=False)
    by_seat = [r for r in result.rows("win_rate_by_strategy_seat") if r["n_players"] == n]
    seats = doc.folded(
        f"Win share by seat and strategy, {n} players (figure)",
        doc.figure(
            figures.seat_shares(by_seat, fair, f"Win share by seat, {n} players"),
            f"Line chart of each strategy's win share from each seat, {n} players",
            "Each strategy's win share from each seat (1 = first to play) with 95% intervals; "
            "lines above the dashed fair share mean the seat helps.",
        ),
    )
    return doc.side_by_side(
        bars, table + gaps + doc.html_table(seat_rows(result, n), SEAT_COLUMNS) + seats
    )


def _described(report: GameReport, result: CohortResult) -> str:
    """What describes rather than answers, folded: ratings, final scores, head to head, the
    win shares by opponent mix."""
    doc = documents
    parts = [doc.subheading("Ratings") + doc.html_table(result.rows("ratings"), RATING_COLUMNS)]
    h2h = result.rows("head_to_head")
    for n in player_counts(result):
        rows = [r for r in result.rows("score_distribution") if r["n_players"] == n]
        score = doc.figure(
            figures.score_distribution(rows, report.score_unit, f"Final scores, {n} players"),
            f"Step histograms of final scores per strategy, {n} players",
            f"Distribution of each strategy's final score in {report.score_unit} "
            f"({n}-player games), each strategy normalised to its own games.",
        )
        pairs = [r for r in h2h if r["n_players"] == n]
        matrix = ""
        if len({r["strategy"] for r in pairs}) >= 2:
            matrix = doc.figure(
                figures.matrix(
                    pairs,
                    "strategy",
                    "opponent",
                    "ahead",
                    f"Head to head, {n} players",
                    "finishes ahead of the opponent",
                ),
                f"Matrix of how often each strategy finished ahead of each other one in "
                f"{n}-player games",
                f"Row strategy against column opponent: the share of the {n}-player games they "
                "played together in which the row finished ahead (a tie counts a half); above "
                "50% (blue) the row does better. Intervals are in the table below.",
            )
        parts.append(doc.side_by_side(score, matrix))
    opp = result.rows("win_rate_by_opponents")
    parts.append(
        doc.subheading("Head to head")
        + doc.html_table(h2h, [col("players", "text", "n_players"), *H2H_COLUMNS])
        + doc.subheading("Win share by opponent mix")
        + doc.html_table(opp, [col("players", "text", "n_players"), *OPPONENT_COLUMNS])
    )
    return doc.folded(
        f"Ratings, final scores, head to head and opponent mixes ({len(h2h)} pairs, "
        f"{len(opp)} mixes)",
        "".join(parts),
    )


def win_rate_section(report: GameReport, data: ReportData) -> Section:
    """Win shares per cohort and player count, seats, length; ratings, scores and head to
    head folded; a pairing's B cohort folded whole."""
    doc = documents
    body = []
    for result in data.cohorts:
        inner = [
            cohort_heading(result, data, n) + _win_block(result, n) for n in player_counts(result)
        ]
        inner.append(_described(report, result))
        inner.append(
            doc.subheading("Game length")
            + doc.html_table(result.rows("game_length"), LENGTH_COLUMNS)
        )
        if is_primary(result, data):
            body += inner
        else:
            body.append(
                doc.folded(
                    f"{result.cohort.label}: win shares, seats, ratings and game length (its "
                    "difference from the run it is paired with is in the paired comparison)",
                    "".join(inner),
                )
            )
    return Section(
        "win-rate",
        "Win rate",
        "Who wins, per player count: each strategy's share of the games it played, the gaps "
        "in the ranking, the seats, and how long games last.",
        "".join(body),
    )


PAIR_COLUMNS = [
    col("strategy", "text", "group"),
    col("games paired", "count", "pairs"),
    col("win share B - A, points [95% interval]", "points_ci_blocks", "estimate", "low", "high"),
]
PAIR_SCORE_COLUMNS = [
    col("strategy", "text", "group"),
    col("games paired", "count", "pairs"),
    col("mean score B - A [95% interval]", "signed_ci_blocks", "estimate", "low", "high"),
]


def pair_body(pair: PairResult, unit: str) -> str:
    """One pairing: its label, the paired differences figure and tables."""
    doc = documents
    p = pair.pairing
    wins = pair.rows("win_share")
    table_rows = pair.rows("first_seat") + pair.rows("turns")
    changes = "; ".join(p.changes) if p.changes else "nothing recorded"
    # A difference over too few seed blocks has no interval to draw (the table says so).
    bounded = [{**r, "label": r["group"]} for r in wins if r["low"] is not None]
    parts = [doc.paragraph(f"{p.sign}. What differs: {changes}.")]
    figure = ""
    if bounded:
        figure = doc.figure(
            figures.forest(
                bounded,
                "label",
                None,
                "Change in win share by strategy",
                "B - A, win share in percentage points (95% interval)",
                size="pairs",
                size_word="games paired",
            ),
            f"Dot plot of each strategy's change in win share between A and B: {p.title}",
            "Each strategy's change in win share, in percentage points, with its 95% interval "
            "over seed blocks and the games paired, largest first.",
        )
    tables = (
        doc.html_table(wins, PAIR_COLUMNS)
        + doc.html_table(
            pair.rows("score"),
            [
                *PAIR_SCORE_COLUMNS[:2],
                col(f"mean score B - A, {unit} [95% interval]", "signed_ci_blocks", "estimate",
                    "low", "high"),
            ],
        )
        + _whole_table(table_rows)
    )  # fmt: skip
    parts.append(doc.side_by_side(figure, tables) if figure else tables)
    a_only, b_only = pair.unpaired
    if pair.left_out():
        parts.append(doc.paragraph(pair.left_out(), "warning"))
    if a_only or b_only:
        parts.append(
            doc.paragraph(
                f"{numbers.count(a_only)} games of A and {numbers.count(b_only)} of B had no "
                "finished partner on the same seed and are left out of the pairing.",
                "note",
            )
        )
    return "".join(parts)


def _whole_table(rows: list[dict[str, Any]]) -> str:
    shown = []
    for r in rows:
        scale = 100.0 if r["metric"] == "first_seat" else 1.0
        shown.append(
            {
                "what": "first seat's win share (points)"
                if r["metric"] == "first_seat"
                else "game length (turns)",
                "pairs": r["pairs"],
                "v": scale * r["estimate"],
                "lo": None if r["low"] is None else scale * r["low"],
                "hi": None if r["high"] is None else scale * r["high"],
            }
        )
    return documents.html_table(
        shown,
        [
            col("whole table", "text", "what"),
            col("games paired", "count", "pairs"),
            col("B - A [95% interval]", "signed_ci_blocks", "v", "lo", "hi"),
        ],
    )


def comparisons_section(report: GameReport, data: ReportData, skip: set[int]) -> Section | None:
    """The paired comparisons not shown in a game's own section (``skip``: their indices)."""
    shown = [p for p in data.pairs if p.pairing.index not in skip]
    if not shown:
        return None
    body = "".join(
        documents.subheading(p.pairing.title.capitalize()) + pair_body(p, report.score_unit)
        for p in shown
    )
    return Section(
        "comparisons",
        "Paired comparisons",
        "Runs on the same seeds that differ in one factor (rules or one strategy), compared "
        "game by game: B - A with its direction and units, 95% intervals over seed blocks.",
        body,
    )


def _runs_list(data: ReportData) -> list[str]:
    """Each run once with its short name, its long label, where it is and what it played."""
    runs = []
    for run in data.groups.runs:
        spec = run.manifest["spec"]
        state = "complete" if run.complete else "UNFINISHED"
        who = ", ".join(spec["players"])
        games = numbers.count(spec["games"])
        pool, sizes = lineup_shape(run)
        if pool:
            who = f"the pool {who}, every combination at {', '.join(map(str, sizes))} players"
            games += f" ({numbers.count(spec['games_per_size'])} per table size)"
        runs.append(
            f"{short_label(run)}: {run_label(run)} ({run.where}): {games} games of {who} under "
            f"{rules_name(run)}, seed {spec['seed']}, {spec['seating']} seating ({state})"
        )
    return runs


def summary_section(report: GameReport, data: ReportData) -> Section:
    """What was played, the warnings, the findings (a pairing's B cohort's folded), the
    games to look at (folded)."""
    doc = documents
    parts = [doc.subheading("Runs"), doc.bullet_list(_runs_list(data), "runs")]
    if data.warnings:
        parts += [
            doc.subheading(f"Warnings ({len(data.warnings)})"),
            doc.warning_list(
                [(w.text, w.command) for w in data.warnings],
                links=[warning_link(w, data.look_at) for w in data.warnings],
            ),
        ]
    else:
        parts.append(
            doc.paragraph(
                "No warnings: every game reached its natural end and no strategy failed.",
                "note",
            )
        )
    parts.append(doc.subheading("Findings"))
    grouped = grouped_findings(data)
    if not grouped:
        parts.append(doc.paragraph(NO_FINDINGS, "note"))
    secondary = {f"cohort:{r.cohort.index}" for r in data.cohorts if not is_primary(r, data)}
    for label, found in grouped:
        items = doc.bullet_list([f.text for f in found], "findings")
        if found[0].scope in secondary:
            parts.append(doc.folded(f"{label}: {len(found)} findings", items))
        else:
            parts += [doc.paragraph(label, "scope"), items]
    if data.look_at:
        parts.append(
            doc.folded(
                f"Games to look at ({len(data.look_at)}), with their replay pages",
                doc.game_list([(g.text, g.link, g.note, g.command) for g in data.look_at]),
            )
        )
    return Section(
        "summary",
        "Summary",
        f"{numbers.counted(data.games, 'game')} in "
        f"{numbers.counted(len(data.groups.runs), 'run')}, "
        f"{numbers.counted(len(data.cohorts), 'set')} of tables and "
        f"{numbers.counted(len(data.pairs), 'paired comparison')}: "
        "the warnings, then the findings, each with its 95% interval and the games behind it.",
        "".join(parts),
    )


def html(report: GameReport, data: ReportData) -> str:
    """The whole page: the headline on top, then the sections."""
    sections = [summary_section(report, data), win_rate_section(report, data)]
    sections += report.sections(data)
    shown = {int(s) for s in _shown_pairs(sections)}
    extra = comparisons_section(report, data, shown)
    if extra is not None:
        sections.append(extra)
    subtitle = (
        f"{report.title}: {numbers.counted(data.games, 'game')} in "
        f"{numbers.counted(len(data.groups.runs), 'run')}; every figure with its 95% interval "
        "(notes below)."
    )
    return documents.html_page(
        f"tourney report: {report.title}",
        subtitle,
        sections,
        headline=data.headline,
        notes=[*NOTES, *report.notes],
    )


def _shown_pairs(sections: list[Section]) -> list[str]:
    """Pairings a game section already shows (marked ``data-pairing="K"``)."""
    return re.findall(r'data-pairing="(\d+)"', "".join(s.body for s in sections))
