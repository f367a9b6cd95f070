"""``tourney regress``'s verdicts: each statistic of the suite against the baseline, paired over
the replayed seed blocks, and the words, table and JUnit XML that report them.

The suite is deterministic: the current run replays the baseline's seeds, so an unchanged tree
reproduces every stored figure exactly. Each statistic gets one of three states:

* **reproduced exactly**: mean, sd, count and every per-block sum identical to the last digit;
* **changed significantly**: the paired t-test over the seed blocks (block ``i`` of the
  baseline and of the current run are the same deals, played by the old and the new code) has
  p below the Bonferroni cut-off, family-wise alpha 0.05 across the suite's statistics;
* **changed within noise**: any other change.

A golden-game check is reproduced exactly or changed (its move logs hash differently). The run
fails (exit 1) on a significant change or a changed golden game, and with ``exact`` on any
change.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from pipelines.stats.core import t_quantile, t_sf
from reports import numbers

ALPHA = 0.05
EXACT = "reproduced exactly"
NOISE = "changed within noise"
SIGNIFICANT = "changed significantly"
GOLDEN_CHANGED = "changed"
GOLDEN = "golden_games"


@dataclass(frozen=True)
class Cutoff:
    """The multiple-testing cut-off: Bonferroni over ``tests`` statistics."""

    tests: int
    alpha: float = ALPHA

    @property
    def threshold(self) -> float:
        """The per-check threshold a paired p must fall below."""
        return self.alpha / max(1, self.tests)

    def sentence(self) -> str:
        """The cut-off in words, with the per-check threshold."""
        return (
            f"Bonferroni over {self.tests} statistics, family-wise alpha {self.alpha:g}: a "
            f"statistic changed significantly when its paired p < {self.threshold:.3g} "
            f"({self.alpha:g} / {self.tests}); p shown unadjusted, intervals 95% (Student t "
            "over the replayed seed blocks)"
        )


def paired_change(
    old: list[float], new: list[float], sizes: list[int]
) -> tuple[float, float, float, float]:
    """The change of a per-game mean from per-block sums of the same blocks played twice:
    ``(estimate, low, high, p)``, a ratio estimate over blocks with its Student-t 95% interval
    and two-sided p (blocks are the independent units; the games of a block share a deal)."""
    diffs = [b - a for a, b in zip(old, new, strict=True)]
    blocks, games = len(diffs), sum(sizes)
    estimate = sum(diffs) / games
    if blocks < 2:
        return estimate, -math.inf, math.inf, math.nan
    residual = sum((d - estimate * k) ** 2 for d, k in zip(diffs, sizes, strict=True))
    se = math.sqrt(residual / (blocks - 1) / blocks) / (games / blocks)
    if se == 0.0:
        return estimate, estimate, estimate, 1.0 if estimate == 0 else 0.0
    half = t_quantile(0.975, blocks - 1) * se
    p = 2 * t_sf(abs(estimate) / se, blocks - 1)
    return estimate, estimate - half, estimate + half, min(1.0, p)


def check_statistic(
    case: str, stat: str, old: dict[str, Any], new: dict[str, Any], sizes: list[int],
    cutoff: Cutoff,
) -> dict[str, Any]:  # fmt: skip
    """One statistic's check: its state, both means, the paired change and its p."""
    keys = ("mean", "sd", "n", "blocks")
    exact = all(old[k] == new[k] for k in keys)
    estimate, low, high, p = paired_change(old["blocks"], new["blocks"], sizes)
    if exact:
        state = EXACT
    elif not math.isnan(p) and p < cutoff.threshold:
        state = SIGNIFICANT
    else:
        state = NOISE
    bounded = math.isfinite(high - low)  # one block has no interval; JSON has no infinity
    return {
        "case": case, "check": stat, "state": state, "baseline": old["mean"],
        "current": new["mean"], "difference": new["mean"] - old["mean"], "estimate": estimate,
        "low": low if bounded else None, "high": high if bounded else None,
        "p": None if math.isnan(p) else p, "blocks": len(sizes), "threshold": cutoff.threshold,
    }  # fmt: skip


def check_golden(case: str, old: str, new: str, games: int) -> dict[str, Any]:
    """The golden games' check: their move logs hash as the baseline's do, or not."""
    return {
        "case": case, "check": GOLDEN, "state": EXACT if old == new else GOLDEN_CHANGED,
        "baseline": old, "current": new, "games": games,
    }  # fmt: skip


def failing(check: dict[str, Any], exact: bool) -> bool:
    """Whether the check makes the run exit 1."""
    if exact:
        return bool(check["state"] != EXACT)
    return check["state"] in (SIGNIFICANT, GOLDEN_CHANGED)


def summary_line(checks: list[dict[str, Any]]) -> str:
    """The count of every state, e.g. ``20 checks: 19 reproduced exactly, 1 changed within
    noise, 0 changed significantly, golden games changed in 0 of 3 cases``."""
    states = [c["state"] for c in checks if c["check"] != GOLDEN]
    golden = [c["state"] for c in checks if c["check"] == GOLDEN]
    exact = states.count(EXACT) + golden.count(EXACT)
    return (
        f"{len(checks)} checks: {exact} reproduced exactly, {states.count(NOISE)} {NOISE}, "
        f"{states.count(SIGNIFICANT)} {SIGNIFICANT}, golden games changed in "
        f"{golden.count(GOLDEN_CHANGED)} of {len(golden)} cases"
    )


def _subject(stat: str) -> str:
    if stat == "turns":
        return "game length"
    if stat == "first_seat":
        return "the first seat's win share"
    return f"{stat.removeprefix('win:')}'s win share"


def _digits(a: float, b: float, scale: float, digits: int) -> int:
    """Enough decimals that two different figures print differently (at most 12)."""
    # Compared as numbers, so that "-0.000" and "0.000" count as the same print.
    while (
        digits < 12
        and a != b
        and float(f"{scale * a:.{digits}f}") == float(f"{scale * b:.{digits}f}")
    ):
        digits += 1
    return digits


def _figures(check: dict[str, Any]) -> tuple[str, str, str]:
    """Baseline, current and the change with its interval, in the statistic's units:
    shares in percent and changes in points, game length in turns."""
    turns = check["check"] == "turns"
    scale, base_digits = (1.0, 2) if turns else (100.0, 1)
    old, new = check["baseline"], check["current"]
    digits = _digits(old, new, scale, base_digits)
    low, high, est = check["low"], check["high"], check["estimate"]
    digits = _digits(low, high, scale, digits) if low is not None else digits
    if est != 0.0:  # never "+0.0" for a change that is not zero
        digits = _digits(est, 0.0, scale, digits)
    if turns:
        figs = numbers.number(old, digits), numbers.number(new, digits)
    else:
        figs = numbers.pct(old, digits), numbers.pct(new, digits)
    if check["state"] == EXACT:
        return *figs, "none"
    unit = "turns" if turns else "points"
    change = f"{scale * est:+.{digits}f} {unit}"
    if low is not None:
        change += " " + numbers.signed_interval(low, high, scale, digits)
    return *figs, change


def _p(p: float | None) -> str:
    return numbers.p_value(math.nan if p is None else p)


def table_lines(checks: list[dict[str, Any]]) -> list[str]:
    """The checks as a table: baseline and current value, the seed blocks paired, the paired
    change with its 95% interval, the unadjusted p and the state."""
    rows = [
        ["case", "check", "baseline", "current", "blocks", "change [95% interval]", "p", "state"]
    ]
    for c in checks:
        if c["check"] == GOLDEN:
            rows.append([c["case"], c["check"], c["baseline"][:8], c["current"][:8], "", "", "",
                         c["state"]])  # fmt: skip
            continue
        old, new, change = _figures(c)
        p = "" if c["state"] == EXACT else _p(c["p"])
        blocks = numbers.count(c["blocks"])
        rows.append([c["case"], c["check"], old, new, blocks, change, p, c["state"]])
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(w) if k in (0, 1, 7) else cell.rjust(w)
            for k, (cell, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in rows
    ]


def message(check: dict[str, Any], cutoff: Cutoff) -> str:
    """One check in a sentence: what changed, from what to what, the paired change with its
    interval, p and the state."""
    case = check["case"]
    if check["check"] == GOLDEN:
        if check["state"] == EXACT:
            return (
                f"{case}: the first {check['games']} games' move logs reproduced exactly "
                f"(hash {check['current'][:12]})"
            )
        return (
            f"{case}: the first {check['games']} games' move logs changed: their hash is "
            f"{check['current'][:12]}, the baseline's {check['baseline'][:12]}"
        )
    old, new, change = _figures(check)
    if check["check"] == "turns":
        old, new = f"{old} turns", f"{new} turns"
    what = f"{case}: {_subject(check['check'])}"
    if check["state"] == EXACT:
        return (
            f"{what} reproduced exactly: {new}, every figure of its {check['blocks']} seed "
            "blocks identical to the baseline"
        )
    return (
        f"{what} {check['state']}: {old} -> {new}, a change of {change.replace('[', '[95% ')} "
        f"paired over {check['blocks']} replayed seed blocks, {_p(check['p'])} "
        f"(cut-off p < {cutoff.threshold:.3g}, {cutoff.sentence().split(':')[0]})"
    )


def junit_xml(checks: list[dict[str, Any]], cutoff: Cutoff, exact: bool) -> str:
    """The checks as a JUnit XML test suite: one test case per check, its sentence as the
    failure message or as the test's output."""
    failures = sum(1 for c in checks if failing(c, exact))
    cases = []
    for c in checks:
        name = quoteattr(f"{c['case']}.{c['check']}")
        text = message(c, cutoff)
        if failing(c, exact):
            body = f"<failure message={quoteattr(text)}>{escape(text)}</failure>"
        else:
            body = f"<system-out>{escape(text)}</system-out>"
        cases.append(f'<testcase classname="tourney.regress" name={name}>{body}</testcase>')
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<testsuite name="tourney-regress" tests="{len(checks)}" failures="{failures}">'
        + "".join(cases)
        + "</testsuite>\n"
    )
