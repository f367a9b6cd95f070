"""Hostile and broken plug-in strategies, imported by path like a user's own strategy would be.

Each stands for one way an untrusted plug-in can try to cheat or break a tournament; the
tests in test_hostile.py check that the engine records it and the run goes on.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import numpy as np


def _first_legal(decision: Any) -> object:
    """A legal answer to any decision of either game."""
    return decision.fallback()


def _my_seat(view: Any) -> int:
    return int(view.seat)


class Widener:
    """Tries to widen its own choices (rebinding ``actions`` / ``options``) and answer an
    action that was never offered."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, view: Any, decision: Any) -> object:
        name = "actions" if hasattr(decision, "actions") else "options"
        try:
            setattr(decision, name, (("teleport",),))
        except AttributeError:
            return ("teleport",)
        return ("teleport",)


class _Agreeable:
    """Equal to everything, with any hash."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 0


class EqualsAll:
    """Answers an object that compares equal to every legal answer."""

    def __init__(self, rng: random.Random) -> None:
        pass

    def decide(self, view: Any, decision: Any) -> object:
        return _Agreeable()


class _Raising:
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("comparison refused")

    def __ne__(self, other: object) -> bool:
        raise RuntimeError("comparison refused")

    def __hash__(self) -> int:
        raise RuntimeError("hash refused")

    def __repr__(self) -> str:
        raise RuntimeError("repr refused")


class RaisingEq:
    """Answers an object whose comparison, hash and repr raise."""

    def __init__(self, rng: random.Random) -> None:
        pass

    def decide(self, view: Any, decision: Any) -> object:
        return _Raising()


class NumpyAnswers:
    """Answers the legal value as NumPy: an ``int64`` for ints, an array for tuples."""

    def __init__(self, rng: random.Random) -> None:
        pass

    def decide(self, view: Any, decision: Any) -> object:
        answer = _first_legal(decision)
        if isinstance(answer, int):
            return np.int64(answer)
        if isinstance(answer, tuple) and all(isinstance(x, int) for x in answer):
            return np.array(answer)
        if isinstance(answer, tuple):
            return (answer[0], *(np.int64(x) for x in answer[1:]))
        return np.str_(answer)


def _find_game(view: Any) -> Any:
    """What a plug-in finds by walking the view's attributes (not frames or the GC)."""
    names = set(dir(view)) | {"_s", "_g", "_inner", "_state", "_game"}
    names |= set(getattr(view, "__slots__", ()))
    for name in sorted(names):
        if name.startswith("__"):
            continue
        try:
            value = getattr(view, name)
        except Exception:
            continue
        if hasattr(value, "treasures") or hasattr(value, "points"):
            return value
        for inner_name in ("_s", "_g", "state"):
            inner = getattr(value, inner_name, None)
            if hasattr(inner, "treasures") or hasattr(inner, "points"):
                return inner
    return None


class AttributeCheater:
    """Looks for the game through the view's attributes and, if found, gives itself points."""

    def __init__(self, rng: random.Random) -> None:
        self.done = False

    def decide(self, view: Any, decision: Any) -> object:
        if not self.done:
            self.done = True
            game = _find_game(view)
            if game is not None:
                if hasattr(game, "treasures"):
                    game.treasures[_my_seat(view)].extend([50] * 20)
                else:
                    game.points[_my_seat(view)] += 1000
        return _first_legal(decision)


def _engine_from_frames() -> Any:
    frame: Any = sys._getframe(1)
    while frame is not None:
        candidate: Any = frame.f_locals.get("self")
        if hasattr(candidate, "state") and hasattr(candidate.state, "treasures"):
            return candidate.state
        if hasattr(candidate, "points") and hasattr(candidate, "stash"):
            return candidate
        frame = frame.f_back
    return None


class FrameCheater:
    """Reaches the game through the caller's frames (which no in-process seal can stop) and
    gives itself points on every turn: what the audit mode exists to catch."""

    def __init__(self, rng: random.Random) -> None:
        pass

    def decide(self, view: Any, decision: Any) -> object:
        game = _engine_from_frames()
        if game is not None:
            if hasattr(game, "treasures"):
                game.treasures[_my_seat(view)].append(50)
            else:
                game.points[_my_seat(view)] += 100
        return _first_legal(decision)


class Exiter:
    """Calls ``sys.exit`` on every fifth decision."""

    def __init__(self, rng: random.Random) -> None:
        self.calls = 0

    def decide(self, view: Any, decision: Any) -> object:
        self.calls += 1
        if self.calls % 5 == 0:
            sys.exit(0)
        return _first_legal(decision)


class BadInit:
    """Cannot be built."""

    def __init__(self, rng: random.Random) -> None:
        raise RuntimeError("cannot build this strategy")

    def decide(self, view: Any, decision: Any) -> object:
        return _first_legal(decision)


class Stuck:
    """Loops forever on its tenth decision, swallowing every exception it can."""

    def __init__(self, rng: random.Random) -> None:
        self.calls = 0

    def decide(self, view: Any, decision: Any) -> object:
        self.calls += 1
        if self.calls == 10:
            while True:
                try:
                    time.sleep(0.01)
                except Exception:
                    continue
        return _first_legal(decision)


def _dull(self: Any, view: Any, decision: Any) -> object:
    return decision.fallback()


class Saboteur:
    """Rewrites every built-in player's ``decide`` to play the fallback (and drops their
    shortcuts, so that the rewrite is used), then plays the fallback itself: in-process, every
    built-in opponent plays the fallbacks from the next game on."""

    def __init__(self, rng: random.Random) -> None:
        pass

    def decide(self, view: Any, decision: Any) -> object:
        from sim import referee
        from sim.sealed import TRUSTED

        for cls in list(TRUSTED):
            cls.decide = _dull  # type: ignore[attr-defined]
            referee._shortcuts_of[cls] = referee.NO_SHORTCUTS
        return _first_legal(decision)


class Crasher:
    """Ends its own process (``os._exit``) on its third decision."""

    def __init__(self, rng: random.Random) -> None:
        self.calls = 0

    def decide(self, view: Any, decision: Any) -> object:
        import os

        self.calls += 1
        if self.calls == 3:
            os._exit(3)
        return _first_legal(decision)


class Garbler:
    """In an isolated process: writes to its parent's pipe a message that names a function
    (unpickling it would run code of the strategy's choosing), then answers."""

    def __init__(self, rng: random.Random) -> None:
        pass

    def decide(self, view: Any, decision: Any) -> object:
        import os
        import pickle
        from multiprocessing.connection import Connection

        if "sim.isolate" in sys.modules and len(sys.argv) == 4:
            pipe = Connection(int(sys.argv[2]), readable=False)
            pipe.send_bytes(pickle.dumps(("answer", os.getpid)))
        return _first_legal(decision)


class EarlySaboteur(Saboteur):
    """Rewrites the built-in players as it is built, before any decision."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.decide(None, _Nothing())


class _Nothing:
    def fallback(self) -> None:
        return None
