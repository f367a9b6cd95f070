"""Ratings of the strategy pool: a Plackett-Luce model of each game's finishing order, fitted
by maximum likelihood over every table size at once, with bootstrap intervals.

Why Plackett-Luce: a game of n players is a ranking, and the model reads it as n - 1 choices
(the winner out of all, the second out of the rest, …) by strength, so 2-, 3- and 4-player
games feed one pooled rating without breaking them into pairs. Tied players are chosen
together (Breslow's treatment of ties). The fit is the minorisation-maximisation iteration
of Hunter (2004), exact and dependency-free; a virtual player of strength 1 that each
strategy beats once and loses to once keeps a strategy that never wins finite. Games of one
seed block share their deal, so the intervals come from a bootstrap over chunks of whole
blocks (block modulo ``chunks``). Ratings are on the Elo scale (400 log10 of the strength),
centred on the pool's mean.

The games are reduced in DuckDB to counts of finishing patterns per chunk (a handful of
patterns, whatever the number of games), so the fit costs the same for a million games.
"""

from __future__ import annotations

import math

import duckdb
import numpy as np
import pyarrow as pa

#: A finishing pattern: rank levels from first to last, each the strategies tied there.
Pattern = tuple[tuple[str, ...], ...]
#: Strategy codes in a pattern are below this (ranks are multiplied by it).
_SPAN = 4096


def _patterns(con: duckdb.DuckDBPyConnection, chunks: int) -> list[tuple[int, Pattern, int, int]]:
    """``(chunk, pattern, players, games)`` of the finished games."""
    # A game's finishing order is the sorted list of rank * _SPAN + strategy code: grouping
    # a million games on small integer lists costs a fraction of building and grouping
    # strings. Codes follow the names' order, so ties list their strategies by name.
    rows = con.sql(
        f"""
        WITH codes AS (
            SELECT strategy, (row_number() OVER (ORDER BY strategy) - 1)::INTEGER AS code
            FROM (SELECT DISTINCT strategy FROM seat_games)),
        games AS (
            SELECT (run * {chunks} + any_value(block) % {chunks})::BIGINT AS chunk,
                   any_value(n_players) AS n,
                   list(rank::INTEGER * {_SPAN} + code ORDER BY rank, code) AS pattern
            FROM seat_games JOIN codes USING (strategy) GROUP BY run, game_id)
        SELECT chunk, pattern, n, count(*)::BIGINT FROM games GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        """
    ).fetchall()
    names = [
        r[0] for r in con.sql("SELECT DISTINCT strategy FROM seat_games ORDER BY 1").fetchall()
    ]
    if len(names) >= _SPAN:
        raise ValueError(f"at most {_SPAN - 1} strategies can be rated together, not {len(names)}")
    return [(int(c), _decode(p, names), int(n), int(k)) for c, p, n, k in rows]


def _decode(codes: list[int], names: list[str]) -> Pattern:
    """The finishing levels of a game from its sorted ``rank * _SPAN + code`` list."""
    levels: dict[int, list[str]] = {}
    for value in codes:
        levels.setdefault(value // _SPAN, []).append(names[value % _SPAN])
    return tuple(tuple(levels[rank]) for rank in sorted(levels))


def _stages(patterns: list[Pattern], index: dict[str, int], n: int) -> tuple[np.ndarray, ...]:
    """The choice stages of all patterns as matrices over the n strategies and the virtual
    player (column n): how many of each strategy are chosen at a stage (a strategy may be
    seated twice), which are still in the running, and the pattern each stage belongs to."""
    chosen: list[np.ndarray] = []
    among: list[np.ndarray] = []
    owner: list[int] = []
    for k, pattern in enumerate(patterns):
        remaining = [index[name] for level in pattern for name in level]
        for level in pattern:
            if len(remaining) < 2:
                break
            picked = np.zeros(n + 1)
            pool = np.zeros(n + 1)
            for name in level:
                picked[index[name]] += 1
                remaining.remove(index[name])
            for j in remaining:
                pool[j] += 1
            chosen.append(picked)
            among.append(pool + picked)
            owner.append(k)
    return np.array(chosen), np.array(among), np.array(owner, dtype=np.int64)


def fit(
    counts: np.ndarray,
    chosen: np.ndarray,
    among: np.ndarray,
    owner: np.ndarray,
    prior: float = 1.0,
    iterations: int = 2000,
) -> np.ndarray:
    """Strengths of the strategies from pattern ``counts`` (the stages of :func:`_stages`;
    the virtual player is the last column, fixed at strength 1, and each strategy beats it
    ``prior`` times and loses to it as often; 0 gives the plain maximum likelihood)."""
    n = chosen.shape[1] - 1
    weights = counts[owner]  # each stage weighs as many games as its pattern
    wins = chosen.T @ weights
    wins[:n] += prior
    wins[n] += prior * n
    size = chosen.sum(axis=1)
    w = np.ones(n + 1)
    for _ in range(iterations):
        coef = weights * size / (among @ w)
        denom = among.T @ coef
        pair = 2.0 * prior / (w[:n] + w[n])  # the virtual games of each strategy
        denom[:n] += pair
        denom[n] += pair.sum()
        new = wins / np.maximum(denom, 1e-300)
        if prior > 0:
            new /= new[n]  # the scale is the virtual player's
        else:
            new[:n] /= math.exp(float(np.log(new[:n]).mean()))
            new[n] = 1.0
        done = np.max(np.abs(np.log(new[:n] / w[:n]))) < 1e-10
        w = new
        if done:
            break
    return np.asarray(w[:n])


def plackett_luce(
    con: duckdb.DuckDBPyConnection, chunks: int = 64, reps: int = 200, seed: int = 0
) -> pa.Table:
    """Per strategy: rating (Elo scale, pool mean 0) with a 95% bootstrap interval, and the
    games it played (every table size)."""
    rows = _patterns(con, chunks)
    names = sorted({name for _, p, _, _ in rows for level in p for name in level})
    if len(names) < 2:
        return pa.table(
            {
                "strategy": pa.array(names, pa.string()),
                "rating": pa.array([0.0] * len(names), pa.float64()),
                "low": pa.array([0.0] * len(names), pa.float64()),
                "high": pa.array([0.0] * len(names), pa.float64()),
                "games": pa.array([0] * len(names), pa.int64()),
            }
        )
    index = {name: k for k, name in enumerate(names)}
    patterns = sorted({p for _, p, _, _ in rows})
    pos = {p: k for k, p in enumerate(patterns)}
    chunk_ids = sorted({c for c, _, _, _ in rows})
    cpos = {c: k for k, c in enumerate(chunk_ids)}
    counts = np.zeros((len(chunk_ids), len(patterns)))
    for chunk, pattern, _, games in rows:
        counts[cpos[chunk], pos[pattern]] += games
    chosen, among, owner = _stages(patterns, index, len(names))

    def elo(w: np.ndarray) -> np.ndarray:
        r = 400 * np.log10(w)
        return np.asarray(r - r.mean())

    point = elo(fit(counts.sum(axis=0), chosen, among, owner))
    rng = np.random.default_rng(seed)
    boot = np.array(
        [
            elo(
                fit(
                    counts[rng.integers(0, len(chunk_ids), len(chunk_ids))].sum(axis=0),
                    chosen,
                    among,
                    owner,
                )
            )
            for _ in range(reps)
        ]
    )
    played = np.zeros(len(names), dtype=np.int64)
    total = counts.sum(axis=0)
    for pattern, k in pos.items():
        for level in pattern:
            for name in level:
                played[index[name]] += int(total[k])
    # Strongest first, as a reader scans a ranking; ties by name keep the order stable.
    order = sorted(range(len(names)), key=lambda i: (-float(point[i]), names[i]))
    low = np.percentile(boot, 2.5, axis=0)
    high = np.percentile(boot, 97.5, axis=0)
    return pa.table(
        {
            "strategy": pa.array([names[i] for i in order], pa.string()),
            "rating": pa.array([float(point[i]) for i in order], pa.float64()),
            "low": pa.array([float(low[i]) for i in order], pa.float64()),
            "high": pa.array([float(high[i]) for i in order], pa.float64()),
            "games": pa.array([int(played[i]) for i in order], pa.int64()),
        }
    )
