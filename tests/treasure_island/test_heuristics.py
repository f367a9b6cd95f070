"""Scenario tests of the scripted players' rules-spec heuristics (§10) and of rulings they rely
on: the Spyglass places a safe card, public top cards make the bust chance 0 or 1, the Key +
Chest bonus on a Spyglass put-back, and a random first player."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

from sim.treasure_island.cards import KIND_BIT
from sim.treasure_island.characters import MYSTIC
from sim.treasure_island.decisions import BACK, PLACE, Decision, DecisionKind
from sim.treasure_island.engine import SPYGLASS_BACK, TreasureIslandGame
from sim.treasure_island.rules import preset
from sim.treasure_island.view import PlayerView
from strategies.treasure_island.random_player import RandomPlayer
from strategies.treasure_island.stopping import BustThreshold, ExpectedValue, StopAt
from tests.treasure_island.scenario import Scripted, card, cards, make_game, names, stash_cards


def _seat(player: Any) -> Callable[[random.Random], Any]:
    """A strategy factory that seats ``player`` itself."""
    return lambda rng: player


def _game(*players: Any) -> TreasureIslandGame:
    return TreasureIslandGame(preset("standard"), [_seat(p) for p in players], 1, strict=True)


class Recorder:
    """Wraps a strategy; notes the bust chance it was shown at every draw-or-plunder choice."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.chances: list[float] = []

    def decide(self, view: PlayerView, decision: Decision) -> object:
        if decision.kind == DecisionKind.CONTINUE:
            self.chances.append(view.bust_chance())
        return self.inner.decide(view, decision)


# -- Spyglass (§10: "place the card if it is safe, otherwise plunder") ------------------------


def test_the_spyglass_places_a_safe_card_even_when_the_stopping_rule_would_stop() -> None:
    # stop-at(n=1) would plunder after the first card; the revealed Parrot is safe, so it is
    # placed (a free card), and only then does the stopping rule plunder.
    stopper = StopAt(random.Random(0), n=1)
    game = _game(stopper, StopAt(random.Random(1), n=1))
    game.arrange(cards("spyglass 3", "parrot 6", "key 4"))
    game.play_turn(0)
    assert names(stash_cards(game, 0)) == names(cards("spyglass 3", "parrot 6"))


def test_the_spyglass_puts_back_a_card_that_would_bust() -> None:
    game = _game(StopAt(random.Random(0), n=9), StopAt(random.Random(1), n=9))
    game.arrange(cards("parrot 5", "spyglass 3", "parrot 6", "key 4"))
    game.play_turn(0)
    assert names(stash_cards(game, 0)) == names(cards("parrot 5", "spyglass 3"))
    assert game.turn_rows[3] == SPYGLASS_BACK


def test_every_scripted_stopping_rule_gives_the_same_spyglass_answer() -> None:
    game, _ = make_game([], [])
    game.arrange(cards("parrot 5", "key 4", "parrot 6"))
    game.area, game.area_kinds = [card("parrot 5")], KIND_BIT[card("parrot 5")]
    view = game.views[0]
    rng = random.Random(0)
    for strategy in (StopAt(rng, n=1), BustThreshold(rng, 0.0), ExpectedValue(rng, k=0.01)):
        safe = Decision(DecisionKind.SPYGLASS, 0, (PLACE, BACK), value=card("key 4"))
        busts = Decision(DecisionKind.SPYGLASS, 0, (PLACE, BACK), value=card("parrot 6"))
        assert strategy.decide(view, safe) == PLACE
        assert strategy.decide(view, busts) == BACK


# -- public top cards: the Mystic's three (§8 traits) and a put-back Spyglass ---------------


def _mystic_turns(pile: list[int], second: Any) -> TreasureIslandGame:
    """Seat 0, the Mystic, draws a Spyglass, sees the next three cards of ``pile`` and puts
    them back (a plunder); then seat 1 (``second``) plays a turn with those cards public."""
    game = TreasureIslandGame(
        preset("characters"), [lambda rng: Scripted(["back"]), lambda rng: second], 1, strict=True
    )
    game.characters[0] = MYSTIC
    game.arrange(pile)
    game.play_turn(0)
    assert game.known == 3
    game.turn = 1
    game.play_turn(1)
    return game


_BUSTING_SECOND = cards("spyglass 3", "parrot 6", "parrot 5", "key 4", "anchor 3", "helm 4")


def test_a_public_busting_top_card_makes_the_bust_chance_one() -> None:
    # Seat 1 draws the known Parrot 6; Parrot 5 is public on top. Blind, the chance would be
    # 1 in 4 (one Parrot among Parrot 5, Key 4, Anchor 3, Helm 4) and a 0.5 threshold draws.
    recorder = Recorder(BustThreshold(random.Random(0), 0.5))
    game = _mystic_turns(_BUSTING_SECOND, recorder)
    assert recorder.chances == [1.0]
    assert names(stash_cards(game, 1)) == names(cards("parrot 6"))  # plundered, did not bust


def test_a_public_safe_top_card_makes_the_bust_chance_zero() -> None:
    # Parrot 6 drawn (known); Key 4 public and safe: chance 0 (blind: 1 in 3), so even a
    # threshold of 0 draws it; then Parrot 5 public and busting: chance 1, plunder.
    recorder = Recorder(BustThreshold(random.Random(0), 0.0))
    pile = cards("spyglass 3", "parrot 6", "key 4", "parrot 5", "anchor 3")
    game = _mystic_turns(pile, recorder)
    assert recorder.chances == [0.0, 1.0]
    assert names(stash_cards(game, 1)) == names(cards("parrot 6", "key 4"))


def test_expected_value_draws_a_public_card_exactly_when_it_is_safe() -> None:
    # k = 100 would draw blind (one busting card in four); the public Parrot 5 busts.
    recorder = Recorder(ExpectedValue(random.Random(0), k=100.0))
    game = _mystic_turns(_BUSTING_SECOND, recorder)
    assert recorder.chances == [1.0]
    assert names(stash_cards(game, 1)) == names(cards("parrot 6"))


# -- Key + Chest (§6.3) on a Spyglass put-back (§6.9: putting back is a plunder) ------------


def test_a_spyglass_put_back_pays_the_key_and_chest_bonus() -> None:
    game, _ = make_game(["draw", "draw", "back"], [])
    discard = cards("anchor 2", "helm 2", "rum 2", "candle 2", "parrot 4")
    game.arrange(cards("key 3", "chest 4", "spyglass 2", "parrot 6"), discard=discard)
    game.play_turn(0)
    # Key, Chest and Spyglass are plundered; the bonus takes as many cards (3) from the discard.
    assert len(stash_cards(game, 0)) == 3 + 3
    assert len(game.discard) == 2
    row = game.turn_rows
    assert row[2] == 3 and row[3] == SPYGLASS_BACK and row[5] == 3 and row[7] == 1
    assert game.pile[-1] == card("parrot 6")  # put back on top


# -- the first player (§4: "random" chooses it from the game's seed) -------------------------


def _first_players(rules: Any, seeds: range, n: int = 3) -> list[int]:
    out = []
    for seed in seeds:
        game = TreasureIslandGame(rules, [RandomPlayer] * n, seed)
        result = game.play()
        assert result.first_player == game.first_player
        assert game.turn_rows[1] == game.first_player  # the first turn is that seat's
        out.append(game.first_player)
    return out


def test_a_random_first_player_is_each_seat_about_equally_and_a_function_of_the_seed() -> None:
    rules = dataclasses.replace(preset("standard"), first_player="random")
    firsts = _first_players(rules, range(300))
    counts = [firsts.count(seat) for seat in range(3)]
    # 300 draws of a fair three-sided die: each count within 100 +- 35 (more than 4 sd).
    assert all(65 <= c <= 135 for c in counts), counts
    assert _first_players(rules, range(300)) == firsts
    assert set(_first_players(preset("standard"), range(20))) == {0}
