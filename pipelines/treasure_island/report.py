"""The Treasure Island report's own parts: busts against their exact chance, turns, plunders,
the Key + Chest bonus, each power's use, and the gap to the single-turn optimum.

The win rates, seats, ratings and game length are the common part
(:mod:`pipelines.report.common`); this game has no islands and scores in points.
"""

from __future__ import annotations

import html
from typing import Any

import duckdb
import pyarrow as pa

from pipelines.metrics.clustered import clustered
from pipelines.report import claims
from pipelines.report.common import GameReport
from pipelines.report.data import CohortResult, Finding, ReportData
from pipelines.report.findings import cohort_scope, power_note
from pipelines.report.markdown import markdown_sections
from pipelines.report.page import cohort_heading
from pipelines.report.run_groups import Cohort
from pipelines.treasure_island import push_luck
from reports import documents, figures, numbers
from reports.documents import Section, col

#: The reference strategy whose gap the report measures when it is seated.
OPTIMAL = "optimal"
#: A bust-rate check is flagged when its two-sided p-value, Holm-adjusted over the groups
#: of kinds in play, is below this.
ALPHA = 0.05


def optimal_gap(con: duckdb.DuckDBPyConnection) -> pa.Table:
    """Per strategy: points per turn minus those of ``optimal`` in the same seed blocks
    (paired: the same deals from every seat with rotated seating), with its interval."""
    per_block = """
        SELECT t.run, g.block, s.strategy::VARCHAR AS strategy, avg(t.points)::DOUBLE AS ppt
        FROM turns t JOIN seats s USING (run, game_id, seat) JOIN games g USING (run, game_id)
        GROUP BY 1, 2, 3"""
    source = f"""
        WITH b AS ({per_block})
        SELECT x.run, x.block, x.strategy, x.ppt - o.ppt AS gap
        FROM b x JOIN b o ON o.run = x.run AND o.block = x.block AND o.strategy = '{OPTIMAL}'
        WHERE x.strategy <> '{OPTIMAL}'"""
    # A mean of paired block differences: Student's t, no interval below 5 blocks.
    rows = clustered(con, source, ["strategy"], "gap", student=True)
    return pa.table(
        {
            "strategy": pa.array([r["strategy"] for r in rows], pa.string()),
            "blocks": pa.array([r["n"] for r in rows], pa.int64()),
            "gap": pa.array([r["mean"] for r in rows], pa.float64()),
            "low": pa.array([r["low"] for r in rows], pa.float64()),
            "high": pa.array([r["high"] for r in rows], pa.float64()),
        }
    )


def compute(con: duckdb.DuckDBPyConnection, cohort: Cohort) -> dict[str, pa.Table]:
    """The Treasure Island tables of one cohort."""
    tables = {
        "bust_by_kinds": push_luck.bust_by_kinds(con),
        "turns_by_strategy": push_luck.turns_by_strategy(con),
        "turn_endings": push_luck.turn_endings(con),
        "plunder_sizes": push_luck.plunder_sizes(con),
        "key_chest": push_luck.key_chest(con),
        "power_use": push_luck.power_use(con),
    }
    if OPTIMAL in cohort.players and len(set(cohort.players)) > 1:
        tables["optimal_gap"] = optimal_gap(con)
    return tables


def _bust_power(busts: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """What the bust check could have seen: per group of kinds in play, the departure from
    the exact rate detected with 80% power at the strictest Holm level (alpha over the
    groups), from the group's own interval; the least sensitive group's figure and the
    draws half of it needs."""
    from pipelines.stats import power

    level = ALPHA / len(busts)
    seen = []
    for r in busts:
        se = power.se_from_interval(r["low"], r["high"])
        mde = power.detectable_effect(se, level)
        if mde is not None:
            seen.append((mde, power.games_for_effect(mde / 2, se, int(r["draws"]), level)))
    if not seen:
        return "", {}
    low, (high, need) = min(m for m, _ in seen), max(seen)
    text = (
        f"each group could have shown a departure of {numbers.points(low, signed=False)} to "
        f"{numbers.points(high, signed=False)} with {numbers.pct(power.POWER, 0)} power; "
        f"{numbers.points(high / 2, signed=False)} in the least sensitive would need about "
        f"{numbers.count(need or 0)} draws"
    )
    return text, {"detectable_effect": high, "games_for_effect": need, "effect_for_games": high / 2}


def _busts_depart(result: CohortResult) -> bool:
    """Whether any group of kinds in play busts off its exact chance (Holm-adjusted)."""
    from pipelines.stats.core import holm

    busts = [r for r in result.rows("bust_by_kinds") if r["kinds_in_play"] > 0]
    return any(p < ALPHA for p in holm([float(r["p_value"]) for r in busts])) if busts else False


def findings(data: ReportData) -> list[Finding]:
    """The bust check and the gap to the optimum of every cohort."""
    from pipelines.stats.core import holm

    out = []
    for result in data.cohorts:
        scope = cohort_scope(result)
        busts = [r for r in result.rows("bust_by_kinds") if r["kinds_in_play"] > 0]
        if busts:
            adjusted = holm([float(r["p_value"]) for r in busts])
            off = [r for r, p in zip(busts, adjusted, strict=True) if p < ALPHA]
            draws = sum(int(r["draws"]) for r in busts)
            worst = max(busts, key=lambda r: abs(r["z"]))
            if off:
                text = (
                    "Busts depart from their exact chance with "
                    + ", ".join(
                        f"{r['kinds_in_play']} kinds in play (z = {r['z']:+.1f})" for r in off
                    )
                    + f" (Holm-adjusted, {numbers.count(draws)} blind draws): check the engine."
                )
            power_fields: dict[str, Any] = {}
            if not off:
                note, power_fields = _bust_power(busts)
                text = (
                    f"Busts show no clear departure from their exact chance: every group of "
                    f"kinds in play agrees (largest |z| = {abs(worst['z']):.1f}, Holm-adjusted "
                    f"{numbers.p_value(min(adjusted))}; {numbers.count(draws)} blind draws"
                    f"{'; ' + note if note else ''})."
                )
            out.append(Finding("bust_check", "draws", abs(worst["z"]), float("nan"),
                               float("nan"), draws, text, scope, **power_fields))  # fmt: skip
        for r in result.rows("optimal_gap"):
            seen: dict[str, Any] = {}
            if r["low"] is None or r["high"] is None:
                out.append(
                    Finding(
                        "optimal_gap",
                        str(r["strategy"]),
                        r["gap"],
                        float("nan"),
                        float("nan"),
                        int(r["blocks"]),
                        f"{r['strategy']} scores {r['gap']:+.2f} points per turn against "
                        f"optimal ({numbers.TOO_FEW_BLOCKS}) (paired over "
                        f"{numbers.count(r['blocks'])} seed blocks).",
                        scope,
                    )
                )
                continue
            shown = claims.claim(r["gap"], r["low"], r["high"]).direction
            verdict = "fewer" if shown < 0 else "more"
            if not shown:
                note, seen = power_note(
                    r["low"],
                    r["high"],
                    int(r["blocks"]),
                    lambda x: f"{x:.2f} points per turn",
                    unit="seed blocks",
                )
                text = (
                    f"{r['strategy']} scores no clearly different points per turn "
                    f"from optimal: {r['gap']:+.2f} "
                    f"{numbers.interval(r['low'], r['high'], 1.0, 2)}"
                    + (f"; {note}" if note else "")
                )
            else:
                # The interval of the size said, as in every paired finding: "0.50 fewer
                # [0.30, 0.70]", not "0.50 fewer [-0.70, -0.30]".
                low, high = (r["low"], r["high"]) if shown > 0 else (-r["high"], -r["low"])
                text = (
                    f"{r['strategy']} scores {abs(r['gap']):.2f} points per turn "
                    f"{verdict} than optimal {numbers.interval(low, high, 1.0, 2)}"
                )
            out.append(
                Finding(
                    "optimal_gap",
                    str(r["strategy"]),
                    r["gap"],
                    float("nan") if r["low"] is None else r["low"],
                    float("nan") if r["high"] is None else r["high"],
                    int(r["blocks"]),
                    f"{text} (paired over {numbers.count(r['blocks'])} seed blocks).",
                    scope,
                    **seen,
                )
            )
    return out


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
    col(
        "points per turn [95%]",
        "mean2_ci",
        "points_per_turn",
        "points_per_turn_low",
        "points_per_turn_high",
    ),
    col(
        "cards placed per turn [95%]",
        "mean2_ci",
        "cards_placed",
        "cards_placed_low",
        "cards_placed_high",
    ),
    col("plunders", "count"),
    col(
        "cards per plunder [95%]",
        "mean2_ci",
        "plunder_size",
        "plunder_size_low",
        "plunder_size_high",
    ),
]


def _rows_of(data: ReportData, name: str) -> list[tuple[Any, list[dict[str, Any]]]]:
    return [(r, r.rows(name)) for r in data.cohorts]


def power_grid(rows: list[dict[str, Any]]) -> str:
    """The strategy x power table as a grid: a row per strategy, a column per power some
    strategy used; each cell the uses per game with its 95% interval under it."""
    powers = list(dict.fromkeys(str(r["power"]) for r in rows if r["uses"]))
    if not powers:
        return "<p><em>no power was used</em></p>"
    cells: dict[str, dict[str, dict[str, Any]]] = {}
    for r in rows:
        cells.setdefault(str(r["strategy"]), {})[str(r["power"])] = r

    def cell(r: dict[str, Any] | None) -> str:
        if r is None or not r["uses"]:
            return "0"
        # Uses cannot be negative: the normal interval's lower end is cut at 0; a rate that
        # rounds to 0.00 is shown as its count instead.
        ci = numbers.interval(max(r["low"], 0.0), r["high"], 1.0, 2)
        value = numbers.number(r["per_game"], 2)
        if value == "0.00":
            value = f"{numbers.count(r['uses'])} use{'s' if r['uses'] != 1 else ''}"
        return f"{value}<br><span class='note'>{html.escape(ci)}</span>"

    names = [p.removesuffix("_nothing").replace("_", " ") for p in powers]
    head = "".join(f"<th>{html.escape(n)}</th>" for n in ["strategy", *names])
    body = "".join(
        f"<tr><td>{html.escape(s)}</td>"
        + "".join(f"<td>{cell(by.get(p))}</td>" for p in powers)
        + "</tr>"
        for s, by in cells.items()
    )
    table = (
        "<table class='grid' style='white-space:nowrap'>"
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )
    return f"<div style='overflow-x:auto'>{table}</div>"


def sections(data: ReportData) -> list[Section]:
    doc = documents
    bust_body, plunder_body, chest_body, power_body, gap_body = [], [], [], [], []
    for result in data.cohorts:
        head = cohort_heading(result, data)
        busts = result.rows("bust_by_kinds")
        check = [
            doc.figure(
                figures.bust_vs_exact(busts, "Bust rate of a blind draw against its exact chance"),
                "Dot plot of the observed bust rate with intervals and the exact chance line, "
                "by kinds in play",
                "Every card taken blind from the draw pile busts with an exact chance known from "
                "the pile's make-up (cards left of kinds in play over cards left). Dots: the "
                "observed rate with a 95% interval over seed blocks; line: the mean exact "
                "chance. Cards a Spyglass showed are left out.",
            ),
            doc.html_table(busts, BUST_COLUMNS),
        ]
        if not _busts_depart(result):  # the engine check found nothing: folded
            check = [
                doc.folded(
                    "Busts agree with their exact chance: the figure and table", "".join(check)
                )
            ]
        bust_body += [
            head,
            *check,
            doc.subheading("Turns by strategy")
            + doc.paragraph(
                "Per strategy: how often its turns bust, and what a turn brings in points and "
                "cards."
            )
            + doc.html_table(result.rows("turns_by_strategy"), TURN_COLUMNS)
            + doc.subheading("How turns end")
            + doc.html_table(
                result.rows("turn_endings"),
                [
                    col("ending", "text", "reason"),
                    col("turns", "count"),
                    col("share [95% interval]", "share_ci", "share", "low", "high"),
                ],
            ),
        ]
        sizes = result.rows("plunder_sizes")
        plunder_body += [
            head,
            doc.figure(
                figures.plunder_sizes(sizes, "Cards banked per plunder"),
                "Grouped bar chart of how many cards each plunder banked, per strategy",
                "The share of each strategy's plunders (turns that banked instead of busting) "
                "that moved 1, 2, 3… cards to the stash.",
            ),
            doc.folded(
                f"Plunder sizes ({len(sizes)} rows)",
                doc.html_table(
                    sizes,
                    [
                        col("strategy", "text"),
                        col("cards", "count"),
                        col("plunders", "count"),
                        col("share [95% interval]", "share_ci", "share", "low", "high"),
                    ],
                ),
            ),
        ]
        chest_body += [
            head,
            doc.html_table(
                result.rows("key_chest"),
                [
                    col("strategy", "text"),
                    col("plunders", "count"),
                    col("paid the bonus", "count", "bonuses"),
                    col("share [95% interval]", "share_ci", "share", "low", "high"),
                    col("of them from an empty discard", "count", "empty_bonuses"),
                    col(
                        "bonus cards [95%]",
                        "mean2_ci",
                        "mean_cards",
                        "mean_cards_low",
                        "mean_cards_high",
                    ),
                    col(
                        "bonus points [95%]",
                        "mean2_ci",
                        "mean_points",
                        "mean_points_low",
                        "mean_points_high",
                    ),
                ],
            ),
        ]
        uses = result.rows("power_use")
        power_body += [
            head,
            power_grid([r for r in uses if not str(r["power"]).endswith("_nothing")]),
            doc.subheading("Powers that had nothing to act on"),
            power_grid([r for r in uses if str(r["power"]).endswith("_nothing")]),
        ]
        gap = result.rows("optimal_gap")
        # Only the gaps with an interval are drawn (too few blocks: the table says so).
        drawn = [
            {**r, "label": r["strategy"], "estimate": r["gap"]} for r in gap if r["low"] is not None
        ]
        if gap:
            gap_body.append(head)
        if drawn:
            gap_body.append(
                doc.figure(
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
                    "Each strategy's mean points per turn minus those of optimal, the best "
                    "answers for the turn's own points (an expectimax over the real turn), on "
                    "the same seed blocks (paired); left of zero means the strategy banks less "
                    "per turn than optimal.",
                )
            )
        if gap:
            gap_body.append(
                doc.html_table(
                    gap,
                    [
                        col("strategy", "text"),
                        col("seed blocks", "count", "blocks"),
                        col("gap, points per turn [95%]", "signed_ci_blocks", "gap", "low", "high"),
                    ],
                )
            )
    out = [
        Section(
            "busts",
            "Bust rate against the exact chance",
            "Do busts happen as often as the pile's make-up says they must? A check of the "
            "engine and the data, then what each strategy's turns bring.",
            "".join(bust_body),
        ),
        Section(
            "plunder",
            "Plunder sizes",
            "How much a turn that does not bust moves to the stash.",
            "".join(plunder_body),
        ),
        Section(
            "key-chest",
            "Key + Chest bonus",
            "Share of plunders that moved both a Key and a Chest, and what the bonus brought "
            "(cards from the discard pile and the points they added).",
            "".join(chest_body),
        ),
        Section(
            "powers",
            "Use of each power",
            "How often each strategy applied each power per game it played: uses per game "
            "with its 95% interval, 0 for a power it never used; then the powers it played "
            "that had nothing to act on.",
            "".join(power_body),
        ),
    ]
    if gap_body:
        out.append(
            Section(
                "optimal",
                "Gap to the single-turn optimum",
                "How many points per turn each strategy leaves against optimal on the same deals.",
                "".join(gap_body),
            )
        )
    return out


def markdown(data: ReportData) -> list[str]:
    return markdown_sections(
        data,
        [
            ("Bust rate against the exact chance", "bust_by_kinds", BUST_COLUMNS),
            ("Turns", "turns_by_strategy", TURN_COLUMNS),
        ],
    )


REPORT = GameReport(
    game="treasure-island",
    title="Treasure Island",
    score_unit="points",
    compute=compute,
    findings=findings,
    sections=sections,
    markdown=markdown,
    json_sections={
        "push_your_luck": [
            "bust_by_kinds",
            "turns_by_strategy",
            "turn_endings",
            "plunder_sizes",
            "key_chest",
            "power_use",
            "optimal_gap",
        ],
    },
)
