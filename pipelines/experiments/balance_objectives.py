"""What a balance study can optimise: the registry of metrics (:data:`METRICS`), one entry
each, and an objective (a metric with its direction and options, as a study file asks).

Every metric is a function of a rules setting's sums over seed blocks (the columns of
:class:`Blocks`: games, the first seat's wins, turns, games cut off, the game's sweep totals
and each player's wins), so one function gives the estimate over all blocks and each
bootstrap replicate of it over resampled blocks (a row of sums per replicate). Its 95%
interval in the search comes from the sweep's figures of the point
(:func:`pipelines.experiments.sweep.point_row`): a metric maps that row's estimate and
interval to its own. A new metric (a game-shape measure computed per game, say) is one more
entry: its sums, its value from them and its interval from the row.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from sim.errors import InputError

Array = NDArray[np.float64]
#: The fixed columns of the block sums, before the game's totals and the players' wins.
FIXED = ("games", "first", "turns", "cut_off")


@dataclass(frozen=True)
class Blocks:
    """Per seed block sums of one rules setting, as a matrix (a row per block, in block
    order) with the names of its columns."""

    ids: tuple[int, ...]
    columns: tuple[str, ...]
    matrix: Array

    @classmethod
    def of(cls, blocks: Mapping[int, Mapping[str, Any]], totals: Sequence[str]) -> Blocks:
        """From the sweep's block dicts (:func:`pipelines.experiments.sweep.play_chunk`)."""
        ids = tuple(sorted(blocks))
        players = len(next(iter(blocks.values()))["by_player"]) if blocks else 0
        columns = (*FIXED, *(f"total:{t}" for t in totals), *(f"win:{k}" for k in range(players)))
        rows = [
            [
                float(b["games"]),
                b["first"],
                b["turns"],
                float(b["cut_off"]),
                *(float(b["totals"].get(t, 0)) for t in totals),
                *b["by_player"],
            ]
            for b in (blocks[i] for i in ids)
        ]
        return cls(ids, columns, np.array(rows, dtype=np.float64).reshape(len(ids), -1))


class Sums:
    """Column sums, one row per replicate (or a single row): ``sums["turns"]`` is an array."""

    def __init__(self, columns: Sequence[str], values: Array) -> None:
        self.index = {c: k for k, c in enumerate(columns)}
        self.values = np.atleast_2d(values)
        self.players = sum(1 for c in columns if c.startswith("win:"))

    def __getitem__(self, column: str) -> Array:
        return self.values[:, self.index[column]]

    def wins(self) -> Array:
        """Each player's wins (replicates x players)."""
        return self.values[:, [self.index[f"win:{k}"] for k in range(self.players)]]


def _abs_interval(value: float, low: float, high: float) -> tuple[float, float, float]:
    """``|x|`` and its interval from ``x``'s: an interval holding 0 starts at 0."""
    if low <= 0 <= high:
        return abs(value), 0.0, max(-low, high)
    return abs(value), min(abs(low), abs(high)), max(abs(low), abs(high))


@dataclass(frozen=True)
class Objective:
    """A metric to minimise or maximise, with its options (a target, a total's name)."""

    metric: str
    direction: str
    unit: str
    target: float | None = None
    total: str | None = None

    @property
    def name(self) -> str:
        """How tables and JSON name it: the metric, and its total when it has one."""
        return self.metric if self.total is None else f"{self.metric}:{self.total}"

    @property
    def sign(self) -> float:
        """+1 when lower is better, -1 when higher is."""
        return 1.0 if self.direction == "minimize" else -1.0

    def value(self, sums: Sums) -> Array:
        """The objective over each row of ``sums``."""
        return METRICS[self.metric].value(self, sums)

    def from_row(self, row: Mapping[str, Any]) -> tuple[float, float, float]:
        """The estimate and 95% interval from a sweep row of the point."""
        return METRICS[self.metric].from_row(self, row)

    @property
    def label(self) -> str:
        """What it measures in a sentence: "the first seat's advantage", "game length's
        distance from 30 turns"."""
        what = METRICS[self.metric].label
        if self.total is not None:
            what = f"{self.total.replace('_', ' ')} per game"
        if self.target is not None:
            what += f"'s distance from {self.target:g}" + (
                f" {self.unit}" if self.unit not in ("per game", "%") else ""
            )
        return what

    def describe(self) -> str:
        """In words, for the page and the summary."""
        what = METRICS[self.metric].words
        if self.target is not None:
            what += f" (distance from {self.target:g})"
        if self.total is not None:
            what = f"{self.total.replace('_', ' ')} per game"
        return f"{self.direction} {what}, {self.unit}"


@dataclass(frozen=True)
class Metric:
    """A registry entry: what it measures in words, its unit, its value from the sums, its
    interval from a sweep row, and the options a study may give it."""

    words: str
    #: Its short name in a sentence ("the first seat's advantage").
    label: str
    unit: str
    value: Callable[[Objective, Sums], Array]
    from_row: Callable[[Objective, Mapping[str, Any]], tuple[float, float, float]]
    options: tuple[str, ...] = ()
    needs: tuple[str, ...] = field(default=())

    def objective(self, table: Mapping[str, Any], at: str) -> Objective:
        """The ``[[objective]]`` table ``table`` checked (``InputError`` naming ``at``)."""
        allowed = ("metric", "direction", *self.options)
        extra = sorted(set(table) - set(allowed))
        if extra:
            raise InputError(f"{at}: unknown key {extra[0]!r} (allowed: {', '.join(allowed)})")
        direction = table.get("direction", "minimize")
        if direction not in ("minimize", "maximize"):
            raise InputError(f"{at}: direction = {direction!r} is not allowed (minimize, maximize)")
        for key in self.needs:
            if key not in table:
                raise InputError(f"{at}: {key} is missing for metric {table['metric']!r}")
        target = table.get("target")
        if target is not None and (isinstance(target, bool) or not isinstance(target, int | float)):
            raise InputError(f"{at}: target = {target!r} is not allowed (a number)")
        total = table.get("total")
        if total is not None and (not isinstance(total, str) or not total):
            raise InputError(f"{at}: total = {total!r} is not allowed (a game's total's name)")
        return Objective(
            table["metric"],
            direction,
            self.unit,
            None if target is None else float(target),
            total,
        )


def _first_seat(o: Objective, s: Sums) -> Array:
    return 100 * np.abs(s["first"] / s["games"] - 1 / s.players)


def _first_seat_row(o: Objective, row: Mapping[str, Any]) -> tuple[float, float, float]:
    return _abs_interval(
        *(100 * row[k] for k in ("first_seat_advantage", "first_seat_low", "first_seat_high"))
    )


def _length(o: Objective, s: Sums) -> Array:
    mean = s["turns"] / s["games"]
    return mean if o.target is None else np.abs(mean - o.target)


def _length_row(o: Objective, row: Mapping[str, Any]) -> tuple[float, float, float]:
    figures = (row["mean_turns"], row["turns_low"], row["turns_high"])
    if o.target is None:
        return figures
    return _abs_interval(*(x - o.target for x in figures))


def _spread(o: Objective, s: Sums) -> Array:
    wins = s.wins()
    spread: Array = 100 * (wins.max(axis=1) - wins.min(axis=1)) / s["games"]
    return spread


def _spread_row(o: Objective, row: Mapping[str, Any]) -> tuple[float, float, float]:
    value, low, high = (
        100 * float(row[k]) for k in ("strategy_spread", "spread_low", "spread_high")
    )
    return value, low, high


def _cut_off(o: Objective, s: Sums) -> Array:
    return 100 * s["cut_off"] / s["games"]


def _cut_off_row(o: Objective, row: Mapping[str, Any]) -> tuple[float, float, float]:
    from pipelines.stats.core import wilson

    cut = sum(row[k] for k in ("turn_cap", "deadlock", "timeout"))
    low, high = wilson(cut, row["games"])
    return 100 * cut / row["games"], 100 * low, 100 * high


def _total(o: Objective, s: Sums) -> Array:
    mean = s[f"total:{o.total}"] / s["games"]
    return mean if o.target is None else np.abs(mean - o.target)


def _total_row(o: Objective, row: Mapping[str, Any]) -> tuple[float, float, float]:
    value, low, high = (float(row[f"{o.total}_{k}"]) for k in ("per_game", "low", "high"))
    if o.target is None:
        return value, low, high
    return _abs_interval(value - o.target, low - o.target, high - o.target)


#: Every metric a study may name, by name.
METRICS: dict[str, Metric] = {
    "first_seat_advantage": Metric(
        "the first seat's advantage |win share - 1/n|",
        "the first seat's advantage",
        "points",
        _first_seat,
        _first_seat_row,
    ),
    "game_length": Metric("game length", "game length", "turns", _length, _length_row, ("target",)),
    "strategy_spread": Metric(
        "the spread between the best and the worst strategy",
        "the strategy spread",
        "points",
        _spread,
        _spread_row,
    ),
    "cut_off_share": Metric(
        "the share of games cut off (turn cap, deadlock, timeout)",
        "the share of games cut off",
        "%",
        _cut_off,
        _cut_off_row,
    ),
    "game_total": Metric(
        "a count the game keeps per game",
        "a count per game",
        "per game",
        _total,
        _total_row,
        ("target", "total"),
        ("total",),
    ),
}
