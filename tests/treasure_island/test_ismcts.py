"""``ismcts`` in Treasure Island: its search sees only the view (games that differ in the
pile's hidden order grow the same tree), it finds the plunder a scripted rule misses on a
hand-made position, every answer is legal over random games, a game is a pure function of
its seed, and its parameters are checked. Small budgets keep it to seconds."""

from __future__ import annotations

import functools
import random
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.errors import InputError
from sim.treasure_island import decisions
from sim.treasure_island.cards import KIND, N_KINDS, PER_KIND
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.position import RESUMABLE, Position, game_at, position_of
from sim.treasure_island.rules import preset
from sim.treasure_island.view import PlayerView
from strategies.registry import parse_strategy
from strategies.treasure_island.ismcts import Ismcts
from strategies.treasure_island.stopping import BustThreshold, ExpectedValue, StopAt
from tests.tobago.test_ismcts import shape
from tests.treasure_island.scenario import card, cards


class Probe:
    """Plays like expected-value; at its ``at``-th choice among several answers asks a fresh
    ``ismcts`` (seed 5) on the real view and on views of games that differ only in what the
    seat cannot see (the pile's hidden order, the discard's order, the generators)."""

    def __init__(self, rng: random.Random, at: int, box: list[TreasureIslandGame]) -> None:
        self.inner = ExpectedValue(rng)
        self.at = at
        self.seen = 0
        self.box = box
        self.found: list[tuple[Any, dict[Any, Any]]] = []

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        if decision.kind in RESUMABLE and len(decision.options) > 1:
            if self.seen == self.at:
                self._probe(view, decision)
            self.seen += 1
        return self.inner.decide(view, decision)

    def _probe(self, view: PlayerView, decision: decisions.Decision) -> None:
        real = self.box[0]
        position = position_of(view, decision)
        views = [view]
        for k in range(2):
            shuffle = random.Random(k)
            hidden = list(position.hidden)
            shuffle.shuffle(hidden)
            discard = list(position.discard)
            shuffle.shuffle(discard)
            players = [ExpectedValue(random.Random(k)) for _ in range(position.n)]
            other = game_at(position, hidden, players, random.Random(k + 10), discard)
            assert other.pile != real.pile or len(hidden) < 2
            views.append(PlayerView(other, view.seat))
        for v in views:
            player = Ismcts(random.Random(5), iterations=20, horizon=2)
            answer = player.decide(v, decision)
            assert player.last_root is not None
            self.found.append((answer, shape(player.last_root)))


@pytest.mark.parametrize(("preset_name", "seed"), [("standard", 0), ("characters", 1)])
def test_the_search_grows_the_same_tree_whatever_the_seat_cannot_see(
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
    assert len(found) == 3, "the probe met no decision"
    assert found[0] == found[1] == found[2]
    assert sum(v for v, *_ in found[0][1].values()) == 20  # every iteration from the root


def _stash(*names: str) -> tuple[int, ...]:
    masks = [0] * N_KINDS
    for c in cards(*names):
        masks[KIND[c]] |= 1 << (c % PER_KIND)
    return tuple(masks)


def test_it_plunders_where_a_forced_helm_would_bust() -> None:
    """Seat 0 has 14 points in play; the pile's one card is a Helm, safe to draw, whose forced
    pick of the stash's Key 2 busts (0 points against 10); expected-value draws. Plundering
    wins 14 to 13 in every determinization (there is only one)."""
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
    game = game_at(position, list(position.hidden), players, random.Random(0))
    view = PlayerView(game, 0)
    assert ExpectedValue(random.Random(0)).decide(view, position.decision) == decisions.DRAW
    player = Ismcts(random.Random(1), iterations=8)
    assert player.decide(view, position.decision) == decisions.PLUNDER
    assert player.last_root is not None
    edges = {k[-1]: e for k, e in player.last_root.edges.items() if isinstance(k, tuple)}
    assert edges[decisions.PLUNDER].mean == pytest.approx(1 + 0.02 * 1)
    assert edges[decisions.DRAW].mean == pytest.approx(0 - 0.02 * 10)
    assert edges[decisions.PLUNDER].visits > edges[decisions.DRAW].visits


def _play(spec: str, seed: int, rules: str = "standard", n: int = 2) -> Any:
    pick = random.Random(seed)
    others = [pick.choice([ExpectedValue, BustThreshold, StopAt]) for _ in range(n - 1)]
    players: list[Any] = [parse_strategy(spec, "treasure-island").factory(), *others]
    game = TreasureIslandGame(preset(rules), players, seed, strict=True)
    return game.play(), list(game.log)


def test_a_game_is_a_pure_function_of_its_seed() -> None:
    first = _play("ismcts(iterations=4)", 3)
    assert first == _play("ismcts(iterations=4)", 3)
    assert first[1] != _play("expected-value", 3)[1]  # not its rollout policy's game


@settings(max_examples=5, deadline=None)
@given(
    st.integers(0, 2**31),
    st.sampled_from(["standard", "characters"]),
    st.integers(2, 4),
    st.integers(1, 3),
)
def test_every_answer_is_legal(seed: int, rules: str, n: int, horizon: int) -> None:
    """``strict=True`` raises on any illegal answer or failure."""
    result, _ = _play(f"ismcts(iterations=2, horizon={horizon})", seed, rules, n)
    assert sum(result.win_shares) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("ismcts(iterations=0)", "iterations = 0"),
        ("ismcts(c=-1)", "c = -1"),
        ("ismcts(rollout=optimal)", "rollout = 'optimal'"),
        ("ismcts(margin_weight=-0.5)", "margin_weight = -0.5"),
        ("ismcts(horizon=true)", "horizon = True"),
    ],
)
def test_bad_parameters_are_refused_in_one_line(bad: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_strategy(bad, "treasure-island")


class SealedIsmcts(Ismcts):
    """The same player as a plug-in: the engine gives it the sealed view, from which no
    attribute leads to the game or the pile's order."""

    views: ClassVar[set[str]] = set()

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        self.views.add(type(view).__name__)
        return super().decide(view, decision)


def test_through_the_sealed_view_it_plays_the_same_game() -> None:
    def play(cls: type) -> Any:
        players: list[Any] = [functools.partial(cls, iterations=6), ExpectedValue]
        game = TreasureIslandGame(preset("characters"), players, 3, strict=True)
        return game.play(), list(game.log)

    assert play(SealedIsmcts) == play(Ismcts)
    assert SealedIsmcts.views == {"SealedPlayerView"}
