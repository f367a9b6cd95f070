"""What a sentence may claim from an estimate and its 95% interval."""

from __future__ import annotations

import math

from pipelines.report.claims import Claim, claim, phrase, strongest


def turns(x: float) -> str:
    return f"{x:g} turns"


def say(c: Claim) -> str:
    return phrase(c, "B lengthens games", "B shortens games", turns, "no clear direction")


def test_a_size_only_when_the_whole_interval_lies_beyond_it() -> None:
    # Wholly beyond -1.5: the size may be said.
    assert claim(-2.0, -2.4, -1.6, -1.5) == Claim(-1, 1.5)
    assert say(claim(-2.0, -2.4, -1.6, -1.5)) == "B shortens games by at least 1.5 turns"
    assert claim(2.0, 1.6, 2.4, 1.5) == Claim(1, 1.5)
    assert say(claim(2.0, 1.6, 2.4, 1.5)) == "B lengthens games by at least 1.5 turns"
    # The case: -0.86 [-1.15, -0.56] against 1.5 turns is only a direction.
    assert claim(-0.86, -1.15, -0.56, -1.5) == Claim(-1, None)
    assert say(claim(-0.86, -1.15, -0.56, -1.5)) == "B shortens games"
    # Straddling the threshold (the two-sided case -0.84 [-1.36, -0.33] against 1 turn).
    assert claim(-0.84, -1.36, -0.33, -1.0) == Claim(-1, None)
    assert claim(1.2, 0.8, 1.6, 1.0) == Claim(1, None)
    # A threshold on the other side says nothing of the size.
    assert claim(-2.0, -2.4, -1.6, 1.0) == Claim(-1, None)


def test_no_direction_when_the_interval_contains_zero() -> None:
    for low, high in ((-0.4, 0.2), (-0.2, 0.4), (0.0, 0.5), (-0.5, 0.0)):
        c = claim((low + high) / 2, low, high, -1.0)
        assert c == Claim(0, None)
        assert say(c) == "no clear direction"


def test_nothing_from_an_interval_that_is_not_one() -> None:
    assert claim(0.3, -math.inf, math.inf, 1.0) == Claim(0)
    assert claim(math.nan, 0.1, 0.5) == Claim(0)
    # An estimate outside its own interval is an error upstream, not a finding.
    assert claim(0.9, 0.1, 0.5) == Claim(0)


def test_strongest_takes_the_largest_size_the_interval_clears() -> None:
    assert strongest(3.5, 3.2, 3.8, [1.0, 3.0, -1.0]) == Claim(1, 3.0)
    assert strongest(2.0, 1.2, 2.8, [1.0, 3.0]) == Claim(1, 1.0)
    assert strongest(0.6, 0.2, 1.0, [1.0, 3.0]) == Claim(1, None)
    assert strongest(0.1, -0.2, 0.4, [1.0]) == Claim(0, None)
