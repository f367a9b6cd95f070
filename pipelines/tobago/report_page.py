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
from reports import figures, numbers
from reports.blocks import (
    Block,
    Brief,
    Figure,
    Folded,
    Paired,
    Paragraph,
    Section,
    SideBySide,
    Subheading,
    Table,
    col,
)

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


def _curse_effect(twin: PairResult | None) -> Block:
    """What curses do: the paired comparison with the twin without curses, or a note on how
    to make that twin."""
    if twin is None:
        return Paragraph(
            "No run of the same seeds without curses was given, so what curses do is not "
            "estimated here (the tables below describe, they do not compare). Make the twin "
            "with `tourney simulate SPEC --twin curses` and report both runs together.",
            "note",
        )
    return Paired(
        twin.pairing.index,
        (
            Subheading("What curses do: the same games with and without curses"),
            Paragraph(
                "The causal answer: every game was played twice on the same seed, once with "
                "curses (A) and once without (B): a strategy that curses hurt shows a "
                "positive value (it wins more often without them)."
            ),
            *pair_body(twin, "coins"),
        ),
    )


def _curses_described(result: CohortResult) -> Folded:
    """What happened, folded under one line (the paired comparison answers what curses do):
    how often curses strike (in the summary too), where in the offer, whom they hit and
    what they cost, per island."""
    positions = [
        {"card": int(r["position"]) + 1, "curses": r["curses"]}
        for r in result.rows("curse_positions")
    ]
    paid = [
        col("paid with", "text", "paid_with"),
        col("hits", "count"),
        col("mean coins lost [95%]", "mean_ci", "mean_coins_lost", "low", "high"),
    ]
    per_island = result.rows("curse_by_island")
    how_often = (
        Subheading("How often curses strike"),
        Paragraph(
            "Per player count: the share of treasure distributions in which a curse turned "
            "up, and per game the curse hits and the coins players lost to them."
        ),
        Table.of(result.rows("curse_frequency"), FREQUENCY_COLUMNS),
    )
    return Folded(
        "How often curses strike, where in the offer, whom they hit and what they cost "
        "(descriptive tables)",
        (
            Brief(how_often),
            Subheading("Where in the offer"),
            Paragraph(
                "Which card of a distribution (1 = the first revealed) the curse was: a curse "
                "late in the offer ends a distribution that had already paid out."
            ),
            Table.of(
                positions,
                [col("card of the distribution", "count", "card"), col("curses", "count")],
            ),
            Subheading("Who is hit, and how they paid"),
            Paragraph(
                "Per strategy, curse hits and the coins they cost; then every hit by how it was "
                "paid: an amulet (nothing lost), the most valuable treasure card, or nothing "
                "to lose. The mean coins lost when paying with a card is what an amulet saved."
            ),
            Table.of(result.rows("curse_victims"), VICTIM_COLUMNS),
            Table.of(result.rows("amulet_value"), paid),
            Subheading("Players hit against players not hit (descriptive)"),
            Paragraph(
                "Win share of the seats a curse hit and of those it did not. This is not the "
                "effect of a curse: players who raise more treasures are hit more often and "
                "win more often for that reason. The paired comparison above is the effect."
            ),
            Table.of(result.rows("curse_hit_vs_not_hit"), HIT_COLUMNS),
            Folded(
                f"Curses per island ({len(per_island)} rows)",
                (Table.of(per_island, CURSE_ISLAND_COLUMNS),),
            ),
        ),
    )


def curse_section(data: ReportData) -> Section:
    """Per cohort (a twin without curses is shown with the run it ablates): what curses do,
    then what happened, folded."""
    blocks: list[Block] = []
    for result in data.cohorts:
        ablated = _ablation_of(data, result)
        if ablated is not None and ablated.pairing.factor == "curses":
            continue
        if len(data.cohorts) > 1:
            blocks += cohort_heading(result, data)
        blocks += [_curse_effect(_curse_twin(data, result)), _curses_described(result)]
    return Section(
        "curse-impact",
        "Curse impact",
        "What curses change (a run and its twin without curses on the same seeds), then how "
        "often they strike, whom they hit and what they cost.",
        tuple(blocks),
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


def _heat_maps(result: CohortResult, n: int) -> tuple[Block, ...]:
    """One island's maps at ``n`` players: where treasures were raised and where amulets
    appeared, side by side (nothing without a mapped island)."""
    pick = next((r for r in result.rows("mapped_islands") if r["n_players"] == n), None)
    if pick is None:
        return ()
    name = pick["island"]
    geometry = [c for c in result.rows("map_cells") if c["island"] == name]
    landmarks = [r for r in result.rows("map_landmarks") if r["island"] == name]
    games = max(1, int(pick["games"]))
    heat = [h for h in result.rows("cell_heat") if h["island"] == name]
    landmarks, fixed = _landmark_strength(landmarks)
    out: list[Block] = []
    for key, what in (("raises", "treasures raised"), ("amulets", "amulets appeared")):
        values = {int(h["cell"]): 1000 * float(h[key]) / games for h in heat}
        unit = f"{what} per 1,000 games"
        out.append(
            Figure(
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
    return (SideBySide((out[0],), (out[1],)),)


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


def _twin_note(twin: PairResult) -> Paragraph:
    """An ablation twin's fairness is its base's with one part removed: where to find what
    changed (the first seat's win share, B - A, in the paired comparison)."""
    return Paragraph(
        f"This run is the twin of {twin.pairing.a.where} without {twin.pairing.factor}; the "
        "change in the first seat's win share is in the paired comparison, and its own "
        "per-island tables are in the tables folder (island_fairness, island_heterogeneity).",
        "note",
    )


def _first_seat(result: CohortResult, n: int) -> Paragraph:
    seat0 = next(
        r for r in result.rows("win_rate_by_seat") if r["n_players"] == n and r["seat"] == 0
    )
    return Paragraph(
        f"The first seat wins {numbers.pct(seat0['win_share'])} of {n}-player games against a "
        f"fair {numbers.pct(1 / n, 0)}: an advantage of {numbers.points(seat0['advantage'])} "
        f"{numbers.interval(seat0['advantage_low'], seat0['advantage_high'])} over "
        f"{numbers.count(seat0['games'])} games."
    )


def _island_test(
    het: dict[str, Any] | None, rows: list[dict[str, Any]], n: int
) -> tuple[Block, ...]:
    """Whether islands differ at ``n`` players: the test in words, then the islands' forest
    plot (ordered by advantage and open only when they differ)."""
    if het is None or het["dof"] < 1:
        return (
            Paragraph(
                "Only one island was played: no comparison of islands."
                if het is None or int(het["islands"]) < 2
                else "Islands are not compared: fewer than two islands had games enough for "
                f"the test.{left_out(het)}",
                "note",
            ),
        )
    ranked = bool(het["islands_differ"])
    verdict = (
        "The islands differ (the test rejects equal advantages), so they are ordered by their "
        "advantage; the table's Holm-adjusted p-values say which differ from the pooled value."
        if ranked
        else "The islands show no clear difference, so they are listed by name, not ranked: "
        "any order of them would be noise" + (f"; {could_see(het)}." if could_see(het) else ".")
    )
    test = Paragraph(
        f"Do islands differ? The chi-square test of equal first-seat shares, corrected for the "
        f"seed blocks (design effect {het['design_effect']:.2f}), gives Q = {het['q']:.1f} on "
        f"{het['dof']} degrees of freedom, {numbers.p_value(het['p_value'])}. "
        f"{verdict}{left_out(het)}"
    )
    forest = Figure(
        figures.forest(
            _forest_rows(rows, ranked),
            "label",
            (het["pooled"], het["pooled_low"], het["pooled_high"]),
            f"First-seat advantage per island, {n} players",
            "first seat's win share minus the fair share, percentage points",
            size="games",
            by_effect=ranked,
        ),
        f"Forest plot of the first-seat advantage on each island with 95% intervals and the "
        f"pooled estimate, {n} players",
        "Each island's first-seat advantage with its 95% interval and the games on it "
        "(largest first when the islands differ, else by name); the orange band is the pooled "
        f"estimate over all islands ({numbers.points(het['pooled'])} "
        f"{numbers.interval(het['pooled_low'], het['pooled_high'])}); the black line is a "
        "perfectly fair first seat.",
    )
    if ranked:
        return (test, forest)
    # Islands that do not differ answer nothing more in a plot: folded.
    return (test, Folded(f"First-seat advantage per island, {n} players (figure)", (forest,)))


def _per_island(result: CohortResult, rows: list[dict[str, Any]], n: int) -> tuple[Block, ...]:
    """What describes the islands at ``n`` players, folded: the maps of one, the fairness
    tests of each (in the summary too) and each one's win shares by seat."""
    maps = _heat_maps(result, n)
    seats = [
        {**r, "seat_label": int(r["seat"]) + 1}
        for r in result.rows("seat_win_shares")
        if r["n_players"] == n
    ]
    seat_columns = [
        col("island", "text"),
        col("seat", "text", "seat_label"),
        col("games", "count"),
        col("win share [95% interval]", "share_ci", "win_share", "low", "high"),
    ]
    tests = Table.of(sorted(rows, key=lambda r: r["island"]), ISLAND_COLUMNS)
    out: list[Block] = []
    if maps:  # they show where things happen, they answer no question
        out.append(
            Folded(
                f"Maps of one island, {n} players: where treasures were raised and amulets "
                "appeared",
                maps,
            )
        )
    return (
        *out,
        Folded(
            f"Per island: fairness tests ({len(rows)} islands)",
            (Brief((tests,), "Per island: fairness tests"),),
        ),
        Folded(
            f"Per island and seat: win shares ({len(seats)} rows)",
            (Table.of(seats, seat_columns),),
        ),
    )


def fairness_section(data: ReportData) -> Section:
    """Per cohort and player count: the first seat's advantage, whether islands differ in
    it, then the islands described (folded); an ablation twin only points to its pairing."""
    blocks: list[Block] = []
    for result in data.cohorts:
        twin = _ablation_of(data, result)
        if twin is not None:
            blocks += [*cohort_heading(result, data), _twin_note(twin)]
            continue
        for n in player_counts(result):
            het = next(
                (h for h in result.rows("island_heterogeneity") if h["n_players"] == n), None
            )
            rows = [r for r in result.rows("island_fairness") if r["n_players"] == n]
            blocks += [
                *cohort_heading(result, data, n),
                _first_seat(result, n),
                *_island_test(het, rows, n),
                *_per_island(result, rows, n),
            ]
    return Section(
        "board-fairness",
        "Board fairness",
        "Is the first seat favoured, and is it favoured more on some islands than on others? "
        "Islands are ranked only when a test says they differ; maps show where treasures and "
        "amulets turned up.",
        tuple(blocks),
    )


def sections(data: ReportData) -> list[Section]:
    return [curse_section(data), fairness_section(data)]
