"""The Tobago report's sections of the page: curse impact and board fairness.

**Curse impact** leads with the causal answer when the report holds a run and its twin
without curses on the same seeds (``tourney simulate --twin curses``): per strategy the
change in win share and score, and the change in the first-seat advantage. The descriptive
rates (curses per distribution, hits and coins lost per game, who is hit and how they paid)
follow, folded, each table with a sentence saying what it shows.

**Board fairness** gives the first seat's advantage per player count and whether islands
differ in it; islands are ordered by their advantage, in a forest plot beside the pooled
estimate, only when they do (else the plot is folded). Heat maps of one island (folded) show
its terrain and landmarks under where treasures were raised and amulets appeared, with the
reason that island was picked.
"""

from __future__ import annotations

from typing import Any

from pipelines.report.data import CohortResult, PairResult, ReportData
from pipelines.report.page import cohort_heading, pair_body, player_counts
from pipelines.stats import power
from pipelines.tobago import fairness
from reports import documents, figures, numbers
from reports.documents import Section, col

#: Games whose seeds are replayed to show where landmarks stood on a mapped island (about
#: 40 µs each).
LANDMARK_SAMPLE = 2000


def could_see(h: dict[str, Any]) -> str:
    """Beside "islands do not clearly differ": the spread of the islands' first-seat
    advantages the test could have detected, and the games half of it needs ("" when the
    test had nothing to go on)."""
    spread = h.get("detectable_spread")
    if spread is None:
        return ""
    need = h.get("games_for_half_spread")
    text = (
        f"the test could have detected, with {numbers.pct(power.POWER, 0)} power, islands "
        f"whose first-seat advantages spread by {numbers.points(spread, signed=False)} (their "
        "standard deviation)"
    )
    if need:
        text += (
            f", and {numbers.points(spread / 2, signed=False)} would need about "
            f"{numbers.count(need)} games"
        )
    return text


FREQUENCY_COLUMNS = [
    col("players", "text", "n_players"),
    col("games", "count"),
    col("distributions", "count"),
    col("curses", "count"),
    col("curse per distribution [95% interval]", "share_ci", "rate", "low", "high"),
    col("curse hits per game [95%]", "mean2_ci", "hits_per_game", "hits_low", "hits_high"),
    col("coins lost per game [95%]", "mean_ci", "coins_lost_per_game", "lost_low", "lost_high"),
]
VICTIM_COLUMNS = [
    col("players", "text", "n_players"),
    col("strategy", "text"),
    col("games", "count", "seats"),
    col("curse hits", "count", "hits"),
    col("coins lost", "count", "coins_lost"),
    col("hits per game [95%]", "mean2_ci", "hits_per_game", "hits_low", "hits_high"),
    col("coins lost per game [95%]", "mean_ci", "coins_lost_per_game", "lost_low", "lost_high"),
]
HIT_COLUMNS = [
    col("players", "text", "n_players"),
    col("strategy", "text"),
    col("hit by a curse", "yesno", "hit"),
    col("games", "count", "seats"),
    col("win share [95% interval]", "share_ci", "win_share", "low", "high"),
    col("mean score", "num1", "mean_score"),
]
ISLAND_COLUMNS = [
    col("island", "text"),
    col("players", "text", "n_players"),
    col("games", "count"),
    col("mean turns", "num1", "mean_turns"),
    col("first-seat advantage, points [95%]", "points_ci", "first_seat_advantage", "low", "high"),
    col("seat uniformity χ²", "num1", "chi_square"),
    col("seat uniformity p", "p", "seat_p_value"),
    col("tested against the others", "yesno", "tested"),
    col("differs from pooled: Holm p", "p", "holm_p"),
]
CURSE_ISLAND_COLUMNS = [
    col("island", "text"),
    col("players", "text", "n_players"),
    col("games", "count"),
    col("distributions", "count"),
    col("curses", "count"),
    col("curse rate [95%]", "share_ci", "curse_rate", "rate_low", "rate_high"),
    col("hits per game [95%]", "mean2_ci", "hits_per_game", "hits_low", "hits_high"),
    col("coins lost per game [95%]", "mean_ci", "coins_lost_per_game", "lost_low", "lost_high"),
]


def _ablation_pair(
    data: ReportData, result: CohortResult, removed: str, factor: str | None = None
) -> PairResult | None:
    """The ablation pairing (of ``factor``, or any) in which this cohort holds the run on
    side ``removed``: "a", the run with everything, or "b", the run without the part."""
    for pair in data.pairs:
        p = pair.pairing
        run = p.a if removed == "a" else p.b
        if p.ablation and factor in (None, p.factor) and run in result.cohort.runs:
            return pair
    return None


def _curse_twin(data: ReportData, result: CohortResult) -> PairResult | None:
    """The pairing of this cohort (A) with its twin without curses."""
    return _ablation_pair(data, result, "a", "curses")


def curse_section(data: ReportData) -> Section:
    doc = documents
    body = []
    for result in data.cohorts:
        twin = _curse_twin(data, result)
        ablated = _ablation_of(data, result)
        if ablated is not None and ablated.pairing.factor == "curses":
            continue  # the twin without curses: shown with the run it ablates
        if len(data.cohorts) > 1:
            body.append(cohort_heading(result, data))
        if twin is not None:
            body.append(
                f'<div data-pairing="{twin.pairing.index}">'
                + doc.subheading("What curses do: the same games with and without curses")
                + doc.paragraph(
                    "The causal answer: every game was played twice on the same seed, once "
                    "with curses (A) and once without (B): a strategy that curses hurt shows "
                    "a positive value (it wins more often without them)."
                )
                + pair_body(twin, "coins")
                + "</div>"
            )
        else:
            body.append(
                doc.paragraph(
                    "No run of the same seeds without curses was given, so what curses do is "
                    "not estimated here (the tables below describe, they do not compare). "
                    "Make the twin with `tourney simulate SPEC --twin curses` and report "
                    "both runs together.",
                    "note",
                )
            )
        # The tables below describe what happened; the paired comparison above answers
        # what curses do, so they are folded under one line.
        described: list[str] = []
        described.append(
            doc.subheading("How often curses strike")
            + doc.paragraph(
                "Per player count: the share of treasure distributions in which a curse "
                "turned up, and per game the curse hits and the coins players lost to them."
            )
            + doc.html_table(result.rows("curse_frequency"), FREQUENCY_COLUMNS)
        )
        positions = result.rows("curse_positions")
        described.append(
            doc.subheading("Where in the offer")
            + doc.paragraph(
                "Which card of a distribution (1 = the first revealed) the curse was: a curse "
                "late in the offer ends a distribution that had already paid out."
            )
            + doc.html_table(
                [{"card": int(r["position"]) + 1, "curses": r["curses"]} for r in positions],
                [col("card of the distribution", "count", "card"), col("curses", "count")],
            )
        )
        described.append(
            doc.subheading("Who is hit, and how they paid")
            + doc.paragraph(
                "Per strategy, curse hits and the coins they cost; then every hit by how it was "
                "paid: an amulet (nothing lost), the most valuable treasure card, or nothing "
                "to lose. The mean coins lost when paying with a card is what an amulet saved."
            )
            + doc.html_table(result.rows("curse_victims"), VICTIM_COLUMNS)
            + doc.html_table(
                result.rows("amulet_value"),
                [
                    col("paid with", "text", "paid_with"),
                    col("hits", "count"),
                    col("mean coins lost [95%]", "mean_ci", "mean_coins_lost", "low", "high"),
                ],
            )
        )
        described.append(
            doc.subheading("Players hit against players not hit (descriptive)")
            + doc.paragraph(
                "Win share of the seats a curse hit and of those it did not. This is not the "
                "effect of a curse: players who raise more treasures are hit more often and "
                "win more often for that reason. The paired comparison above is the effect."
            )
            + doc.html_table(result.rows("curse_hit_vs_not_hit"), HIT_COLUMNS)
        )
        per_island = result.rows("curse_by_island")
        described.append(
            doc.folded(
                f"Curses per island ({len(per_island)} rows)",
                doc.html_table(per_island, CURSE_ISLAND_COLUMNS),
            )
        )
        body.append(
            doc.folded(
                "How often curses strike, where in the offer, whom they hit and what they "
                "cost (descriptive tables)",
                "".join(described),
            )
        )
    return Section(
        "curse-impact",
        "Curse impact",
        "What curses change (a run and its twin without curses on the same seeds), then how "
        "often they strike, whom they hit and what they cost.",
        "".join(body),
    )


def left_out(het: dict[str, Any]) -> str:
    """A sentence on the islands the heterogeneity test left out ("" when none)."""
    missing = int(het["islands"]) - int(het["islands_tested"])
    if missing <= 0:
        return ""
    return (
        f" {missing} of {het['islands']} islands had too few games to be tested (fewer than "
        f"{fairness.MIN_EXPECTED:.0f} expected first-seat wins or losses)."
    )


def _forest_rows(rows: list[dict[str, Any]], ranked: bool) -> list[dict[str, Any]]:
    items = [
        {
            **r,
            "label": r["island"],
            "estimate": r["first_seat_advantage"],
        }
        for r in rows
    ]
    if ranked:
        return sorted(items, key=lambda r: -r["estimate"])
    return sorted(items, key=lambda r: r["island"])


def _heat_maps(result: CohortResult, n: int) -> str:
    doc = documents
    pick = next((r for r in result.rows("mapped_islands") if r["n_players"] == n), None)
    if pick is None:
        return ""
    name = pick["island"]
    geometry = [c for c in result.rows("map_cells") if c["island"] == name]
    landmarks = [r for r in result.rows("map_landmarks") if r["island"] == name]
    games = max(1, int(pick["games"]))
    heat = [h for h in result.rows("cell_heat") if h["island"] == name]
    landmarks, fixed = _landmark_strength(landmarks)
    out = []
    for key, what in (("raises", "treasures raised"), ("amulets", "amulets appeared")):
        values = {int(h["cell"]): 1000 * float(h[key]) / games for h in heat}
        unit = f"{what} per 1,000 games"
        out.append(
            doc.figure(
                figures.hex_heat(geometry, values, landmarks, f"{name}: {what}", unit),
                f"Hex map of island {name}: terrain colours, landmark letters and the number "
                f"of {what} per cell",
                f"Island {name}, picked because {pick['reason']}. Each hex is filled with its "
                f"terrain; the inner hex shows {what} on that cell per 1,000 games (colour bar; "
                f"{numbers.count(games)} {n}-player games there, all players counted). "
                + (
                    "Letters mark the island's fixed huts (h), palms (p) and statues (s, the "
                    "arrow shows a fixed facing)."
                    if fixed
                    else "Landmarks are placed anew from each game's seed, so no one layout "
                    "underlies the heat: letters mark the cells where huts (h), palms (p) and "
                    "statues (s) stood more often than average, darker the more often (from "
                    f"up to {LANDMARK_SAMPLE:,} of the games' seeds)."
                ),
            )
        )
    return doc.side_by_side(*out) if len(out) == 2 else "".join(out)


def _landmark_strength(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
    """Landmarks to draw and whether the layout is fixed: a fixed layout (every landmark in
    every game) as it is; otherwise the cells where a kind stood more often than that kind's
    mean share, with a strength from 0 (the mean) to 1 (the most often)."""
    if rows and all(r["share"] >= 1.0 for r in rows):
        return [{**r, "strength": 1.0} for r in rows], True
    out = []
    for kind in ("hut", "palm", "statue"):
        mine = [r for r in rows if r["kind"] == kind]
        if not mine:
            continue
        mean = sum(r["share"] for r in mine) / len(mine)
        top = max(r["share"] for r in mine)
        for r in mine:
            if r["share"] > mean and top > mean:
                out.append({**r, "strength": (r["share"] - mean) / (top - mean)})
    return out, False


def _ablation_of(data: ReportData, result: CohortResult) -> PairResult | None:
    """The pairing in which this cohort is the run without curses or amulets (B)."""
    return _ablation_pair(data, result, "b")


def fairness_section(data: ReportData) -> Section:
    doc = documents
    body = []
    for result in data.cohorts:
        twin = _ablation_of(data, result)
        if twin is not None:
            # An ablation twin's fairness is its base's with one part removed: the paired
            # comparison shows what changed (the first seat's win share, B - A).
            body.append(cohort_heading(result, data))
            body.append(
                doc.paragraph(
                    f"This run is the twin of {twin.pairing.a.where} without "
                    f"{twin.pairing.factor}; the change in the first seat's win share is in the "
                    "paired comparison, and its own per-island tables are in the tables folder "
                    "(island_fairness, island_heterogeneity).",
                    "note",
                )
            )
            continue
        for n in player_counts(result):
            het = next(
                (h for h in result.rows("island_heterogeneity") if h["n_players"] == n), None
            )
            rows = [r for r in result.rows("island_fairness") if r["n_players"] == n]
            body.append(cohort_heading(result, data, n))
            seat0 = next(
                r for r in result.rows("win_rate_by_seat") if r["n_players"] == n and r["seat"] == 0
            )
            body.append(
                doc.paragraph(
                    f"The first seat wins {numbers.pct(seat0['win_share'])} of {n}-player games "
                    f"against a fair {numbers.pct(1 / n, 0)}: an advantage of "
                    f"{numbers.points(seat0['advantage'])} "
                    f"{numbers.interval(seat0['advantage_low'], seat0['advantage_high'])} over "
                    f"{numbers.count(seat0['games'])} games."
                )
            )
            if het is None or het["dof"] < 1:
                body.append(
                    doc.paragraph(
                        "Only one island was played: no comparison of islands."
                        if het is None or int(het["islands"]) < 2
                        else "Islands are not compared: fewer than two islands had games "
                        f"enough for the test.{left_out(het)}",
                        "note",
                    )
                )
            else:
                ranked = bool(het["islands_differ"])
                verdict = (
                    "The islands differ (the test rejects equal advantages), so they are "
                    "ordered by their advantage; the table's Holm-adjusted p-values say which "
                    "differ from the pooled value."
                    if ranked
                    else "The islands show no clear difference, so they are listed by "
                    "name, not ranked: any order of them would be noise"
                    + (f"; {could_see(het)}." if could_see(het) else ".")
                )
                body.append(
                    doc.paragraph(
                        f"Do islands differ? The chi-square test of equal first-seat shares, "
                        f"corrected for the seed blocks (design effect "
                        f"{het['design_effect']:.2f}), gives Q = {het['q']:.1f} on "
                        f"{het['dof']} degrees of freedom, {numbers.p_value(het['p_value'])}. "
                        f"{verdict}{left_out(het)}"
                    )
                )
                forest = doc.figure(
                    figures.forest(
                        _forest_rows(rows, ranked),
                        "label",
                        (het["pooled"], het["pooled_low"], het["pooled_high"]),
                        f"First-seat advantage per island, {n} players",
                        "first seat's win share minus the fair share, percentage points",
                        size="games",
                        by_effect=ranked,
                    ),
                    f"Forest plot of the first-seat advantage on each island with 95% "
                    f"intervals and the pooled estimate, {n} players",
                    "Each island's first-seat advantage with its 95% interval and the games on "
                    "it (largest first when the islands differ, else by name); the orange band "
                    "is the pooled estimate over all islands "
                    f"({numbers.points(het['pooled'])} "
                    f"{numbers.interval(het['pooled_low'], het['pooled_high'])}); the black "
                    "line is a perfectly fair first seat.",
                )
                # Islands that do not differ answer nothing more in a plot: folded.
                body.append(
                    forest
                    if ranked
                    else doc.folded(
                        f"First-seat advantage per island, {n} players (figure)", forest
                    )
                )
            maps = _heat_maps(result, n)
            if maps:  # they show where things happen, they answer no question: folded
                body.append(
                    doc.folded(
                        f"Maps of one island, {n} players: where treasures were raised and "
                        "amulets appeared",
                        maps,
                    )
                )
            body.append(
                doc.folded(
                    f"Per island: fairness tests ({len(rows)} islands)",
                    doc.html_table(
                        sorted(rows, key=lambda r: r["island"]),
                        ISLAND_COLUMNS,
                    ),
                )
            )
            seats = [r for r in result.rows("seat_win_shares") if r["n_players"] == n]
            body.append(
                doc.folded(
                    f"Per island and seat: win shares ({len(seats)} rows)",
                    doc.html_table(
                        [{**r, "seat_label": int(r["seat"]) + 1} for r in seats],
                        [
                            col("island", "text"),
                            col("seat", "text", "seat_label"),
                            col("games", "count"),
                            col("win share [95% interval]", "share_ci", "win_share", "low", "high"),
                        ],
                    ),
                )
            )
    return Section(
        "board-fairness",
        "Board fairness",
        "Is the first seat favoured, and is it favoured more on some islands than on others? "
        "Islands are ranked only when a test says they differ; maps show where treasures and "
        "amulets turned up.",
        "".join(body),
    )


def sections(data: ReportData) -> list[Section]:
    return [curse_section(data), fairness_section(data)]
