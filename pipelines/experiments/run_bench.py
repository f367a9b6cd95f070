"""Benchmark of the runner: one serial worker against Ray with two workers on the same games,
the share of time spent building and writing the logs, Parquet bytes per million move rows,
and peak worker memory. Ray's start-up (a few seconds, paid once per run) is reported apart
and the speedup given with and without it. Every run goes to a fresh temporary directory."""

from __future__ import annotations

import dataclasses
import tempfile
import time
from pathlib import Path
from typing import Any

from sim.runner.run import RunConfig, read_manifest, run
from sim.storage.parts import records_from_manifest
from sim.storage.store import LocalStore, RunStore


def _moves_bytes_per_million(run_dir: RunStore) -> float:
    manifest = read_manifest(run_dir) or {}
    moves = records_from_manifest(manifest, ("moves",), str(run_dir))["moves"]
    size = sum(r.bytes for r in moves)
    rows = sum(r.rows for r in moves)  # the manifest records both (checked by tourney verify)
    return size / rows * 1_000_000 / 2**20 if rows else 0.0


def bench_runner(base: RunConfig, workers: int) -> dict[str, Any]:
    """Run ``base`` serially and on Ray with ``workers`` workers; return the figures."""
    out: dict[str, Any] = {"games": base.games, "shard_size": base.shard_size}
    with tempfile.TemporaryDirectory(prefix="tourney-bench-") as tmp:
        figures = {}
        for name, backend, n in (("serial", "serial", 1), ("ray", "ray", workers)):
            config = dataclasses.replace(
                base, run_dir=LocalStore(Path(tmp) / name), backend=backend, workers=n
            )
            start = time.perf_counter()
            report = run(config)
            seconds = time.perf_counter() - start
            play = sum(s.play_seconds for s in report.summaries)
            log = sum(s.log_seconds + s.write_seconds for s in report.summaries)
            figures[name] = {
                "workers": n,
                "seconds": round(seconds, 2),
                "startup_seconds": round(report.startup_seconds, 2),
                "games_per_s": round(base.games / seconds, 1),
                "log_share_of_engine": round(log / play, 3) if play else 0.0,
                "peak_worker_rss_mb": round(max(s.peak_rss_mb for s in report.summaries), 1),
            }
            if name == "serial":
                out["moves_mib_per_million_rows"] = round(
                    _moves_bytes_per_million(config.run_dir), 2
                )
        out.update(figures)
    serial, ray = out["serial"], out["ray"]
    out["ray_speedup"] = round(serial["seconds"] / ray["seconds"], 2)
    # Throughput once Ray is up: what a long run sees, where start-up is a fixed cost.
    out["ray_speedup_after_startup"] = round(
        serial["seconds"] / (ray["seconds"] - ray["startup_seconds"]), 2
    )
    return out
