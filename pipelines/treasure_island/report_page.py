"""The Treasure Island report's sections: busts against their exact chance (an engine check,
folded when it finds nothing) and what each strategy's turns bring, plunder sizes, the
Key + Chest bonus, each power's use (a strategy x power grid) and the gap to the single-turn
optimum, each per cohort."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pipelines.report.data import CohortResult, ReportData
from pipelines.report.page import cohort_heading
from pipelines.report.run_groups import Cohort
from reports import figures, numbers
from reports.blocks import (
    Block,
    Brief,
    Cell,
    Figure,
    Folded,
    Paragraph,
    Section,
    Subheading,
    Table,
    col,
)

#: The tables every part here reads: the move log and what derives from it, which a run on
#: the compiled engine does not keep (:mod:`sim.compiled_engine`).
MOVE_LOG = ("moves", "turns", "draws")


def move_log_kept(cohort: Cohort) -> bool:
    """Whether every run of ``cohort`` kept its move log."""
    return all(t in run.tables for run in cohort.runs for t in MOVE_LOG)


#: A bust-rate check is flagged when its two-sided p-value, Holm-adjusted over the groups
#: of kinds in play, is below this.
ALPHA = 0.05

BUST_COLUMNS = [
    col("kinds in play", "text", "kinds_in_play"),
    col("blind draws", "count", "draws"),
    col("busts", "count"),
    col("observed [95% interval]", "share_ci", "observed", "low", "high"),
    col("exact chance", "pct", "exact"),
    col("z", "num2", "z"),
    col("p", "p", "p_value"),
]
TURN_COLUMNS = [
    col("strategy", "text"),
    col("turns", "count"),
    col("bust rate [95% interval]", "share_ci", "bust_rate", "low", "high"),
    col("points per turn [95%]", "mean2_ci", "points_per_turn", "points_per_turn_low",
        "points_per_turn_high"),
    col("cards placed per turn [95%]", "mean2_ci", "cards_placed", "cards_placed_low",
        "cards_placed_high"),
    col("plunders", "count"),
    col("cards per plunder [95%]", "mean2_ci", "plunder_size", "plunder_size_low",
        "plunder_size_high"),
]  # fmt: skip
ENDING_COLUMNS = [
    col("ending", "text", "reason"),
    col("turns", "count"),
    col("share [95% interval]", "share_ci", "share", "low", "high"),
]
PLUNDER_COLUMNS = [
    col("strategy", "text"),
    col("cards", "count"),
    col("plunders", "count"),
    col("share [95% interval]", "share_ci", "share", "low", "high"),
]
CHEST_COLUMNS = [
    col("strategy", "text"),
    col("plunders", "count"),
    col("paid the bonus", "count", "bonuses"),
    col("share [95% interval]", "share_ci", "share", "low", "high"),
    col("of them from an empty discard", "count", "empty_bonuses"),
    col("bonus cards [95%]", "mean2_ci", "mean_cards", "mean_cards_low", "mean_cards_high"),
    col("bonus points [95%]", "mean2_ci", "mean_points", "mean_points_low", "mean_points_high"),
]
GAP_COLUMNS = [
    col("strategy", "text"),
    col("seed blocks", "count", "blocks"),
    col("gap, points per turn [95%]", "signed_ci_blocks", "gap", "low", "high"),
]


def busts_depart(result: CohortResult) -> bool:
    """Whether any group of kinds in play busts off its exact chance (Holm-adjusted)."""
    from pipelines.stats.core import holm

    busts = [r for r in result.rows("bust_by_kinds") if r["kinds_in_play"] > 0]
    return any(p < ALPHA for p in holm([float(r["p_value"]) for r in busts])) if busts else False


def _use(r: dict[str, Any] | None) -> str | Cell:
    """A strategy's uses of a power per game with its interval under it ("0" for none)."""
    if r is None or not r["uses"]:
        return "0"
    # Uses cannot be negative: the normal interval's lower end is cut at 0; a rate that
    # rounds to 0.00 is shown as its count instead.
    ci = numbers.interval(max(r["low"], 0.0), r["high"], 1.0, 2)
    value = numbers.number(r["per_game"], 2)
    if value == "0.00":
        value = f"{numbers.count(r['uses'])} use{'s' if r['uses'] != 1 else ''}"
    return Cell(value, ci)


def power_grid(rows: list[dict[str, Any]]) -> Table:
    """The strategy x power table as a grid: a row per strategy, a column per power some
    strategy used; each cell the uses per game with its 95% interval under it."""
    powers = list(dict.fromkeys(str(r["power"]) for r in rows if r["uses"]))
    if not powers:
        return Table((), (), empty="no power was used")
    cells: dict[str, dict[str, dict[str, Any]]] = {}
    for r in rows:
        cells.setdefault(str(r["strategy"]), {})[str(r["power"])] = r
    names = [p.removesuffix("_nothing").replace("_", " ") for p in powers]
    return Table(
        ("strategy", *names),
        tuple((s, *(_use(by.get(p)) for p in powers)) for s, by in cells.items()),
        grid=True,
    )


def _busts(result: CohortResult) -> list[Block]:
    """The engine check (folded when busts agree with their exact chance; its table in the
    summary all the same), then what each strategy's turns bring and how they end."""
    busts = result.rows("bust_by_kinds")
    figure = Figure(
        figures.bust_vs_exact(busts, "Bust rate of a blind draw against its exact chance"),
        "Dot plot of the observed bust rate with intervals and the exact chance line, by "
        "kinds in play",
        "Every card taken blind from the draw pile busts with an exact chance known from the "
        "pile's make-up (cards left of kinds in play over cards left). Dots: the observed rate "
        "with a 95% interval over seed blocks; line: the mean exact chance. Cards a Spyglass "
        "showed are left out.",
    )
    table = Table.of(busts, BUST_COLUMNS)
    check: list[Block] = [figure, table]
    if not busts_depart(result):  # the engine check found nothing: folded
        brief = Brief((table,), "Bust rate of a blind draw against its exact chance")
        check = [
            Folded("Busts agree with their exact chance: the figure and table", (figure, brief))
        ]
    return [
        *check,
        Subheading("Turns by strategy"),
        Paragraph(
            "Per strategy: how often its turns bust, and what a turn brings in points and cards."
        ),
        Table.of(result.rows("turns_by_strategy"), TURN_COLUMNS),
        Subheading("How turns end"),
        Table.of(result.rows("turn_endings"), ENDING_COLUMNS),
    ]


def _plunders(result: CohortResult) -> list[Block]:
    sizes = result.rows("plunder_sizes")
    figure = Figure(
        figures.plunder_sizes(sizes, "Cards banked per plunder"),
        "Grouped bar chart of how many cards each plunder banked, per strategy",
        "The share of each strategy's plunders (turns that banked instead of busting) that "
        "moved 1, 2, 3… cards to the stash.",
    )
    return [
        figure,
        Folded(f"Plunder sizes ({len(sizes)} rows)", (Table.of(sizes, PLUNDER_COLUMNS),)),
    ]


def _chest(result: CohortResult) -> list[Block]:
    return [Table.of(result.rows("key_chest"), CHEST_COLUMNS)]


def _powers(result: CohortResult) -> list[Block]:
    uses = result.rows("power_use")
    return [
        power_grid([r for r in uses if not str(r["power"]).endswith("_nothing")]),
        Subheading("Powers that had nothing to act on"),
        power_grid([r for r in uses if str(r["power"]).endswith("_nothing")]),
    ]


def _gap(result: CohortResult) -> list[Block]:
    """The gap to optimal (nothing when optimal did not play against others): the gaps with
    an interval drawn (too few blocks: the table says so), then the table."""
    gap = result.rows("optimal_gap")
    if not gap:
        return []
    drawn = [
        {**r, "label": r["strategy"], "estimate": r["gap"]} for r in gap if r["low"] is not None
    ]
    blocks: list[Block] = []
    if drawn:
        blocks.append(
            Figure(
                figures.forest(
                    drawn,
                    "label",
                    None,
                    "Points per turn against the single-turn optimum",
                    "points per turn minus optimal's (95% interval)",
                    points=False,
                    size="blocks",
                    size_word="seed blocks",
                ),
                "Dot plot of each strategy's points per turn minus optimal's",
                "Each strategy's mean points per turn minus those of optimal, the best answers "
                "for the turn's own points (an expectimax over the real turn), on the same "
                "seed blocks (paired); left of zero means the strategy banks less per turn "
                "than optimal.",
            )
        )
    return [*blocks, Table.of(gap, GAP_COLUMNS)]


#: The sections: anchor, heading, caption and the blocks of one cohort.
SECTIONS: list[tuple[str, str, str, Callable[[CohortResult], list[Block]]]] = [
    ("busts", "Bust rate against the exact chance",
     "Do busts happen as often as the pile's make-up says they must? A check of the engine "
     "and the data, then what each strategy's turns bring.", _busts),
    ("plunder", "Plunder sizes", "How much a turn that does not bust moves to the stash.",
     _plunders),
    ("key-chest", "Key + Chest bonus",
     "Share of plunders that moved both a Key and a Chest, and what the bonus brought (cards "
     "from the discard pile and the points they added).", _chest),
    ("powers", "Use of each power",
     "How often each strategy applied each power per game it played: uses per game with its "
     "95% interval, 0 for a power it never used; then the powers it played that had nothing "
     "to act on.", _powers),
    ("optimal", "Gap to the single-turn optimum",
     "How many points per turn each strategy leaves against optimal on the same deals.", _gap),
]  # fmt: skip


def _not_recorded(data: ReportData) -> list[Section]:
    """The section that says which cohorts have none of the parts here: their runs were
    played by the compiled engine, which keeps no move log."""
    blocks: list[Block] = []
    for result in data.cohorts:
        if not move_log_kept(result.cohort):
            blocks += [*cohort_heading(result, data), Paragraph(NOT_RECORDED)]
    if not blocks:
        return []
    caption = "Busts, plunders, the Key + Chest bonus and the powers are read from move logs."
    return [Section("move-log", "Push your luck: no move log", caption, tuple(blocks))]


#: What a cohort without move logs is told.
NOT_RECORDED = (
    "Not measured: these games were played by the compiled engine, which writes the games "
    "and seats tables only, so busts against their exact chance, turns, plunders, the Key + "
    "Chest bonus and the powers' use are not known. Simulate with --engine reference for them."
)


def sections(data: ReportData) -> list[Section]:
    """First the note on cohorts without move logs, if any; then each section with every
    cohort's blocks under its heading; one without blocks (the gap to optimal when optimal
    did not play) is left out."""
    out = _not_recorded(data)
    for anchor, heading, caption, part in SECTIONS:
        blocks: list[Block] = []
        for result in data.cohorts:
            if not move_log_kept(result.cohort):
                continue  # said once, by the note above
            mine = part(result)
            if mine:
                blocks += [*cohort_heading(result, data), *mine]
        if blocks:
            out.append(Section(anchor, heading, caption, tuple(blocks)))
    return out
