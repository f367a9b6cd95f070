"""Property tests over many random games: the 60 cards conserved, stashes consistent,
games end within the pile, determinism, and busts at their exact chance."""

from __future__ import annotations

import dataclasses
import math
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.treasure_island.cards import ALL_CARDS_MASK, KIND, PER_KIND, TOP_VALUE
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.movelog import CODE
from sim.treasure_island.rules import preset
from strategies.registry import REGISTRIES, parse_strategy

TREASURE_ISLAND = REGISTRIES["treasure-island"]


FAST = ["random", "stop-at(n=2)", "stop-at(n=5)", "bust-threshold(threshold=0.4)",
        "expected-value(k=2)", "bust-threshold", "expected-value"]  # fmt: skip


def check(game: TreasureIslandGame) -> None:
    """Every card in exactly one place; scores and counts match the stashes."""
    masks = [game.pile_mask, game.discard_mask]
    for seat in range(game.n):
        m = 0
        for kind, pile in enumerate(game.stash[seat]):
            m |= pile << (kind * PER_KIND)
        masks.append(m)
        assert game.points[seat] == sum(TOP_VALUE[k][p] for k, p in enumerate(game.stash[seat]))
        assert game.cards[seat] == m.bit_count()
        assert game.stash_kinds[seat] == sum(1 << k for k, p in enumerate(game.stash[seat]) if p)
    assert sum(x.bit_count() for x in masks) == 60
    union = 0
    for x in masks:
        union |= x
    assert union == ALL_CARDS_MASK
    assert len(game.discard) == game.discard_mask.bit_count()
    # The pile's make-up kept per kind is the make-up of the pile's cards, and the count of
    # busting cards matches the play area's kinds.
    assert game.pile_mask == sum(1 << c for c in game.pile)
    assert game.busting == sum(1 for c in game.pile if game.area_kinds >> KIND[c] & 1)


class Checked(TreasureIslandGame):
    """Checks the invariants after every turn."""

    def play_turn(self, seat: int) -> None:
        super().play_turn(seat)
        check(self)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    players=st.lists(st.sampled_from(FAST), min_size=2, max_size=4),
    characters=st.booleans(),
    rum=st.integers(0, 3),
    candle=st.integers(1, 5),
    anchored=st.booleans(),
    knife=st.booleans(),
)
def test_random_games_conserve_cards_and_end(
    seed: int, players: list[str], characters: bool, rum: int, candle: int, anchored: bool,
    knife: bool,
) -> None:  # fmt: skip
    rules = dataclasses.replace(
        preset("standard"),
        characters=characters,
        rum_cards=rum,
        candle_reveal=candle,
        key_chest_on_anchored_bust=anchored,
        knife_checks_play_area=knife,
    )
    factories = [parse_strategy(p, "treasure-island").factory() for p in players]
    game = Checked(rules, factories, seed, strict=True)
    result = game.play()
    check(game)
    assert not game.pile and not result.truncated and result.turns <= 50
    assert sum(result.win_shares) == 1.0 or math.isclose(sum(result.win_shares), 1.0)
    again = TreasureIslandGame(rules, factories, seed)
    again.play()
    assert again.log == game.log


@pytest.mark.parametrize(
    "name",
    # The optimal player solves each turn exactly, tens of seconds of CPU a game: its games
    # are played once for its tests (test_optimal_games). ``ismcts`` plays random games in
    # its own tests (test_ismcts).
    [n for n in TREASURE_ISLAND if n not in ("optimal", "ismcts")],
)
def test_every_registered_strategy_plays_legal_answers(name: str) -> None:
    factories = [parse_strategy(name, "treasure-island").factory()] * 2
    for seed in range({"pimc": 3}.get(name, 30)):
        TreasureIslandGame(preset("characters"), factories, seed, strict=True).play()


def _bust_tallies(games: int) -> dict[int, list[float]]:
    """Per kinds in play: [busts, sum of exact chances, sum of variances, draws] over the
    blind draws of independent games, read back from the move logs as the runner does."""
    draw_codes = {CODE["draw"], CODE["draw_forced"]}
    known = CODE["draw_known"]
    rng = random.Random(4)
    lineups: list[Any] = [
        [parse_strategy(p, "treasure-island").factory() for p in rng.sample(FAST, n)]
        for n in (2, 3, 4)
    ]
    tallies: dict[int, list[float]] = {}
    for seed in range(games):
        game = TreasureIslandGame(preset("standard"), lineups[seed % 3], 10_000 + seed)
        game.play()
        log = game.log
        pile = 50
        for i in range(0, len(log), 6):
            kind = log[i + 2]
            if kind == known:
                pile -= 1
            elif kind in draw_codes:
                m, busting = log[i + 4], log[i + 5]
                bust = i + 6 < len(log) and log[i + 8] == CODE["bust"]
                p = busting / pile
                t = tallies.setdefault(m, [0.0, 0.0, 0.0, 0.0])
                t[0] += bust
                t[1] += p
                t[2] += p * (1 - p)
                t[3] += 1
                pile -= 1
    return tallies


def test_busts_happen_at_their_exact_chance() -> None:
    tallies = _bust_tallies(4000)
    total = [0.0, 0.0, 0.0]
    for m, (busts, expected, variance, draws) in tallies.items():
        if variance > 0:
            z = (busts - expected) / math.sqrt(variance)
            assert abs(z) < 4.5, (m, busts, expected, draws)
        total = [total[0] + busts, total[1] + expected, total[2] + variance]
    assert abs(total[0] - total[1]) / math.sqrt(total[2]) < 4.0
    assert tallies[1][3] > 10_000 and tallies[4][3] > 1_000


def test_the_documented_plug_in_plays() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "strategies.md").read_text()
    source = (Path(__file__).parents[2] / "strategies" / "examples" / "push_until.py").read_text()
    body = source[source.index("import random") :]
    assert body.strip() in doc.replace("```", "")
    spec = parse_strategy("strategies.examples.push_until:PushUntil(points=12)", "treasure-island")
    game = TreasureIslandGame(preset("standard"), [spec.factory()] * 3, 1, strict=True)
    assert not game.play().truncated
