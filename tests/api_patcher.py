"""A plug-in strategy that, as it is imported, changes a built-in player: the cautious style
passes on every treasure card. Imported by path like a user's own strategy would be."""

from __future__ import annotations

from typing import Any

from sim.tobago.decisions import OFFER, PASS
from strategies.tobago.random_player import RandomPlayer
from strategies.tobago.scripted import ScriptedPlayer
from strategies.tobago.styles import Cautious

_decide = ScriptedPlayer.decide


def _never_takes(self: Any, view: Any, decision: Any) -> Any:
    if decision.kind == OFFER:
        return PASS
    return _decide(self, view, decision)


Cautious.decide = _never_takes  # type: ignore[method-assign]


class Patcher(RandomPlayer):
    """Plays at random; what matters is what importing it did."""


class PatchError(BaseException):
    """An error of the plug-in's own (a BaseException: nothing on the way catches it)."""


class Raiser(RandomPlayer):
    """Cannot be built: its constructor raises the plug-in's own kind of error, which must
    reach the caller without the plug-in being imported there."""

    def __init__(self, rng: Any, **params: Any) -> None:
        raise PatchError("no")
