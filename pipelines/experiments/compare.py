"""``tourney compare``: A against B on common seeds, paired by seed block, with an SPRT.

A and B are two rule variants (B may be an ablation of A: no curses, no amulets) or two
strategies played against the same field of opponents. Every block is one seed (and island)
played under each seat rotation of the same players, once as A and once as B, so luck of the
deal and of the seat cancels in the difference. In a strategy comparison the candidate (A or
B) takes the first player slot and the field the others; the rotations move every player
through every seat. The observation of a block is ``metric(B) - metric(A)`` over its games, in
the metric's units (:mod:`pipelines.report.verdicts`: points of win share, turns); the test
(:mod:`pipelines.stats.sprt`, one-sided or two-sided) looks only after complete batches of blocks
and
stops as soon as it can decide, or at ``max_games``.

Metrics: ``first-seat`` (win share of the seat that plays first, i.e. first-seat advantage +
1/n), ``turns`` (game length), ``win:STRATEGY`` (win share of one strategy), ``candidate`` (win
share of the candidate, the metric of strategy comparisons).

Every game counts, whatever ended it: a game cut off at the turn cap counts its length and
the shares of the leader it credits, so a change that makes games stall shows in the metric
instead of being dropped with them. What could make the verdict wrong is counted per side
and said before it (``warnings``): games that did not end naturally (by reason) and
strategy failures (decisions a strategy crashed on or answered illegally, played by the
fallback instead).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pipelines.experiments import play_issues
from pipelines.experiments.play_issues import ISSUES
from pipelines.experiments.progress import Progress
from pipelines.play.outcomes import Lineup, Outcome, outcomes
from pipelines.report import verdicts
from pipelines.stats.sequential_estimate import Design, look_schedule, plain, sequential_estimate
from pipelines.stats.sprt import CONTINUE, MIN_BLOCKS, Sprt, TwoSidedSprt, fixed_size
from reports import numbers
from sim.compiled_engine import CompiledSeat
from sim.errors import InputError
from sim.runner.games import Factory, Rules, kind_of
from sim.runner.schedule import plan_game


@dataclass(frozen=True)
class CompareSpec:
    """What to compare and how to decide. Bounds are in the metric's units (points, turns):
    a one-sided test of ``theta0`` against ``theta1``, or, when ``delta`` is set, a two-sided
    test of no difference against a difference of at least ``delta`` either way."""

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
    delta: float | None = None
    batch_blocks: int = 50
    workers: int = 2
    alpha: float = 0.05
    beta: float = 0.05
    #: How A's and B's rules are called (a preset, a file name, "rulebook without curses").
    rules_a_name: str = ""
    rules_b_name: str = ""
    #: The candidates' labels in a strategy comparison (A, B); the field is ``labels[1:]``.
    candidates: tuple[str, str] | None = None
    #: B's players when B is a whole other lineup (``--b-players``), seat for seat.
    lineup_b: tuple[str, ...] | None = None
    #: The players as the compiled engine takes them, A's seats and B's (empty: none).
    seats: tuple[CompiledSeat, ...] = ()
    seats_b: tuple[CompiledSeat, ...] | None = None
    #: The engine that plays both sides: ``reference`` or ``compiled`` (resolved when the
    #: spec is made, :func:`pipelines.experiments.compare_setup.compare_spec`).
    engine: str = "reference"

    def lineup(self, b_side: bool) -> Lineup:
        """A's players, or B's (A's when B only changes the rules)."""
        game = kind_of(self.rules_a).name
        if b_side and self.factories_b is not None:
            labels = self.lineup_b or self.labels
            return Lineup(game, labels, self.factories_b, self.seats_b or ())
        return Lineup(game, self.labels, self.factories, self.seats)


def check_metric(metric: str, labels: tuple[str, ...], strategies: bool = False) -> None:
    """``InputError`` unless ``metric`` is known (and names a player of the field; in a
    strategy comparison ``candidate`` or an opponent)."""
    field = labels[1:] if strategies else labels
    if metric in ("first-seat", "turns") or (metric == "candidate" and strategies):
        return
    if metric == "candidate":
        raise InputError(
            "--metric 'candidate' is for strategy comparisons (--a-strategy X --b-strategy Y)"
        )
    if metric.startswith("win:") and metric[4:] in field:
        return
    also = "candidate, " if strategies else ""
    raise InputError(
        f"--metric {metric!r} is not allowed ({also}first-seat, turns, or win:STRATEGY with a "
        f"strategy of {'the field' if strategies else '--players'}: {', '.join(field)})"
    )


def _metric(spec: CompareSpec, result: Outcome) -> float:
    """The metric of one game (raw: a share 0..1, or turns)."""
    if spec.metric == "first-seat":
        return result.win_shares[result.first_player]
    if spec.metric == "turns":
        return float(result.turns)
    order = result.plan.order
    if spec.metric == "candidate":
        return result.win_shares[order.index(0)]
    # Player 0 of a strategy comparison is the candidate (A's or B's), never the field.
    name = spec.metric[4:]
    first = 0 if spec.candidates is None else 1
    return sum(
        share
        for seat, share in enumerate(result.win_shares)
        if order[seat] >= first and spec.labels[order[seat]] == name
    )


def _values(
    spec: CompareSpec, rules: Rules, lineup: Lineup, blocks: range
) -> list[tuple[float, dict[str, int]]]:
    """Per block: the metric over the block's rotations under ``rules`` with ``lineup``
    (raw: shares 0..1, turns), and the block's counts of :data:`ISSUES`."""
    n = len(spec.labels)
    plans = [
        plan_game(block * n + rotation, spec.seed, n, "rotate", spec.islands)
        for block in blocks
        for rotation in range(n)
    ]
    results = outcomes(spec.engine, plans, rules, lineup)
    out = []
    for k in range(len(blocks)):
        counts = dict.fromkeys(ISSUES, 0)
        total = 0.0
        for result in results[k * n : (k + 1) * n]:
            play_issues.count(result.end_reason, result.violations, counts)
            total += _metric(spec, result)
        out.append((total / n, counts))
    return out


def block_differences(
    args: tuple[CompareSpec, range],
) -> list[tuple[float, dict[str, int], dict[str, int]]]:
    """``metric(B) - metric(A)`` for each of the blocks (raw; each a pure function of the
    spec and its block), with A's and B's counts of :data:`ISSUES`."""
    spec, blocks = args
    b = _values(spec, spec.rules_b, spec.lineup(b_side=True), blocks)
    a = _values(spec, spec.rules_a, spec.lineup(b_side=False), blocks)
    return [(vb - va, ia, ib) for (va, ia), (vb, ib) in zip(a, b, strict=True)]


#: Blocks per job on a worker: whole calls of the compiled engine, and progress still heard.
JOB_BLOCKS = 25


def _differences(
    spec: CompareSpec,
    blocks: range,
    pool: Any,
    issues: dict[str, dict[str, int]] | None = None,
) -> list[float]:
    """The blocks' differences in the metric's units; their :data:`ISSUES` are added to
    ``issues`` (per side, ``a`` and ``b``) when given."""
    step = max(1, min(JOB_BLOCKS, -(-len(blocks) // 8)))
    jobs = [(spec, blocks[i : i + step]) for i in range(0, len(blocks), step)]
    if pool is None:
        parts = [block_differences(j) for j in jobs]
    else:
        parts = list(pool.map(block_differences, jobs))
    raw = [x for part in parts for x in part]
    if issues is not None:
        for _, a_issues, b_issues in raw:
            for side, counts in (("a", a_issues), ("b", b_issues)):
                for key, count in counts.items():
                    issues[side][key] += count
    scale = verdicts.metric_info(spec.metric).scale
    return [x * scale for x, _, _ in raw]


def warnings(issues: dict[str, dict[str, int]], games_per_side: int) -> list[str]:
    """A sentence per side and issue that could make the verdict wrong (none: empty)."""
    out = []
    for side in ("a", "b"):
        out += play_issues.sentences(
            issues[side], games_per_side, f"of {side.upper()} ", f"in {side.upper()}'s games "
        )
    return out


def rule_changes(a: Rules, b: Rules) -> dict[str, list[Any]]:
    """The rules keys whose value differs from A to B, as ``key: [a, b]``."""
    da, db = a.to_dict(), b.to_dict()
    return {k: [da[k], db[k]] for k in da if k != "preset" and da[k] != db.get(k)}


def field(spec: CompareSpec) -> dict[str, Any]:
    """Who sat at the table and under which rules, as the output reports it."""
    out: dict[str, Any] = {"game": spec.rules_a.game}
    if spec.candidates is not None:
        out["a"], out["b"] = spec.candidates
        out["opponents"] = list(spec.labels[1:])
    else:
        out["players"] = list(spec.labels)
        if spec.lineup_b is not None:
            out["players_a"] = list(spec.labels)
            out["players_b"] = list(spec.lineup_b)
    out["seating"] = "every seat rotation of each deal"
    out["engine"] = spec.engine
    out["rules_a"] = {"name": spec.rules_a_name, "hash": spec.rules_a.hash}
    out["rules_b"] = {
        "name": spec.rules_b_name,
        "hash": spec.rules_b.hash,
        "changes": rule_changes(spec.rules_a, spec.rules_b),
    }
    if kind_of(spec.rules_a).boards:
        out["islands"] = list(spec.islands)
    return out


def _test(spec: CompareSpec) -> Sprt | TwoSidedSprt:
    if spec.delta is not None:
        return TwoSidedSprt(0.0, spec.delta, spec.alpha, spec.beta)
    return Sprt(spec.theta0, spec.theta1, spec.alpha, spec.beta)


def hypotheses(spec: CompareSpec) -> tuple[verdicts.Hypothesis, ...]:
    """The test's hypotheses in numbers (units) and words."""
    metric = verdicts.metric_info(spec.metric)
    if spec.delta is not None:
        return verdicts.two_sided(metric, spec.delta)
    return verdicts.one_sided(metric, spec.theta0, spec.theta1)


def _llr_text(test: Sprt | TwoSidedSprt) -> str:
    llrs = test.llrs()
    low, high = test.llr_bounds()
    if len(llrs) == 1:
        text = f"{next(iter(llrs.values())):+.2f}"
    else:
        text = ", ".join(f"{name} {value:+.2f}" for name, value in llrs.items())
    return f"LLR {text} in [{low:+.2f}, {high:+.2f}]"


def _look_line(spec: CompareSpec, test: Sprt | TwoSidedSprt, most: int) -> str:
    """Where the test is after a look: blocks, the LLR against its bounds, the estimate so far."""
    metric = verdicts.metric_info(spec.metric)
    low, high = test.interval()
    return (
        f"{numbers.count(test.n)}/{numbers.count(most)} blocks; {_llr_text(test)}; "
        f"B - A {metric.difference(test.mean)} {metric.interval(low, high)}"
    )


def max_blocks(spec: CompareSpec) -> int:
    """The most blocks ``max_games`` allows (at least two: an interval needs two)."""
    return max(2, spec.max_games // (2 * len(spec.labels)))


def run_test(
    test: Sprt | TwoSidedSprt,
    looks: Sequence[int],
    batch: Callable[[range], Iterable[float]],
    on_look: Callable[[int], None] | None = None,
) -> str:
    """Feed ``test`` the observations of each batch of blocks (``batch(range)``), look at the
    block counts ``looks`` and stop at the first verdict; the verdict, or ``continue``."""
    status = CONTINUE
    block = 0
    for stop in looks:
        for x in batch(range(block, stop)):
            test.add(x)
        block = stop
        # No verdict from a variance of fewer blocks than MIN_BLOCKS.
        status = test.look() if test.n >= MIN_BLOCKS else CONTINUE
        if on_look is not None:
            on_look(block)
        if status != CONTINUE:
            break
    return status


def design(spec: CompareSpec) -> Design:
    """The test as :func:`compare` runs it, for :func:`sequential_estimate`."""
    looks = look_schedule(spec.batch_blocks, max_blocks(spec))
    if spec.delta is not None:
        return Design(looks, delta=spec.delta, alpha=spec.alpha, beta=spec.beta)
    return Design(looks, spec.theta0, spec.theta1, alpha=spec.alpha, beta=spec.beta)


def estimate(spec: CompareSpec, test: Sprt | TwoSidedSprt) -> dict[str, Any]:
    """The estimate and 95% interval valid under the stopping rule (or, where the test could
    not stop early, Student's t), cut to the range the metric can show, with the naive ones."""
    metric = verdicts.metric_info(spec.metric)
    naive = test.interval()
    adjusted = sequential_estimate(
        design(spec), test.n, test.mean * test.n, test.variance**0.5, test.skewness
    )
    chosen = adjusted or plain(test.mean, naive)

    def cut(x: float) -> float:
        # A normal interval from a few blocks can pass what the metric can show (a win share
        # moves by at most 100 points): it is cut there.
        return min(max(x, -metric.max_abs), metric.max_abs)

    return {
        "estimate": chosen.estimate,
        "interval": [cut(chosen.low), cut(chosen.high)],
        "low": cut(chosen.low),
        "high": cut(chosen.high),
        "estimate_method": chosen.method,
        "naive_estimate": test.mean,
        "naive_interval": [cut(naive[0]), cut(naive[1])],
    }


def compare(spec: CompareSpec, progress: Progress | None = None) -> dict[str, Any]:
    """Run the sequential test; return its verdict and figures (units of the metric).
    ``progress`` is told the games played and the test's state after every look."""
    verdicts.metric_info(spec.metric)  # a metric it cannot describe fails before any game
    n = len(spec.labels)
    most = max_blocks(spec)
    test = _test(spec)
    issues = {side: dict.fromkeys(ISSUES, 0) for side in ("a", "b")}
    pool = None
    if spec.workers > 1:
        pool = multiprocessing.get_context("spawn").Pool(spec.workers)
    try:
        if progress is not None:  # the test may stop before its most blocks
            progress.begin(most * 2 * n, may_stop_early=True)

        def on_look(block: int) -> None:
            if progress is not None:
                progress.update(test.n * 2 * n, _look_line(spec, test, most))

        status = run_test(
            test,
            look_schedule(spec.batch_blocks, most),
            lambda blocks: _differences(spec, blocks, pool, issues),
            on_look,
        )
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        if progress is not None:
            progress.finish()
    return _result(spec, test, status, issues)


def _result(
    spec: CompareSpec, test: Sprt | TwoSidedSprt, status: str, issues: dict[str, dict[str, int]]
) -> dict[str, Any]:
    """The finished test's verdict in words, its figures, and what it could have seen."""
    metric = verdicts.metric_info(spec.metric)
    n = len(spec.labels)
    figures = estimate(spec, test)
    low, high = figures["interval"]
    decision = status if status != CONTINUE else "undecided"
    hyps = hypotheses(spec)
    accepted = next((h.text for h in hyps if h.name == decision), None)
    games = test.n * 2 * n
    sd = test.variance**0.5
    shown = verdicts.direction(low, high)
    # What the run could have seen: a fixed-size test of its size, sided as the SPRT is,
    # against the test's distance between its hypotheses.
    sides, target = (1, spec.theta1 - spec.theta0) if spec.delta is None else (2, spec.delta)
    seen = verdicts.detectable(sd, test.n, 2 * n, spec.alpha, sides, target)
    return {
        "game": spec.rules_a.game,
        "metric": spec.metric,
        "quantity": metric.quantity,
        "unit": metric.unit,
        "comparison": "B - A",
        "test": "two-sided" if spec.delta is not None else "one-sided",
        "method": (
            "two one-sided SPRTs at alpha/2 each (Sobel-Wald / Armitage)"
            if spec.delta is not None
            else "SPRT"
        )
        + ", normal approximation, looks after complete batches of blocks",
        "alpha": spec.alpha,
        "beta": spec.beta,
        "hypotheses": [
            {"name": h.name, "difference": h.difference, "direction": h.direction, "text": h.text}
            for h in hyps
        ],
        "decision": decision,
        "accepted": accepted,
        "verdict": verdicts.verdict(
            metric, hyps, decision, figures["estimate"], (low, high), games, sd, seen
        ),
        "preference": verdicts.preference(metric, hyps, decision),
        "direction": {1: "increase", -1: "decrease", 0: "none"}[shown],
        **figures,
        "level": 0.95,
        "sd_per_block": sd,
        "blocks": test.n,
        "games": games,
        **(seen.as_dict() if seen is not None else verdicts.NOT_DETECTABLE),
        "max_games": spec.max_games,
        "llr": test.llrs(),
        "llr_bounds": list(test.llr_bounds()),
        "issues": issues,
        "warnings": warnings(issues, test.n * n)
        + (
            [
                f"only {test.n} blocks: the test decides after {MIN_BLOCKS} blocks at the "
                f"least (--max-games {MIN_BLOCKS * 2 * n} or more)"
            ]
            if test.n < MIN_BLOCKS
            else []
        ),
        "field": field(spec),
    }


def plan(
    spec: CompareSpec,
    pilot_blocks: int,
    effect: float,
    power: float = 0.95,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Blocks and games a fixed-size two-sided test at ``spec.alpha`` needs to detect a
    difference of ``effect`` (units) with ``power``, from a pilot's per-block variance."""
    metric = verdicts.metric_info(spec.metric)
    n = len(spec.labels)
    if effect == 0:
        raise InputError("--plan 0 is not allowed: the difference to detect must not be 0")
    test = Sprt(0.0, effect)
    step = 10
    if progress is not None:
        progress.begin(pilot_blocks * 2 * n)
    try:
        for start in range(0, pilot_blocks, step):
            for x in _differences(spec, range(start, min(pilot_blocks, start + step)), None):
                test.add(x)
            if progress is not None:
                progress.update(test.n * 2 * n, f"{test.n}/{pilot_blocks} pilot blocks")
    finally:
        if progress is not None:
            progress.finish()
    sd = test.variance**0.5
    blocks = fixed_size(sd, effect, spec.alpha, power) if sd > 0 else 0
    return {
        "game": spec.rules_a.game,
        "metric": spec.metric,
        "quantity": metric.quantity,
        "unit": metric.unit,
        "comparison": "B - A",
        "pilot_blocks": pilot_blocks,
        "pilot_games": pilot_blocks * 2 * n,
        "pilot_estimate": test.mean,
        "sd_per_block": sd,
        "effect": effect,
        "alpha": spec.alpha,
        "power": power,
        "blocks": blocks,
        "games": blocks * 2 * n,
        "field": field(spec),
    }
