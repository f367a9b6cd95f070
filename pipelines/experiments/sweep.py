"""``tourney sweep``: a grid over one or two rule parameters, every point on the same seeds.

Each point plays the same seed blocks (rotated seating) under the base rules of its game
(Tobago or Treasure Island) with the point's overrides, and reports seat fairness (the win
share of the seat that plays first minus 1/n), game length (mean turns), the counts the game
adds as means per game (its ``sweep_totals``: Tobago's curse hits and coins lost; Treasure
Island adds none), each with a 95% interval that treats a seed block as the independent unit
(the games of a block share their deal), and the spread between strategies (best minus
worst win share) with a bootstrap interval over seed blocks. Every game counts, whatever
ended it; games that did not end naturally and strategy failures are counted per point
(``turn_cap``, ``deadlock``, ``timeout``, ``strategy_failures``) and said in a warning.

A point's games are played in chunks of fixed size, in any order and on any number of
workers; the chunks are added up in order, so the figures depend only on the seeds. Owns the
``--param`` reading, the rows and the printed table.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import multiprocessing
from dataclasses import dataclass
from typing import Any

from pipelines.experiments import play_issues
from pipelines.experiments.play_issues import ISSUES
from pipelines.experiments.progress import Progress
from pipelines.play.outcomes import Lineup, choose_engine, outcomes
from pipelines.stats.core import Z95, block_mean_interval, clustered_share, ratio_se
from reports import numbers
from sim.compiled_engine import CompiledSeat
from sim.errors import InputError
from sim.outcome import UNFINISHED
from sim.runner.games import Factory, Rules, kind_of
from sim.runner.schedule import Schedule
from sim.seeding import stream

#: Games per job: small enough for progress every second or so, large enough to amortise.
CHUNK = 250
#: Bootstrap resamples of the seed blocks for the spread's interval.
RESAMPLES = 400


def sweepable(base: Rules) -> list[str]:
    """The rules keys of ``base``'s game a sweep can vary: those with a number, true/false or
    a name as value (not lists, not the preset)."""
    return [
        key
        for key in kind_of(base).rules_keys
        if key != "preset" and isinstance(getattr(base, key), bool | int | float | str)
    ]


def parse_param(text: str, base: Rules) -> tuple[str, list[Any]]:
    """``key=v1,v2,...`` -> the key and its values (ints, floats, true/false, or names for a
    key that takes a name); the values are checked against the rules by :func:`sweep`."""
    key, eq, values = text.partition("=")
    key = key.strip()
    keys = sweepable(base)
    if not eq or key not in keys:
        raise InputError(
            f"--param {text!r}: give KEY=V1,V2,... with KEY a {kind_of(base).title} rules key "
            f"that takes a number, true/false or a name: {', '.join(keys)}"
        )
    takes_name = isinstance(getattr(base, key), str)
    out: list[Any] = []
    for item in values.split(","):
        raw = item.strip()
        if raw.lower() in ("true", "false"):
            out.append(raw.lower() == "true")
            continue
        try:
            out.append(int(raw))
        except ValueError:
            try:
                out.append(float(raw))
            except ValueError:
                if not takes_name or not raw:
                    raise InputError(f"--param {text!r}: {raw!r} is not a number") from None
                out.append(raw)
    return key, out


@dataclass(frozen=True)
class SweepSpec:
    """The grid and the games each point plays."""

    labels: tuple[str, ...]
    factories: tuple[Factory, ...]
    base: Rules
    params: tuple[tuple[str, tuple[Any, ...]], ...]
    games: int
    seed: int
    islands: tuple[str, ...]
    workers: int = 2
    #: The players as the compiled engine takes them (in ``labels`` order; empty: none).
    seats: tuple[CompiledSeat, ...] = ()
    #: The engine that plays every point: ``reference`` or ``compiled`` (resolved by
    #: :func:`sweep` from ``auto``).
    engine: str = "reference"
    #: A pool's table sizes (``labels`` are then its members): every combination of them at
    #: each size, in the schedule's balanced cycles; empty for a fixed lineup.
    table_sizes: tuple[int, ...] = ()
    #: Whether each game's shape (lead changes, comebacks, when the winner is known) is added to
    #: its block's totals (a balance study's shape objectives; the reference engine only).
    shape: bool = False
    #: Whether each game's decisions and their legal answers are added to its block's totals
    #: (a balance study's choices per decision; the reference engine only).
    choices: bool = False

    @property
    def lineup(self) -> Lineup:
        return Lineup(kind_of(self.base).name, self.labels, self.factories, self.seats)

    @property
    def schedule(self) -> Schedule:
        """Which game is which (rotated seating): a fixed lineup's or a pool's."""
        return Schedule(self.seed, len(self.labels), "rotate", self.islands, self.table_sizes)


def points(spec: SweepSpec) -> list[dict[str, Any]]:
    """Every combination of the parameters' values."""
    keys = [k for k, _ in spec.params]
    return [
        dict(zip(keys, combo, strict=True))
        for combo in itertools.product(*(v for _, v in spec.params))
    ]


def _rules(spec: SweepSpec, overrides: dict[str, Any]) -> Any:
    return kind_of(spec.base).with_overrides(spec.base, overrides, "--param")


def play_chunk(args: tuple[SweepSpec, dict[str, Any], int, int]) -> dict[str, Any]:
    """Per-block sums over the games ``start`` to ``stop`` of one point (whole seed blocks;
    ``cut_off``: the block's games that did not end naturally; a pool's block also holds its
    ``size`` and each member's games ``seated``), and the counts of games that
    did not end naturally and of strategy failures (a balance study plays its candidates'
    games through it too)."""
    spec, overrides, start, stop = args
    rules = _rules(spec, overrides)
    n = len(spec.labels)
    blocks: dict[int, dict[str, Any]] = {}
    issues = dict.fromkeys(ISSUES, 0)
    schedule = spec.schedule
    plans = [schedule.plan(g) for g in range(start, stop)]
    played: list[tuple[Any, Any]] = []
    keep = (lambda plan, game: played.append((plan, game))) if spec.shape else None
    for result in outcomes(spec.engine, plans, rules, spec.lineup, keep, spec.choices):
        plan = result.plan
        b = blocks.setdefault(
            plan.block, {"games": 0, "first": 0.0, "turns": 0.0, "cut_off": 0,
                         "totals": {}, "by_player": [0.0] * n}
        )  # fmt: skip
        if spec.table_sizes:  # a pool's block: its table size and who sat in its games
            b.setdefault("size", len(plan.order))
            seated = b.setdefault("seated", [0] * n)
            for member in plan.order:
                seated[member] += 1
        b["games"] += 1
        b["cut_off"] += result.end_reason in UNFINISHED
        b["first"] += result.win_shares[result.first_player]
        b["turns"] += result.turns
        for name, count in result.totals.items():
            b["totals"][name] = b["totals"].get(name, 0) + count
        for seat, share in enumerate(result.win_shares):
            b["by_player"][plan.order[seat]] += share
        play_issues.count(result.end_reason, result.violations, issues)
    if played:
        from pipelines.experiments.balance_shape import shape_sums

        block_of = {plan.game_id: plan.block for plan in plans}
        for game_id, sums in shape_sums(kind_of(rules).name, spec.labels, played).items():
            totals = blocks[block_of[game_id]]["totals"]
            for name, value in sums.items():
                totals[name] = totals.get(name, 0) + value
    return {"blocks": blocks, "issues": issues, "games": stop - start}


def _mean_se(ys: list[float], ns: list[float]) -> tuple[float, float]:
    """Mean and cluster-robust standard error of per-game values from their block sums."""
    total, count = sum(ys), sum(ns)
    yy = sum(y * y for y in ys)
    yn = sum(y * n for y, n in zip(ys, ns, strict=True))
    nn = sum(n * n for n in ns)
    return total / count, ratio_se(total, count, yy, yn, nn, len(ys))


def _spread_interval(
    spec: SweepSpec, blocks: list[dict[str, Any]], overrides: dict[str, Any]
) -> tuple[float, float]:
    """A percentile bootstrap interval over seed blocks for best minus worst win share (the
    resamples drawn from the spec's seed and the point's values: the same figures for the
    same point, in any grid)."""
    if len(blocks) < 2:
        return (0.0, 1.0)
    point = ",".join(f"{k}={_cell(v)}" for k, v in sorted(overrides.items()))
    rng = stream(spec.seed, "sweep-spread", point)
    n_players = len(spec.labels)
    spreads = []
    for _ in range(RESAMPLES):
        wins = [0.0] * n_players
        games = 0
        for _ in range(len(blocks)):
            b = blocks[math.floor(rng.random() * len(blocks))]
            games += b["games"]
            wins = [w + x for w, x in zip(wins, b["by_player"], strict=True)]
        spreads.append((max(wins) - min(wins)) / games)
    spreads.sort()
    return spreads[int(0.025 * RESAMPLES)], spreads[int(0.975 * RESAMPLES) - 1]


def point_row(
    spec: SweepSpec, overrides: dict[str, Any], parts: list[dict[str, Any]]
) -> dict[str, Any]:
    """One point's figures from its chunks (added up in order; ``spec.games`` of them)."""
    n = len(spec.labels)
    g = spec.games
    # Chunks hold whole seed blocks (see sweep): their blocks are disjoint.
    blocks = [b for _, b in sorted((k, b) for p in parts for k, b in p["blocks"].items())]
    sizes = [float(b["games"]) for b in blocks]
    first_share, first_se = _mean_se([b["first"] for b in blocks], sizes)
    low, high = clustered_share(first_share * g, g, first_se, len(blocks))
    mean_turns, turns_se = _mean_se([b["turns"] for b in blocks], sizes)
    by_player = [sum(b["by_player"][k] for b in blocks) for k in range(n)]
    shares = [w / g for w in by_player]
    row = {
        **overrides,
        "games": g,
        "blocks": len(blocks),
        "first_seat_share": first_share,
        "first_seat_advantage": first_share - 1 / n,
        "first_seat_low": low - 1 / n,
        "first_seat_high": high - 1 / n,
        "mean_turns": mean_turns,
        "turns_low": mean_turns - Z95 * turns_se,
        "turns_high": mean_turns + Z95 * turns_se,
    }
    for name in blocks[0]["totals"] if blocks else ():
        mean, se = _mean_se([float(b["totals"].get(name, 0)) for b in blocks], sizes)
        row[f"{name}_per_game"] = mean
        row[f"{name}_low"] = mean - Z95 * se
        row[f"{name}_high"] = mean + Z95 * se
    row["strategy_spread"] = max(shares) - min(shares)
    row["spread_low"], row["spread_high"] = _spread_interval(spec, blocks, overrides)
    row.update({f"win:{label}": s for label, s in zip(spec.labels, shares, strict=True)})
    for key in ISSUES:
        row[key] = sum(p["issues"][key] for p in parts)
    return row


def warnings(rows: list[dict[str, Any]], keys: list[str]) -> list[str]:
    """A sentence per point and issue that could make its figures wrong (none: empty)."""
    out = []
    for r in rows:
        where = ", ".join(f"{k}={_cell(r[k])}" for k in keys)
        out += [f"at {where}: {line}" for line in play_issues.sentences(r, r["games"], "", "")]
    return out


def engine_of(spec: SweepSpec) -> SweepSpec:
    """``spec`` with its engine resolved for every grid point (each point validated before
    any game); ``InputError`` for a bad point or an engine that cannot play them."""
    plays = [(spec.lineup, _rules(spec, overrides)) for overrides in points(spec)]
    return dataclasses.replace(spec, engine=choose_engine(spec.engine, plays, "--engine"))


def sweep(spec: SweepSpec, progress: Progress | None = None) -> list[dict[str, Any]]:
    """One row of figures per grid point (every point validated before any game); ``progress``
    is told the games played and the point after every chunk of games."""
    grid = points(spec)
    spec = engine_of(spec)
    # Chunks of whole seed blocks (a block is the seat rotations of one deal), so that every
    # block's sums come from one chunk.
    n = len(spec.labels)
    step = max(n, CHUNK - CHUNK % n)
    jobs = [
        (spec, overrides, start, min(spec.games, start + step))
        for overrides in grid
        for start in range(0, spec.games, step)
    ]
    parts: list[list[dict[str, Any]]] = [[] for _ in grid]
    per_point = len(jobs) // len(grid)
    parallel = min(spec.workers, len(jobs)) if spec.workers > 1 else 1
    done = 0

    def collect(k: int, part: dict[str, Any]) -> None:
        nonlocal done
        point = k // per_point
        parts[point].append(part)
        done += part["games"]
        if progress is not None:
            where = ", ".join(f"{key}={_cell(value)}" for key, value in grid[point].items())
            progress.update(done, f"point {point + 1} of {len(grid)} ({where})")

    try:
        if progress is not None:
            progress.begin(spec.games * len(grid), parallel)
        if parallel > 1:
            context = multiprocessing.get_context("spawn")
            with context.Pool(parallel) as pool:
                for k, part in enumerate(pool.imap(play_chunk, jobs)):
                    collect(k, part)
        else:
            for k, job in enumerate(jobs):
                collect(k, play_chunk(job))
    finally:
        if progress is not None:
            progress.finish()
    rows = [point_row(spec, overrides, p) for overrides, p in zip(grid, parts, strict=True)]
    return against_base(spec, grid, parts, rows)


def base_point(spec: SweepSpec) -> dict[str, Any]:
    """The base rules' value of each swept parameter (the point the paired differences are
    taken against, whether or not the grid holds it)."""
    return {key: getattr(spec.base, key) for key, _ in spec.params}


def _is_base(spec: SweepSpec, overrides: dict[str, Any]) -> bool:
    return all(getattr(spec.base, k) == v for k, v in overrides.items())


def _paired(
    point: list[dict[str, Any]], base: list[dict[str, Any]], key: str
) -> tuple[float, float | None, float | None]:
    """The point's per-game ``key`` minus the base point's on the same seed blocks (B - A:
    the point minus the base rules' point): the mean and its 95% interval over the blocks,
    Student's t as for every paired difference of the reports (none below
    :data:`~pipelines.stats.core.MIN_INTERVAL_BLOCKS` blocks)."""
    ys = [b[key] - a[key] for b, a in zip(point, base, strict=True)]
    mean, se = _mean_se(ys, [float(a["games"]) for a in base])
    return (mean, *block_mean_interval(mean, se, len(ys)))


def _blocks(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [b for _, b in sorted((k, b) for p in parts for k, b in p["blocks"].items())]


def against_base(
    spec: SweepSpec,
    grid: list[dict[str, Any]],
    parts: list[list[dict[str, Any]]],
    rows: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """When the grid holds the base rules' point: each point's first-seat share and game
    length against it, paired on the same seed blocks (``first_seat_vs_base``,
    ``turns_vs_base`` with ``_low``/``_high``) and a ``verdict`` that claims no more than the
    intervals and, where one contains 0, says what the sweep could have detected."""
    base = next((k for k, o in enumerate(grid) if _is_base(spec, o)), None)
    if base is None:
        return rows
    name = ", ".join(f"{k}={_cell(v)}" for k, v in grid[base].items())
    base_blocks = _blocks(parts[base])
    for k, row in enumerate(rows):
        blocks = _blocks(parts[k])
        first = _paired(blocks, base_blocks, "first")
        turns = _paired(blocks, base_blocks, "turns")
        row["first_seat_vs_base"], row["first_seat_vs_base_low"] = first[0], first[1]
        row["first_seat_vs_base_high"] = first[2]
        row["turns_vs_base"], row["turns_vs_base_low"], row["turns_vs_base_high"] = turns
        row["verdict"] = (
            f"the base rules' point ({name})"
            if k == base
            else f"against {name} (the base rules), on the same seeds: "
            + "; ".join(
                _said(what, up, down, figures, unit, row["games"])
                for what, up, down, figures, unit in (
                    ("the first seat's win share", "raises", "lowers", first, "points"),
                    ("game length", "lengthens games", "shortens games", turns, "turns"),
                )
            )
        )
    return rows


def _said(
    what: str,
    up: str,
    down: str,
    figures: tuple[float, float | None, float | None],
    unit: str,
    games: int,
) -> str:
    """One paired difference in words (:func:`pipelines.report.findings.effect_sentence`)."""
    from pipelines.report.findings import effect_sentence

    mean, low, high = figures
    scale, digits = (100.0, 1) if unit == "points" else (1.0, 2)
    shown = f"{numbers.number(scale * mean, digits, signed=True)} {unit} "
    if low is None or high is None:
        return f"{what}: {shown}({numbers.TOO_FEW_BLOCKS})"
    shown += numbers.signed_interval(low, high, scale=scale, digits=digits)
    words = (up, down, f"no clear change in {what}")
    if unit != "turns":
        words = (f"{up} {what}", f"{down} {what}", words[2])
    said, note, _ = effect_sentence(
        mean, low, high, games, words, lambda x: f"{numbers.number(scale * x, digits)} {unit}"
    )
    return f"{said}: {shown}" + (f" ({note})" if note else "")


def _cell(value: Any) -> str:
    """A parameter value as a rules file writes it (``true``, ``4``, ``seat0``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def table_lines(
    rows: list[dict[str, Any]], keys: list[str], players: int, base: dict[str, Any]
) -> list[str]:
    """The rows as a table for people: percentages and points with one decimal, intervals in
    brackets, then what the columns mean and each point against the base rules' point
    (``base``: their value of each parameter), or that the grid does not hold it."""
    # The game's own counts (sweep_totals), between the length and the spread.
    extra = [k for k in rows[0] if k.endswith("_per_game")]
    lows = {k: k.removesuffix("_per_game") for k in extra}
    header = [*keys, "first seat wins", "advantage, points", "turns per game"]
    header += [k.removesuffix("_per_game").replace("_", " ") + "/game" for k in extra]
    header.append("spread, points")
    body = []
    for r in rows:
        cells = [_cell(r[k]) for k in keys]
        cells += [
            numbers.pct(r["first_seat_share"]),
            f"{numbers.number(100 * r['first_seat_advantage'], 1, signed=True)} "
            + numbers.signed_interval(r["first_seat_low"], r["first_seat_high"]),
            f"{numbers.number(r['mean_turns'], 1)} "
            + numbers.interval(r["turns_low"], r["turns_high"], scale=1.0),
        ]
        cells += [
            f"{numbers.number(r[k], 2)} "
            + numbers.interval(r[f"{lows[k]}_low"], r[f"{lows[k]}_high"], scale=1.0, digits=2)
            for k in extra
        ]
        cells.append(
            f"{numbers.number(100 * r['strategy_spread'], 1)} "
            + numbers.interval(r["spread_low"], r["spread_high"])
        )
        body.append(cells)
    widths = [max(len(row[c]) for row in [header, *body]) for c in range(len(header))]
    out = ["  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True)) for row in
           [header, *body]]  # fmt: skip
    out.append(
        f"{numbers.count(rows[0]['games'])} games per point on the same seeds; advantage: the "
        f"first seat's win share minus the fair share ({numbers.pct(1 / players)} with "
        f"{players} players); spread: best minus worst strategy's win share; intervals 95% "
        "over seed blocks (the spread's by bootstrap)"
    )
    point = ", ".join(f"{k}={_cell(v)}" for k, v in base.items())
    if "verdict" in rows[0]:
        out.append(
            f"paired differences are B - A: each point minus the base rules' point ({point}) "
            "on the same seed blocks, 95% intervals by Student's t over the blocks"
        )
    else:
        out.append(f"no paired differences: the grid does not hold the base rules' point ({point})")
    out += [
        f"{', '.join(f'{k}={_cell(r[k])}' for k in keys)}: {r['verdict']}"
        for r in rows
        if "verdict" in r and not r["verdict"].startswith("the base rules' point")
    ]
    return [*(f"warning: {w}" for w in warnings(rows, keys)), *out]
