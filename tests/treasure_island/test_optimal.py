"""The exact single-turn stopping reference against a brute force over the pile's cards and
a hand-computed case; and the stopping rules' thresholds."""

from __future__ import annotations

import random
from functools import cache

from sim.treasure_island.cards import ANCHOR, KIND, N_CARDS, N_KINDS, PER_KIND, RUM
from sim.treasure_island.view import PlayerView
from strategies.treasure_island.optimal import OptimalStopping, TurnProblem
from strategies.treasure_island.powers import gain
from strategies.treasure_island.stopping import BustThreshold, ExpectedValue, StopAt
from tests.treasure_island.scenario import cards, make_game


def brute_draw_value(view: PlayerView, pile: list[int]) -> float:
    """Drawing now, then playing the turn optimally, by plain recursion over card sets."""
    mine = view.my_stash
    rum_cards = view.rules.rum_cards
    area = view.area
    bank0 = sum(gain(mine, c) for c in area)
    safe0 = sum(gain(mine, c) for c in area[: view.anchor_at]) if view.anchor_at > 0 else 0

    @cache
    def value(kinds: int, bank: int, safe: int, rum: int, left: frozenset[int]) -> float:
        if not left:
            return bank
        best = draw(kinds, bank, safe, rum, left)
        return best if rum else max(bank, best)

    def draw(kinds: int, bank: int, safe: int, rum: int, left: frozenset[int]) -> float:
        total = 0.0
        for c in left:
            k = KIND[c]
            if kinds >> k & 1:
                total += safe
                continue
            total += value(
                kinds | 1 << k,
                bank + gain(mine, c),
                bank if k == ANCHOR else safe,
                rum_cards if k == RUM else max(0, rum - 1),
                left - {c},
            )
        return total / len(left)

    return draw(view.area_kinds, bank0, safe0, view.rum_pending, frozenset(pile))


class ValueProbe(OptimalStopping):
    """Records the exact and the brute-force value of drawing, then plunders."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.values: list[tuple[float, float]] = []

    def keep_drawing(self, view: PlayerView) -> bool:
        bank, safe = self._banked(view)
        exact = TurnProblem(view).draw_value(view.area_kinds, bank, safe, 0)
        pile = [c for c in range(N_CARDS) if view.pile_mask >> c & 1]
        self.values.append((exact, brute_draw_value(view, pile)))
        return False


class DecisionProbe(OptimalStopping):
    """Records the strategy's draw-or-plunder answers, then plunders."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.seen: list[bool] = []

    def keep_drawing(self, view: PlayerView) -> bool:
        self.seen.append(super().keep_drawing(view))
        return False


def test_turn_problem_matches_the_brute_force_on_small_piles() -> None:
    rng = random.Random(7)
    checked = 0
    while checked < 60:
        deck = rng.sample(range(N_CARDS), 12)
        first, pile, mine = deck[0], deck[1:9], deck[9:12]
        game, _ = make_game(["plunder"], [])
        game.arrange([first, *pile], stashes=[mine])
        probe = ValueProbe(rng)
        game.strategies[0] = probe
        game.play_turn(0)
        for exact, brute in probe.values:
            assert abs(exact - brute) < 1e-9
            checked += 1


def test_a_hand_computed_stopping_decision() -> None:
    # Play area: a Parrot 5 (banks 5). Pile: Parrot 6 and Knife 7. Drawing: half the time a
    # bust (0), half the time the Knife (5 + 7 = 12, then the Parrot left busts surely, so
    # stop): 6 > 5, draw. With a Parrot 9 in play (banks 9): 0.5 * 16 = 8 < 9, stop.
    for first, draws in (("parrot 5", True), ("parrot 9", False)):
        game, (_p0, _) = make_game([], [])
        game.arrange(cards(first, "parrot 6", "knife 7"))
        probe = DecisionProbe(random.Random(0))
        game.strategies[0] = probe
        game.play_turn(0)
        assert probe.seen == [draws]


def test_stopping_rules_follow_their_parameters() -> None:
    game, _ = make_game([], [])
    game.arrange(cards("parrot 5", "key 3", "chest 4", "knife 5"))
    view = game.views[0]
    game.area = cards("parrot 5", "key 3")
    game.area_kinds = (1 << KIND[game.area[0]]) | (1 << KIND[game.area[1]])
    game.busting = 0
    game.pile = cards("key 2", "chest 4")  # the key 2 is on top; the key busts
    game.pile_piles = [0] * N_KINDS
    for c in game.pile:
        game.pile_piles[KIND[c]] |= 1 << (c % PER_KIND)
    rng = random.Random(0)
    assert StopAt(rng, n=3).keep_drawing(view) and not StopAt(rng, n=2).keep_drawing(view)
    game.busting = 1  # one of the two cards left busts: chance 0.5
    assert BustThreshold(rng, threshold=0.5).keep_drawing(view)
    assert not BustThreshold(rng, threshold=0.4).keep_drawing(view)
    # Expected value: the safe card is worth 4 (chest), at risk 5 + 3 + 2 * 0.5 = 9:
    # 0.5 * 4 * k > 0.5 * 9 needs k > 2.25.
    assert not ExpectedValue(rng, k=2.0).keep_drawing(view)
    assert ExpectedValue(rng, k=2.5).keep_drawing(view)
