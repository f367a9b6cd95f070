"""Decision kinds and Tobago's action tags are typed (``IntEnum`` members, compared by the
engines as ints or by identity), while everything stored or shown says the names they had as
strings; a plug-in's answer with a tag written as its plain int is the engine's own action."""

from __future__ import annotations

import random
from typing import Any

from sim.tobago.catalog import resolve_board
from sim.tobago.decisions import ActionKind, Decision, DecisionKind
from sim.tobago.engine import TobagoGame
from sim.tobago.rules import preset
from sim.tobago.view import PlayerView
from sim.treasure_island import decisions as ti_decisions
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.rules import preset as ti_preset
from strategies.tobago.random_player import RandomPlayer
from strategies.treasure_island.stopping import ExpectedValue

BOARD = "abc-1"


class Recorder:
    """A plug-in playing like the random player, recording every decision it is asked."""

    def __init__(self, rng: random.Random) -> None:
        self.inner = RandomPlayer(rng)
        self.asked: list[Decision] = []

    def decide(self, view: PlayerView, decision: Decision) -> object:
        self.asked.append(decision)
        return self.inner.decide(view, decision)


class PlainInts(Recorder):
    """The same answers, each action's tag written as the plain int it equals."""

    def decide(self, view: PlayerView, decision: Decision) -> object:
        answer = super().decide(view, decision)
        if type(answer) is tuple:
            return (int(answer[0]), *answer[1:])
        return answer


def _tobago(player: type) -> TobagoGame:
    game = TobagoGame(
        preset("rulebook"), resolve_board(BOARD), [player, RandomPlayer], 3, strict=True
    )
    game.play()
    return game


def test_tobago_decisions_and_actions_carry_their_enum_types() -> None:
    game = _tobago(Recorder)
    asked = game.strategies[0].asked
    assert asked and {type(x.kind) for x in asked} == {DecisionKind}
    tags = {a[0] for x in asked for a in x.actions}
    assert {type(t) for t in tags} == {ActionKind}
    assert {ActionKind.MOVE, ActionKind.END} <= tags
    assert [str(k) for k in DecisionKind][:3] == ["start_cell", "start_map", "turn"]
    assert f"{ActionKind.AMULET_CLUE}" == "amulet_clue"


def test_a_tag_written_as_its_int_is_the_engines_own_action() -> None:
    typed, plain = _tobago(Recorder), _tobago(PlainInts)
    assert not plain.violations
    assert plain.result == typed.result
    assert plain.state.log.flat == typed.state.log.flat


class Failing:
    """Answers nothing legal: every decision is a violation."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, view: Any, decision: Any) -> object:
        return ("teleport",)


def test_violations_name_the_kind_as_the_tables_store_it() -> None:
    game = TobagoGame(preset("rulebook"), resolve_board(BOARD), [Failing, RandomPlayer], 3)
    game.play()
    assert {type(v.kind) for v in game.violations} == {str}
    assert {"start_cell", "turn"} <= {v.kind for v in game.violations}
    ti = TreasureIslandGame(ti_preset("standard"), [Failing, ExpectedValue], 3)
    ti.play()
    assert {v.kind for v in ti.violations} >= {"continue"}
    assert {type(v.kind) for v in ti.violations} == {str}
    assert type(ti_decisions.CONTINUE) is ti_decisions.DecisionKind
