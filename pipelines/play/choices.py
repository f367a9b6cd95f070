"""Choices per decision (the branching factor), from games of a run played again.

The move log records the answers, not the legal answers they were chosen from, so the count
is made by replaying a fixed sample of a run's games exactly
(:func:`pipelines.play.replay.replay_game`, which checks every replayed row against the
logged one) with the engine's referee seen through
:class:`pipelines.play.counting.CountingReferee`, which counts every question the engine asks
a seat with its number of legal answers (what a choice is: that module).

The sample is deterministic: per table size, up to :data:`SAMPLE` finished games spread evenly
over the cohort's games in game-id order, so a report is a function of its runs. The mean is
the ratio of all choices to all decisions, with a 95% interval over seed blocks (the ratio
estimator of :mod:`pipelines.metrics.clustered`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import duckdb
import pyarrow as pa

from pipelines.metrics.source import RunInfo
from pipelines.play.counting import CountingReferee, Tally
from pipelines.play.replay import replay_game
from pipelines.stats.core import Z95, ratio_se
from sim.errors import RunError

#: Games replayed per table size and set of pooled runs.
SAMPLE = 40


def count_game(run: RunInfo, game_id: int, con: duckdb.DuckDBPyConnection | None = None) -> Tally:
    """Play game ``game_id`` of ``run`` again (checked against its move log, read on ``con``
    when given) and count its decisions and their legal answers. ``RunError`` when it no
    longer replays as logged."""
    tally = Tally()

    def observe(built: Any) -> None:
        built.referee = CountingReferee(built.referee, tally)

    replay_game(run, game_id, observe, con)
    return tally


def sample(con: duckdb.DuckDBPyConnection, size: int = SAMPLE) -> list[tuple[int, int, int, int]]:
    """Per table size, up to ``size`` finished games spread evenly in game-id order:
    ``(n_players, run, block, game_id)`` rows."""
    rows = con.sql(
        f"""
        SELECT n_players, run, block, game_id FROM (
            SELECT n_players, run, block, game_id,
                row_number() OVER (PARTITION BY n_players ORDER BY run, game_id) - 1 AS i,
                greatest(1, count(*) OVER (PARTITION BY n_players) // {size}) AS step
            FROM games)
        WHERE i % step = 0 AND i // step < {size}
        ORDER BY n_players, run, game_id"""
    ).fetchall()
    return [(int(n), int(r), int(b), int(g)) for n, r, b, g in rows]


CHOICE_TYPES: dict[str, pa.DataType] = {
    "n_players": pa.int32(),
    "games": pa.int64(),
    "blocks": pa.int64(),
    "decisions": pa.int64(),
    "choices": pa.int64(),
    "mean": pa.float64(),
    "low": pa.float64(),
    "high": pa.float64(),
}


def _summary(n: int, games: list[tuple[tuple[int, int], Tally]]) -> dict[str, Any]:
    """One table size's ratio of choices to decisions over its replayed games, with its
    interval over seed blocks."""
    blocks: dict[tuple[int, int], Tally] = {}
    for key, tally in games:
        block = blocks.setdefault(key, Tally())
        block.decisions += tally.decisions
        block.choices += tally.choices
    y = [float(b.choices) for b in blocks.values()]
    d = [float(b.decisions) for b in blocks.values()]
    total, count = sum(y), sum(d)
    mean = total / count if count else None
    low = high = None
    if mean is not None and len(blocks) > 1:
        se = ratio_se(total, count, sum(a * a for a in y),
                      sum(a * b for a, b in zip(y, d, strict=True)), sum(b * b for b in d),
                      len(blocks))  # fmt: skip
        low, high = mean - Z95 * se, mean + Z95 * se
    return {"n_players": n, "games": len(games), "blocks": len(blocks),
            "decisions": int(count), "choices": int(total), "mean": mean, "low": low,
            "high": high}  # fmt: skip


def choices_per_decision(
    con: duckdb.DuckDBPyConnection, runs: Sequence[RunInfo], size: int = SAMPLE
) -> tuple[pa.Table, str | None]:
    """Per table size of the connection's runs (``runs`` in its order): the replayed games,
    their seed blocks, decisions and choices, and the mean choices per decision with its 95%
    interval; and, when a game no longer replays as logged, why (the table is then empty)."""
    by_size: dict[int, list[tuple[tuple[int, int], Tally]]] = {}
    try:
        for n, run, block, game_id in sample(con, size):
            tally = count_game(runs[run], game_id, con)
            by_size.setdefault(n, []).append(((run, block), tally))
    except RunError as exc:
        return pa.table({k: pa.array([], t) for k, t in CHOICE_TYPES.items()}), str(exc)
    rows = [_summary(n, games) for n, games in sorted(by_size.items())]
    return pa.table({k: pa.array([r[k] for r in rows], t) for k, t in CHOICE_TYPES.items()}), None
