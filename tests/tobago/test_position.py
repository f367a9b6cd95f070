"""Tobago positions rebuilt from a view: a determinization agrees with the real game on every
public fact and deals the hidden ones consistently; a game played on from a copy of the true
state ends as the real one did; and ``pimc`` answers the same whatever the hidden facts."""

from __future__ import annotations

import copy
import math
import random
from collections import Counter
from typing import Any

import pytest

from sim.tobago import decisions
from sim.tobago.catalog import resolve_board
from sim.tobago.engine import TobagoGame
from sim.tobago.modular import island_names
from sim.tobago.position import copy_state, determinize, game_at
from sim.tobago.rules import preset
from sim.tobago.state import CURSE, GameState
from sim.tobago.view import PlayerView
from strategies.tobago.pimc import Pimc
from strategies.tobago.random_player import RandomPlayer
from strategies.tobago.styles import Cautious, Collector, Hunter

PUBLIC = (
    "turn",
    "current",
    "atv",
    "roses",
    "amulets",
    "amulet_board",
    "amulet_stack",
    "facings",
    "map_cards",
    "map_roses",
    "map_cand",
    "public_events",
)


class Probe:
    """Plays like ``inner``; at the first turn decision of its ``at``-th turn calls
    ``check(real game, view, decision)`` once."""

    def __init__(self, inner: Any, at: int, box: list[Any], check: Any) -> None:
        self.inner = inner
        self.at = at
        self.turns = -1
        self.box = box
        self.check = check
        self.last_turn = -1
        self.done = False

    @property
    def rng(self) -> Any:
        return self.inner.rng

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        if decision.kind == decisions.TURN and view.turn != self.last_turn:
            self.last_turn = view.turn
            self.turns += 1
            if self.turns == self.at and not self.done:
                self.done = True
                self.check(self.box[0], view, decision)
        return self.inner.decide(view, decision)


def _game(seed: int, rules_name: str, check: Any, inner: Any = None) -> tuple[TobagoGame, Probe]:
    pick = random.Random(seed)
    n = pick.choice([2, 3, 4])
    island = island_names()[seed % len(island_names())]
    box: list[Any] = []
    probes: list[Probe] = []
    styles = [Hunter, Cautious, Collector, RandomPlayer]

    def probe(rng: random.Random) -> Probe:
        probes.append(Probe((inner or pick.choice(styles))(rng), 2 + seed % 7, box, check))
        return probes[0]

    factories = [probe] + [pick.choice(styles) for _ in range(n - 1)]
    game = TobagoGame(preset(rules_name), resolve_board(island), factories, seed)
    box.append(game)
    return game, probes[0]


def _treasure_piles(s: GameState) -> list[list[int]]:
    return [sorted(t) for t in s.treasures]


@pytest.mark.parametrize("rules_name", ["rulebook", "bga"])
@pytest.mark.parametrize("seed", range(16))
def test_a_determinization_agrees_with_every_public_fact(rules_name: str, seed: int) -> None:
    seen: list[GameState] = []

    def check(game: TobagoGame, view: PlayerView, decision: decisions.Decision) -> None:
        real = game.state
        for k in range(3):
            s = determinize(view, random.Random(k))
            for name in PUBLIC:
                assert getattr(s, name) == getattr(real, name), name
            assert s.hands[view.seat] == real.hands[view.seat]
            assert [len(h) for h in s.hands] == [len(h) for h in real.hands]
            assert len(s.clue_draw) == len(real.clue_draw)
            assert len(s.clue_discard) == len(real.clue_discard)
            every = [*s.clue_draw, *s.clue_discard]
            for cards in (*s.hands, *s.map_cards):
                every.extend(cards)
            assert sorted(every) == list(range(len(real.rules.deck.cards)))
            # Treasure piles are public by memory: every card came face up.
            assert _treasure_piles(s) == _treasure_piles(real)
            assert len(s.t_deck) == len(real.t_deck)
            drawn = len(real.rules.treasure_values) + real.rules.curse_count - len(s.t_deck)
            top = real.rules.curse_free_top - drawn
            if top > 0:
                assert CURSE not in s.t_deck[len(s.t_deck) - top :]
            if drawn <= real.rules.curse_free_top:  # only curse-free cards have been drawn
                assert s.t_deck.count(CURSE) == real.t_deck.count(CURSE)
            public = Counter(
                v for what, _, v in real.public_events if what in ("unclaimed", "lost_card")
            )
            assert not public - Counter(s.t_discard)  # what went face up into the discard
            curses_seen = sum(what == "curse" for what, _, _ in real.public_events)
            out_real = len(real.t_discard) + len(real.t_removed) - curses_seen
            assert len(s.t_discard) + len(s.t_removed) == out_real
            pool = Counter(real.t_deck) + Counter(real.t_discard) + Counter(real.t_removed)
            assert not Counter(s.t_deck) - pool - Counter(real.drawn[0])  # never an unknown card
            seen.append(s)

    game, probe = _game(seed, rules_name, check)
    game.play()
    assert probe.done
    assert len(seen) == 3
    assert seen[0].hands != seen[1].hands or len(game.state.hands) < 3


@pytest.mark.parametrize("seed", range(8))
def test_a_copy_of_the_true_state_plays_on_as_the_real_game(seed: int) -> None:
    saved: list[Any] = []

    def check(game: TobagoGame, view: PlayerView, decision: decisions.Decision) -> None:
        # The true state and every generator, copied before the decision is answered.
        state = copy_state(game.state)
        rngs = copy.deepcopy([game.state.shuffle_rng, game.state.distribution_rng])
        seats = copy.deepcopy([st.rng for st in game.strategies])
        state.shuffle_rng, state.distribution_rng = rngs
        saved.append((state, seats))

    game, _ = _game(seed, "rulebook", check, inner=RandomPlayer)
    # Every seat a random player, whose only memory is its generator.
    for k in range(1, game.state.n):
        game.referee.reseat(k, RandomPlayer(game.strategies[k].rng))
    result = game.play()
    state, seats = saved[0]
    again = game_at(state, [RandomPlayer(r) for r in seats]).play_on()
    assert again.scores == result.scores
    assert again.turns == result.turns
    assert again.end_reason == result.end_reason


@pytest.mark.parametrize("seed", range(4))
def test_pimc_answers_the_same_whatever_it_cannot_see(seed: int) -> None:
    answers: list[tuple[Any, dict[Any, float]]] = []

    def check(game: TobagoGame, view: PlayerView, decision: decisions.Decision) -> None:
        real = game.state
        for k in range(3):
            # Another world with the same view: the hidden cards dealt again.
            other = copy_state(real)
            other.shuffle_rng = random.Random(k)
            other.distribution_rng = random.Random(k)
            if k:
                hidden = determinize(PlayerView(real, view.seat), random.Random(100 + k))
                other.hands = hidden.hands
                other.clue_draw, other.clue_discard = hidden.clue_draw, hidden.clue_discard
                other.t_deck, other.t_discard = hidden.t_deck, hidden.t_discard
                assert other.hands != real.hands or real.n == 2 or not real.clue_draw
            player = Pimc(random.Random(7), iterations=12)
            answer = player.decide(PlayerView(other, view.seat), decision)
            answers.append((answer, dict(player.last_means)))

    game, probe = _game(seed, "rulebook", check, inner=Cautious)
    game.play()
    assert probe.done and len(answers) == 3
    assert answers[0] == answers[1] == answers[2]
    assert all(not math.isnan(m) for m in answers[0][1].values())
