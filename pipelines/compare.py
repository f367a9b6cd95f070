"""``tourney compare``: A against B on common seeds, paired by seed block, with an SPRT.

A and B are two rule variants (B may be an ablation of A: no curses, no amulets) or two
strategies played against the same field of opponents. Every block is one seed (and island)
played under each seat rotation of the same players, once as A and once as B, so luck of the
deal and of the seat cancels in the difference. In a strategy comparison the candidate (A or
B) takes the first player slot and the field the others; the rotations move every player
through every seat. The observation of a block is ``metric(B) - metric(A)`` over its games; the SPRT
(:mod:`pipelines.sprt`) looks only after complete batches of blocks and stops as soon as it
can decide, or at ``max_games``.

Metrics: ``first-seat`` (win share of the first seat, i.e. first-seat advantage + 1/n),
``turns`` (game length), ``win:STRATEGY`` (win share of one strategy), ``candidate`` (win
share of the candidate, the metric of strategy comparisons).
"""

from __future__ import annotations

import multiprocessing
from dataclasses import dataclass
from typing import Any

from pipelines.sprt import CONTINUE, Sprt, fixed_size
from sim.errors import InputError
from sim.runner.games import Factory, Rules, play_planned
from sim.runner.schedule import plan_game


@dataclass(frozen=True)
class CompareSpec:
    """What to compare and how to decide."""

    labels: tuple[str, ...]
    factories: tuple[Factory, ...]
    rules_a: Rules
    rules_b: Rules
    factories_b: tuple[Factory, ...] | None
    metric: str
    theta0: float
    theta1: float
    seed: int
    islands: tuple[str, ...]
    max_games: int
    batch_blocks: int = 50
    workers: int = 2
    alpha: float = 0.05
    beta: float = 0.05


def check_metric(metric: str, labels: tuple[str, ...]) -> None:
    """``InputError`` unless ``metric`` is known (and names a player of the field)."""
    if metric in ("first-seat", "turns", "candidate"):
        return
    if metric.startswith("win:") and metric[4:] in labels:
        return
    raise InputError(
        f"--metric {metric!r} is not allowed (first-seat, turns, or win:STRATEGY with a "
        f"strategy of --players: {', '.join(labels)})"
    )


def _value(spec: CompareSpec, rules: Rules, factories: tuple[Factory, ...], block: int) -> float:
    """The metric over one block's rotations under ``rules`` with ``factories``."""
    n = len(spec.labels)
    total = 0.0
    for rotation in range(n):
        plan = plan_game(block * n + rotation, spec.seed, n, "rotate", spec.islands)
        result = play_planned(plan, rules, factories).result
        assert result is not None
        if spec.metric == "first-seat":
            total += result.win_shares[0]
        elif spec.metric == "turns":
            total += result.turns
        elif spec.metric == "candidate":
            total += result.win_shares[plan.order.index(0)]
        else:
            name = spec.metric[4:]
            total += sum(
                share
                for seat, share in enumerate(result.win_shares)
                if spec.labels[plan.order[seat]] == name
            )
    return total / n


def block_difference(args: tuple[CompareSpec, int]) -> float:
    """``metric(B) - metric(A)`` for one block (a pure function of the spec and the block)."""
    spec, block = args
    b = _value(spec, spec.rules_b, spec.factories_b or spec.factories, block)
    return b - _value(spec, spec.rules_a, spec.factories, block)


def _differences(spec: CompareSpec, blocks: range, pool: Any) -> list[float]:
    jobs = [(spec, b) for b in blocks]
    if pool is None:
        return [block_difference(j) for j in jobs]
    return list(pool.map(block_difference, jobs, chunksize=max(1, len(jobs) // 8)))


def compare(spec: CompareSpec) -> dict[str, Any]:
    """Run the sequential test; return its verdict and figures."""
    n = len(spec.labels)
    max_blocks = max(1, spec.max_games // (2 * n))
    test = Sprt(spec.theta0, spec.theta1, spec.alpha, spec.beta)
    pool = None
    if spec.workers > 1:
        pool = multiprocessing.get_context("spawn").Pool(spec.workers)
    try:
        block = 0
        while block < max_blocks and test.status == CONTINUE:
            batch = range(block, min(max_blocks, block + spec.batch_blocks))
            for x in _differences(spec, batch, pool):
                test.add(x)
            block = batch.stop
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    low, high = test.interval()
    return {
        "metric": spec.metric,
        "decision": test.status if test.status != CONTINUE else "undecided",
        "h0": spec.theta0,
        "h1": spec.theta1,
        "difference": test.mean,
        "interval": [low, high],
        "llr": test.llr,
        "blocks": test.n,
        "games": test.n * 2 * n,
        "sd_per_block": test.variance**0.5,
    }


def plan(
    spec: CompareSpec, pilot_blocks: int, effect: float, power: float = 0.95
) -> dict[str, Any]:
    """Blocks and games a fixed-size test needs for ``effect``, from a pilot's variance."""
    test = Sprt(spec.theta0, spec.theta1)
    for x in _differences(spec, range(pilot_blocks), None):
        test.add(x)
    sd = test.variance**0.5
    blocks = fixed_size(sd, effect, spec.alpha, power) if sd > 0 else 0
    n = len(spec.labels)
    return {
        "metric": spec.metric,
        "pilot_blocks": pilot_blocks,
        "sd_per_block": sd,
        "effect": effect,
        "power": power,
        "blocks": blocks,
        "games": blocks * 2 * n,
    }
