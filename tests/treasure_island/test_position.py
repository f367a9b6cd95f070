"""A position rebuilt from a view alone, with the true hidden order put back, plays on exactly
as the real game did: same scores, ranks and length, from every kind of resumable decision."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from sim.treasure_island import decisions
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.position import RESUMABLE, Position, game_at, play_on, position_of
from sim.treasure_island.rules import preset
from sim.treasure_island.view import PlayerView
from strategies.treasure_island.random_player import RandomPlayer
from strategies.treasure_island.stopping import BustThreshold, ExpectedValue, StopAt


class Snapshot:
    """What the test keeps of the real game at one decision: the position (from the view),
    the hidden truth a search never sees (the pile's order, the generators' states) and the
    answer the seat gave."""

    def __init__(
        self, position: Position, hidden_order: list[int], discard: list[int], states: list[Any]
    ) -> None:
        self.position = position
        self.hidden_order = hidden_order
        self.discard = discard
        self.states = states
        self.answer: Any = None


class Recorder:
    """Plays like ``inner`` and records a snapshot at its first decision of kind ``kind``
    from its ``at``-th resumable decision on."""

    def __init__(
        self, inner: Any, at: int, kind: decisions.DecisionKind, game_box: list[TreasureIslandGame]
    ) -> None:
        self.inner = inner
        self.at = at
        self.kind = kind
        self.seen = 0
        self.game_box = game_box
        self.snapshot: Snapshot | None = None

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        answer = self.inner.decide(view, decision)
        if decision.kind in RESUMABLE:
            if self.seen >= self.at and decision.kind == self.kind and self.snapshot is None:
                g = self.game_box[0]
                known = len(view.known_cards)
                players: list[Any] = list(g.strategies)
                states = [g.discard_rng.getstate()] + [
                    (s.inner if isinstance(s, Recorder) else s).rng.getstate() for s in players
                ]
                self.snapshot = Snapshot(
                    position_of(view, decision),
                    list(g.pile[: len(g.pile) - known]),
                    list(g.discard),
                    states,
                )
                self.snapshot.answer = answer
            self.seen += 1
        return answer


def _players(seat_seed: int) -> list[Any]:
    pick = random.Random(seat_seed)
    n = pick.choice([2, 3, 4])
    out: list[Any] = []
    for _ in range(n):
        kind = pick.randrange(4)
        if kind == 0:
            out.append(functools.partial(ExpectedValue))
        elif kind == 1:
            out.append(functools.partial(BustThreshold, threshold=pick.choice([0.2, 0.35, 0.5])))
        elif kind == 2:
            out.append(functools.partial(StopAt, n=pick.choice([2, 3, 5])))
        else:
            out.append(functools.partial(RandomPlayer))
    return out


def _play(
    rules: Any, factories: list[Any], seed: int, at: int, kind: decisions.DecisionKind
) -> tuple[Any, Recorder]:
    box: list[TreasureIslandGame] = []
    recorder_box: list[Recorder] = []

    def wrap(i: int, f: Any) -> Any:
        if i != 0:
            return f

        def build(rng: random.Random) -> Recorder:
            r = Recorder(f(rng), at, kind, box)
            recorder_box.append(r)
            return r

        return build

    game = TreasureIslandGame(rules, [wrap(i, f) for i, f in enumerate(factories)], seed)
    box.append(game)
    return game.play(), recorder_box[0]


@pytest.mark.parametrize("preset_name", ["standard", "characters"])
@pytest.mark.parametrize("kind", sorted(RESUMABLE))
@pytest.mark.parametrize("seed", range(3))
def test_a_rebuilt_position_plays_on_as_the_real_game(
    preset_name: str, kind: decisions.DecisionKind, seed: int
) -> None:
    rules = preset(preset_name)
    # The first game from this seed on in which seat 0 meets a decision of ``kind``.
    for tries in range(200):
        game_seed = 1000 * seed + tries
        factories = _players(game_seed)
        at = random.Random(game_seed).randrange(8)
        result, recorder = _play(rules, factories, game_seed, at, kind)
        snap = recorder.snapshot
        if snap is not None:
            break
    assert snap is not None, f"no {kind} decision in 200 games"
    position = snap.position
    states = iter(snap.states)
    discard_rng = random.Random()
    discard_rng.setstate(next(states))
    strategies = []
    for f in factories:
        rng = random.Random()
        rng.setstate(next(states))
        strategies.append(f(rng))
    game = game_at(position, snap.hidden_order, strategies, discard_rng, snap.discard)
    again = play_on(game, position.decision, snap.answer)
    assert again.scores == result.scores
    assert again.ranks == result.ranks
    assert again.turns == result.turns


def test_decisions_that_cannot_be_resumed_are_refused() -> None:
    rules = preset("standard")
    game = TreasureIslandGame(rules, [ExpectedValue, ExpectedValue], 1)
    position = position_of(PlayerView(game, 0), decisions.Decision(decisions.DRAFT, 0, ("a", "b")))
    rebuilt = game_at(
        position, list(position.hidden), [ExpectedValue(random.Random(0))] * 2, random.Random(0)
    )
    with pytest.raises(ValueError, match="cannot be resumed"):
        play_on(rebuilt, position.decision, "a")
    cont = decisions.Decision(decisions.CONTINUE, 0, decisions.CONTINUE_OPTIONS)
    with pytest.raises(ValueError, match="is not an answer"):
        play_on(rebuilt, cont, "stop")
