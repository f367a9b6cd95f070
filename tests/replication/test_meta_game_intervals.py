"""How often the meta-game's bootstrap intervals hold the true mix, and how often its words
("outside the mix") are wrong, on synthetic pools whose true meta-game is known
(:mod:`tests.replication.meta_game`): a Nash mix at 2 players beside a strategy just outside
it, and an alpha-Rank mix at 3 players.

Percentile intervals of an equilibrium are not exact: the mix is not a smooth function of the
payoffs where a strategy is about to enter it, so beside such a strategy they cover a little
less than their 95% (93.4% for the most exposed share at 2 players over 1,700 studies at 400
blocks a pair, 91.0% in the 400 studies below; 92-99% everywhere else measured, as
docs/reports.md says). The bars are set below those figures and above what a broken interval
gives (one of half the width covers about 70%). Each setting is 400 studies of 200 bootstrap
solves."""

from __future__ import annotations

import pytest

from tests.replication.meta_game import coverage, five_at_three, rps_with_a_loser

STUDIES = 400


@pytest.mark.replication
@pytest.mark.parametrize("blocks", [50, 400])
def test_nash_mix_intervals_cover(blocks: int) -> None:
    c = coverage(rps_with_a_loser(), blocks, STUDIES, seed=blocks)
    assert (c.covered >= 0.90).all(), c
    # The three strategies of the true mix are never called outside it (at most 5% of
    # studies, the bar the words are set to).
    assert (c.outside[:3] <= 0.05).all(), c
    if blocks == 400:
        # With 400 blocks a pair, the loser is told apart from the mix in most studies.
        assert c.outside[3] >= 0.8, c


@pytest.mark.replication
@pytest.mark.parametrize("blocks", [50, 400])
def test_alpha_rank_mix_intervals_cover(blocks: int) -> None:
    c = coverage(five_at_three(), blocks, STUDIES, seed=1_000 + blocks)
    assert (c.covered >= 0.92).all(), c
    assert (c.outside == 0).all(), c
