"""Merging a finished run's per-shard part files into few large files.

Thousands of small files make DuckDB and Polars scans several times slower, so once every
shard is written each table's parts are merged, in shard order, into at most ``max_files``
files per table named ``part-FIRST-LAST.parquet`` (the shard range they hold), streamed part
by part so that memory stays flat however large the run (one merge per core at a time). A merged
file is written atomically before the parts it replaces are deleted; if a crash comes in
between, :func:`drop_covered_parts` (run whenever a run directory is reopened) deletes the
parts a merged file already covers, so no row is ever read twice after a resume.
"""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyarrow.parquet as pq

_SINGLE = re.compile(r"^part-(\d{6})\.parquet$")
_RANGE = re.compile(r"^part-(\d{6})-(\d{6})\.parquet$")


def shard_range(path: Path) -> tuple[int, int] | None:
    """``(first, last)`` shard of a part file name, or None for other files."""
    if m := _SINGLE.match(path.name):
        k = int(m.group(1))
        return (k, k)
    if m := _RANGE.match(path.name):
        return (int(m.group(1)), int(m.group(2)))
    return None


def shards_written(run_dir: Path) -> set[int]:
    """Shards whose ``games`` rows are on disk, in single or merged files."""
    done: set[int] = set()
    for path in (run_dir / "games").glob("part-*.parquet"):
        span = shard_range(path)
        if span is not None:
            done.update(range(span[0], span[1] + 1))
    return done


def table_names(run_dir: Path) -> list[str]:
    """The tables of a run: its sub-directories (one per table, whatever the game)."""
    return sorted(p.name for p in run_dir.iterdir() if p.is_dir()) if run_dir.is_dir() else []


def drop_covered_parts(run_dir: Path) -> int:
    """Delete single-shard parts that a merged file of the same table already holds."""
    removed = 0
    for table in table_names(run_dir):
        folder = run_dir / table
        merged = [
            span for p in folder.glob("part-*-*.parquet") if (span := shard_range(p)) is not None
        ]
        for path in folder.glob("part-*.parquet"):
            span = shard_range(path)
            if span is None or span[0] != span[1]:
                continue
            if any(lo <= span[0] <= hi for lo, hi in merged):
                path.unlink()
                removed += 1
    return removed


def compact(run_dir: Path, max_files: int = 16) -> dict[str, int]:
    """Merge each table's single-shard parts into at most ``max_files`` files (contiguous
    shard ranges); return the number of files per table afterwards."""
    merges: list[tuple[Path, list[tuple[int, Path]]]] = []
    for table in table_names(run_dir):
        folder = run_dir / table
        singles = sorted(
            (span[0], p)
            for p in folder.glob("part-*.parquet")
            if (span := shard_range(p)) is not None and span[0] == span[1]
        )
        if len(singles) > 1:
            size = -(-len(singles) // max_files)
            run: list[tuple[int, Path]] = []
            for item in singles:
                if run and (item[0] != run[-1][0] + 1 or len(run) == size):
                    merges.append((folder, run))
                    run = []
                run.append(item)
            merges.append((folder, run))
    # Each merge writes its own file from its own parts, so they run side by side: reading
    # and writing Parquet release the GIL. The files are the same in any order.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for done in [pool.submit(_merge, folder, run) for folder, run in merges]:
            done.result()
    return {
        table: len(list((run_dir / table).glob("part-*.parquet"))) for table in table_names(run_dir)
    }


def _merge(folder: Path, run: list[tuple[int, Path]]) -> None:
    """Stream a contiguous run of single-shard parts into one file, then drop them."""
    if len(run) < 2:
        return
    first, last = run[0][0], run[-1][0]
    final = folder / f"part-{first:06d}-{last:06d}.parquet"
    tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
    schema = pq.read_schema(run[0][1])
    with pq.ParquetWriter(tmp, schema, compression="zstd", use_dictionary=True) as writer:
        for _, path in run:
            writer.write_table(pq.read_table(path))
    os.replace(tmp, final)
    for _, path in run:
        path.unlink()
