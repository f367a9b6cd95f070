"""Merging a finished run's per-shard part files into few large files.

Thousands of small files make DuckDB and Polars scans several times slower, so once every
shard is written each table's parts are merged, in shard order, into at most ``max_files``
files per table named ``part-FIRST-LAST.parquet`` (the shard range they hold), streamed part
by part so that memory stays flat however large the run (one merge per core at a time).

A table is compacted in three steps, so that a crash at any point leaves each shard's rows
recorded exactly once: the merged files are written (atomically, unrecorded: a crash here
leaves extra files that a resume deletes); ``commit`` records them in the manifest in place
of the parts they hold; only then are those parts deleted (a crash here leaves unrecorded
parts, deleted on resume). See :func:`sim.storage.parts.plan_resume`.

In an object store the same steps hold: a merged file is written to a local temporary file
first and uploaded whole once complete (an object appears whole or not at all), so merging
costs one download and one upload of the run.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyarrow.parquet as pq

from sim.storage.locations import open_store
from sim.storage.parts import PartRecord, part_name
from sim.storage.store import HashingWriter, RunStore

#: Called with the records after a table's merged files are written, before any part is
#: deleted; it must make them durable (write the manifest).
Commit = Callable[[dict[str, list[PartRecord]]], None]


def compact(
    run: Path | RunStore,
    records: dict[str, list[PartRecord]],
    commit: Commit,
    max_files: int = 16,
    spans: Sequence[range] | None = None,
) -> dict[str, list[PartRecord]]:
    """Merge each table's single-shard parts into at most ``max_files`` files (contiguous
    shard ranges) per span of shards in ``spans`` (default: one span of every shard); return
    the records afterwards (``records`` is not changed). A part outside every span is left
    as it is, and no merged file crosses from one span into another: a grown run compacts
    only its new extent, so the parts of the games it had are never rewritten."""
    store = open_store(run)
    current = {table: list(rs) for table, rs in records.items()}
    for table in sorted(current):
        singles = sorted((r for r in current[table] if r.first == r.last), key=lambda r: r.first)
        groups: list[list[PartRecord]] = []
        for span in [range(0, 1 << 62)] if spans is None else spans:
            groups += _groups([r for r in singles if r.first in span], max_files)
        if not groups:
            continue
        # Each merge writes its own file from its own parts, so they run side by side:
        # reading and writing Parquet release the GIL. The files are the same in any order.
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            merged = list(pool.map(_merge, [store] * len(groups), [table] * len(groups), groups))
        replaced = {r.file for g in groups for r in g}
        current[table] = sorted(
            [r for r in current[table] if r.file not in replaced] + merged, key=lambda r: r.first
        )
        commit({t: list(rs) for t, rs in current.items()})
        store.delete_many([r.rel for g in groups for r in g])
    return current


def _groups(singles: list[PartRecord], max_files: int) -> list[list[PartRecord]]:
    """Runs of consecutive single-shard parts (sorted) to merge, at most ``max_files`` of
    them; groups of one are left alone."""
    if len(singles) < 2:
        return []
    size = -(-len(singles) // max_files)
    groups: list[list[PartRecord]] = []
    group: list[PartRecord] = []
    for r in singles:
        if group and (r.first != group[-1].first + 1 or len(group) == size):
            groups.append(group)
            group = []
        group.append(r)
    groups.append(group)
    return [g for g in groups if len(g) > 1]


def _merge(store: RunStore, table: str, group: list[PartRecord]) -> PartRecord:
    """Stream a contiguous run of single-shard parts into one file; return its record (its
    size and hash taken from the bytes as they were written)."""
    first, last = group[0].first, group[-1].last
    name = part_name(first, last)
    rel = f"{table}/{name}"
    tmp = store.staging(rel)
    try:
        with open(tmp, "wb") as out:
            sink = HashingWriter(out)
            writer: pq.ParquetWriter | None = None
            try:
                for r in group:  # each part read once (in a store, one request)
                    with store.open_input(r.rel) as f:
                        part = pq.read_table(f)
                    if writer is None:  # the first part's schema, as every part's
                        writer = pq.ParquetWriter(
                            sink, part.schema, compression="zstd", use_dictionary=True
                        )
                    writer.write_table(part)
            finally:
                if writer is not None:
                    writer.close()
        store.upload(tmp, rel)
    finally:
        tmp.unlink(missing_ok=True)
    rows = sum(r.rows for r in group)
    return PartRecord(table, name, first, last, rows, sink.size, sink.digest.hexdigest())
