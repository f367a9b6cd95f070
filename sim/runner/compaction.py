"""Merging a finished run's per-shard part files into few large files.

Thousands of small files make DuckDB and Polars scans several times slower, so once every
shard is written each table's parts are merged, in shard order, into at most ``max_files``
files per table named ``part-FIRST-LAST.parquet`` (the shard range they hold), streamed part
by part so that memory stays flat however large the run (one merge per core at a time).

A table is compacted in three steps, so that a crash at any point leaves each shard's rows
recorded exactly once: the merged files are written (atomically, unrecorded: a crash here
leaves extra files that a resume deletes); ``commit`` records them in the manifest in place
of the parts they hold; only then are those parts deleted (a crash here leaves unrecorded
parts, deleted on resume). See :func:`sim.runner.parts.plan_resume`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyarrow.parquet as pq

from sim.runner.parts import PartRecord, file_sha256, part_name

#: Called with the records after a table's merged files are written, before any part is
#: deleted; it must make them durable (write the manifest).
Commit = Callable[[dict[str, list[PartRecord]]], None]


def compact(
    run_dir: Path, records: dict[str, list[PartRecord]], commit: Commit, max_files: int = 16
) -> dict[str, list[PartRecord]]:
    """Merge each table's single-shard parts into at most ``max_files`` files (contiguous
    shard ranges); return the records afterwards (``records`` is not changed)."""
    current = {table: list(rs) for table, rs in records.items()}
    for table in sorted(current):
        singles = sorted((r for r in current[table] if r.first == r.last), key=lambda r: r.first)
        if len(singles) < 2:
            continue
        size = -(-len(singles) // max_files)
        groups: list[list[PartRecord]] = []
        group: list[PartRecord] = []
        for r in singles:
            if group and (r.first != group[-1].first + 1 or len(group) == size):
                groups.append(group)
                group = []
            group.append(r)
        groups.append(group)
        groups = [g for g in groups if len(g) > 1]
        if not groups:
            continue
        # Each merge writes its own file from its own parts, so they run side by side:
        # reading and writing Parquet release the GIL. The files are the same in any order.
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            merged = list(pool.map(_merge, [run_dir] * len(groups), [table] * len(groups), groups))
        replaced = {r.file for g in groups for r in g}
        current[table] = sorted(
            [r for r in current[table] if r.file not in replaced] + merged, key=lambda r: r.first
        )
        commit({t: list(rs) for t, rs in current.items()})
        for g in groups:
            for r in g:
                r.path(run_dir).unlink(missing_ok=True)
    return current


def _merge(run_dir: Path, table: str, group: list[PartRecord]) -> PartRecord:
    """Stream a contiguous run of single-shard parts into one file; return its record."""
    first, last = group[0].first, group[-1].last
    final = run_dir / table / part_name(first, last)
    tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
    schema = pq.read_schema(group[0].path(run_dir))
    with pq.ParquetWriter(tmp, schema, compression="zstd", use_dictionary=True) as writer:
        for r in group:
            writer.write_table(pq.read_table(r.path(run_dir)))
    os.replace(tmp, final)
    rows = sum(r.rows for r in group)
    return PartRecord(
        table, final.name, first, last, rows, final.stat().st_size, file_sha256(final)
    )
