"""``ismcts`` in Tobago: its search sees only the view (a world that differs in what the seat
cannot see grows the same tree), every answer is legal over random games, a game is a pure
function of its seed, and its parameters are checked. Small budgets keep it to seconds."""

from __future__ import annotations

import functools
import random
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.errors import InputError
from sim.tobago import decisions
from sim.tobago.catalog import resolve_board
from sim.tobago.engine import TobagoGame
from sim.tobago.modular import island_names
from sim.tobago.position import copy_state, determinize
from sim.tobago.rules import preset
from sim.tobago.view import PlayerView
from strategies.ismcts_tree import Node
from strategies.registry import parse_strategy
from strategies.tobago.ismcts import Ismcts
from strategies.tobago.random_player import RandomPlayer
from strategies.tobago.styles import Cartographer, Cautious, Collector, Hunter

STYLES = [Hunter, Cartographer, Collector, Cautious, RandomPlayer]


def shape(node: Node) -> dict[Any, Any]:
    """The whole tree as plain data: per edge its visits, summed reward, availability and
    subtree."""
    return {
        key: (e.visits, round(e.total, 9), e.avail, shape(e.child) if e.child else None)
        for key, e in node.edges.items()
    }


class Probe:
    """Plays like ``Cautious``; at the first decision of its ``at``-th turn asks a fresh
    ``ismcts`` (seed 7) on the real view and on views of worlds that differ only in what the
    seat cannot see (other hands, clue piles, treasure deck, the game's generators)."""

    def __init__(self, rng: random.Random, at: int, box: list[TobagoGame]) -> None:
        self.inner = Cautious(rng)
        self.rng = rng
        self.at = at
        self.box = box
        self.turns = 0
        self.found: list[tuple[Any, dict[Any, Any]]] = []

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        if decision.kind == decisions.TURN and not self.found:
            self.turns += 1
            if self.turns == self.at:
                self._probe(view, decision)
        return self.inner.decide(view, decision)

    def _probe(self, view: PlayerView, decision: decisions.Decision) -> None:
        real = self.box[0].state
        for k in range(3):
            other = copy_state(real)
            other.shuffle_rng = random.Random(k)
            other.distribution_rng = random.Random(k)
            if k:
                hidden = determinize(PlayerView(real, view.seat), random.Random(100 + k))
                other.hands = hidden.hands
                other.clue_draw, other.clue_discard = hidden.clue_draw, hidden.clue_discard
                other.t_deck, other.t_discard = hidden.t_deck, hidden.t_discard
                assert other.hands != real.hands or real.n == 2 or not real.clue_draw
            player = Ismcts(random.Random(7), iterations=16, follow=1)
            answer = player.decide(PlayerView(other, view.seat), decision)
            assert player.last_root is not None
            assert sum(e.visits for e in player.last_root.edges.values()) == 16
            self.found.append((answer, shape(player.last_root)))


@pytest.mark.parametrize("seed", range(3))
def test_the_search_grows_the_same_tree_whatever_the_seat_cannot_see(seed: int) -> None:
    box: list[TobagoGame] = []
    probes: list[Probe] = []

    def probe(rng: random.Random) -> Probe:
        probes.append(Probe(rng, 2 + seed, box))
        return probes[-1]

    pick = random.Random(seed)
    factories = [probe] + [pick.choice(STYLES) for _ in range(pick.choice([1, 2, 3]))]
    game = TobagoGame(preset("rulebook"), resolve_board("abc-1"), factories, seed)
    box.append(game)
    game.play()
    found = probes[0].found
    assert len(found) == 3, "the probe met no turn"
    assert found[0] == found[1] == found[2]
    assert len(found[0][1]) > 1  # a real search: several answers at the root


def _play(spec: str, seed: int, n: int = 2, island: str = "abc-1", rules: str = "rulebook") -> Any:
    pick = random.Random(seed)
    players = [parse_strategy(spec, "tobago").factory()]
    players += [pick.choice(STYLES) for _ in range(n - 1)]
    game = TobagoGame(preset(rules), resolve_board(island), players, seed, strict=True)
    return game.play(), list(game.state.log.flat)


def test_a_game_is_a_pure_function_of_its_seed() -> None:
    first = _play("ismcts(iterations=3)", 5)
    assert first == _play("ismcts(iterations=3)", 5)
    assert first[1] != _play("cautious", 5)[1]  # not its rollout policy's game


@settings(max_examples=5, deadline=None)
@given(
    st.integers(0, 2**31),
    st.sampled_from(["rulebook", "bga"]),
    st.integers(2, 4),
    st.integers(1, 3),
    st.integers(1, 3),
)
def test_every_answer_is_legal(seed: int, rules: str, n: int, horizon: int, follow: int) -> None:
    """``strict=True`` raises on any illegal answer or failure."""
    islands = island_names()
    island = islands[seed % len(islands)]
    spec = f"ismcts(iterations=2, horizon={horizon}, follow={follow})"
    result, _ = _play(spec, seed, n, island, rules)
    assert sum(result.win_shares) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("ismcts(iterations=0)", "iterations = 0"),
        ("ismcts(c=-1)", "c = -1"),
        ("ismcts(rollout=pimc)", "rollout = 'pimc'"),
        ("ismcts(width=0)", "width = 0"),
        ("ismcts(margin_weight=true)", "margin_weight = True"),
        ("ismcts(horizon=0)", "horizon = 0"),
        ("ismcts(follow=1.5)", "follow = 1.5"),
    ],
)
def test_bad_parameters_are_refused_in_one_line(bad: str, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        parse_strategy(bad, "tobago")


class SealedIsmcts(Ismcts):
    """The same player as a plug-in: the engine gives it the sealed view, from which no
    attribute leads to the game, its state or other hands."""

    views: ClassVar[set[str]] = set()

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        self.views.add(type(view).__name__)
        return super().decide(view, decision)


def test_through_the_sealed_view_it_plays_the_same_game() -> None:
    def play(cls: type) -> Any:
        players: list[Any] = [functools.partial(cls, iterations=6), Hunter, Cautious]
        game = TobagoGame(preset("rulebook"), resolve_board("abc-1"), players, 3, strict=True)
        return game.play(), list(game.state.log.flat)

    assert play(SealedIsmcts) == play(Ismcts)
    assert SealedIsmcts.views == {"SealedPlayerView"}
