"""Means and shares with cluster-robust intervals, computed in DuckDB.

Games of one seed block share their deal (with rotated seating, every player meets it from
every seat), so their outcomes are not independent: an interval that treats seats as
independent draws can be too narrow. Every interval of the reports therefore treats the
block (``run, block``) as the independent unit: DuckDB sums each block, then each group's
block sums into five moments, and :func:`pipelines.stats.ratio_se` turns them into a
standard error. Only those moments leave the database, so this costs one scan whatever the
number of games.
"""

from __future__ import annotations

from typing import Any

import duckdb

from pipelines.stats import Z95, clustered_share, ratio_se

#: The independent unit of every interval: one seed block of one run.
CLUSTER = "run, block"


def clustered(
    con: duckdb.DuckDBPyConnection,
    source: str,
    groups: list[str],
    value: str,
    share: bool = False,
    cluster: str = CLUSTER,
) -> list[dict[str, Any]]:
    """Per group of ``source`` (a SELECT with the ``groups`` columns (plain names), the ``cluster``
    columns and ``value``): ``n`` (rows), ``clusters``, ``total``, ``mean``, ``se`` and a 95%
    interval ``low``/``high`` (a Wilson interval at the effective size if ``share``, else
    normal), ordered by the groups."""
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
        if share:
            low, high = clustered_share(total, count, se, int(blocks))
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
