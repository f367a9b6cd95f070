"""The gaps table of a report: each strategy against the next one down the ranking at one
table size (:mod:`pipelines.metrics.gaps`), as blocks of a section."""

from __future__ import annotations

from typing import Any

from pipelines.report.data import CohortResult
from reports import numbers
from reports.blocks import Block, Table, col

GAP_COLUMNS = [
    col("pair (ranked by win share)", "text", "pair"),
    col("seed blocks", "count", "blocks"),
    col("gap, points [95% interval]", "text", "gap"),
    col("selection-adjusted [95%]", "text", "adjusted"),
    col("separated", "text", "verdict"),
]


def gap_rows(result: CohortResult, n: int) -> list[dict[str, Any]]:
    """The adjacent pairs of the ranking at ``n`` players, written for a table."""
    out = []
    for r in result.rows("strategy_gaps"):
        if r["n_players"] != n:
            continue
        has = r["low"] is not None and r["high"] is not None
        out.append(
            {
                "pair": f"{r['better']} - {r['worse']}",
                "blocks": r["blocks"],
                "gap": ""
                if r["estimate"] is None
                else f"{100 * r['estimate']:+.1f}"
                + (f" {numbers.signed_interval(r['low'], r['high'])}" if has else ""),
                "adjusted": numbers.signed_interval(r["adjusted_low"], r["adjusted_high"])
                if r["adjusted_low"] is not None
                else "",
                "verdict": ("yes" if r["separated"] else "no")
                if has
                else "too few blocks for an interval",
            }
        )
    return out


def gap_blocks(result: CohortResult, n: int) -> tuple[Block, ...]:
    """The gaps table at ``n`` players, or nothing with fewer than two strategies (what it
    holds, :data:`GAP_NOTE`, is said once among the page's notes)."""
    rows = gap_rows(result, n)
    return (Table.of(rows, GAP_COLUMNS),) if rows else ()


#: What the gaps table holds, said once above it.
GAP_NOTE = (
    "Gaps in the ranking: each strategy against the next one down, the difference of their win "
    "shares in the seed blocks both played (block-paired, Student-t 95% interval over the "
    "blocks). A pair whose interval holds 0 is not separated. The ranking is chosen on the "
    "same games, so the gaps are optimistic; the selection-adjusted interval allows for the "
    "choice (simultaneous over every pair of strategies, Bonferroni)."
)
