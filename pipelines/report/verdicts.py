"""What ``tourney compare`` tests and says, in the metric's own units and in words.

Owns each metric's quantity, unit and default bounds (:func:`metric_info`), the reading of
``--bounds``, ``--delta`` and ``--plan`` values in those units, the hypotheses in numbers and
words (:func:`one_sided`, :func:`two_sided`), and the verdict sentence (:func:`verdict`): the
estimate with its 95% interval and the games first, said only as far as the interval goes
(:mod:`pipelines.report.claims`), then which hypothesis the test prefers in its own terms, and
beside
an accepted H0, an undecided test or an interval that contains 0 the smallest difference the
run could have detected (:mod:`pipelines.stats.power`). Everything here is a pure function of
numbers; :mod:`pipelines.experiments.compare` runs the games and the test.

Units: win shares (``first-seat``, ``win:NAME``, ``candidate``) differ in percentage points,
game length (``turns``) in turns (one player's turn). Default bounds, and why:

* win shares, 2 points: the smallest shift the default budget (``--max-games`` 20,000) still
  decides in the worst case. The paired difference of a Tobago block (4 games under A, 4 under
  B) has a standard deviation of 17 to 32 points (bga 17, no amulets or no curses 28, hand
  size 5 32, measured with ``--plan``); the SPRT's longest average run, at a true difference
  halfway between the hypotheses, is about ``2.94^2 * sd^2 / delta^2`` blocks: 5,000 to
  17,000 games at 2 points, four times that at 1 point (design §7: +-1 point needs ~10k games
  fixed). 2 points is also 8% of a 4-player game's fair share of 25%;
* turns, 1 turn: the unit of the game's length (Tobago games last about 33 turns with the
  default players, Treasure Island about 20); the paired sd per block is 1 to 3 turns, so
  a test takes a few hundred games.

The default one-sided test is H0: B - A = 0 against H1: B - A = +delta ("B raises the metric");
``--bounds 0,-D`` asks about the other direction, ``--two-sided`` about either.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from pipelines.report import claims
from pipelines.stats import power
from reports import numbers
from sim.errors import InputError
from sim.runner.games import GAMES


@dataclass(frozen=True)
class Metric:
    """A compare metric: what it measures, in which unit its differences are given, and how a
    change in it is said."""

    name: str
    #: What the metric measures, as a noun phrase ("game length").
    quantity: str
    unit: str
    singular: str
    #: Units per raw value (a win share of 0.01 is 1 point).
    scale: float
    #: Decimals of estimates and intervals.
    digits: int
    #: Default distance between the hypotheses, in units (see the module docstring).
    default_delta: float
    #: The smallest distance between hypotheses accepted, in units.
    min_delta: float
    #: The largest difference the metric can show, in units.
    max_abs: float
    #: "B <up> by at least 2 points": what B does when the metric rises, and when it falls.
    up: str
    down: str

    def amount(self, x: float) -> str:
        """A magnitude in units: ``2 points``, ``1 turn``."""
        return numbers.amount(abs(x), self.unit, self.singular)

    def difference(self, x: float) -> str:
        """A signed estimate in units: ``-1.54 turns``, ``+0.3 points``."""
        return f"{numbers.number(x, self.digits, signed=True)} {self.unit}"

    def interval(self, low: float, high: float) -> str:
        """An interval in units, in brackets: ``[-1.74, -1.34]``."""
        return numbers.signed_interval(low, high, scale=1.0, digits=self.digits)


SHARE_METRICS = ("first-seat", "candidate")


def metric_info(name: str) -> Metric:
    """The description of ``first-seat``, ``turns``, ``candidate`` or ``win:NAME``."""
    if name == "turns":
        return Metric(
            name, "game length", "turns", "turn", 1.0, 2, 1.0, 0.1, math.inf,
            "lengthens games", "shortens games",
        )  # fmt: skip
    if name == "first-seat":
        quantity = "the first seat's win share"
        up, down = f"raises {quantity}", f"lowers {quantity}"
    elif name == "candidate":
        quantity = "the candidate's win share against the field"
        up, down = "wins a larger share than A against the field", "wins a smaller share than A"
        down += " against the field"
    elif name.startswith("win:"):
        quantity = f"{name[4:]}'s win share"
        up, down = f"raises {quantity}", f"lowers {quantity}"
    else:
        raise ValueError(name)
    return Metric(name, quantity, "points", "point", 100.0, 1, 2.0, 0.1, 100.0, up, down)


@dataclass(frozen=True)
class Hypothesis:
    """One hypothesis about ``B - A``: its name (``H0``, ``H1``, ``H1+``, ``H1-``), the
    difference it sets, in units, the direction it claims (+1 B higher, -1 B lower, 0 neither)
    and its statement in words."""

    name: str
    difference: float
    direction: int
    text: str


def _statement(metric: Metric, value: float, other: float) -> tuple[str, int]:
    """The hypothesis ``B - A = value`` against ``B - A = other`` read as the region on its
    side (``>= value`` when ``value > other``), in words, with the direction it claims."""
    upper = value > other
    if value == 0:
        change = "increase" if other > 0 else "decrease"
        return f"no {change} of {metric.amount(other)} or more in {metric.quantity}", 0
    verb = metric.up if value > 0 else metric.down
    if upper == (value > 0):  # the side away from zero: a change of at least |value|
        return f"B {verb} by at least {metric.amount(value)}", 1 if value > 0 else -1
    return f"B {verb} by at most {metric.amount(value)}, if at all", 0


def one_sided(metric: Metric, h0: float, h1: float) -> tuple[Hypothesis, Hypothesis]:
    """H0: ``B - A = h0`` against H1: ``B - A = h1`` (units), with their statements."""
    t0, d0 = _statement(metric, h0, h1)
    t1, d1 = _statement(metric, h1, h0)
    return Hypothesis("H0", h0, d0, t0), Hypothesis("H1", h1, d1, t1)


def two_sided(metric: Metric, delta: float) -> tuple[Hypothesis, Hypothesis, Hypothesis]:
    """H0: no difference against a difference of at least ``delta`` either way (units)."""
    amount = metric.amount(delta)
    return (
        Hypothesis("H0", 0.0, 0, f"no difference of {amount} or more in {metric.quantity}"),
        Hypothesis("H1+", delta, 1, f"B {metric.up} by at least {amount}"),
        Hypothesis("H1-", -delta, -1, f"B {metric.down} by at least {amount}"),
    )


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def parse_bounds(text: str, metric: Metric) -> tuple[float, float]:
    """``--bounds H0,H1`` in the metric's units; ``InputError`` says what is allowed."""
    allowed = (
        f"two numbers H0,H1 in {metric.unit}: the B - A difference under each hypothesis, "
        f"at least {metric.amount(metric.min_delta)} apart"
    )
    if metric.max_abs < math.inf:
        allowed += f", each between -{metric.max_abs:g} and {metric.max_abs:g}"
    parts = [_number(x) for x in text.split(",")]
    values = [x for x in parts if x is not None]
    if len(parts) != 2 or len(values) != 2:
        raise InputError(
            f"--bounds {text!r} is not allowed: give {allowed}, e.g. 0,{metric.default_delta:g}"
        )
    h0, h1 = values
    if h0 == h1:
        raise InputError(f"--bounds {text!r}: H0 and H1 must differ ({allowed})")
    if abs(h1 - h0) < metric.min_delta:
        hint = " (win shares are given in points: 0,2 means 2 percentage points)"
        raise InputError(
            f"--bounds {text!r} is not allowed: give {allowed}"
            + (hint if metric.unit == "points" else "")
        )
    if max(abs(h0), abs(h1)) > metric.max_abs:
        raise InputError(f"--bounds {text!r} is not allowed: give {allowed}")
    return h0, h1


def check_delta(value: float, metric: Metric) -> float:
    """``--delta`` of a two-sided test: a positive difference in units within range."""
    if not math.isfinite(value) or not metric.min_delta <= value <= metric.max_abs:
        top = "" if metric.max_abs == math.inf else f" and at most {metric.max_abs:g}"
        raise InputError(
            f"--delta {value:g} is not allowed: give the smallest difference either way that "
            f"matters, in {metric.unit}, at least {metric.min_delta:g}{top}"
        )
    return value


def check_effect(value: float, metric: Metric) -> float:
    """``--plan EFFECT``: a non-zero difference in units within range."""
    if not math.isfinite(value) or value == 0 or abs(value) > metric.max_abs:
        top = "" if metric.max_abs == math.inf else f", between -{metric.max_abs:g} and "
        top += "" if metric.max_abs == math.inf else f"{metric.max_abs:g}"
        raise InputError(
            f"--plan {value:g} is not allowed: give a non-zero B - A difference to detect, in "
            f"{metric.unit}{top}"
        )
    return value


def direction(low: float, high: float) -> int:
    """+1 when the interval lies above 0 (B higher), -1 below, 0 when it includes 0."""
    return claims.claim((low + high) / 2, low, high).direction


@dataclass(frozen=True)
class Detectable:
    """What the run could have seen: the smallest difference (units) a fixed-size test at
    the run's level and sidedness detects with ``power`` from the run's own standard error,
    and the games a run like it needs to detect ``target`` (the test's distance between the
    hypotheses) with that power."""

    effect: float
    power: float
    alpha: float
    sides: int
    target: float
    games: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "detectable_effect": self.effect,
            "power": self.power,
            "power_alpha": self.alpha,
            "sides": self.sides,
            "games_for_effect": {"effect": self.target, "games": self.games},
        }


#: The power figures of a run without a spread to compute them from.
NOT_DETECTABLE: dict[str, Any] = {
    "detectable_effect": None,
    "power": power.POWER,
    "power_alpha": None,
    "sides": None,
    "games_for_effect": None,
}


def detectable(
    sd: float, blocks: int, games_per_block: int, alpha: float, sides: int, target: float
) -> Detectable | None:
    """:class:`Detectable` from the per-block sd over ``blocks`` (None without a spread)."""
    if blocks < 2 or not sd > 0:
        return None
    se = sd / math.sqrt(blocks)
    mde = power.detectable_effect(se, alpha, power.POWER, sides)
    games = power.games_for_effect(
        target, se, blocks * games_per_block, alpha, power.POWER, sides, games_per_block
    )
    if mde is None or games is None:
        return None
    return Detectable(mde, power.POWER, alpha, sides, abs(target), games)


def _could_detect(metric: Metric, seen: Detectable) -> str:
    test = f"{'one' if seen.sides == 1 else 'two'}-sided {numbers.pct(seen.alpha, 0)} test"
    return (
        f"the smallest difference this run could detect with {numbers.pct(seen.power, 0)} "
        f"power is {metric.amount(seen.effect)} ({test}); {metric.amount(seen.target)} needs "
        f"about {numbers.count(seen.games)} games"
    )


def preference(metric: Metric, hypotheses: tuple[Hypothesis, ...], decision: str) -> str:
    """Which hypothesis the test prefers, in the test's own terms: "the test prefers H1
    (-1.5 turns) to H0 (0 turns)", or "prefers neither" when undecided."""

    def named(h: Hypothesis) -> str:
        return f"{h.name} ({_signed_amount(metric, h.difference)})"

    if decision == "undecided":
        return "the test prefers neither " + " nor ".join(named(h) for h in hypotheses)
    chosen = next(h for h in hypotheses if h.name == decision)
    others = " and ".join(named(h) for h in hypotheses if h is not chosen)
    return f"the test prefers {named(chosen)} to {others}"


def verdict(
    metric: Metric,
    hypotheses: tuple[Hypothesis, ...],
    decision: str,
    estimate: float,
    interval: tuple[float, float],
    games: int,
    sd: float,
    seen: Detectable | None = None,
) -> str:
    """The verdict in words: what the 95% interval supports with the estimate and the
    interval first (a size only when the whole interval lies beyond it, see
    :mod:`pipelines.report.claims`), then which hypothesis the test prefers in its own terms, and
    beside an accepted H0, an undecided test or an interval that contains 0, the difference
    the run could have detected (``seen``)."""
    low, high = interval
    if decision == "undecided" and sd == 0:
        return (
            f"undecided after {numbers.count(games)} games: every block gave the same "
            f"difference ({metric.difference(estimate)}), so the test has nothing to weigh "
            "the hypotheses with (do A and B play the same games?)"
        )
    figures = f"{metric.difference(estimate)} {metric.interval(low, high)}"
    sizes = [h.difference for h in hypotheses if h.difference]
    said = claims.phrase(
        claims.strongest(estimate, low, high, sizes),
        f"B {metric.up}",
        f"B {metric.down}",
        metric.amount,
        "no clear direction",
    )
    text = f"{said}: {figures} (B - A, {numbers.count(games)} games); "
    text += preference(metric, hypotheses, decision)
    if decision == "undecided":
        text += " (--max-games reached)"
    if seen is not None and (decision in ("H0", "undecided") or not direction(low, high)):
        text += f"; {_could_detect(metric, seen)}"
    return text


def _signed_amount(metric: Metric, x: float) -> str:
    return ("+" if x > 0 else "") + numbers.amount(x, metric.unit, metric.singular)


def _rules_value(v: Any) -> str:
    """A rules value as a rules file writes it (``true``, ``4``, ``[2, 3]``)."""
    return str(v).lower() if isinstance(v, bool) else str(v)


def _field_lines(f: dict[str, Any]) -> list[str]:
    a, b = f["rules_a"], f["rules_b"]
    changes = ", ".join(
        f"{k} {_rules_value(va)} -> {_rules_value(vb)}" for k, (va, vb) in b["changes"].items()
    )
    b_text = f"{b['name']} ({changes})" if changes else f"{b['name']} (the same rules as A)"
    if "opponents" in f:
        out = [
            f"  A: {f['a']}, B: {f['b']}, each against {', '.join(f['opponents'])} in every "
            "seat rotation of each deal",
            f"  rules: {a['name']}" + ("" if a["hash"] == b["hash"] else f"; B: {b_text}"),
        ]
    elif "players_b" in f:
        out = [
            f"  A: {', '.join(f['players_a'])}",
            f"  B: {', '.join(f['players_b'])} (seat for seat), in every seat rotation of "
            "each deal",
            f"  rules: {a['name']}",
        ]
    else:
        out = [
            f"  A: {a['name']}",
            f"  B: {b_text}",
            f"  players: {', '.join(f['players'])}, in every seat rotation of each deal",
        ]
    islands = f.get("islands")
    if islands:
        kind = GAMES.get(str(f.get("game")))
        words = kind.board_words() if kind is not None else None
        plural = words[1] if words else "boards"
        shown = ", ".join(islands) if len(islands) <= 4 else f"{len(islands)} {plural}"
        out.append(f"  {plural}: {shown}")
    return out


def lines(result: dict[str, Any]) -> list[str]:
    """A compare result for people: the verdict first, then what was measured and tested,
    then the field."""
    metric = metric_info(result["metric"])
    llrs = result["llr"]
    if len(llrs) == 1:
        llr = f"{next(iter(llrs.values())):+.2f}"
        test = f"one-sided SPRT, alpha = {result['alpha']:g}, beta = {result['beta']:g}"
    else:
        llr = ", ".join(f"{name} {value:+.2f}" for name, value in llrs.items())
        test = (
            f"two-sided: two one-sided SPRTs at alpha/2 each, alpha = {result['alpha']:g}, "
            f"beta = {result['beta']:g}"
        )
    lo_b, hi_b = result["llr_bounds"]
    # What could make the verdict wrong comes before it.
    out = [f"warning: {w}" for w in result.get("warnings", ())]
    out += [
        result["verdict"],
        f"  measured: {metric.quantity}, B - A in {metric.unit}"
        f"{' per game' if metric.unit == 'turns' else ''}, on {numbers.count(result['blocks'])} "
        f"blocks = {numbers.count(result['games'])} games; estimate and 95% interval: "
        f"{result['estimate_method']}",
    ]
    # Where the stop selected nothing the naive figures are the ones above.
    naive = (
        f"{metric.difference(result['naive_estimate'])} "
        f"{metric.interval(*result['naive_interval'])}"
    )
    if naive != f"{metric.difference(result['estimate'])} {metric.interval(*result['interval'])}":
        out.append(
            f"  naive mean and Student's t interval, not valid after a sequential stop: {naive}"
        )
    out += [
        f"  test: {test}; LLR {llr} (bounds {lo_b:+.2f}, {hi_b:+.2f})",
    ]
    out += [
        f"    {h['name']}: {h['text']} (B - A = {_signed_amount(metric, h['difference'])})"
        for h in result["hypotheses"]
    ]
    return out + _field_lines(result["field"])


def plan_lines(result: dict[str, Any]) -> list[str]:
    """A ``--plan`` result for people, in the metric's units."""
    metric = metric_info(result["metric"])
    return [
        f"a fixed-size two-sided test at alpha {result['alpha']:g} needs "
        f"{numbers.count(result['blocks'])} blocks = {numbers.count(result['games'])} games to "
        f"detect a difference of {metric.amount(result['effect'])} in {metric.quantity} (B - A) "
        f"with {numbers.pct(result['power'], 0)} power",
        f"  pilot: {numbers.count(result['pilot_blocks'])} blocks = "
        f"{numbers.count(result['pilot_games'])} games; sd of B - A per block "
        f"{numbers.amount(result['sd_per_block'], metric.unit, metric.singular)}; estimate so "
        f"far {metric.difference(result['pilot_estimate'])}",
        *_field_lines(result["field"]),
    ]
