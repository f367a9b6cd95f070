"""The Tobago report's own parts: curse impact and board fairness (its tables, findings and
headline clause here; its sections of the page in :mod:`pipelines.tobago.report_page`).

**Curse impact** leads with the causal answer when the report holds a run and its twin
without curses on the same seeds (``tourney simulate --twin curses``): per strategy the
change in win share and score, and the change in the first-seat advantage. Descriptive
rates follow (curses per distribution, hits and coins lost per game, who is hit and how they
paid), each table with a sentence saying what it shows.

**Board fairness** asks whether the first seat is favoured (per player count, with its
interval) and whether islands differ in that (a chi-square test of equal shares corrected
for the seed blocks' design effect); islands are ordered by their advantage only when they
do, each with a Holm-adjusted p-value, in a forest plot beside the pooled estimate. Heat
maps show one island's terrain and landmarks under where treasures were raised and amulets
appeared, with the reason that island was picked.
"""

from __future__ import annotations

from typing import Any

import duckdb
import pyarrow as pa

from pipelines.metrics.source import recorded_board
from pipelines.report.common import GameReport
from pipelines.report.data import CohortResult, Finding, ReportData
from pipelines.report.findings import cohort_scope
from pipelines.report.run_groups import Cohort, Pairing
from pipelines.tobago import cells, curses, fairness
from pipelines.tobago.report_page import LANDMARK_SAMPLE, could_see, left_out, sections
from reports import numbers
from sim.tobago.board import Board


def _mapped_islands(con: duckdb.DuckDBPyConnection, summary: pa.Table, het: pa.Table) -> pa.Table:
    """Per player count, the island to draw and why: where islands differ, the one whose
    first-seat advantage departs most from the pooled one; otherwise the most-played island
    (the maps then show where things happen, not an unusual board)."""
    rows = summary.to_pylist()
    differ = {int(h["n_players"]): bool(h["islands_differ"]) for h in het.to_pylist()}
    pooled = {int(h["n_players"]): float(h["pooled"]) for h in het.to_pylist()}
    picks: dict[str, list[Any]] = {"n_players": [], "island": [], "games": [], "reason": []}
    for n in sorted({int(r["n_players"]) for r in rows}):
        group = [r for r in rows if r["n_players"] == n]
        tested = [r for r in group if r["tested"]]
        if differ.get(n) and tested:
            pick = max(tested, key=lambda r: abs(r["first_seat_advantage"] - pooled[n]))
            reason = (
                f"islands differ in the first-seat advantage, and on {pick['island']} it departs "
                f"most from the pooled value ({numbers.points(pick['first_seat_advantage'])}, "
                f"Holm-adjusted {numbers.p_value(pick['holm_p'])}); picked as the most "
                f"extreme of {len(tested)} islands on the same games, that departure is "
                "optimistic (the Holm adjustment allows for the choice, the size does not)"
            )
        else:
            pick = max(group, key=lambda r: (r["games"], r["island"]))
            reason = (
                f"{pick['island']} is the most-played island ({numbers.count(pick['games'])} "
                "games); islands show no clear difference in fairness, so any one "
                "stands for them"
            )
        picks["n_players"].append(n)
        picks["island"].append(pick["island"])
        picks["games"].append(int(pick["games"]))
        picks["reason"].append(reason)
    return pa.table(picks)


def compute(con: duckdb.DuckDBPyConnection, cohort: Cohort) -> dict[str, pa.Table]:
    """The Tobago tables of one cohort."""
    seat_shares = fairness.seat_win_shares(con)
    summary, het = fairness.island_tables(con, seat_shares)
    maps = _mapped_islands(con, summary, het)
    spec = cohort.first.manifest["spec"]
    min_distance = int(spec.get("resolved_rules", {}).get("same_object_min_distance", 4))
    boards: dict[str, Board] = {}
    landmark_tables = []
    for name in sorted(set(maps.column("island").to_pylist())):
        board = recorded_board(cohort.first, name)
        boards[name] = board
        seeds = [
            int(s)
            for (s,) in con.execute(
                "SELECT DISTINCT seed FROM games WHERE island::VARCHAR = ? ORDER BY seed LIMIT ?",
                [name, LANDMARK_SAMPLE],
            ).fetchall()
        ]
        table = cells.landmark_frequency(board, seeds, min_distance)
        landmark_tables.append(
            table.add_column(0, "island", pa.array([name] * table.num_rows, pa.string()))
        )
    return {
        "curse_frequency": curses.frequency(con),
        "curse_positions": curses.positions(con),
        "curse_by_island": curses.by_island(con),
        "curse_victims": curses.victims(con),
        "curse_hit_vs_not_hit": curses.hit_vs_not_hit(con),
        "amulet_value": curses.amulet_value(con),
        "island_fairness": summary,
        "island_heterogeneity": het,
        "seat_win_shares": seat_shares,
        "cell_heat": cells.heat(con),
        "start_cells": cells.start_cells(con),
        "mapped_islands": maps,
        "map_cells": cells.cell_geometry(boards),
        "map_landmarks": pa.concat_tables(landmark_tables)
        if landmark_tables
        else pa.table({"island": pa.array([], pa.string())}),
    }


# -- findings -------------------------------------------------------------------------------


def _island_finding(result: CohortResult, h: dict[str, Any], scope: str) -> Finding | None:
    """Whether islands differ in the first-seat advantage at one table size (the row ``h`` of
    ``island_heterogeneity``); None when one island alone was played."""
    n = int(h["n_players"])
    if h["dof"] < 1:
        if int(h["islands"]) <= 1:
            return None
        # Islands played, but too few games to compare them.
        text = (
            f"Islands are not compared in {n}-player games: fewer than two islands had games "
            f"enough for the test.{left_out(h)}"
        )
        nan = float("nan")
        return Finding(
            "island_heterogeneity", f"{n} players", nan, nan, nan, int(h["games"]), text, scope
        )
    test = f"Q = {h['q']:.1f} on {h['dof']} df, {numbers.p_value(h['p_value'])}"
    tested = int(h["islands_tested"])
    seen: dict[str, Any] = {}
    if h["islands_differ"]:
        rows = [r for r in result.rows("island_fairness") if r["n_players"] == n]
        odd = [r for r in rows if r["tested"] and r["holm_p"] < fairness.ALPHA]
        names = ", ".join(
            f"{r['island']} ({numbers.points(r['first_seat_advantage'])})" for r in odd
        )
        text = (
            f"Islands differ in the first-seat advantage in {n}-player games ({test}); "
            f"{len(odd)} of the {tested} islands tested differ from the pooled value after "
            f"Holm's adjustment{': ' + names if names else ''}."
        )
    else:
        note = could_see(h)
        text = (
            f"No clear difference between islands in the first-seat advantage in {n}-player "
            f"games ({test}; {tested} islands tested): their order is noise, so they are not "
            f"ranked{'; ' + note if note else ''}."
        )
        if h.get("detectable_spread") is not None:
            seen = {
                "detectable_effect": h["detectable_spread"],
                "games_for_effect": h["games_for_half_spread"],
                "effect_for_games": h["detectable_spread"] / 2,
            }
    return Finding(
        "island_heterogeneity",
        f"{n} players",
        h["q"],
        float("nan"),
        float("nan"),
        int(h["games"]),
        text + left_out(h),
        scope,
        **seen,
    )


def _curse_finding(r: dict[str, Any], scope: str) -> Finding:
    """How often curses strike and what they cost at one table size."""
    return Finding(
        "coins_lost_per_game",
        f"{r['n_players']} players",
        r["coins_lost_per_game"],
        r["lost_low"],
        r["lost_high"],
        int(r["games"]),
        f"A curse turns up in {numbers.pct(r['rate'])} of treasure distributions "
        f"{numbers.interval(r['low'], r['high'])}; players lose "
        f"{r['coins_lost_per_game']:.2f} coins per {r['n_players']}-player game to curses "
        f"{numbers.interval(r['lost_low'], r['lost_high'], 1.0, 2)} "
        f"({numbers.count(r['games'])} games).",
        scope,
    )


def findings(data: ReportData) -> list[Finding]:
    """Board-fairness and curse findings of every cohort."""
    out = []
    for result in data.cohorts:
        scope = cohort_scope(result)
        for h in result.rows("island_heterogeneity"):
            found = _island_finding(result, h, scope)
            if found is not None:
                out.append(found)
        # A run without curses: nothing to say about them.
        out += [_curse_finding(r, scope) for r in result.rows("curse_frequency") if r["curses"]]
    return out


def headline(data: ReportData, result: CohortResult) -> list[tuple[str, str]]:
    """The headline's words on the boards: whether islands differ in the first seat's
    advantage (at every table size the test ran), and, where they do not, the spread the test
    could have detected."""
    tested = [h for h in result.rows("island_heterogeneity") if h["dof"] >= 1]
    if not tested:
        return []
    differ = sorted(int(h["n_players"]) for h in tested if h["islands_differ"])
    if differ:
        sizes = ", ".join(str(n) for n in differ)
        return [("seat", f"islands differ in it at {sizes} players (see Board fairness)")]
    spreads = [h["detectable_spread"] for h in tested if h.get("detectable_spread") is not None]
    could = (
        f" (a spread of {numbers.points(max(spreads), signed=False)} between islands would "
        "have been detected 80% of the time)"
        if spreads
        else ""
    )
    islands = max(int(h["islands_tested"]) for h in tested)
    return [("seat", f"no clear difference between the {islands} islands in it{could}")]


def pair_notable(con: duckdb.DuckDBPyConnection, pairing: Pairing) -> pa.Table | None:
    """A run and its twin without curses: a game where a curse changed the winner."""
    return curses.winner_changed(con) if pairing.factor == "curses" else None


#: Each seat's coins through a game (:mod:`pipelines.metrics.game_shape`), as changes: a
#: treasure card taken adds its value, a card lost to a curse takes its value away; they add
#: up to the seat's final score.
SCORE_EVENTS = """
    SELECT run, game_id, turn, seat, CASE WHEN event = 'take' THEN a ELSE -b END AS change
    FROM moves WHERE event = 'take' OR (event = 'curse_hit' AND a = 1)"""

REPORT = GameReport(
    game="tobago",
    title="Tobago",
    score_unit="coins",
    compute=compute,
    findings=findings,
    sections=sections,
    json_sections={
        "curse_impact": [
            "curse_frequency",
            "curse_positions",
            "curse_by_island",
            "curse_victims",
            "curse_hit_vs_not_hit",
            "amulet_value",
        ],
        "board_fairness": [
            "island_fairness",
            "island_heterogeneity",
            "seat_win_shares",
            "start_cells",
            "mapped_islands",
        ],
    },
    pair_notable=pair_notable,
    headline=headline,
    score_events=SCORE_EVENTS,
    choices="A choice is one legal answer of a decision: an action of its list (play a clue, "
    "move, raise a treasure, an amulet's action, end the turn) or a cell the ATV may start on "
    "or drive to; an offered treasure card is two (take or pass).",
)
