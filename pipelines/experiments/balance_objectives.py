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

A pool's study (every combination of its members at each table size) measures each objective
at each table size apart: its blocks' sums go into columns per table size (``3:turns``), a
block filling only its own size's, and an objective with a ``size`` reads that size's columns
(:meth:`Sums.at`), its first seat's fair share ``1/size`` and each member's win share over the
games it sat in (``seat:k``). Its interval in the search is a bootstrap over the blocks
(:func:`search_figures`), as the confirmation's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pipelines.play.outcomes import CHOICE_TOTALS
from sim.errors import InputError

Array = NDArray[np.float64]
#: The fixed columns of the block sums, before the game's totals and the players' wins.
FIXED = ("games", "first", "turns", "cut_off")
#: The unit of a measure counted in the game's score, replaced by the game's own on load.
SCORE = "score"
#: Bootstrap replicates of a pool candidate's blocks in the search (as the sweep's spread).
SEARCH_RESAMPLES = 400


@dataclass(frozen=True)
class Blocks:
    """Per seed block sums of one rules setting, as a matrix (a row per block, in block
    order) with the names of its columns."""

    ids: tuple[int, ...]
    columns: tuple[str, ...]
    matrix: Array
    #: A pool's table size of each block (empty for a fixed lineup): the bootstrap's strata.
    sizes: tuple[int, ...] = ()

    @property
    def games(self) -> int:
        """The games of every block."""
        keep = [
            k
            for k, c in enumerate(self.columns)
            if c == "games" or (c.endswith(":games") and c.count(":") == 1)
        ]
        return int(self.matrix[:, keep].sum())

    def weights(self, rng: np.random.Generator, resamples: int) -> NDArray[np.float32]:
        """Bootstrap weights of the blocks (replicates x blocks): the blocks resampled with
        replacement, a pool's within each table size (its design holds the blocks of each
        size fixed, and a replicate without a size would have no figure there)."""
        k = len(self.ids)
        if not self.sizes:
            return rng.multinomial(k, [1.0 / k] * k, size=resamples).astype(np.float32)
        out = np.zeros((resamples, k), dtype=np.float32)
        for size in sorted(set(self.sizes)):
            at = [i for i, s in enumerate(self.sizes) if s == size]
            out[:, at] = rng.multinomial(len(at), [1.0 / len(at)] * len(at), size=resamples)
        return out

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

    @classmethod
    def of_pool(
        cls, blocks: Mapping[int, Mapping[str, Any]], totals: Sequence[str], members: int
    ) -> Blocks:
        """A pool's blocks (each with its ``size`` and ``seated``), the columns of every table
        size side by side (``{size}:{column}``, each member's ``win:k`` and ``seat:k``); a
        block's row is zero outside its own size's columns."""
        ids = tuple(sorted(blocks))
        sizes = sorted({int(b["size"]) for b in blocks.values()})
        own = (
            *FIXED,
            *(f"total:{t}" for t in totals),
            *(f"win:{k}" for k in range(members)),
            *(f"seat:{k}" for k in range(members)),
        )
        columns = tuple(f"{s}:{c}" for s in sizes for c in own)
        matrix = np.zeros((len(ids), len(columns)), dtype=np.float64)
        for row, i in enumerate(ids):
            b = blocks[i]
            at = sizes.index(int(b["size"])) * len(own)
            values = [
                float(b["games"]),
                b["first"],
                b["turns"],
                float(b["cut_off"]),
                *(float(b["totals"].get(t, 0)) for t in totals),
                *b["by_player"],
                *(float(x) for x in b["seated"]),
            ]
            matrix[row, at : at + len(own)] = values
        return cls(ids, columns, matrix, tuple(int(blocks[i]["size"]) for i in ids))


class Sums:
    """Column sums, one row per replicate (or a single row): ``sums["turns"]`` is an array."""

    def __init__(self, columns: Sequence[str], values: Array, players: int | None = None) -> None:
        self.columns = tuple(columns)
        self.index = {c: k for k, c in enumerate(columns)}
        self.values = np.atleast_2d(values)
        #: The players at the table (a fixed lineup's: every player).
        self.players = players or sum(1 for c in columns if c.startswith("win:"))
        self.members = sum(1 for c in columns if c.startswith("win:"))

    def __getitem__(self, column: str) -> Array:
        return self.values[:, self.index[column]]

    def at(self, size: int) -> Sums:
        """A pool's sums at table size ``size`` (its ``{size}:`` columns, unprefixed)."""
        prefix = f"{size}:"
        keep = [k for k, c in enumerate(self.columns) if c.startswith(prefix)]
        if not keep:
            raise ValueError(f"no games at {size} players")
        names = [self.columns[k].removeprefix(prefix) for k in keep]
        return Sums(names, self.values[:, keep], size)

    def wins(self) -> Array:
        """Each player's wins (replicates x players)."""
        return self.values[:, [self.index[f"win:{k}"] for k in range(self.members)]]

    def shares(self) -> Array:
        """Each player's win share (replicates x players): over the games it sat in for a
        pool's member, over every game for a fixed lineup's player."""
        if f"seat:{0}" not in self.index:
            shares: Array = self.wins() / self["games"][:, None]
            return shares
        seated = self.values[:, [self.index[f"seat:{k}"] for k in range(self.members)]]
        return self.wins() / np.maximum(seated, 1.0)


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
    #: A pool's table size this objective is measured at (None: a fixed lineup's).
    size: int | None = None
    #: The tenth of the game it is read after (a trajectory measure's; None for others).
    at: int | None = None

    @property
    def name(self) -> str:
        """How tables and JSON name it: the metric, its total when it has one, a pool's
        table size (``first_seat_advantage at 3 players``)."""
        name = self.metric if self.total is None else f"{self.metric}:{self.total}"
        if self.at is not None:
            name = f"{self.metric}:{self.at}"
        return name if self.size is None else f"{name} at {self.size} players"

    @property
    def sign(self) -> float:
        """+1 when lower is better, -1 when higher is."""
        return 1.0 if self.direction == "minimize" else -1.0

    def value(self, sums: Sums) -> Array:
        """The objective over each row of ``sums`` (a pool's: at its table size)."""
        return METRICS[self.metric].value(self, sums if self.size is None else sums.at(self.size))

    def from_row(self, row: Mapping[str, Any]) -> tuple[float, float, float]:
        """The estimate and 95% interval from a sweep row of the point."""
        read = METRICS[self.metric].from_row
        if read is None:
            raise ValueError(f"{self.metric}: not in a sweep row (a bootstrap over blocks)")
        return read(self, row)

    @property
    def shape(self) -> bool:
        """Whether it is a game-shape measure (read from the move log)."""
        return METRICS[self.metric].columns == SHAPE

    @property
    def counts_choices(self) -> bool:
        """Whether it reads the choices each game's referee counted."""
        return METRICS[self.metric].columns == CHOICE_TOTALS

    @property
    def bootstrapped(self) -> bool:
        """Whether its figures come from a bootstrap over the blocks (a measure the sweep's
        rows do not report) rather than from the sweep's row."""
        return METRICS[self.metric].from_row is None

    @property
    def label(self) -> str:
        """What it measures in a sentence: "the first seat's advantage", "game length's
        distance from 30 turns"."""
        what = METRICS[self.metric].label
        if self.total is not None:
            what = f"{self.total.replace('_', ' ')} per game"
        if self.at is not None:
            what += f" after {self.at}/10 of the game"
        if self.target is not None:
            what += f"'s distance from {self.target:g}" + (
                f" {self.unit}" if self.unit not in ("per game", "%") else ""
            )
        return what if self.size is None else f"{what} at {self.size} players"

    def describe(self) -> str:
        """In words, for the page and the summary."""
        what = METRICS[self.metric].words
        if self.target is not None:
            what += f" (distance from {self.target:g})"
        if self.total is not None:
            what = f"{self.total.replace('_', ' ')} per game"
        if self.at is not None:
            what += f", after {self.at}/10 of the game"
        at = "" if self.size is None else f" at {self.size} players"
        return f"{self.direction} {what}{at}, {self.unit}"


@dataclass(frozen=True)
class Metric:
    """A registry entry: what it measures in words, its unit, its value from the sums, its
    interval from a sweep row, and the options a study may give it."""

    words: str
    #: Its short name in a sentence ("the first seat's advantage").
    label: str
    unit: str
    value: Callable[[Objective, Sums], Array]
    #: Its figures from a sweep row; None: by a bootstrap over the blocks (a measure the
    #: sweep does not report).
    from_row: Callable[[Objective, Mapping[str, Any]], tuple[float, float, float]] | None
    options: tuple[str, ...] = ()
    needs: tuple[str, ...] = field(default=())
    #: The block totals it reads beyond the fixed columns (a game-shape measure's).
    columns: tuple[str, ...] = ()

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
        tenth = table.get("at", 5) if "at" in self.options else None
        if tenth is not None and (
            isinstance(tenth, bool) or not isinstance(tenth, int) or not 1 <= tenth <= 10
        ):
            raise InputError(f"{at}: at = {tenth!r} is not allowed (a tenth of the game, 1 to 10)")
        return Objective(
            table["metric"],
            direction,
            self.unit,
            None if target is None else float(target),
            total,
            at=tenth,
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
    if s.members == s.players:  # a fixed lineup: every player sat in every game
        wins = s.wins()
        spread: Array = 100 * (wins.max(axis=1) - wins.min(axis=1)) / s["games"]
        return spread
    shares = s.shares()
    pooled: Array = 100 * (shares.max(axis=1) - shares.min(axis=1))
    return pooled


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


def search_figures(
    objectives: Sequence[Objective], blocks: Blocks, rng: np.random.Generator
) -> list[tuple[float, float, float]]:
    """Each objective's estimate over ``blocks`` and its 95% interval by a percentile
    bootstrap over the blocks (a pool's search figures: the sweep's rows have no table
    sizes)."""
    boot = Sums(blocks.columns, blocks.weights(rng, SEARCH_RESAMPLES) @ blocks.matrix)
    whole = Sums(blocks.columns, blocks.matrix.sum(axis=0))
    out = []
    for o in objectives:
        low, high = np.quantile(o.value(boot), [0.025, 0.975])
        out.append((float(o.value(whole)[0]), float(low), float(high)))
    return out


def _lead_changes(o: Objective, s: Sums) -> Array:
    mean = s["total:shape_lead_changes"] / s["total:shape_games"]
    return mean if o.target is None else np.abs(mean - o.target)


def _comeback(o: Objective, s: Sums) -> Array:
    rate: Array = 100 * s["total:shape_comeback"] / np.maximum(s["total:shape_led"], 1.0)
    return rate


def _decided_at(o: Objective, s: Sums) -> Array:
    share: Array = 100 * s["total:shape_decided_at"] / s["total:shape_games"]
    return share


def _choices(o: Objective, s: Sums) -> Array:
    mean = s[f"total:{CHOICE_TOTALS[1]}"] / np.maximum(s[f"total:{CHOICE_TOTALS[0]}"], 1.0)
    return mean if o.target is None else np.abs(mean - o.target)


def _score_gap(o: Objective, s: Sums) -> Array:
    gap: Array = s[f"total:shape_gap_{o.at}"] / np.maximum(s["total:shape_sole"], 1.0)
    return gap


#: The game-shape measures' block totals (:mod:`pipelines.experiments.balance_shape`): the
#: games, their lead changes, sole leaders at two thirds and their losses, when the winner was
#: known; the games with a sole winner and, after each tenth of the game, the winner's lead
#: over the others' mean score summed over them.
SHAPE = (
    "shape_games",
    "shape_lead_changes",
    "shape_led",
    "shape_comeback",
    "shape_decided_at",
    "shape_sole",
    *(f"shape_gap_{j}" for j in range(1, 11)),
)


def totals_read(objectives: Sequence[Objective]) -> list[str]:
    """The block totals ``objectives`` read (their game totals and shape measures)."""
    names = {o.total for o in objectives if o.total is not None}
    names |= {c for o in objectives for c in METRICS[o.metric].columns}
    return sorted(names)


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
    "lead_changes": Metric(
        "lead changes per game (from the move log)",
        "lead changes per game",
        "per game",
        _lead_changes,
        None,
        ("target",),
        columns=SHAPE,
    ),
    "comeback_rate": Metric(
        "the comeback rate: games the sole leader at two thirds of the game lost",
        "the comeback rate",
        "%",
        _comeback,
        None,
        columns=SHAPE,
    ),
    "decided_at": Metric(
        "how early the winner is known: the share of the game after which the sole winner "
        "leads to the end",
        "when the winner is known",
        "% of the game",
        _decided_at,
        None,
        columns=SHAPE,
    ),
    "score_gap": Metric(
        "the eventual winner's lead over the other seats' mean score, in games with a sole "
        "winner (the score trajectories of the reports)",
        "the winner's lead",
        SCORE,
        _score_gap,
        None,
        ("at",),
        columns=SHAPE,
    ),
    "choices_per_decision": Metric(
        "choices per decision: the legal answers of a decision, over every decision of every "
        "game (counted at the referee as the games are played)",
        "choices per decision",
        "choices",
        _choices,
        None,
        ("target",),
        columns=CHOICE_TOTALS,
    ),
}
