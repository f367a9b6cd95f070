"""The report's meta-game section: per pool and table size, the stable mix of strategies
(:mod:`pipelines.metrics.meta_game`) in words that never claim more than its intervals, its
table, a warning where it is not separated, and its ``meta_game`` records in ``report.json``.

Only pool runs have one; a report of fixed lineups has no such section (and an empty
``meta_game`` list), since no strategy there can be swapped for another. A table size of a
pool without a meta-game (every game seats the whole pool, or fewer than three strategies)
gets one line saying why.

The words: a strategy is *outside* the stable mix only when the upper end of its 95%
interval is below :data:`~pipelines.metrics.meta_game.IN_MIX` (1%); the mix is named only
when the bootstrap's support (the strategies holding at least 1%) is the estimate's in all
but :data:`~pipelines.metrics.meta_game.SUPPORT_CHANGES` (5%) of the replicates, and is
otherwise said to be uncertain, with every strategy that may belong to it.
"""

from __future__ import annotations

import math
from typing import Any

import duckdb
import pyarrow as pa

from pipelines.metrics.meta_game import IN_MIX, SUPPORT_CHANGES, meta_game_tables
from pipelines.report.data import CohortResult, ReportData
from pipelines.report.run_groups import Cohort, lineup_shape
from pipelines.stats.equilibrium import MAX_PROFILES
from reports import numbers
from reports.blocks import Block, Paragraph, Section, Subheading, Table, col


def is_pool(cohort: Cohort) -> bool:
    """Whether the cohort's runs are pool runs (the only ones with a meta-game)."""
    return lineup_shape(cohort.first)[0]


def cohort_tables(con: duckdb.DuckDBPyConnection, cohort: Cohort) -> dict[str, pa.Table]:
    """The meta-game tables of a pool cohort; none for a fixed lineup."""
    return meta_game_tables(con) if is_pool(cohort) else {}


def _share(r: dict[str, Any]) -> str:
    return f"{numbers.pct(r['p'], 0)} {numbers.interval(r['low'], r['high'], digits=0)}"


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _basis(row: dict[str, Any]) -> str:
    what = (
        "the Nash equilibrium of the 2-player win-share game"
        if row["method"] == "nash"
        else f"alpha-Rank over the {numbers.count(row['profiles'])} tables played "
        f"(alpha {numbers.number(row['alpha'], 0)} per unit of win share, populations of "
        f"{row['population']})"
    )
    return (
        f"From {what}; 95% intervals from {numbers.count(row['replicates'])} bootstrap "
        f"replicates over {numbers.count(row['blocks'])} seed blocks "
        f"({numbers.count(row['games'])} games)."
    )


def headline(row: dict[str, Any], mix: list[dict[str, Any]]) -> str:
    """One table size's sentence: the stable mix with its intervals (or that it is uncertain,
    with every strategy that may be in it), the strategies outside it."""
    n = row["n_players"]
    outside = [r["strategy"] for r in mix if r["outside"]]
    out_text = ""
    if outside:
        verb = "is" if len(outside) == 1 else "are"
        out_text = f"; {_names(outside)} {verb} outside it (below 1% over the whole interval)"
    if not row["separated"]:
        maybe = [f"{r['strategy']} {_share(r)}" for r in mix if not r["outside"]]
        return (
            f"At {n} players the stable mix is uncertain: the strategies holding at least 1% "
            f"of it differ from the estimate's in {numbers.pct(row['support_changes'], 0)} of "
            f"the bootstrap replicates. It may hold {_names(maybe)}{out_text}."
        )
    named = [f"{numbers.pct(r['p'], 0)} {r['strategy']} "
             f"{numbers.interval(r['low'], r['high'], digits=0)}"
             for r in mix if r["in_mix"]]  # fmt: skip
    unsure = [r for r in mix if not r["in_mix"] and not r["outside"]]
    text = f"At {n} players the stable mix is {_names(named)}{out_text}"
    if unsure:
        who = [f"{r['strategy']} ({_share(r)})" for r in unsure]
        verb = "is" if len(unsure) == 1 else "are"
        text += f"; {_names(who)} {verb} not separated from it"
    return text + "."


MIX_COLUMNS = [
    col("strategy", "text"),
    col("share of the stable mix [95% interval]", "share_ci", "p", "low", "high"),
    col("in the mix", "text", "verdict"),
]
RATING_COLUMN = col(
    "payoff against the mix, points [95% interval]",
    "points_ci",
    "rating",
    "rating_low",
    "rating_high",
)


def _verdict(r: dict[str, Any]) -> str:
    if r["outside"]:
        return "outside"
    return "yes" if r["in_mix"] else "not separated"


def _size_blocks(row: dict[str, Any], mix: list[dict[str, Any]]) -> list[Block]:
    """One analysed table size: its sentence, how it was found, a warning when it is not
    separated, the table."""
    n = row["n_players"]
    blocks: list[Block] = [Paragraph(headline(row, mix)), Paragraph(_basis(row), "note")]
    if row["method"] != "nash":
        blocks.append(
            Paragraph(
                f"The table alpha-Rank ranks first, {row['top_profile']}, holds "
                f"{numbers.pct(row['top_mass'], 0)} "
                f"{numbers.interval(row['top_low'], row['top_high'], digits=0)} of its "
                f"stationary distribution and comes first in "
                f"{numbers.pct(row['top_first'], 0)} of the replicates. A pool seats distinct "
                f"members, so no strategy holds more than 1/{n} of the seats.",
                "note",
            )
        )
    if not row["separated"]:
        blocks.append(
            Paragraph(
                f"Not separated at {n} players: the bootstrap puts the mix's support elsewhere "
                f"in {numbers.pct(row['support_changes'], 0)} of the replicates (more than "
                f"{numbers.pct(SUPPORT_CHANGES, 0)}); more games would narrow it.",
                "warning",
            )
        )
    columns = [*MIX_COLUMNS, RATING_COLUMN] if row["method"] == "nash" else MIX_COLUMNS
    shown = [{**r, "verdict": _verdict(r)} for r in mix]
    blocks.append(Table.of(shown, columns))
    return blocks


def skipped(result: CohortResult) -> dict[int, str]:
    """The pool's table sizes without a meta-game, each with why."""
    done = {int(r["n_players"]) for r in result.rows("meta_game")}
    pool = len(result.cohort.players)
    out = {}
    for n in result.cohort.table_sizes:
        if n in done:
            continue
        tables = math.comb(pool, n)
        if n >= pool:
            out[n] = (
                f"At {n} players every game seats the whole pool: no strategy can be swapped "
                "for another, so there is no meta-game."
            )
        elif n > 2 and tables > MAX_PROFILES:
            out[n] = (
                f"At {n} players the pool makes {numbers.count(tables)} different tables, more "
                f"than the {numbers.count(MAX_PROFILES)} alpha-Rank is solved over within a "
                "report's time: no meta-game."
            )
        else:
            out[n] = (
                f"At {n} players not every combination of the pool was played (or fewer than "
                "three strategies were): no meta-game."
            )
    return out


def section(data: ReportData) -> Section | None:
    """The meta-game section, or None when no cohort is a pool."""
    pools = [r for r in data.cohorts if is_pool(r.cohort)]
    if not pools:
        return None
    blocks: list[Block] = []
    for result in pools:
        rows = {int(r["n_players"]): r for r in result.rows("meta_game")}
        notes = skipped(result)
        for n in sorted({*rows, *notes}):
            label = f"Meta-game, {n} players"
            if len(data.cohorts) > 1:
                label = f"{result.cohort.label} — {label}"
            blocks.append(Subheading(label))
            if n in notes:
                blocks.append(Paragraph(notes[n], "note"))
                continue
            mix = [r for r in result.rows("meta_game_mix") if r["n_players"] == n]
            blocks += _size_blocks(rows[n], mix)
    return Section(
        "meta-game",
        "Meta-game",
        "Which mix of strategies is stable when players may switch: at 2 players the "
        "Nash equilibrium of the win-share game, at 3 and 4 alpha-Rank over the tables "
        f"played. A strategy is outside the mix when its whole interval is below "
        f"{numbers.pct(IN_MIX, 0)}.",
        tuple(blocks),
    )


def json_records(data: ReportData) -> list[dict[str, Any]]:
    """``report.json``'s ``meta_game``: per pool cohort and table size, the mix (strategy ->
    ``p``, ``low``, ``high``; summing to 1), the strategies in and outside it, whether it is
    separated, the Nash-averaged ranking (2 players) or alpha-Rank's first table, the
    headline; a size without a meta-game has ``method`` null and a ``note``."""
    out: list[dict[str, Any]] = []
    for result in data.cohorts:
        if not is_pool(result.cohort):
            continue
        for row in result.rows("meta_game"):
            n = int(row["n_players"])
            mix = [r for r in result.rows("meta_game_mix") if r["n_players"] == n]
            record = {"cohort": result.cohort.index, **row}
            record.update(
                mix={r["strategy"]: {k: r[k] for k in ("p", "low", "high")} for r in mix},
                in_mix=[r["strategy"] for r in mix if r["in_mix"]],
                outside=[r["strategy"] for r in mix if r["outside"]],
                ranking=None
                if row["method"] != "nash"
                else [
                    {
                        "strategy": r["strategy"],
                        "payoff": r["rating"],
                        "low": r["rating_low"],
                        "high": r["rating_high"],
                    }
                    for r in sorted(mix, key=lambda r: -r["rating"])
                ],
                headline=headline(row, mix),
                note=None,
            )
            out.append(record)
        for n, note in skipped(result).items():
            out.append({"cohort": result.cohort.index, "n_players": n, "method": None,
                        "mix": None, "note": note})  # fmt: skip
    return sorted(out, key=lambda r: (r["cohort"], r["n_players"]))
