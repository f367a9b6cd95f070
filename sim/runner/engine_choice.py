"""Which engine plays a run, and which tables a run keeps.

A game's compiled engine (:mod:`sim.compiled_engine`) plays the reference engine's games
for the built-in players it compiles; ``auto`` takes it for a new run whenever it can (every
player compiled, no guard watching the decisions) and the reference otherwise. A run keeps
the engine it was started with: ``auto`` resumes or grows a run on its recorded engine, and
an engine named that differs from it is refused (a run's tables would otherwise be kept for
some games and not others). The engine is part of a run's spec only when it is compiled, so
that the manifests of runs played on the reference engine read as before.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sim.compiled_engine import ENGINES, CompiledEngine, CompiledSeat
from sim.errors import InputError
from sim.game import AnyKind, RulesLike
from sim.runner.config import RunConfig
from sim.runner.games import game_kind, game_part

#: The manifest key listing the game's tables a run does not keep (a compiled run's move
#: log and what derives from it).
SKIPPED = "skipped_tables"


def compiled_engine(game: str) -> CompiledEngine | None:
    """The compiled engine ``game``'s kind names (imported now), or None."""
    return game_part(game, "compiled", CompiledEngine)


def load_compiled(game: str, say: Callable[[str], None] | None = None) -> float:
    """Load ``game``'s compiled engine in this process before any worker starts, compiling
    it the first time on a machine (numba caches it for every process here), saying so to
    ``say``; its seconds."""
    engine = compiled_engine(game)
    assert engine is not None
    if say is not None:
        say("loading the compiled engine (compiling it the first time on a machine)")
    start = time.perf_counter()
    engine.load()
    seconds = time.perf_counter() - start
    if say is not None:
        say(f"compiled engine ready in {seconds:.1f} s")
    return seconds


def recorded_engine(manifest: Mapping[str, Any]) -> str:
    """The engine that played a run (runs from before the choice existed: the reference)."""
    return str(manifest.get("spec", {}).get("engine") or "reference")


def not_compiled_because(config: RunConfig) -> str | None:
    """Why ``config`` cannot be played by its game's compiled engine (one line), or None."""
    if config.guard.recorded:
        return "the compiled engine does not watch decisions (audit, decision_timeout, isolate)"
    return unsupported(config.game, config.labels, config.compiled_seats, config.rules)


def unsupported(
    game: str, labels: Sequence[str], seats: Sequence[CompiledSeat], rules: RulesLike
) -> str | None:
    """Why the players ``labels`` (as ``seats``) cannot be played by ``game``'s compiled
    engine under ``rules`` (one line), or None when they can."""
    kind = game_kind(game)
    if kind.compiled is None:
        return f"{kind.title} has no compiled engine"
    engine = compiled_engine(game)
    assert engine is not None
    if len(seats) != len(labels):
        return "the players were not given as built-in players"
    for label, (name, _) in zip(labels, seats, strict=True):
        if name not in engine.players:
            return f"{label!r} has no compiled player (compiled: {', '.join(engine.players)})"
    return engine.unsupported(seats, rules)


def check_compiled(config: RunConfig) -> None:
    """``InputError`` when ``config`` asks for the compiled engine and it cannot play it."""
    why = not_compiled_because(config)
    if why is not None:
        raise InputError(f"--engine compiled: {why} (--engine auto plays it on the reference)")


def choose_engine(config: RunConfig, existing: Mapping[str, Any] | None) -> str:
    """The engine that plays ``config`` (``reference`` or ``compiled``), given the run's
    manifest if it has one; ``InputError`` for an engine that cannot play it."""
    asked = config.engine
    if asked not in ENGINES:
        raise InputError(f"engine = {asked!r} is not allowed ({', '.join(ENGINES)})")
    if existing is not None:
        recorded = recorded_engine(existing)
        if asked not in ("auto", recorded):
            raise InputError(
                f"{config.run_dir}: its games were played by the {recorded} engine, which a "
                f"resume or growth keeps (--engine {recorded} or auto), since the {asked} "
                "engine keeps other tables"
            )
        return recorded
    if asked == "reference":
        return "reference"
    if asked == "compiled":
        check_compiled(config)
        return "compiled"
    return "compiled" if not_compiled_because(config) is None else "reference"


def skipped_tables(kind: AnyKind, engine: str) -> tuple[str, ...]:
    """The kind's tables a run on ``engine`` does not keep."""
    if engine != "compiled":
        return ()
    compiled = compiled_engine(kind.name)
    assert compiled is not None
    return compiled.skipped(kind.tables)


def run_tables(kind: AnyKind, manifest: Mapping[str, Any]) -> tuple[str, ...]:
    """The tables a run keeps: its game's, less the ones its manifest says were skipped."""
    skipped = set(manifest.get(SKIPPED) or ())
    return tuple(t for t in kind.tables if t not in skipped)
