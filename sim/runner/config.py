"""What a run is: its resolved config (:class:`RunConfig`: what to play and how), the
data-defining spec and the ``run_id`` derived from it, which games make up each shard, and
which spec keys may grow when a run is extended."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sim.compiled_engine import CompiledSeat
from sim.guard import NO_GUARD, Guard
from sim.runner.games import Factory, Rules
from sim.runner.schedule import Schedule
from sim.storage.locations import open_store
from sim.storage.store import RunStore

#: Spec keys that may grow when a run is extended; every other key must stay the same.
GROWING_KEYS = ("games", "games_per_size")
#: How the note that a run grows starts (the other notes are what a resume repaired).
GROWING = "growing the run"


def shard_ranges(extents: list[int], shard_size: int) -> list[tuple[int, int]]:
    """``(first game, games)`` of every shard of a run grown in ``extents`` (its game count
    after each growth, ascending): each extent is cut into shards of ``shard_size`` on its
    own, so growing a run never changes a shard it already has."""
    out: list[tuple[int, int]] = []
    start = 0
    for end in extents:
        out += [(first, min(shard_size, end - first)) for first in range(start, end, shard_size)]
        start = end
    return out


@dataclass(frozen=True)
class RunConfig:
    """A resolved run: what to play (``spec``) and how (backend, workers, address)."""

    #: Where the run lives (a :class:`RunStore`; a path is taken as a local directory).
    run_dir: RunStore
    game: str
    labels: tuple[str, ...]
    factories: tuple[Factory, ...]
    rules: Rules
    rules_source: str
    games: int
    seed: int
    seating: str
    islands: tuple[str, ...]
    shard_size: int
    backend: str = "ray"
    workers: int = 2
    address: str | None = None
    #: What people call the run (a spec's description, or its rules and players); shown by
    #: reports, not part of the data-defining spec.
    label: str = ""
    #: A pool's table sizes: every combination of that many of ``labels`` is played (see
    #: :mod:`sim.runner.schedule`); empty for a fixed lineup of all ``labels``.
    table_sizes: tuple[int, ...] = ()
    #: The ``games`` asked for (per table size for a pool, before rounding up to whole
    #: cycles), for messages; ``games`` is what the run plays in all.
    requested_games: int = 0
    #: How games watch their strategies (audit, decision time limit): data-defining, since a
    #: cheater's games differ under audit, so part of :meth:`spec` when set.
    guard: Guard = NO_GUARD
    #: Seconds a shard may take before the run stops (process and ray backends); not part of
    #: the data.
    shard_timeout: float | None = None
    #: The engine that plays the games (:data:`sim.compiled_engine.ENGINES`): ``auto`` is
    #: resolved when the run is opened (:func:`sim.runner.engine_choice.choose_engine`). The
    #: games are the same on either; a compiled run keeps fewer tables, so it is part of
    #: :meth:`spec` when compiled (but not of the ``run_id``).
    engine: str = "reference"
    #: Each player as a compiled engine takes it (a built-in player's name, "" for any other
    #: class, and its parameters), in ``labels`` order; empty when not known.
    compiled_seats: tuple[CompiledSeat, ...] = ()

    @property
    def pool(self) -> bool:
        """Whether the players are a pool (combinations at several table sizes)."""
        return bool(self.table_sizes)

    def __post_init__(self) -> None:
        object.__setattr__(self, "run_dir", open_store(self.run_dir))

    def spec(self) -> dict[str, Any]:
        """The data-defining part, compared on resume (``games`` and ``games_per_size`` may
        grow: see :func:`sim.runner.prepare.prepare`)."""
        sizes = self.table_sizes or (len(self.labels),)
        return (
            {
                "game": self.game,
                "players": list(self.labels),
                "pool": list(self.labels) if self.pool else None,
                "table_sizes": list(sizes),
                "games": self.games,
                "games_per_size": self.games // len(sizes) if self.pool else None,
                "seed": self.seed,
                "seating": self.seating,
                "islands": list(self.islands),
                "rules": self.rules_source,
                "rules_preset": self.rules.preset,
                "rules_hash": self.rules.hash,
                "resolved_rules": self.rules.to_dict(),
                "shard_size": self.shard_size,
            }
            | ({"guard": self.guard.to_dict()} if self.guard.recorded else {})
            | ({"engine": "compiled"} if self.engine == "compiled" else {})
        )

    def schedule(self) -> Schedule:
        """Which game is which."""
        return Schedule(self.seed, len(self.labels), self.seating, self.islands, self.table_sizes)

    def run_id(self) -> str:
        """The ``run_id`` column of every table: see :func:`run_id`."""
        return run_id(self.spec())


def spec_schedule(spec: dict[str, Any]) -> Schedule:
    """The schedule of the run a manifest's ``spec`` describes."""
    sizes = tuple(int(s) for s in spec["table_sizes"]) if spec.get("pool") else ()
    return Schedule(
        int(spec["seed"]), len(spec["players"]), str(spec["seating"]), tuple(spec["islands"]), sizes
    )


def run_id(spec: dict[str, Any]) -> str:
    """A run's identity for joins: 16 hex digits of the sha256 of its data-defining spec
    without the keys that grow (games), only cut the work into pieces (shard_size) or only
    say which engine played the same games (engine). Two runs with the same id hold the same
    game under every game id they both have; a run keeps its id when it grows."""
    kept = {k: v for k, v in spec.items() if k not in (*GROWING_KEYS, "shard_size", "engine")}
    text = json.dumps(kept, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
