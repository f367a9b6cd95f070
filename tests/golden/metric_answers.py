"""Golden answers of the metric queries: every function that runs DuckDB or Polars over a
run's tables, run over small fixed runs and compared with its stored answer.

The runs are real and deterministic (serial backend, fixed seeds): a few hundred Tobago
games from a pool at every table size on four islands, with a turn cap low enough that some
games are cut off, the same seeds without curses (its twin, for the paired queries), and a
few hundred Treasure Island games with characters. Each answer is a small Parquet file in
``tests/golden/metrics/``, written by ``make goldens``; the tests compare integers and
strings exactly and floats to a relative 1e-9, with the rows in a normalised order, so that a
query rewritten to give the same answer is proven to, and one that does not shows the rows
that differ.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.experiments.simulate import resolve
from pipelines.metrics import game_shape, gaps, paired, rating, win_rate
from pipelines.metrics.source import connect, open_run
from pipelines.tobago import cells, curses, fairness
from pipelines.tobago.report import SCORE_EVENTS as TOBAGO_SCORES
from pipelines.treasure_island import push_luck
from pipelines.treasure_island.report import SCORE_EVENTS as TREASURE_ISLAND_SCORES
from sim.runner.run import run

ANSWERS = Path(__file__).parent / "metrics"
#: Floats agree when within this relative difference (or this absolute one near 0).
REL, ABS = 1e-9, 1e-12

#: The runs, by name: their spec values and a rules file's text (None: the preset).
RUNS: dict[str, tuple[dict[str, Any], str | None]] = {
    "tobago": (
        {
            "game": "tobago",
            "pool": ["hunter", "cartographer", "collector", "cautious"],
            "games": 96,
            "seed": 11,
            "islands": "abc-1,ABC-2,aBc-2,generated:3",
        },
        'preset = "rulebook"\nmax_turns = 36\n',
    ),
    "treasure-island": (
        {
            "game": "treasure-island",
            "pool": ["expected-value", "bust-threshold", "stop-at", "random"],
            "games": 100,
            "seed": 12,
            # The move log, which the game's own queries read.
            "engine": "reference",
        },
        'preset = "characters"\nmax_turns = 22\n',
    ),
}
#: A run and its twin on the same seeds, as ``--twin`` makes them.
TWINS = {"tobago-no-curses": ("tobago", "curses")}


def make_runs(root: Path) -> dict[str, Path]:
    """Play the runs into ``root`` (a few seconds) and return their folders by name."""
    out: dict[str, Path] = {}
    for name, (values, rules) in RUNS.items():
        spec = {**values, "backend": "serial", "shard_size": 100}
        if rules is not None:
            path = root / f"{name}.toml"
            path.write_text(rules)
            spec["rules"] = str(path)
        out[name] = root / name
        run(resolve({**spec, "out": str(out[name])}, {}, "golden"))
        for twin, (base, ablation) in TWINS.items():
            if base == name:
                out[twin] = root / twin
                run(resolve({**spec, "ablate": ablation, "out": str(out[twin])}, {}, "golden"))
    return out


Query = Callable[[duckdb.DuckDBPyConnection], pa.Table]


def _polars_by_strategy(runs: list[Path]) -> pa.Table:
    frames = [pl.scan_parquet(r / "seats" / "*.parquet") for r in runs]
    return win_rate.by_strategy_polars(frames).to_arrow()


def _counts(names: tuple[str, ...], query: Callable[[Any], tuple[int, ...]]) -> Query:
    """A query that returns a tuple of counts, as a one-row table."""

    def table(con: duckdb.DuckDBPyConnection) -> pa.Table:
        values = query(con)
        return pa.table({k: pa.array([v], pa.int64()) for k, v in zip(names, values, strict=True)})

    return table


#: The queries every game's report runs, on one run.
COMMON: dict[str, Query] = {
    "win_rate.by_strategy": win_rate.by_strategy,
    "win_rate.by_seat": win_rate.by_seat,
    "win_rate.by_strategy_seat": win_rate.by_strategy_seat,
    "win_rate.by_opponents": win_rate.by_opponents,
    "win_rate.head_to_head": win_rate.head_to_head,
    "win_rate.game_length": win_rate.game_length,
    "win_rate.notable_games": win_rate.notable_games,
    "gaps.adjacent_gaps": lambda con: gaps.adjacent_gaps(con, win_rate.by_strategy(con)),
    "rating.plackett_luce": rating.plackett_luce,
}
TOBAGO: dict[str, Query] = {
    "cells.heat": cells.heat,
    "cells.start_cells": cells.start_cells,
    "curses.frequency": curses.frequency,
    "curses.by_island": curses.by_island,
    "curses.positions": curses.positions,
    "curses.victims": curses.victims,
    "curses.hit_vs_not_hit": curses.hit_vs_not_hit,
    "curses.amulet_value": curses.amulet_value,
    "fairness.seat_win_shares": fairness.seat_win_shares,
    "fairness.island_summary": fairness.island_summary,
    "fairness.heterogeneity": fairness.heterogeneity,
}
PAIRED: dict[str, Query] = {
    "paired.differences": paired.differences,
    "paired.unpaired_games": _counts(("a", "b"), paired.unpaired_games),
    "paired.left_out_unfinished": _counts(("a", "b", "both"), paired.left_out_unfinished),
    "curses.winner_changed": curses.winner_changed,
}
TREASURE_ISLAND: dict[str, Query] = {
    "push_luck.bust_by_kinds": push_luck.bust_by_kinds,
    "push_luck.turns_by_strategy": push_luck.turns_by_strategy,
    "push_luck.turn_endings": push_luck.turn_endings,
    "push_luck.plunder_sizes": push_luck.plunder_sizes,
    "push_luck.key_chest": push_luck.key_chest,
    "push_luck.power_use": push_luck.power_use,
}


def _per_game_brief(con: duckdb.DuckDBPyConnection, scores: str) -> pa.Table:
    """The per-game measures with the trajectories' last point only (their every point is
    in the trajectory's answer, as means): a fifth of the bytes."""
    kept = [c for c in game_shape.SCHEMA.names if "_at_" not in c or c.endswith("_at_10")]
    return game_shape.per_game(con, scores).select(kept)


#: The game-shape queries, each over the game's score rows (its report part's).
GAME_SHAPE: dict[str, Callable[[duckdb.DuckDBPyConnection, str], pa.Table]] = {
    "game_shape.per_game": _per_game_brief,
    "game_shape.shape_by_size": game_shape.shape_by_size,
    "game_shape.trajectory": game_shape.trajectory,
}


def _over(query: Callable[[duckdb.DuckDBPyConnection, str], pa.Table], scores: str) -> Query:
    return lambda con: query(con, scores)


@dataclass(frozen=True)
class Case:
    """One stored answer: the query, and the runs it reads (by name, A then B)."""

    name: str
    runs: tuple[str, ...]
    query: Query | None = None
    #: For a Polars query: reads the runs' folders instead of a connection.
    polars: Callable[[list[Path]], pa.Table] | None = None

    @property
    def path(self) -> Path:
        return ANSWERS / f"{self.name}.parquet"


def cases() -> list[Case]:
    """Every stored answer, named ``<game>.<module>.<function>``."""
    out: list[Case] = []
    for game, prefix in (("tobago", "tobago"), ("treasure-island", "treasure_island")):
        out += [Case(f"{prefix}.{name}", (game,), q) for name, q in COMMON.items()]
        polars = Case(f"{prefix}.win_rate.by_strategy_polars", (game,), polars=_polars_by_strategy)
        out.append(polars)
    out += [Case(f"tobago.{name}", ("tobago",), q) for name, q in TOBAGO.items()]
    pair = ("tobago", "tobago-no-curses")
    out += [Case(f"tobago.{name}", pair, q) for name, q in PAIRED.items()]
    out += [Case(f"treasure_island.{name}", ("treasure-island",), q)
            for name, q in TREASURE_ISLAND.items()]  # fmt: skip
    for game, prefix, scores in (
        ("tobago", "tobago", TOBAGO_SCORES),
        ("treasure-island", "treasure_island", TREASURE_ISLAND_SCORES),
    ):
        out += [Case(f"{prefix}.{name}", (game,), _over(q, scores))
                for name, q in GAME_SHAPE.items()]  # fmt: skip
    return out


class GoldenRuns:
    """The golden runs' folders, with one connection per set of runs, opened when first
    asked for and shared by every query over that set (as a report shares one)."""

    def __init__(self, folders: dict[str, Path]) -> None:
        self.folders = folders
        self._connections: dict[tuple[str, ...], duckdb.DuckDBPyConnection] = {}

    def answer(self, case: Case) -> pa.Table:
        """The case's answer now."""
        if case.polars is not None:
            return case.polars([self.folders[name] for name in case.runs])
        assert case.query is not None
        con = self._connections.get(case.runs)
        if con is None:
            con = connect([open_run(self.folders[name]) for name in case.runs])
            self._connections[case.runs] = con
        return case.query(con)

    def close(self) -> None:
        for con in self._connections.values():
            con.close()
        self._connections.clear()


def write(case: Case, runs: GoldenRuns) -> Path:
    """Store the case's answer as its golden (rows in the normalised order)."""
    ANSWERS.mkdir(exist_ok=True)
    pq.write_table(normalised(runs.answer(case)), case.path, compression="zstd")
    return case.path


def _sort_key(row: dict[str, Any]) -> tuple[Any, ...]:
    """Rows ordered by every column, floats rounded (so that a last-digit difference does not
    reorder them) and nulls first."""
    key: list[Any] = []
    for value in row.values():
        v = value
        if isinstance(v, float):
            v = None if math.isnan(v) else float(f"{v:.6g}")
        key.append((v is not None, "" if v is None else str(type(v)), v if v is not None else 0))
    return tuple(key)


def normalised(table: pa.Table) -> pa.Table:
    """The table with its dictionary columns decoded and its rows in a fixed order."""
    plain = pa.table(
        {
            name: col.cast(col.type.value_type) if pa.types.is_dictionary(col.type) else col
            for name, col in zip(table.column_names, table.columns, strict=True)
        }
    )
    rows = sorted(plain.to_pylist(), key=_sort_key)
    return pa.Table.from_pylist(rows, schema=plain.schema)


def _same(want: Any, got: Any) -> bool:
    if isinstance(want, float) and isinstance(got, float):
        if math.isnan(want) or math.isnan(got):
            return math.isnan(want) and math.isnan(got)
        return math.isclose(want, got, rel_tol=REL, abs_tol=ABS)
    return bool(want == got) and type(want) is type(got)


def differences(want: pa.Table, got: pa.Table, most: int = 12) -> list[str]:
    """What differs between a stored answer and the answer now, in words (empty: equal)."""
    want, got = normalised(want), normalised(got)
    if not want.schema.equals(got.schema, check_metadata=False):
        return [f"columns differ: stored {want.schema}, now {got.schema}".replace("\n", "; ")]
    if want.num_rows != got.num_rows:
        return [f"{want.num_rows} rows stored, {got.num_rows} now"]
    out = []
    for k, (w, g) in enumerate(zip(want.to_pylist(), got.to_pylist(), strict=True)):
        bad = [c for c in w if not _same(w[c], g[c])]
        if bad:
            # The row is named by its other non-float values (its group).
            key = ", ".join(f"{c}={v!r}" for c, v in w.items()
                            if c not in bad and not isinstance(v, float))  # fmt: skip
            what = ", ".join(f"{c} stored {w[c]!r}, now {g[c]!r}" for c in bad)
            out.append(f"row {k} ({key}): {what}")
    if len(out) > most:
        out = [*out[:most], f"... and {len(out) - most} more rows"]
    return out
