"""The contract of a game's compiled engine: the reference engine's games, many per call.

A game may name one in its kind (:attr:`sim.game.GameKind.compiled`, by import path, since
compiling costs an import that a run on the reference engine need not pay). A compiled
engine plays only the built-in players it compiles (:attr:`CompiledEngine.players`) and must
give the reference engine's rows, value for value, in the tables it writes
(:attr:`CompiledEngine.tables`); the game's other tables (its move log) are not kept, and a
run's manifest says so. The runner checks a sample of every shard against the reference
engine (:mod:`sim.runner.shard_check`), so a compiled engine that drifts from its reference
stops the run instead of writing other games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sim.game import JsonValue, PlanBatch, RulesLike

if TYPE_CHECKING:
    import pyarrow as pa

#: The engines a run can be played by; ``auto`` is the compiled one when every seat (and
#: the run's guard) allows it, else the reference.
ENGINES = ("auto", "reference", "compiled")
#: A seat as a compiled engine takes it: a built-in player's name and its parameters.
CompiledSeat = tuple[str, tuple[tuple[str, JsonValue], ...]]
#: ``play(game, batch, rules, seats, labels)``: the tables of a batch of scheduled games
#: (:class:`sim.game.PlanBatch`), by name.
PlayBatch = Callable[
    [str, PlanBatch, RulesLike, Sequence[CompiledSeat], Sequence[str]],
    Mapping[str, "pa.Table"],
]


@dataclass(frozen=True)
class CompiledEngine:
    """A game's compiled engine (see the module docstring)."""

    #: The tables it writes, ``games`` last; the kind's others are skipped.
    tables: tuple[str, ...]
    #: The built-in players it compiles, by name.
    players: tuple[str, ...]
    #: ``unsupported(seats, rules)``: why these seats or rules cannot be played compiled
    #: (one line), or None when they can.
    unsupported: Callable[[Sequence[CompiledSeat], RulesLike], str | None]
    #: ``load()``: compiles the engine, or loads it from the cache of an earlier compile on
    #: this machine.
    load: Callable[[], None]
    #: Plays scheduled games (see :data:`PlayBatch`).
    play: PlayBatch

    def skipped(self, kind_tables: Sequence[str]) -> tuple[str, ...]:
        """The kind's tables this engine does not write."""
        return tuple(t for t in kind_tables if t not in self.tables)
