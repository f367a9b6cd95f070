"""What compare says: hypotheses and verdicts in words and units, bounds read in units."""

from __future__ import annotations

import pytest

from pipelines.report import verdicts
from reports import numbers
from sim.errors import InputError

TURNS = verdicts.metric_info("turns")
FIRST = verdicts.metric_info("first-seat")


def texts(hyps: tuple[verdicts.Hypothesis, ...]) -> list[str]:
    return [h.text for h in hyps]


def test_one_sided_hypotheses_in_words() -> None:
    assert texts(verdicts.one_sided(TURNS, 0, -1)) == [
        "no decrease of 1 turn or more in game length",
        "B shortens games by at least 1 turn",
    ]
    assert texts(verdicts.one_sided(FIRST, 0, 2)) == [
        "no increase of 2 points or more in the first seat's win share",
        "B raises the first seat's win share by at least 2 points",
    ]
    # Hypotheses away from zero: each reads as the region on its side of the other.
    assert texts(verdicts.one_sided(FIRST, -1, 1.5)) == [
        "B lowers the first seat's win share by at least 1 point",
        "B raises the first seat's win share by at least 1.5 points",
    ]
    assert texts(verdicts.one_sided(TURNS, 1, 3)) == [
        "B lengthens games by at most 1 turn, if at all",
        "B lengthens games by at least 3 turns",
    ]
    h0, h1 = verdicts.one_sided(TURNS, 0, -1)
    assert (h0.direction, h1.direction, h1.difference) == (0, -1, -1)


def test_two_sided_hypotheses() -> None:
    h0, up, down = verdicts.two_sided(verdicts.metric_info("win:hunter"), 2)
    assert h0.text == "no difference of 2 points or more in hunter's win share"
    assert up.text == "B raises hunter's win share by at least 2 points" and up.difference == 2
    assert down.text == "B lowers hunter's win share by at least 2 points"
    assert (up.name, down.name, down.direction) == ("H1+", "H1-", -1)


def test_verdict_leads_with_the_interval_and_claims_no_more() -> None:
    hyps = verdicts.one_sided(TURNS, 0, -1.5)
    # The case: H1 (-1.5 turns) preferred, but the interval does not reach 1.5 turns,
    # so only the direction is said.
    text = verdicts.verdict(TURNS, hyps, "H1", -0.86, (-1.15, -0.56), 4000, 2.0)
    assert text == (
        "B shortens games: -0.86 turns [-1.15, -0.56] (B - A, 4,000 games); the test prefers "
        "H1 (-1.5 turns) to H0 (0 turns)"
    )
    assert "at least" not in text
    # A whole interval beyond 1.5 turns may say so.
    text = verdicts.verdict(TURNS, hyps, "H1", -2.0, (-2.4, -1.6), 400, 2.0)
    assert text.startswith("B shortens games by at least 1.5 turns: -2.00 turns [-2.40, -1.60]")
    # Two-sided, -0.84 [-1.36, -0.33]: the interval straddles 1 turn.
    two = verdicts.two_sided(TURNS, 1)
    text = verdicts.verdict(TURNS, two, "H1-", -0.84, (-1.36, -0.33), 800, 2.0)
    assert text == (
        "B shortens games: -0.84 turns [-1.36, -0.33] (B - A, 800 games); the test prefers "
        "H1- (-1 turn) to H0 (0 turns) and H1+ (+1 turn)"
    )
    # Upwards, in points.
    hyps = verdicts.one_sided(FIRST, 0, 2)
    text = verdicts.verdict(FIRST, hyps, "H1", 2.9, (2.1, 3.7), 900, 9.0)
    assert text.startswith(
        "B raises the first seat's win share by at least 2 points: +2.9 points [+2.1, +3.7]"
    )


def test_an_accepted_h0_says_what_the_interval_shows_and_what_could_be_seen() -> None:
    hyps = verdicts.one_sided(TURNS, 0, 1)
    seen = verdicts.detectable(2.0, 500, 8, 0.05, 1, 1.0)
    assert seen is not None
    # 2.486475 * 2 / sqrt(500) = 0.2224; 1 turn: 500 * 0.2224^2 = 24.7 -> 25 blocks.
    assert seen.effect == pytest.approx(0.2224, abs=1e-4) and seen.games == 200
    text = verdicts.verdict(TURNS, hyps, "H0", -1.54, (-1.74, -1.34), 4000, 2.0, seen)
    assert text == (
        "B shortens games: -1.54 turns [-1.74, -1.34] (B - A, 4,000 games); the test prefers "
        "H0 (0 turns) to H1 (+1 turn); the smallest difference this run could detect with 80% "
        "power is 0.22 turns (one-sided 5% test); 1 turn needs about 200 games"
    )
    # An interval that contains 0 claims no direction.
    hyps = verdicts.one_sided(FIRST, 0, 2)
    text = verdicts.verdict(FIRST, hyps, "H0", -1.7, (-4.3, 0.9), 3600, 17.0, seen)
    assert text.startswith(
        "no clear direction: -1.7 points [-4.3, +0.9] (B - A, 3,600 games); the test prefers "
        "H0 (0 points) to H1 (+2 points); the smallest difference"
    )
    # A preferred H1 whose interval contains 0 gets the power too; one outside 0 does not.
    two = verdicts.two_sided(FIRST, 2)
    text = verdicts.verdict(FIRST, two, "H1-", -2.5, (-4.1, 0.2), 800, 17.0, seen)
    assert text.startswith("no clear direction: -2.5 points [-4.1, +0.2]")
    assert "the smallest difference this run could detect" in text
    text = verdicts.verdict(FIRST, two, "H1-", -2.5, (-4.1, -0.9), 800, 17.0, seen)
    assert "could detect" not in text


def test_undecided_says_what_was_not_decided() -> None:
    hyps = verdicts.two_sided(TURNS, 1)
    seen = verdicts.detectable(2.0, 2500, 8, 0.05, 2, 1.0)
    text = verdicts.verdict(TURNS, hyps, "undecided", 0.1, (-0.1, 0.3), 20_000, 2.0, seen)
    assert text == (
        "no clear direction: +0.10 turns [-0.10, +0.30] (B - A, 20,000 games); the test "
        "prefers neither H0 (0 turns) nor H1+ (+1 turn) nor H1- (-1 turn) (--max-games "
        "reached); the smallest difference this run could detect with 80% power is 0.11 turns "
        "(two-sided 5% test); 1 turn needs about 256 games"
    )
    text = verdicts.verdict(TURNS, hyps, "undecided", 0.0, (0.0, 0.0), 160, 0.0)
    assert "every block gave the same difference (+0.00 turns)" in text
    assert verdicts.detectable(0.0, 20, 8, 0.05, 2, 1.0) is None


def test_bounds_are_read_in_the_metrics_units() -> None:
    assert verdicts.parse_bounds("0,2", FIRST) == (0.0, 2.0)
    assert verdicts.parse_bounds(" -1 , 0.5", TURNS) == (-1.0, 0.5)
    for text, message in (
        ("0,0.02", "0,2 means 2 percentage points"),
        ("2,2", "H0 and H1 must differ"),
        ("0,101", "each between -100 and 100"),
        ("0", "give two numbers H0,H1 in points"),
        ("a,b", "give two numbers H0,H1 in points"),
        ("0,nan", "give two numbers H0,H1 in points"),
    ):
        with pytest.raises(InputError, match=message):
            verdicts.parse_bounds(text, FIRST)
    with pytest.raises(InputError, match="in turns"):
        verdicts.parse_bounds("0,0.05", TURNS)
    assert verdicts.check_delta(1.5, TURNS) == 1.5
    for bad in (0.0, -1.0, 0.05, 1000.0, float("nan")):
        with pytest.raises(InputError, match="--delta"):
            verdicts.check_delta(bad, FIRST)
    with pytest.raises(InputError, match="--plan 0 is not allowed"):
        verdicts.check_effect(0.0, TURNS)


def test_amounts_and_signed_intervals_for_people() -> None:
    assert numbers.amount(1.0, "turns", "turn") == "1 turn"
    assert numbers.amount(2.0, "points", "point") == "2 points"
    assert numbers.amount(0.25, "points", "point") == "0.25 points"
    assert numbers.amount(1234.5, "turns") == "1,234.5 turns"
    assert numbers.amount(-0.001, "turns") == "0 turns"
    assert numbers.signed_interval(-0.043, 0.009) == "[-4.3, +0.9]"
    assert numbers.signed_interval(-1.74, -1.34, scale=1, digits=2) == "[-1.74, -1.34]"
