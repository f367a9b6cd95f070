"""The answer of a balance study: the search's best candidates played again on fresh seed
blocks (game indices after every game of the search, so blocks the search never saw),
paired against the rulebook setting on those same blocks.

For each candidate and objective: the candidate's value and the rulebook's, each with a 95%
interval, and the candidate minus the rulebook with its 95% interval, all by a paired
bootstrap over the fresh seed blocks (the same resampled blocks for both: the deals' luck
cancels). A candidate is **recommended** only when, with a Bonferroni correction over every
candidate and objective confirmed, some objective's interval lies wholly on the better side
of 0 and none lies wholly on the worse side; otherwise the words say the rulebook is within
noise of the best found, with the smallest difference the confirmation could have detected
80% of the time (two-sided 5%), as ``sweep`` says "no clear change".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pipelines.experiments.balance_objectives import Blocks, Objective, Sums
from pipelines.experiments.balance_play import Player
from pipelines.experiments.balance_spec import BalanceSpec
from pipelines.stats.core import Z95, normal_quantile
from sim.seeding import derive_seed

#: Bootstrap replicates of the fresh blocks (enough for the tails a Bonferroni cut asks).
RESAMPLES = 4000
#: Power of the detectable difference quoted beside "within noise".
POWER = 0.8


def play_fresh(
    spec: BalanceSpec, play: Player, settings: Sequence[dict[str, Any]], totals: Sequence[str]
) -> list[Blocks]:
    """Each setting's block sums over the confirmation's games: ``confirm_games`` (whole
    blocks) after the search's last game, the same for every setting."""
    n = len(play.sweep.labels)
    start = spec.rung_games(spec.rungs - 1, n)
    stop = start + spec.whole(spec.confirm_games, n)
    out = []
    for k, params in enumerate(settings):
        who = "the rulebook" if k == 0 else f"candidate {k} of {len(settings) - 1}"
        parts = play.play(params, start, stop, f"confirmation: {who}")
        out.append(play.blocks(parts, totals))
    return out


def _interval(values: np.ndarray[Any, Any], alpha: float) -> tuple[float, float]:
    low, high = np.quantile(values, [alpha / 2, 1 - alpha / 2])
    return float(low), float(high)


def confirm(
    spec: BalanceSpec,
    base: dict[str, Any],
    chosen: Sequence[dict[str, Any]],
    fresh: Sequence[Blocks],
) -> dict[str, Any]:
    """The paired comparison of every chosen candidate with the rulebook on ``fresh`` (the
    rulebook's blocks first, then each candidate's, all on the same blocks)."""
    rule, *others = fresh
    k = rule.matrix.shape[0]
    rng = np.random.default_rng(derive_seed(spec.seed, "balance-confirm"))
    # float32 counts: the replicates' weights of a few thousand blocks fit in tens of MB.
    weights = rule.weights(rng, RESAMPLES)
    tests = max(1, len(chosen) * len(spec.objectives))
    alpha = 0.05 / tests
    base_boot = Sums(rule.columns, (weights @ rule.matrix.astype(np.float32)).astype(np.float64))
    base_all = Sums(rule.columns, rule.matrix.sum(axis=0))
    rows = []
    for record, blocks in zip(chosen, others, strict=True):
        boot = Sums(blocks.columns, (weights @ blocks.matrix.astype(np.float32)).astype(np.float64))
        whole = Sums(blocks.columns, blocks.matrix.sum(axis=0))
        per = [_objective(o, whole, boot, base_all, base_boot, alpha) for o in spec.objectives]
        better = any(p["better"] for p in per)
        worse = any(p["worse"] for p in per)
        rows.append(
            {
                "number": record["number"],
                "params": record["params"],
                "search": {
                    "values": record["values"],
                    "low": record["low"],
                    "high": record["high"],
                    "games": record["games"],
                },
                "objectives": per,
                "recommended": better and not worse,
            }
        )
    games = rule.games
    return {
        "games": games,
        "blocks": k,
        "first_game": None,
        "rulebook": base,
        "tests": tests,
        "alpha": alpha,
        "resamples": RESAMPLES,
        "candidates": rows,
        "method": (
            f"fresh seed blocks ({k:,} blocks, {games:,} games a setting), each candidate paired "
            f"with the rulebook on the same blocks; 95% intervals by a paired bootstrap over the "
            f"blocks ({RESAMPLES:,} replicates); a candidate is recommended when some objective's "
            f"Bonferroni-corrected interval (alpha 0.05 / {tests}) lies on its better side of 0 "
            "and none on its worse side"
        ),
    }


def _objective(
    o: Objective, whole: Sums, boot: Sums, base_all: Sums, base_boot: Sums, alpha: float
) -> dict[str, Any]:
    """One objective of one candidate against the rulebook, on the fresh blocks."""
    mine, theirs = o.value(boot), o.value(base_boot)
    diff = mine - theirs
    estimate = float(o.value(whole)[0] - o.value(base_all)[0])
    low, high = _interval(diff, 0.05)
    adj_low, adj_high = _interval(diff, alpha)
    improve_low, improve_high = sorted((-o.sign * adj_low, -o.sign * adj_high))
    sd = float(np.std(diff, ddof=1))
    return {
        "objective": o.name,
        "value": float(o.value(whole)[0]),
        "interval": list(_interval(mine, 0.05)),
        "rulebook": float(o.value(base_all)[0]),
        "rulebook_interval": list(_interval(theirs, 0.05)),
        "difference": estimate,
        "difference_interval": [low, high],
        "difference_interval_corrected": [adj_low, adj_high],
        "better": improve_low > 0,
        "worse": improve_high < 0,
        "detectable": (Z95 + normal_quantile(POWER)) * sd,
    }


def headline(spec: BalanceSpec, result: dict[str, Any]) -> list[str]:
    """The answer in one to three sentences, claiming no more than the intervals."""
    conf = result["confirmation"]
    names = {o.name: o for o in spec.objectives}
    if conf is None:
        return [
            "The search's best setting is the rulebook's own: nothing to confirm against it "
            f"({result['candidates_searched']} candidates searched)."
        ]
    recommended = [c for c in conf["candidates"] if c["recommended"]]
    fresh = f"{conf['games']:,} fresh games a setting"
    if spec.pool:
        fresh += f" ({conf['games'] // len(spec.table_sizes):,} at each table size)"
    if recommended:
        best = recommended[0]
        parts = [_said(names[p["objective"]], p, conf["tests"]) for p in best["objectives"]]
        more = len(recommended) - 1
        return [
            f"Recommended: {setting(best['params'])}, confirmed against the rulebook "
            f"({setting(conf['rulebook'])}) on {fresh}: " + "; ".join(parts) + ".",
            *(
                [f"{more} more setting{'s' if more > 1 else ''} confirmed too (see the table)."]
                if more
                else []
            ),
        ]
    detect = "; ".join(
        f"{_num(min(c['objectives'][m]['detectable'] for c in conf['candidates']), o)} "
        f"{o.unit} in {o.label}"
        for m, o in enumerate(spec.objectives)
    )
    return [
        f"The rulebook ({setting(conf['rulebook'])}) is within noise of the best settings the "
        f"search found: on {fresh}, {_none_of(len(conf['candidates']))} better on one objective "
        "without being worse on another.",
        f"A difference of {detect} would have been detected 80% of the time.",
    ]


def _none_of(n: int) -> str:
    if n == 1:
        return "the one setting confirmed is not shown"
    return f"none of the {n} confirmed is shown"


def _num(x: float, o: Objective) -> str:
    return f"{x:.1f}" if o.unit in ("points", "%") else f"{x:.2f}"


def _said(o: Objective, p: dict[str, Any], tests: int) -> str:
    """One objective of a candidate against the rulebook, in words bounded by its interval
    (a direction only where the corrected interval excludes 0, the detectable difference
    beside no clear change)."""
    low, high = p["difference_interval"]
    shown = (
        f"{_num(p['value'], o)} {o.unit} against the rulebook's {_num(p['rulebook'], o)}, "
        f"{p['difference']:+.2f} [{low:+.2f}, {high:+.2f}]"
    )
    if p["better"]:
        return f"{o.label} improves: {shown}"
    if p["worse"]:
        return f"{o.label} worsens: {shown}"
    why = "" if low <= 0 <= high else f", not separated once corrected for {tests} comparisons"
    return (
        f"no clear change in {o.label}: {shown}{why} (a change of {_num(p['detectable'], o)} "
        f"{o.unit} would have been detected 80% of the time)"
    )


def setting(params: dict[str, Any]) -> str:
    """A setting as ``key=value, ...``, values as a rules file writes them."""
    return ", ".join(
        f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in params.items()
    )
