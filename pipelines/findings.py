"""Findings: the answers a report opens with, computed from its tables, in plain language.

Each :class:`~pipelines.report_data.Finding` carries its estimate, 95% interval and sample
size. A difference is stated as one only when its interval excludes "no difference";
otherwise the finding says that no difference was detected, with the interval that bounds
it. These are the findings every game shares (win shares, the first seat, game length,
paired comparisons); each game's report adds its own.
"""

from __future__ import annotations

import math

from pipelines.report_data import CohortResult, Finding, PairResult
from pipelines.run_groups import rules_name
from reports import numbers


def _excludes(low: float, high: float, value: float = 0.0) -> bool:
    return low > value or high < value


def cohort_scope(result: CohortResult) -> str:
    return f"cohort:{result.cohort.index}"


def strategy_findings(result: CohortResult) -> list[Finding]:
    """Per player count, each strategy's win share against the fair share."""
    out = []
    for r in sorted(
        result.rows("win_rate_by_strategy"), key=lambda r: (r["n_players"], -r["win_share"])
    ):
        fair = float(r["fair_share"])
        n = int(r["n_players"])
        verdict = "" if _excludes(r["low"], r["high"], fair) else ": no detectable difference"
        out.append(
            Finding(
                metric="win_share",
                group=f"{r['strategy']} ({n} players)",
                estimate=r["win_share"],
                low=r["low"],
                high=r["high"],
                n=int(r["seats"]),
                text=(
                    f"{r['strategy']} wins {numbers.pct(r['win_share'])} of its "
                    f"{n}-player games {numbers.interval(r['low'], r['high'])} (fair share "
                    f"{numbers.pct(fair, 0)}{verdict}; {numbers.count(r['seats'])} games)."
                ),
                scope=cohort_scope(result),
            )
        )
    return out


def first_seat_findings(result: CohortResult) -> list[Finding]:
    """Per player count, the first seat's advantage over the fair share."""
    out = []
    for r in result.rows("win_rate_by_seat"):
        if r["seat"] != 0:
            continue
        n = int(r["n_players"])
        adv, low, high = r["advantage"], r["advantage_low"], r["advantage_high"]
        ci = numbers.interval(low, high)
        if _excludes(low, high):
            more = "more" if adv > 0 else "less"
            text = (
                f"The first seat wins {abs(100 * adv):.1f} points {more} often than "
                f"its fair share in {n}-player games {ci} ({numbers.pct(r['win_share'])} "
                f"against {numbers.pct(1 / n, 0)}; {numbers.count(r['games'])} games)."
            )
        else:
            text = (
                f"No detectable first-seat advantage in {n}-player games: "
                f"{numbers.points(adv)} {ci} ({numbers.count(r['games'])} games)."
            )
        out.append(
            Finding(
                "first_seat_advantage",
                f"{n} players",
                adv,
                low,
                high,
                int(r["games"]),
                text,
                cohort_scope(result),
            )
        )
    return out


def length_findings(result: CohortResult) -> list[Finding]:
    """Per player count, the mean game length in turns."""
    out = []
    for r in result.rows("game_length"):
        if not r["reported"]:
            continue
        n = int(r["n_players"])
        out.append(
            Finding(
                "turns",
                f"{n} players",
                r["mean_turns"],
                r["low"],
                r["high"],
                int(r["reported"]),
                (
                    f"{n}-player games last {r['mean_turns']:.1f} turns on average "
                    f"{numbers.interval(r['low'], r['high'], scale=1.0)} "
                    f"({numbers.count(r['reported'])} games"
                    + (
                        f", {numbers.count(r['reported'] - r['finished'])} of them cut off "
                        "before their natural end"
                        if r["reported"] > r["finished"]
                        else ""
                    )
                    + ")."
                ),
                cohort_scope(result),
            )
        )
    return out


def _effect(subject: str, what: str, estimate: float, low: float, high: float, unit: str) -> str:
    """``subject raises/lowers what by X unit [low, high]`` (the interval of the size), or
    no detectable effect with the signed interval."""
    if unit == "points":
        scale, digits, unit_word = 100.0, 1, "points"
    else:
        scale, digits, unit_word = 1.0, 2, unit
    if math.isnan(low) or math.isnan(high):
        return (
            f"effect of {subject} on {what}: {scale * estimate:+.{digits}f} {unit_word} "
            f"({numbers.TOO_FEW_BLOCKS})"
        )
    if not _excludes(low, high):
        return (
            f"no detectable effect of {subject} on {what}: "
            f"{scale * estimate:+.{digits}f} {unit_word} "
            f"{numbers.interval(low, high, scale, digits)}"
        )
    size = f"{abs(scale * estimate):.{digits}f} {unit_word}"
    ci = (
        numbers.interval(low, high, scale, digits)
        if estimate > 0
        else numbers.interval(-high, -low, scale, digits)
    )
    plural = subject.endswith("s") and not subject.startswith(("the ", "playing "))
    if what == "game length":
        verb = "lengthen" if estimate > 0 else "shorten"
        return f"{subject} {verb if plural else verb + 's'} games by {size} {ci}"
    verb = "raise" if estimate > 0 else "lower"
    return f"{subject} {verb if plural else verb + 's'} {what} by {size} {ci}"


def pair_findings(pair: PairResult) -> list[Finding]:
    """What the one factor a pairing changes does: per player slot, the change in win
    share; for the table, the change in the first seat's win share and in game length.

    For an ablation the effect is stated for the thing removed (A - B: "curses lower ..."),
    for a rules variant or a strategy swap as B against A."""
    p = pair.pairing
    scope = f"pairing:{p.index}"
    if p.factor in ("curses", "amulets"):
        subject, sign = p.factor, -1.0
    elif p.factor == "strategy":
        before, after = p.changes[0].split(" -> ")
        subject, sign = f"playing {after} instead of {before}", 1.0
    else:
        subject = f"the rules {rules_name(p.b)} (instead of {rules_name(p.a)})"
        sign = 1.0

    def oriented(r: dict[str, float]) -> tuple[float, float, float]:
        # Too few seed blocks for an interval: no bounds (null in report.json).
        low = math.nan if r["low"] is None else r["low"]
        high = math.nan if r["high"] is None else r["high"]
        if sign > 0:
            return r["estimate"], low, high
        return -r["estimate"], -high, -low

    # A pairing that left out games which did not end naturally says so in every finding.
    caveat = (
        f" {numbers.count(sum(pair.unfinished))} seed-matched games that did not end naturally"
        " in A or B are left out (see the warning at the top)."
        if sum(pair.unfinished)
        else ""
    )
    out = []
    for r in pair.rows("win_share"):
        est, low, high = oriented(r)
        who = f"{r['group']}'s win share"
        out.append(
            Finding(
                "paired_win_share",
                str(r["group"]),
                est,
                low,
                high,
                int(r["pairs"]),
                _sentence(
                    f"{_effect(subject, who, est, low, high, 'points')} (paired: the same "
                    f"{numbers.count(r['pairs'])} games {_both(p.factor)}).{caveat}"
                ),
                scope,
            )
        )
    for metric, what, unit in (
        ("first_seat", "the first seat's win share", "points"),
        ("turns", "game length", "turns"),
    ):
        for r in pair.rows(metric):
            est, low, high = oriented(r)
            out.append(
                Finding(
                    f"paired_{metric}",
                    "table",
                    est,
                    low,
                    high,
                    int(r["pairs"]),
                    _sentence(
                        f"{_effect(subject, what, est, low, high, unit)} (paired, "
                        f"{numbers.count(r['pairs'])} games).{caveat}"
                    ),
                    scope,
                )
            )
    return out


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _both(factor: str) -> str:
    if factor in ("curses", "amulets"):
        return f"with and without {factor}"
    return "under A and under B"
