"""Test helpers for rule scenarios: games on hand-made boards with scripted answers.

:class:`Scripted` answers from a queue per seat (a callable in the queue is called with the
view and decision); an empty queue or an unexpected decision fails the test loudly, so every
question the engine asks is one the scenario expected.
"""

from __future__ import annotations

import dataclasses
import random
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from sim.tobago.board import Board, FixedLayout
from sim.tobago.decisions import Decision, DecisionKind
from sim.tobago.engine import StrategyFactory, TobagoGame
from sim.tobago.island import Island
from sim.tobago.rules import TobagoRules, preset
from sim.tobago.state import GameState
from sim.tobago.view import PlayerView
from tests.tobago.drawing import draw

Answer = object | Callable[[PlayerView, Decision], object]


class Scripted:
    """Answers one seat's decisions from a queue of ``(kind, answer)`` pairs."""

    def __init__(self, rng: random.Random) -> None:
        self.queue: deque[tuple[DecisionKind, Answer]] = deque()
        self.asked: list[Decision] = []

    def decide(self, view: PlayerView, decision: Decision) -> object:
        self.asked.append(decision)
        assert self.queue, f"seat {decision.seat} was not expected to answer {decision.kind}"
        kind, answer = self.queue.popleft()
        assert kind == decision.kind, f"seat {decision.seat}: expected {kind}, got {decision}"
        if callable(answer):
            return answer(view, decision)
        return answer


class NoShuffle(random.Random):
    """A generator whose shuffle keeps the order: scenarios fix the cards' order by hand."""

    def shuffle(self, x: Any, random: Any = None) -> None:
        return None


# A hexagon of radius 3 around (0, 0): 37 cells, all jungle but a mountain ring piece.
HEX3 = """
   J J J J
  J J J J J
 J J J J J J
J J J J J J J
 J J J J J J
  J J J J J
   J J J J
"""


def hex3() -> Island:
    return draw(HEX3, "hex3")


def make_game(
    n_players: int = 3,
    island: Island | None = None,
    rules: TobagoRules | None = None,
    statues: tuple[int, ...] = (),
    facings: tuple[int, ...] = (),
    players: Sequence[StrategyFactory] = (),
    **overrides: Any,
) -> tuple[TobagoGame, GameState, list[Scripted]]:
    """A game whose setup is skipped: ATVs at cell 0, empty maps, empty hands and decks.

    Seats play ``players`` (strategy factories) where given, the rest :class:`Scripted`;
    the list returned holds the Scripted seats only."""
    island = island or hex3()
    rules = dataclasses.replace(rules or preset("rulebook"), **overrides)
    layout = FixedLayout((), (), statues, tuple(facings))
    factories: list[StrategyFactory] = [*players, *[Scripted] * (n_players - len(players))]
    game = TobagoGame(rules, Board(island, layout), factories, seed=1, strict=True)
    s = game.state
    s.atv = [0] * n_players
    s.t_deck = []
    s.clue_draw = []
    s.distribution_rng = NoShuffle()
    s.shuffle_rng = NoShuffle()
    seats = [p for p in game.strategies if isinstance(p, Scripted)]
    return game, s, seats


def cell(island: Island, q: int, r: int) -> int:
    return island.index[(q, r)]
