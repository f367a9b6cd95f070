"""Means and shares with cluster-robust intervals, computed in DuckDB.

Games of one seed block share their deal (with rotated seating, every player meets it from
every seat), so their outcomes are not independent: an interval that treats seats as
independent draws can be too narrow. Every interval of the reports therefore treats the
block (``run, block``) as the independent unit: DuckDB sums each block, then each group's
block sums into five moments, and :func:`pipelines.stats.core.ratio_se` turns them into a
standard error. Only those moments leave the database, so this costs one scan whatever the
number of games.
"""

from __future__ import annotations

from typing import Any

import duckdb
import pyarrow as pa

from pipelines.stats.core import Z95, block_mean_interval, clustered_share, ratio_se

#: The independent unit of every interval: one seed block of one run.
CLUSTER = "run, block"


def clustered(
    con: duckdb.DuckDBPyConnection,
    source: str,
    groups: list[str],
    value: str,
    share: bool = False,
    cluster: str = CLUSTER,
    student: bool = False,
) -> list[dict[str, Any]]:
    """Per group of ``source`` (a SELECT with the ``groups`` columns (plain names), the ``cluster``
    columns and ``value``): ``n`` (rows), ``clusters``, ``total``, ``mean``, ``se`` and a 95%
    interval ``low``/``high`` (a Wilson interval at the effective size if ``share``; Student's
    t over the clusters if ``student``, None for both below
    :data:`~pipelines.stats.core.MIN_INTERVAL_BLOCKS` clusters; else normal), ordered by the
    groups."""
    keys = ", ".join(groups)
    lead = f"{keys}, " if groups else ""
    rows = con.sql(
        f"""
        WITH c AS (
            SELECT {lead}sum({value})::DOUBLE AS y, count(*)::DOUBLE AS n
            FROM ({source}) src GROUP BY {lead}{cluster}
        )
        SELECT {lead}sum(y), sum(n), sum(y * y), sum(y * n), sum(n * n), count(*)
        FROM c {"GROUP BY " + keys + " ORDER BY " + keys if groups else ""}
        """
    ).fetchall()
    out = []
    for row in rows:
        key = row[: len(groups)]
        total, count, yy, yn, nn, blocks = row[len(groups) :]
        if count is None or count == 0:
            continue
        mean = total / count
        se = ratio_se(total, count, yy, yn, nn, int(blocks))
        low: float | None
        high: float | None
        if share:
            low, high = clustered_share(total, count, se, int(blocks))
        elif student:
            low, high = block_mean_interval(mean, se, int(blocks))
        else:
            low, high = mean - Z95 * se, mean + Z95 * se
        item: dict[str, Any] = dict(zip(groups, key, strict=True))
        item.update(
            n=int(count),
            clusters=int(blocks),
            total=float(total),
            mean=mean,
            se=se,
            low=low,
            high=high,
        )
        out.append(item)
    return out


def clustered_ratios(
    con: duckdb.DuckDBPyConnection,
    source: str,
    groups: list[str],
    ratios: dict[str, tuple[str, str]],
    shares: tuple[str, ...] = (),
    cluster: str = CLUSTER,
) -> list[dict[str, Any]]:
    """Several ratios of sums at once, per group of ``source`` (a FROM clause whose rows
    carry the ``groups`` columns and the ``cluster`` columns): ``ratios`` maps a name to SQL
    expressions (numerator, denominator) summed per cluster, so one scan gives every figure
    of a table. Each row holds the groups, and per name the ratio (None when its
    denominator is 0), ``<name>_sum`` and ``<name>_n`` (the numerator's and the
    denominator's totals), ``<name>_low`` and ``<name>_high`` (95%: a Wilson interval at the
    effective size for ``shares``, else normal), over the clusters as independent units."""
    keys = ", ".join(groups)
    lead = f"{keys}, " if groups else ""
    sums = ", ".join(
        f"sum({num})::DOUBLE AS y{k}, sum({den})::DOUBLE AS d{k}"
        for k, (num, den) in enumerate(ratios.values())
    )
    moments = ", ".join(
        f"sum(y{k}), sum(d{k}), sum(y{k} * y{k}), sum(y{k} * d{k}), sum(d{k} * d{k}), "
        f"count(*) FILTER (WHERE d{k} > 0)"
        for k in range(len(ratios))
    )
    rows = con.sql(
        f"""
        WITH c AS (SELECT {lead}{sums} FROM {source} GROUP BY {lead}{cluster})
        SELECT {lead}{moments}
        FROM c {"GROUP BY " + keys + " ORDER BY " + keys if groups else ""}
        """
    ).fetchall()
    out = []
    for row in rows:
        item: dict[str, Any] = dict(zip(groups, row[: len(groups)], strict=True))
        values = row[len(groups) :]
        for k, name in enumerate(ratios):
            total, count, yy, yd, dd, blocks = values[6 * k : 6 * k + 6]
            item[f"{name}_sum"], item[f"{name}_n"] = total or 0.0, count or 0.0
            if not count:
                item.update({name: None, f"{name}_low": None, f"{name}_high": None})
                continue
            mean = total / count
            se = ratio_se(total, count, yy, yd, dd, int(blocks))
            if name in shares:
                low, high = clustered_share(total, count, se, int(blocks))
            else:
                low, high = mean - Z95 * se, mean + Z95 * se
            item.update({name: mean, f"{name}_low": low, f"{name}_high": high})
        out.append(item)
    return out


def rows_table(rows: list[dict[str, Any]], types: dict[str, pa.DataType]) -> pa.Table:
    """The ``types`` columns of ``rows`` (such as :func:`clustered`'s) as a typed table."""
    return pa.table({k: pa.array([r[k] for r in rows], t) for k, t in types.items()})
