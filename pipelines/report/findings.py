"""Findings: the answers a report opens with, computed from its tables, in plain language.

Each :class:`~pipelines.report.data.Finding` carries its estimate, 95% interval and sample
size. A difference is stated as one only when its interval excludes "no difference"
(:func:`pipelines.report.claims.claim`); otherwise the finding says that the run shows no clear
difference, with the interval that bounds it and the smallest effect the run could have
detected with 80% power (:func:`power_note`). These are the findings every game shares (win
shares, the first seat, game length, paired comparisons); each game's report adds its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from pipelines.report import claims
from pipelines.report.data import CohortResult, Finding, PairResult
from pipelines.report.run_groups import Pairing, rules_name
from pipelines.stats import power
from reports import numbers


def _excludes(low: float, high: float, value: float = 0.0) -> bool:
    return claims.claim((low + high) / 2 - value, low - value, high - value).direction != 0


def power_note(
    low: float,
    high: float,
    games: int,
    amount: Callable[[float], str],
    se: float | None = None,
    unit: str = "games",
) -> tuple[str, dict[str, Any]]:
    """Beside "no clear difference": the smallest effect a two-sided 5% test of this run
    detects with 80% power, from ``se`` (else from the 95% interval's width), and the
    ``games`` (or other ``unit``) half of it needs, in words and as :class:`Finding` fields
    ("" and none without a standard error)."""
    if se is None or not se > 0 or not math.isfinite(se):
        se = power.se_from_interval(low, high)
    mde = power.detectable_effect(se)
    need = None if mde is None else power.games_for_effect(mde / 2, se, games)
    if mde is None or need is None:
        return "", {}
    text = (
        f"the smallest difference this run could detect with "
        f"{numbers.pct(power.POWER, 0)} power is {amount(mde)}; {amount(mde / 2)} would need "
        f"about {numbers.count(need)} {unit}"
    )
    return text, {"detectable_effect": mde, "games_for_effect": need, "effect_for_games": mde / 2}


def effect_sentence(
    estimate: float,
    low: float,
    high: float,
    games: int,
    words: tuple[str, str, str],
    amount: Callable[[float], str],
) -> tuple[str, str, dict[str, Any]]:
    """A difference in words by :func:`pipelines.report.claims.claim`: ``words`` are what is said
    when the interval lies above 0, below 0, or contains 0; with the :func:`power_note`
    (text and fields) when it contains 0."""
    up, down, none = words
    shown = claims.claim(estimate, low, high)
    said = claims.phrase(shown, up, down, amount, none)
    if shown.direction:
        return said, "", {}
    note, seen = power_note(low, high, games, amount)
    return said, note, seen


def _points(x: float) -> str:
    return numbers.points(x, signed=False)


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
        verdict, seen = "", dict[str, Any]()
        if not _excludes(r["low"], r["high"], fair):
            note, seen = power_note(r["low"], r["high"], int(r["seats"]), _points)
            verdict = ": no clear difference from it" + (f"; {note}" if note else "")
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
                **seen,
            )
        )
    return out


def _gap_numbers(r: dict[str, Any]) -> str:
    """``+1.5 points [+0.3, +2.8]``, or the estimate alone when there is no interval."""
    text = numbers.points(float(r["estimate"]))
    if r["low"] is None or r["high"] is None:
        return text
    return f"{text} {numbers.signed_interval(r['low'], r['high'])}"


def gap_sentence(r: dict[str, Any]) -> str:
    """One gap of the ranking in words (see :mod:`pipelines.metrics.gaps`)."""
    n, better, worse, k = int(r["n_players"]), r["better"], r["worse"], int(r["blocks"])
    if k == 0:
        return f"{better} and {worse} never played in the same seed block at {n} players."
    blocks = f"paired over {numbers.count(k)} seed blocks"
    if r["low"] is None or r["high"] is None:
        return (
            f"{better} and {worse} at {n} players: {_gap_numbers(r)} over "
            f"{numbers.count(k)} seed blocks, too few blocks for an interval."
        )
    if not r["separated"]:
        power = (
            f"; a gap of {numbers.points(r['detectable'], signed=False)} would have been "
            "found 80% of the time"
            if r["detectable"] is not None
            else ""
        )
        return (
            f"{better} and {worse} are not separated at {n} players: {_gap_numbers(r)} "
            f"({blocks}{power})."
        )
    ahead, behind = (better, worse) if r["estimate"] > 0 else (worse, better)
    text = f"{ahead} is ahead of {behind} at {n} players: {_gap_numbers(r)} ({blocks})."
    if int(r["rank"]) == 1 and r["adjusted_low"] is not None:
        # The pair was put side by side by the same games it is measured on.
        text += (
            f" The lead is picked on these games, so it is optimistic; allowing for the "
            f"choice among {r['pairs_compared']} pairs it is "
            f"{numbers.signed_interval(r['adjusted_low'], r['adjusted_high'])}"
            + (
                "."
                if _excludes(r["adjusted_low"], r["adjusted_high"])
                else ", which holds 0: once the choice is allowed for, the lead is not shown."
            )
        )
    return text


def gap_findings(result: CohortResult) -> list[Finding]:
    """Per player count, the best strategy against the runner-up, block-paired."""
    out = []
    for r in result.rows("strategy_gaps"):
        if int(r["rank"]) != 1:
            continue
        nan = float("nan")
        out.append(
            Finding(
                "strategy_gap",
                f"{r['better']} - {r['worse']} ({int(r['n_players'])} players)",
                nan if r["estimate"] is None else float(r["estimate"]),
                nan if r["low"] is None else float(r["low"]),
                nan if r["high"] is None else float(r["high"]),
                int(r["blocks"]),
                gap_sentence(r),
                cohort_scope(result),
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
        seen: dict[str, Any] = {}
        shown = claims.claim(adv, low, high).direction
        if shown:
            more = "more" if shown > 0 else "less"
            text = (
                f"The first seat wins {abs(100 * adv):.1f} points {more} often than "
                f"its fair share in {n}-player games {ci} ({numbers.pct(r['win_share'])} "
                f"against {numbers.pct(1 / n, 0)}; {numbers.count(r['games'])} games)."
            )
        else:
            note, seen = power_note(low, high, int(r["games"]), _points)
            text = (
                f"No clear first-seat advantage in {n}-player games: "
                f"{numbers.points(adv)} {ci} ({numbers.count(r['games'])} games"
                f"{'; ' + note if note else ''})."
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
                **seen,
            )
        )
    return out


def other_seat_findings(result: CohortResult) -> list[Finding]:
    """Per player count, every seat after the first whose win share differs from the fair
    share (its interval excludes it): a last-seat disadvantage is as much an answer as the
    first seat's. Seats are numbered from 1 in the words (the tables' ``seat`` is 0-based)."""
    out = []
    for r in result.rows("win_rate_by_seat"):
        seat, n = int(r["seat"]), int(r["n_players"])
        adv, low, high = r["advantage"], r["advantage_low"], r["advantage_high"]
        shown = claims.claim(adv, low, high).direction
        if seat == 0 or not shown:
            continue
        name = f"Seat {seat + 1}" + (" (the last)" if seat == n - 1 else "")
        text = (
            f"{name} wins {abs(100 * adv):.1f} points {'more' if shown > 0 else 'less'} often "
            f"than its fair share in {n}-player games {numbers.interval(low, high)} "
            f"({numbers.pct(r['win_share'])} against {numbers.pct(1 / n, 0)}; "
            f"{numbers.count(r['games'])} games)."
        )
        group = f"seat {seat + 1} ({n} players)"
        out.append(
            Finding(
                "seat_advantage", group, adv, low, high, int(r["games"]), text, cohort_scope(result)
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


def _effect(
    subject: str,
    what: str,
    r: dict[str, Any],
    oriented: tuple[float, float, float],
    unit: str,
) -> tuple[str, dict[str, Any]]:
    """``subject raises/lowers what by X unit [low, high]`` (the interval of the size) when
    the interval excludes 0, else no clear effect with the signed interval and what the run
    could have detected; with the :class:`Finding` fields of power."""
    estimate, low, high = oriented
    if unit == "points":
        scale, digits, unit_word = 100.0, 1, "points"
    else:
        scale, digits, unit_word = 1.0, 2, unit
    if math.isnan(low) or math.isnan(high):
        return (
            f"effect of {subject} on {what}: {scale * estimate:+.{digits}f} {unit_word} "
            f"({numbers.TOO_FEW_BLOCKS})"
        ), {}

    def amount(x: float) -> str:
        return f"{scale * x:.{digits}f} {unit_word}"

    shown = claims.claim(estimate, low, high).direction
    if not shown:
        se = r.get("se")
        note, seen = power_note(low, high, int(r["pairs"]), amount, se)
        return (
            f"no clear effect of {subject} on {what}: "
            f"{scale * estimate:+.{digits}f} {unit_word} "
            f"{numbers.interval(low, high, scale, digits)}{'; ' + note if note else ''}"
        ), seen
    size = f"{abs(scale * estimate):.{digits}f} {unit_word}"
    ci = (
        numbers.interval(low, high, scale, digits)
        if shown > 0
        else numbers.interval(-high, -low, scale, digits)
    )
    plural = subject.endswith("s") and not subject.startswith(("the ", "playing ", "removing "))
    if what == "game length":
        verb = "lengthen" if shown > 0 else "shorten"
        return f"{subject} {verb if plural else verb + 's'} games by {size} {ci}", {}
    verb = "raise" if shown > 0 else "lower"
    return f"{subject} {verb if plural else verb + 's'} {what} by {size} {ci}", {}


def left_out_caveat(left: int) -> str:
    """The sentence every finding of a pairing ends with when it left out ``left``
    seed-matched games that did not end naturally ("" when none)."""
    if not left:
        return ""
    what = (
        "game that did not end naturally in A or B is"
        if left == 1
        else "games that did not end naturally in A or B are"
    )
    return f" {numbers.count(left)} seed-matched {what} left out (see the warning at the top)."


def pair_findings(pair: PairResult) -> list[Finding]:
    """What the one factor a pairing changes does: per player slot, the change in win
    share; for the table, the change in the first seat's win share and in game length.

    Every one is B - A, as the pairing's tables and figures: an ablation is stated as the
    removal ("removing curses raises ..."), a rules variant or a strategy swap as B against A."""
    p = pair.pairing
    scope = f"pairing:{p.index}"
    if p.ablation:
        subject = f"removing {p.factor}"
    elif p.factor == "strategy":
        before, after = p.changes[0].split(" -> ")
        subject = f"playing {after} instead of {before}"
    else:
        subject = f"the rules {rules_name(p.b)} (instead of {rules_name(p.a)})"

    def oriented(r: dict[str, float]) -> tuple[float, float, float]:
        # Too few seed blocks for an interval: no bounds (null in report.json).
        low = math.nan if r["low"] is None else r["low"]
        high = math.nan if r["high"] is None else r["high"]
        return r["estimate"], low, high

    # A pairing that left out games which did not end naturally says so in every finding.
    caveat = left_out_caveat(sum(pair.unfinished))
    out = []
    for r in pair.rows("win_share"):
        est, low, high = oriented(r)
        who = f"{r['group']}'s win share"
        said, seen = _effect(subject, who, r, (est, low, high), "points")
        out.append(
            Finding(
                "paired_win_share",
                str(r["group"]),
                est,
                low,
                high,
                int(r["pairs"]),
                _sentence(
                    f"{said} (paired: the same "
                    f"{numbers.count(r['pairs'])} games {_both(p)}).{caveat}"
                ),
                scope,
                **seen,
            )
        )
    for metric, what, unit in (
        ("first_seat", "the first seat's win share", "points"),
        ("turns", "game length", "turns"),
    ):
        for r in pair.rows(metric):
            est, low, high = oriented(r)
            said, seen = _effect(subject, what, r, (est, low, high), unit)
            out.append(
                Finding(
                    f"paired_{metric}",
                    "table",
                    est,
                    low,
                    high,
                    int(r["pairs"]),
                    _sentence(f"{said} (paired, {numbers.count(r['pairs'])} games).{caveat}"),
                    scope,
                    **seen,
                )
            )
    return out


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _both(pairing: Pairing) -> str:
    if pairing.ablation:
        return f"with and without {pairing.factor}"
    return "under A and under B"
