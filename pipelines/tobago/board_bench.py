"""Benchmark of board setup: island tables from scratch, landmark placement, clue masks.

Measures, per built-in island, the cold path (build every table of the island from its face
data, its spacing table, a landmark placement and all clue masks) and the per-game path on a
cached island (a landmark placement and all clue masks), with ``time.perf_counter``.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from sim.seeding import stream
from sim.tobago.clues import ClueDeck, clue_masks
from sim.tobago.landmarks import place_landmarks
from sim.tobago.modular import build_island, load_faces


def measure_board_setup(names: list[str], deck: ClueDeck, repeat: int) -> dict[str, Any]:
    """Timings in milliseconds over ``repeat`` rounds of every island in ``names``."""
    faces = load_faces()
    cold: list[float] = []
    per_game: list[float] = []
    for round_no in range(repeat):
        for name in names:
            rng = stream(round_no, "landmarks")
            t0 = time.perf_counter()
            island = build_island(name, faces)
            marks = place_landmarks(island, rng)
            clue_masks(island, marks, deck)
            t1 = time.perf_counter()
            marks = place_landmarks(island, rng)
            clue_masks(island, marks, deck)
            t2 = time.perf_counter()
            cold.append((t1 - t0) * 1000)
            per_game.append((t2 - t1) * 1000)

    def summary(xs: list[float]) -> dict[str, float]:
        ordered = sorted(xs)
        return {
            "mean_ms": round(statistics.fmean(xs), 4),
            "median_ms": round(statistics.median(xs), 4),
            "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 4),
            "max_ms": round(ordered[-1], 4),
        }

    return {
        "islands": len(names),
        "rounds": repeat,
        "cold_setup": summary(cold),
        "per_game_setup": summary(per_game),
    }
