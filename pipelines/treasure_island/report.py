"""The Treasure Island report's own parts: busts against their exact chance, turns, plunders,
the Key + Chest bonus, each power's use, and the gap to the single-turn optimum.

The win rates, seats, ratings and game length are the common part
(:mod:`pipelines.report.common`); this game has no islands and scores in points.
"""

from __future__ import annotations

from typing import Any

import duckdb
import pyarrow as pa

from pipelines.metrics.clustered import clustered
from pipelines.report import claims
from pipelines.report.common import GameReport
from pipelines.report.data import CohortResult, Finding, ReportData
from pipelines.report.findings import cohort_scope, power_note
from pipelines.report.run_groups import Cohort
from pipelines.treasure_island import push_luck
from pipelines.treasure_island.report_page import ALPHA, move_log_kept, sections
from reports import numbers

#: The reference strategy whose gap the report measures when it is seated.
OPTIMAL = "optimal"


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
    """The Treasure Island tables of one cohort (none when its runs kept no move log)."""
    if not move_log_kept(cohort):
        return {}
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


def _bust_finding(result: CohortResult, scope: str) -> Finding | None:
    """Whether blind draws bust as often as their exact chance says, per group of kinds in
    play (Holm-adjusted); None when no draw could bust."""
    from pipelines.stats.core import holm

    busts = [r for r in result.rows("bust_by_kinds") if r["kinds_in_play"] > 0]
    if not busts:
        return None
    adjusted = holm([float(r["p_value"]) for r in busts])
    off = [r for r, p in zip(busts, adjusted, strict=True) if p < ALPHA]
    draws = sum(int(r["draws"]) for r in busts)
    worst = max(busts, key=lambda r: abs(r["z"]))
    power_fields: dict[str, Any] = {}
    if off:
        text = (
            "Busts depart from their exact chance with "
            + ", ".join(f"{r['kinds_in_play']} kinds in play (z = {r['z']:+.1f})" for r in off)
            + f" (Holm-adjusted, {numbers.count(draws)} blind draws): check the engine."
        )
    else:
        note, power_fields = _bust_power(busts)
        text = (
            f"Busts show no clear departure from their exact chance: every group of kinds in "
            f"play agrees (largest |z| = {abs(worst['z']):.1f}, Holm-adjusted "
            f"{numbers.p_value(min(adjusted))}; {numbers.count(draws)} blind draws"
            f"{'; ' + note if note else ''})."
        )
    return Finding(
        "bust_check",
        "draws",
        abs(worst["z"]),
        float("nan"),
        float("nan"),
        draws,
        text,
        scope,
        **power_fields,
    )


def _gap_finding(r: dict[str, Any], scope: str) -> Finding:
    """A strategy's points per turn against optimal's on the same seed blocks."""
    blocks = f"paired over {numbers.count(r['blocks'])} seed blocks"
    if r["low"] is None or r["high"] is None:
        text = (
            f"{r['strategy']} scores {r['gap']:+.2f} points per turn against optimal "
            f"({numbers.TOO_FEW_BLOCKS}) ({blocks})."
        )
        return Finding(
            "optimal_gap",
            str(r["strategy"]),
            r["gap"],
            float("nan"),
            float("nan"),
            int(r["blocks"]),
            text,
            scope,
        )
    shown = claims.claim(r["gap"], r["low"], r["high"]).direction
    seen: dict[str, Any] = {}
    if not shown:
        note, seen = power_note(
            r["low"],
            r["high"],
            int(r["blocks"]),
            lambda x: f"{x:.2f} points per turn",
            unit="seed blocks",
        )
        text = (
            f"{r['strategy']} scores no clearly different points per turn from optimal: "
            f"{r['gap']:+.2f} {numbers.interval(r['low'], r['high'], 1.0, 2)}"
            + (f"; {note}" if note else "")
        )
    else:
        # The interval of the size said, as in every paired finding: "0.50 fewer
        # [0.30, 0.70]", not "0.50 fewer [-0.70, -0.30]".
        low, high = (r["low"], r["high"]) if shown > 0 else (-r["high"], -r["low"])
        text = (
            f"{r['strategy']} scores {abs(r['gap']):.2f} points per turn "
            f"{'fewer' if shown < 0 else 'more'} than optimal "
            f"{numbers.interval(low, high, 1.0, 2)}"
        )
    return Finding(
        "optimal_gap",
        str(r["strategy"]),
        r["gap"],
        r["low"],
        r["high"],
        int(r["blocks"]),
        f"{text} ({blocks}).",
        scope,
        **seen,
    )


def findings(data: ReportData) -> list[Finding]:
    """The bust check and the gap to the optimum of every cohort."""
    out = []
    for result in data.cohorts:
        scope = cohort_scope(result)
        bust = _bust_finding(result, scope)
        if bust is not None:
            out.append(bust)
        out += [_gap_finding(r, scope) for r in result.rows("optimal_gap")]
    return out


#: Each seat's points through a game (:mod:`pipelines.metrics.game_shape`): its score at the
#: end of each of its own turns. A card a Knife or a Pistol takes from its stash in another
#: seat's turn shows at the end of its next turn (or in the final scores).
SCORE_EVENTS = """
    SELECT run, game_id, turn, seat, c AS score FROM moves WHERE event = 'end_turn'"""

REPORT = GameReport(
    game="treasure-island",
    title="Treasure Island",
    score_unit="points",
    compute=compute,
    findings=findings,
    sections=sections,
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
    score_events=SCORE_EVENTS,
    choices="A choice is one legal answer of a decision: draw or plunder (two), a character "
    "of those dealt, a pile a power or the Key + Chest bonus may take a card from, a card the "
    "Candle shows, placing or putting back the card the Spyglass shows (two).",
)
