"""Ratings of the strategy pool: a Bradley-Terry model fitted by maximum likelihood to the
pairwise results inside games, with bootstrap intervals.

Why Bradley-Terry on pairs: every game ranks its players, and each pair of strategies in a
game gives one comparison (a tie counts half to each), so any mix of 2-4 players feeds one
model; the fit is the classic minorisation-maximisation iteration (Hunter 2004), exact and
dependency-free. Comparisons from one game are not independent, nor are the games of one
seed block (the rotations of one deal), so the intervals come from a bootstrap over chunks of
whole blocks (block modulo ``chunks``), not from the pair counts.
Ratings are on the Elo scale (400 log10 of the strength), centred on the pool's mean.
"""

from __future__ import annotations

import math

import duckdb
import numpy as np
import pyarrow as pa


def _fit(wins: np.ndarray, games: np.ndarray, iterations: int = 200) -> np.ndarray:
    """Strengths from ``wins[i, j]`` (i over j) and ``games[i, j]`` (comparisons)."""
    n = wins.shape[0]
    p = np.ones(n)
    total_wins = wins.sum(axis=1)
    for _ in range(iterations):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(denom > 0, (total_wins + 1e-9) / np.maximum(denom, 1e-300), p)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(new - p)) < 1e-10:
            p = new
            break
        p = new
    return p


def bradley_terry(
    con: duckdb.DuckDBPyConnection, chunks: int = 64, reps: int = 200, seed: int = 0
) -> pa.Table:
    """Per strategy: rating (Elo scale) with a 95% bootstrap interval, and comparisons."""
    rows = con.sql(
        f"""
        SELECT (a.run * {chunks} + a.block % {chunks})::BIGINT AS chunk,
               a.strategy AS a, b.strategy AS b,
               sum(CASE WHEN a.rank < b.rank THEN 1.0 WHEN a.rank = b.rank THEN 0.5
                        ELSE 0.0 END)::DOUBLE AS wins,
               count(*)::DOUBLE AS games
        FROM seat_games a
        JOIN seat_games b ON a.run = b.run AND a.game_id = b.game_id AND a.seat <> b.seat
        WHERE a.strategy <> b.strategy
        GROUP BY 1, 2, 3
        """
    ).fetchall()
    names = sorted({r[1] for r in rows} | {r[2] for r in rows})
    if len(names) < 2:
        return pa.table({"strategy": names, "rating": [0.0] * len(names)})
    index = {name: k for k, name in enumerate(names)}
    chunk_ids = sorted({r[0] for r in rows})
    cpos = {c: k for k, c in enumerate(chunk_ids)}
    wins = np.zeros((len(chunk_ids), len(names), len(names)))
    games = np.zeros_like(wins)
    for chunk, a, b, w, g in rows:
        wins[cpos[chunk], index[a], index[b]] += w
        games[cpos[chunk], index[a], index[b]] += g

    def elo(p: np.ndarray) -> np.ndarray:
        r = 400 * np.log10(p)
        return np.asarray(r - r.mean())

    point = elo(_fit(wins.sum(axis=0), games.sum(axis=0)))
    rng = np.random.default_rng(seed)
    samples = []
    for _ in range(reps):
        pick = rng.integers(0, len(chunk_ids), len(chunk_ids))
        samples.append(elo(_fit(wins[pick].sum(axis=0), games[pick].sum(axis=0))))
    boot = np.array(samples)
    comparisons = games.sum(axis=(0, 2))
    return pa.table(
        {
            "strategy": names,
            "rating": point.tolist(),
            "low": np.percentile(boot, 2.5, axis=0).tolist(),
            "high": np.percentile(boot, 97.5, axis=0).tolist(),
            "comparisons": comparisons.astype(np.int64).tolist(),
        }
    )
