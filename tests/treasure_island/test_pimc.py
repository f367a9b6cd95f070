"""``pimc``: it sees only the view (changing hidden facts changes nothing), it is
deterministic per seed, and on a hand-made position it finds what the scripted rule misses."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sim.treasure_island import decisions
from sim.treasure_island.cards import KIND, N_KINDS, PER_KIND
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.position import RESUMABLE, Position, game_at, position_of
from sim.treasure_island.rules import preset
from sim.treasure_island.view import PlayerView
from strategies.registry import parse_strategy
from strategies.treasure_island.pimc import Pimc
from strategies.treasure_island.stopping import ExpectedValue
from tests.treasure_island.scenario import card, cards


def _stash(*names: str) -> tuple[int, ...]:
    masks = [0] * N_KINDS
    for c in cards(*names):
        masks[KIND[c]] |= 1 << (c % PER_KIND)
    return tuple(masks)


class Probe:
    """Plays like expected-value; at its ``at``-th choice among several answers it asks a
    fresh ``pimc`` (seed 5) on the real view and on views of games that differ only in
    what the seat cannot see, and records every answer and the search's mean rewards."""

    def __init__(self, rng: random.Random, at: int, box: list[TreasureIslandGame]) -> None:
        self.inner = ExpectedValue(rng)
        self.at = at
        self.seen = 0
        self.box = box
        self.found: list[tuple[Any, dict[Any, float]]] = []
        self.kind: decisions.DecisionKind | None = None

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        if decision.kind in RESUMABLE and len(decision.options) > 1:
            if self.seen == self.at:
                self.kind = decision.kind
                self._probe(view, decision)
            self.seen += 1
        return self.inner.decide(view, decision)

    def _probe(self, view: PlayerView, decision: decisions.Decision) -> None:
        real = self.box[0]
        position = position_of(view, decision)
        views = [view]
        for k in range(3):
            shuffle = random.Random(k)
            hidden = list(position.hidden)
            shuffle.shuffle(hidden)
            discard = list(position.discard)
            shuffle.shuffle(discard)
            players = [ExpectedValue(random.Random(k)) for _ in range(position.n)]
            other = game_at(position, hidden, players, random.Random(k + 10), discard)
            assert other.pile != real.pile or len(hidden) < 2  # the hidden order differs
            views.append(PlayerView(other, view.seat))
        for v in views:
            player = Pimc(random.Random(5), iterations=24)
            answer = player.decide(v, decision)
            self.found.append((answer, dict(player.last_means)))


@pytest.mark.parametrize("preset_name", ["standard", "characters"])
@pytest.mark.parametrize("seed", range(4))
def test_the_answer_does_not_depend_on_what_the_seat_cannot_see(
    preset_name: str, seed: int
) -> None:
    box: list[TreasureIslandGame] = []
    probes: list[Probe] = []

    def build(rng: random.Random) -> Probe:
        probes.append(Probe(rng, 3 + 2 * seed, box))
        return probes[-1]

    game = TreasureIslandGame(preset(preset_name), [build, ExpectedValue], seed)
    box.append(game)
    game.play()
    found = probes[0].found
    assert len(found) == 4, "the probe met no decision"
    assert all(f == found[0] for f in found), (probes[0].kind, found)


def _helm_trap() -> tuple[Position, TreasureIslandGame]:
    """Seat 0 has a Key and a Parrot in play, a Key 2 in its stash and 14 points if it
    plunders; the pile's last card is a Helm, safe to draw, but the Helm must place the Key 2
    from the stash, which busts: the turn and the stash's Key are lost (0 points against
    10). After a plunder, seat 1 draws the Helm and ends with 13 against 14."""
    position = Position(
        rules=preset("standard"),
        n=2,
        turn=20,
        decision=decisions.Decision(decisions.CONTINUE, 0, decisions.CONTINUE_OPTIONS),
        characters=("", ""),
        stashes=(_stash("key 2"), _stash("chest 5", "anchor 5")),
        area=tuple(cards("key 5", "parrot 9")),
        anchor_at=-1,
        rum=0,
        known=(),
        hidden=(card("helm 3"),),
        discard=(),
    )
    players = [ExpectedValue(random.Random(0)) for _ in range(2)]
    return position, game_at(position, list(position.hidden), players, random.Random(0))


def test_it_refuses_a_draw_whose_forced_helm_busts_where_expected_value_draws() -> None:
    position, game = _helm_trap()
    view = PlayerView(game, 0)
    assert game.points == [2, 10] and view.busting == 0
    assert ExpectedValue(random.Random(0)).decide(view, position.decision) == decisions.DRAW
    player = Pimc(random.Random(1), iterations=8)
    assert player.decide(view, position.decision) == decisions.PLUNDER
    # One card, so every deal is the same: plunder wins 14 to 13, the draw loses 0 to 10.
    assert player.last_means == pytest.approx(
        {decisions.PLUNDER: 1 + 0.02 * 1, decisions.DRAW: 0 - 0.02 * 10}
    )
    assert player.last_deals == 4


def test_same_seed_same_game_and_parameters_are_checked() -> None:
    def play() -> tuple[Any, list[int]]:
        spec = parse_strategy("pimc(iterations=16, rollout=bust-threshold)", "treasure-island")
        game = TreasureIslandGame(preset("standard"), [spec.factory(), ExpectedValue], 3)
        return game.play(), game.log

    assert play() == play()
    for bad, message in [
        ("pimc(iterations=0)", "iterations"),
        ("pimc(rollout=optimal)", "rollout"),
        ("pimc(c=-1)", "c = -1"),
        ("pimc(margin_weight=fast)", "margin_weight"),
    ]:
        with pytest.raises(Exception, match=message):
            parse_strategy(bad, "treasure-island")
