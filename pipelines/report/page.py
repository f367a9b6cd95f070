"""The report's sections as values: its common sections (summary with the findings, win
rates, paired comparisons) as :class:`~reports.blocks.Section` values, after them a game's
own; the HTML page (``index.html``) and the Markdown summary (``summary.md``) rendered from
the same sections with the headline on top.

Kept short: the first cohort's answers are open; what describes rather than answers (score
distributions, head-to-head matrices, ratings, a twin's own tables) is folded, and the notes
that hold for the whole page are said once, folded, at its top. The summary shows the open
content without figures and, of what is folded, only the brief parts (ratings, the games to
look at, a twin's findings, a game's headline tables).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pipelines.report.data import CohortResult, PairResult, ReportData, warning_link
from pipelines.report.game_shape import section as game_shape_section
from pipelines.report.gaps import GAP_NOTE, gap_blocks
from pipelines.report.headline import primary
from pipelines.report.labels import NO_FINDINGS, grouped_findings
from pipelines.report.meta_game import section as meta_game_section
from pipelines.report.run_groups import lineup_shape, rules_name, run_label, short_label
from reports import documents, figures, numbers
from reports.blocks import (
    Alert,
    Block,
    Brief,
    Bullets,
    Figure,
    Folded,
    Game,
    Games,
    Paired,
    Paragraph,
    Section,
    SideBySide,
    Subheading,
    Table,
    Warnings,
    col,
    walk,
)

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


def cohort_heading(
    result: CohortResult, data: ReportData, n: int | None = None, what: str = ""
) -> tuple[Block, ...]:
    """A sub-heading naming the cohort (when there are several) and the player count, after
    what the part shows (``what``, if given); nothing when there is nothing to name."""
    parts = []
    if len(data.cohorts) > 1:
        parts.append(result.cohort.label)
    if n is not None:
        parts.append(f"{what}, {n} players" if what else f"{n} players")
    return (Subheading(" — ".join(parts)),) if parts else ()


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


def _win_block(result: CohortResult, n: int) -> SideBySide:
    """At ``n`` players: the win shares (figure beside the table and the gaps) and the seats
    (table; the figure per strategy folded)."""
    rows = [r for r in result.rows("win_rate_by_strategy") if r["n_players"] == n]
    fair = 1 / n
    games = sum(int(r["seats"]) for r in rows) // max(1, n)
    bars = Figure(
        figures.win_share_bars(rows, fair, f"Win share by strategy, {n} players"),
        f"Bar chart of each strategy's win share in {n}-player games with 95% intervals and "
        "the fair share line",
        f"Share of games each strategy won, best first, over {numbers.count(games)} {n}-player "
        f"games, with 95% intervals; the dashed line is the fair share {numbers.pct(fair, 0)}.",
    )
    by_seat = [r for r in result.rows("win_rate_by_strategy_seat") if r["n_players"] == n]
    seats = Folded(
        f"Win share by seat and strategy, {n} players (figure)",
        (
            Figure(
                figures.seat_shares(by_seat, fair, f"Win share by seat, {n} players"),
                f"Line chart of each strategy's win share from each seat, {n} players",
                "Each strategy's win share from each seat (1 = first to play) with 95% "
                "intervals; lines above the dashed fair share mean the seat helps.",
            ),
        ),
    )
    return SideBySide(
        (bars,),
        (
            Table.of(sorted(rows, key=lambda r: -r["win_share"]), WIN_COLUMNS),
            *gap_blocks(result, n),
            Table.of(seat_rows(result, n), SEAT_COLUMNS),
            seats,
        ),
    )


def _head_to_head(report: GameReport, result: CohortResult, n: int) -> SideBySide:
    """At ``n`` players: the final scores beside the head-to-head matrix (when at least two
    strategies met)."""
    rows = [r for r in result.rows("score_distribution") if r["n_players"] == n]
    score = Figure(
        figures.score_distribution(rows, report.score_unit, f"Final scores, {n} players"),
        f"Step histograms of final scores per strategy, {n} players",
        f"Distribution of each strategy's final score in {report.score_unit} "
        f"({n}-player games), each strategy normalised to its own games.",
    )
    pairs = [r for r in result.rows("head_to_head") if r["n_players"] == n]
    if len({r["strategy"] for r in pairs}) < 2:
        return SideBySide((score,), ())
    matrix = Figure(
        figures.matrix(
            pairs,
            "strategy",
            "opponent",
            "ahead",
            f"Head to head, {n} players",
            "finishes ahead of the opponent",
        ),
        f"Matrix of how often each strategy finished ahead of each other one in {n}-player games",
        f"Row strategy against column opponent: the share of the {n}-player games they "
        "played together in which the row finished ahead (a tie counts a half); above "
        "50% (blue) the row does better. Intervals are in the table below.",
    )
    return SideBySide((score,), (matrix,))


def _described(report: GameReport, result: CohortResult) -> Folded:
    """What describes rather than answers, folded: ratings (in the summary too), final
    scores, head to head, the win shares by opponent mix."""
    ratings = sorted(result.rows("ratings"), key=lambda r: -r["rating"])
    h2h = result.rows("head_to_head")
    opp = result.rows("win_rate_by_opponents")
    return Folded(
        f"Ratings, final scores, head to head and opponent mixes ({len(h2h)} pairs, "
        f"{len(opp)} mixes)",
        (
            Brief(
                (
                    Subheading("Ratings, every table size at once (Plackett-Luce, Elo scale)"),
                    Table.of(ratings, RATING_COLUMNS),
                )
            ),
            *(_head_to_head(report, result, n) for n in player_counts(result)),
            Subheading("Head to head"),
            Table.of(h2h, [col("players", "text", "n_players"), *H2H_COLUMNS]),
            Subheading("Win share by opponent mix"),
            Table.of(opp, [col("players", "text", "n_players"), *OPPONENT_COLUMNS]),
        ),
    )


def win_rate_section(report: GameReport, data: ReportData) -> Section:
    """Win shares per cohort and player count, seats, length; ratings, scores and head to
    head folded; a pairing's B cohort folded whole."""
    blocks: list[Block] = []
    for result in data.cohorts:
        inner: list[Block] = []
        for n in player_counts(result):
            inner += [*cohort_heading(result, data, n, "Win rate"), _win_block(result, n)]
        inner += [
            _described(report, result),
            Subheading("Game length"),
            Table.of(result.rows("game_length"), LENGTH_COLUMNS),
        ]
        if is_primary(result, data):
            blocks += inner
        else:
            blocks.append(
                Folded(
                    f"{result.cohort.label}: win shares, seats, ratings and game length (its "
                    "difference from the run it is paired with is in the paired comparison)",
                    tuple(inner),
                )
            )
    return Section(
        "win-rate",
        "Win rate",
        "Who wins, per player count: each strategy's share of the games it played, the gaps "
        "in the ranking, the seats, and how long games last.",
        tuple(blocks),
    )


PAIR_COLUMNS = [
    col("strategy", "text", "group"),
    col("games paired", "count", "pairs"),
    col("win share B - A, points [95% interval]", "points_ci_blocks", "estimate", "low", "high"),
]


def pair_body(pair: PairResult, unit: str) -> tuple[Block, ...]:
    """One pairing: its label, the paired differences figure and tables."""
    p = pair.pairing
    wins = pair.rows("win_share")
    changes = "; ".join(p.changes) if p.changes else "nothing recorded"
    blocks: list[Block] = [Paragraph(f"{p.sign}. What differs: {changes}.")]
    score = col(
        f"mean score B - A, {unit} [95% interval]", "signed_ci_blocks", "estimate", "low", "high"
    )
    tables = (
        Table.of(wins, PAIR_COLUMNS),
        Table.of(pair.rows("score"), [*PAIR_COLUMNS[:2], score]),
        _whole_table(pair.rows("first_seat") + pair.rows("turns")),
    )
    # A difference over too few seed blocks has no interval to draw (the table says so).
    bounded = [{**r, "label": r["group"]} for r in wins if r["low"] is not None]
    if bounded:
        figure = Figure(
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
        blocks.append(SideBySide((figure,), tables))
    else:
        blocks += tables
    a_only, b_only = pair.unpaired
    if pair.left_out():
        blocks.append(Paragraph(pair.left_out(), "warning"))
    if a_only or b_only:
        blocks.append(
            Paragraph(
                f"{numbers.count(a_only)} games of A and {numbers.count(b_only)} of B had no "
                "finished partner on the same seed and are left out of the pairing.",
                "note",
            )
        )
    return tuple(blocks)


def _whole_table(rows: list[dict[str, Any]]) -> Table:
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
    return Table.of(
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
    blocks: list[Block] = []
    for p in shown:
        blocks += [Subheading(p.pairing.title.capitalize()), *pair_body(p, report.score_unit)]
    return Section(
        "comparisons",
        "Paired comparisons",
        "Runs on the same seeds that differ in one factor (rules or one strategy), compared "
        "game by game: B - A with its direction and units, 95% intervals over seed blocks.",
        tuple(blocks),
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
        engine = ", compiled engine: no move log" if spec.get("engine") == "compiled" else ""
        runs.append(
            f"{short_label(run)}: {run_label(run)} ({run.where}): {games} games of {who} under "
            f"{rules_name(run)}, seed {spec['seed']}, {spec['seating']} seating ({state}"
            f"{engine})"
        )
    return runs


def _findings(data: ReportData) -> list[Block]:
    """The findings under their scopes' labels; a pairing's B cohort's folded."""
    grouped = grouped_findings(data)
    if not grouped:
        return [Paragraph(NO_FINDINGS, "note")]
    secondary = {f"cohort:{r.cohort.index}" for r in data.cohorts if not is_primary(r, data)}
    blocks: list[Block] = []
    for label, found in grouped:
        items = Bullets(tuple(f.text for f in found), "findings")
        if found[0].scope in secondary:
            blocks.append(Folded(f"{label}: {len(found)} findings", (Brief((items,), label),)))
        else:
            blocks += [Paragraph(label, "scope"), items]
    return blocks


def summary_section(data: ReportData) -> Section:
    """What was played, the warnings, the findings (a pairing's B cohort's folded), the
    games to look at (folded)."""
    blocks: list[Block] = [Subheading("Runs"), Bullets(tuple(_runs_list(data)), "runs")]
    if data.warnings:
        alerts = (Alert(w.text, w.command, warning_link(w, data.look_at)) for w in data.warnings)
        blocks += [Subheading(f"Warnings ({len(data.warnings)})"), Warnings(tuple(alerts))]
    else:
        blocks.append(
            Paragraph(
                "No warnings: every game reached its natural end and no strategy failed.",
                "note",
            )
        )
    blocks += [Subheading("Findings"), *_findings(data)]
    if data.look_at:
        games = Games(tuple(Game(g.text, g.link, g.note, g.command) for g in data.look_at))
        blocks.append(
            Folded(
                f"Games to look at ({len(data.look_at)}), with their replay pages",
                (Brief((games,), "Games to look at"),),
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
        tuple(blocks),
    )


def sections(report: GameReport, data: ReportData) -> list[Section]:
    """Every section, in page order: the summary, the win rates, a pool's meta-game, the
    game's own sections, the game's shape, then the paired comparisons no game section
    showed."""
    meta = meta_game_section(data)
    out = [
        summary_section(data),
        win_rate_section(report, data),
        *([meta] if meta else []),
        *report.sections(data),
        game_shape_section(report, data, lambda result: is_primary(result, data)),
    ]
    shown = {b.index for s in out for b in walk(s.blocks) if isinstance(b, Paired)}
    extra = comparisons_section(report, data, shown)
    return out if extra is None else [*out, extra]


def html(report: GameReport, data: ReportData, shown: list[Section]) -> str:
    """The whole page: the headline on top, then the sections."""
    subtitle = (
        f"{report.title}: {numbers.counted(data.games, 'game')} in "
        f"{numbers.counted(len(data.groups.runs), 'run')}; every figure with its 95% interval "
        "(notes below)."
    )
    return documents.html_page(
        f"tourney report: {report.title}",
        subtitle,
        shown,
        headline=data.headline,
        notes=[*NOTES, *report.notes],
    )


def markdown(report: GameReport, data: ReportData, shown: list[Section]) -> str:
    """``summary.md``: the headline, then the same sections as the page, in Markdown."""
    subtitle = (
        f"{report.title}: {numbers.counted(data.games, 'game')} in "
        f"{numbers.counted(len(data.groups.runs), 'run')}; every figure with its 95% interval "
        "(notes at the end)."
    )
    return documents.markdown_page(
        f"tourney report: {report.title}",
        subtitle,
        data.headline,
        sections=shown,
        notes=[*NOTES, *report.notes],
    )
