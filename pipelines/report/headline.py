"""The headline on top of every report: one to three sentences with numbers, written from the
report's tables and findings and never claiming more than their 95% intervals.

Sentence one names the strongest strategy per player count (the lead over the runner-up,
with the selection-adjusted interval, since the leader is picked on the same games); sentence
two the first seat's advantage (with what a game adds, e.g. whether its boards differ in it);
sentence three what a paired comparison's factor does to the leader and the first seat. A
sentence states a direction only when its interval excludes 0
(:func:`pipelines.report.claims.claim`)
and, where it does not, says the effect the run could have detected with 80% power. Treasure
Island, pools and twins get theirs from the same tables; a sweep gets its own
(:func:`sweep_headline`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from pipelines.report import claims
from pipelines.report.data import CohortResult, Finding, PairResult, ReportData
from pipelines.report.run_groups import Cohort, short_label
from pipelines.stats import power
from reports import numbers

#: What a game adds to the headline of one cohort: clauses for the first-seat sentence
#: (``"seat"``) and whole sentences after it (``"more"``).
GameClauses = Callable[[ReportData, CohortResult], list[tuple[str, str]]]
MAX_SENTENCES = 3


def _and(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _pts(x: float) -> str:
    """A difference in points with its sign, without the unit: ``+8.4``."""
    return f"{100 * x:+.1f}"


def _detectable(low: float, high: float) -> float | None:
    return power.detectable_effect(power.se_from_interval(low, high))


def primary(data: ReportData) -> CohortResult | None:
    """The cohort a headline speaks of: the first that is no pairing's B (a twin without a
    part, a variant), else the first."""
    bs = {id(p.pairing.b) for p in data.pairs}
    for result in data.cohorts:
        if not any(id(r) in bs for r in result.cohort.runs):
            return result
    return data.cohorts[0] if data.cohorts else None


def _lead(r: dict[str, Any]) -> tuple[float, float, float] | None:
    """The leader's gap over the runner-up with the interval a headline may use: the
    selection-adjusted one when there is one, else the plain one; None without an interval."""
    low, high = r.get("adjusted_low"), r.get("adjusted_high")
    if low is None or high is None:
        low, high = r.get("low"), r.get("high")
    if r.get("estimate") is None or low is None or high is None:
        return None
    return float(r["estimate"]), float(low), float(high)


def strongest_sentence(result: CohortResult) -> str:
    """Who is strongest at each player count, or that the leader is not separated."""
    tops = sorted(
        (r for r in result.rows("strategy_gaps") if int(r["rank"]) == 1),
        key=lambda r: int(r["n_players"]),
    )
    if not tops:
        return ""
    shown: dict[str, list[tuple[int, tuple[float, float, float], str]]] = {}
    unclear = []
    for r in tops:
        n, lead = int(r["n_players"]), _lead(r)
        if lead is None:
            unclear.append(f"at {n} players too few seed blocks to separate {r['better']}")
            continue
        said = claims.claim(*lead)
        if said.direction > 0:
            shown.setdefault(str(r["better"]), []).append((n, lead, str(r["worse"])))
            continue
        seen = r.get("detectable")
        could = (
            f"; a gap of {numbers.points(seen, signed=False)} would have been found 80% of the time"
            if seen is not None
            else ""
        )
        unclear.append(
            f"at {n} players the top two, {r['better']} and {r['worse']}, are not separated "
            f"({_pts(lead[0])} points {numbers.signed_interval(lead[1], lead[2])}{could})"
        )
    parts = []
    for best, items in shown.items():
        # The weakest lead bounds the claim for every player count named.
        n, (est, low, high), runner = min(items, key=lambda x: x[1][1])
        sizes = _and([str(k) for k, _, _ in items])
        where = f" at {n} players" if len(items) > 1 else ""
        parts.append(
            f"{best} is strongest at {sizes} players ({_pts(est)} points over {runner}{where}"
            + (", its smallest lead" if len(items) > 1 else "")
            + f", {numbers.signed_interval(low, high)} allowing for the choice of leader)"
        )
    text = "; ".join(parts + unclear) + "."
    # Strategy names keep their own spelling, even first in a sentence.
    return text if parts else text[:1].upper() + text[1:]


def seat_sentence(result: CohortResult, extra: Sequence[str] = ()) -> str:
    """The first seat's advantage over its fair share per player count, bounded by each
    interval, with the game's clauses after it."""
    rows = sorted(
        (r for r in result.rows("win_rate_by_seat") if int(r["seat"]) == 0),
        key=lambda r: int(r["n_players"]),
    )
    rows = [r for r in rows if r["advantage_low"] is not None and r["advantage_high"] is not None]
    if not rows:
        return ""
    ci = {
        int(r["n_players"]): (
            float(r["advantage"]),
            float(r["advantage_low"]),
            float(r["advantage_high"]),
        )
        for r in rows
    }
    sides = {n: claims.claim(*v).direction for n, v in ci.items()}

    def one(n: int) -> str:
        est, low, high = ci[n]
        return f"{_pts(est)} points {numbers.signed_interval(low, high)}"

    def size(n: int) -> str:
        est, low, high = ci[n]
        if est < 0:
            low, high = -high, -low
        return f"{abs(100 * est):.1f} points {numbers.interval(low, high)}"

    sizes = sorted(ci)
    if all(s > 0 for s in sides.values()) or all(s < 0 for s in sides.values()):
        verb = "more" if sides[sizes[0]] > 0 else "less"
        if len(sizes) == 1:
            text = (
                f"The first seat wins {size(sizes[0])} {verb} often than its fair share at "
                f"{sizes[0]} players"
            )
        else:
            by_size = sorted(sizes, key=lambda n: abs(ci[n][0]))
            lo, hi = by_size[0], by_size[-1]
            text = (
                f"The first seat wins {verb} often than its fair share at every table size, "
                f"from {size(lo)} at {lo} players to {size(hi)} at {hi}"
            )
    else:
        said = []
        for n in sizes:
            if sides[n]:
                said.append(f"{one(n)} at {n} players")
                continue
            seen = _detectable(ci[n][1], ci[n][2])
            said.append(
                f"no clear advantage at {n} players ({one(n)}"
                + (
                    f"; {numbers.points(seen, signed=False)} would have been detected"
                    if seen
                    else ""
                )
                + ")"
            )
        text = "The first seat against its fair share: " + "; ".join(said)
    last = _last_seat(result, max(sizes))
    # The game's clauses speak of the first seat ("islands differ in it"): before the last.
    return text + "".join(f"; {c}" for c in extra) + (f"; {last}" if last else "") + "."


def _last_seat(result: CohortResult, n: int) -> str:
    """The last seat at ``n`` players when its interval excludes its fair share ("" else)."""
    row = next(
        (
            r
            for r in result.rows("win_rate_by_seat")
            if int(r["n_players"]) == n and int(r["seat"]) == n - 1 and n > 2
        ),
        None,
    )
    if row is None or row["advantage_low"] is None or row["advantage_high"] is None:
        return ""
    est, low, high = (float(row[k]) for k in ("advantage", "advantage_low", "advantage_high"))
    side = claims.claim(est, low, high).direction
    if not side:
        return ""
    shown = numbers.interval(low, high) if side > 0 else numbers.interval(-high, -low)
    return (
        f"the last seat wins {abs(100 * est):.1f} points {shown} "
        f"{'more' if side > 0 else 'less'} often at {n} players"
    )


def _subject(pair: PairResult) -> str:
    p = pair.pairing
    if p.factor == "strategy" and p.changes:
        before, _, after = p.changes[0].partition(" -> ")
        return f"{after} in place of {before}"
    if p.factor == "rules":
        return f"the variant ({'; '.join(p.changes)})"
    return p.factor


def pair_sentence(pair: PairResult, found: Sequence[Finding], leader: str | None) -> str:
    """What a pairing's factor does, from its findings (estimates already oriented as the
    findings state them): to the leader's win share (else the largest change) and the first
    seat's."""
    mine = [f for f in found if f.scope == f"pairing:{pair.pairing.index}"]
    wins = [f for f in mine if f.metric == "paired_win_share" and _bounded(f)]
    subject = _subject(pair)
    clauses = []
    pick = next((f for f in wins if f.group == leader), None)
    if pick is None and wins:
        pick = max(wins, key=lambda f: abs(f.estimate))
    plural = p_plural(pair)
    if pick is not None:
        who = f"the leader {pick.group}'s" if pick.group == leader else f"{pick.group}'s"
        clauses.append(_effect(pick, f"{who} win share", plural))
    seat = next((f for f in mine if f.metric == "paired_first_seat" and _bounded(f)), None)
    if seat is not None:
        said = _effect(seat, "the first seat's", plural)
        if clauses and said.split(" ", 1)[0] == clauses[0].split(" ", 1)[0]:
            said = said.split(" ", 1)[1]  # one verb for both: "lower X by .. and Y by .."
        clauses.append(said)
    if not clauses:
        return ""
    games = max(f.n for f in mine)
    text = f"{subject} " + " and ".join(clauses) + f" (paired, {numbers.count(games)} games)."
    if pair.pairing.factor == "strategy":
        return text  # a strategy keeps its own spelling, even first in a sentence
    return text[:1].upper() + text[1:]


def p_plural(pair: PairResult) -> bool:
    """Whether the pairing's subject takes a plural verb ("curses lower")."""
    return pair.pairing.factor not in ("strategy", "rules")


def _bounded(f: Finding) -> bool:
    return all(math.isfinite(x) for x in (f.estimate, f.low, f.high))


def _effect(f: Finding, what: str, plural: bool = False) -> str:
    said = claims.claim(f.estimate, f.low, f.high)
    size = f"{abs(100 * f.estimate):.1f} points"
    s = "" if plural else "s"
    if said.direction > 0:
        return f"raise{s} {what} by {size} {numbers.interval(f.low, f.high)}"
    if said.direction < 0:
        return f"lower{s} {what} by {size} {numbers.interval(-f.high, -f.low)}"
    seen = _detectable(f.low, f.high)
    could = f"; {numbers.points(seen, signed=False)} would have been detected" if seen else ""
    return (
        f"{'have' if plural else 'has'} no clear effect on {what} ({_pts(f.estimate)} points "
        f"{numbers.signed_interval(f.low, f.high)}{could})"
    )


def _leader(result: CohortResult) -> str | None:
    """The strategy the gaps rank first at the largest table size."""
    tops = [r for r in result.rows("strategy_gaps") if int(r["rank"]) == 1]
    if not tops:
        return None
    return str(max(tops, key=lambda r: int(r["n_players"]))["better"])


def headline(data: ReportData, game: GameClauses | None = None) -> list[str]:
    """One to three sentences for the top of the report (none when the games support no
    figure: no cohort with finished games)."""
    result = primary(data)
    if result is None:
        return []
    clauses = game(data, result) if game is not None else []
    seat_extra = [text for slot, text in clauses if slot == "seat"]
    more = [text for slot, text in clauses if slot == "more"]
    sentences = [strongest_sentence(result), seat_sentence(result, seat_extra)]
    leader = _leader(result)
    for pair in data.pairs:
        if any(r is pair.pairing.a for r in result.cohort.runs):
            sentences.append(pair_sentence(pair, data.findings, leader))
    sentences += more
    out = [s for s in sentences if s][:MAX_SENTENCES]
    if out and len(data.cohorts) > 1 and len(data.pairs) < len(data.cohorts) - 1:
        # Several unpaired cohorts: say which one the headline speaks of.
        out[0] = f"In {cohort_name(result.cohort)}: {out[0][:1].lower()}{out[0][1:]}"
    return out


def cohort_name(cohort: Cohort) -> str:
    return short_label(cohort.first) + (f" [code: {cohort.code}]" if cohort.code else "")


def sweep_headline(rows: Sequence[dict[str, Any]], keys: Sequence[str]) -> list[str]:
    """A sweep's headline: where the first seat's advantage is smallest and largest, and,
    when the grid holds the base rules, the point that changes it most against them (paired on
    the same seeds), or that none clearly does with what the sweep could have detected."""
    if not rows:
        return []

    def name(r: dict[str, Any]) -> str:
        return ", ".join(
            f"{k}={str(r[k]).lower() if isinstance(r[k], bool) else r[k]}" for k in keys
        )

    def adv(r: dict[str, Any]) -> str:
        return (
            f"{_pts(r['first_seat_advantage'])} points "
            f"{numbers.signed_interval(r['first_seat_low'], r['first_seat_high'])}"
        )

    lo = min(rows, key=lambda r: r["first_seat_advantage"])
    hi = max(rows, key=lambda r: r["first_seat_advantage"])
    out = [
        f"Over {len(rows)} rule settings ({numbers.count(rows[0]['games'])} games each, the same "
        f"seeds), the first seat's advantage over its fair share runs from {adv(lo)} at "
        f"{name(lo)} to {adv(hi)} at {name(hi)}."
    ]
    paired = [r for r in rows if r.get("first_seat_vs_base_low") is not None]
    base = next((r for r in paired if r.get("verdict", "").startswith("the base rules'")), None)
    others = [r for r in paired if r is not base]
    if base is not None and others:
        shown = [
            r
            for r in others
            if claims.claim(
                r["first_seat_vs_base"], r["first_seat_vs_base_low"], r["first_seat_vs_base_high"]
            ).direction
        ]
        if shown:
            r = max(shown, key=lambda r: abs(r["first_seat_vs_base"]))
            verb = "lowers" if r["first_seat_vs_base"] < 0 else "raises"
            low, high = r["first_seat_vs_base_low"], r["first_seat_vs_base_high"]
            ci = numbers.interval(-high, -low) if verb == "lowers" else numbers.interval(low, high)
            out.append(
                f"Against the base rules ({name(base)}), {name(r)} {verb} it most, by "
                f"{abs(100 * r['first_seat_vs_base']):.1f} points {ci}; {len(shown)} of "
                f"{len(others)} other settings change it clearly."
            )
        else:
            # The least sensitive setting's: a change that size is found at every setting.
            seen = max(
                (_detectable(r["first_seat_vs_base_low"], r["first_seat_vs_base_high"]) or math.inf)
                for r in others
            )
            could = (
                f"; a change of {numbers.points(seen, signed=False)} at any of them would have "
                "been detected 80% of the time"
                if math.isfinite(seen)
                else ""
            )
            out.append(
                f"No setting clearly changes it against the base rules ({name(base)}){could}."
            )
    shortest = min(rows, key=lambda r: r["mean_turns"])
    longest = max(rows, key=lambda r: r["mean_turns"])
    if shortest is not longest:
        out.append(
            f"Games last {shortest['mean_turns']:.1f} turns "
            f"{numbers.interval(shortest['turns_low'], shortest['turns_high'], scale=1.0)} at "
            f"{name(shortest)} to {longest['mean_turns']:.1f} "
            f"{numbers.interval(longest['turns_low'], longest['turns_high'], scale=1.0)} at "
            f"{name(longest)}."
        )
    return out[:MAX_SENTENCES]
