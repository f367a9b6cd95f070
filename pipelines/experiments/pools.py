"""Who plays in a run: a fixed lineup (``players``) or a strategy pool (``pool`` with
``table_sizes``), and how many games a pool's ``games`` makes.

A pool plays every combination of its members at each table size, in balanced cycles (see
:mod:`sim.runner.schedule`). For a pool, ``games`` is the number of games **per table size**,
rounded up to whole cycles so that every member plays the same number of games at each size
(and, with rotated seating, from every seat equally often); the rounding is said whenever a
run starts and is recorded in the manifest (``games_per_size``, ``games`` the total).

The command line's choice of lineup (``--players`` or ``--pool``) replaces the spec file's;
giving both on one level, or ``table_sizes`` without a pool, is one line of error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.errors import InputError
from sim.runner.games import game_kind
from sim.runner.run import RunConfig
from sim.runner.schedule import cycle_games_per_size
from strategies.registry import DEFAULT_PLAYERS, parse_strategy, split_specs

#: Members of one pool: the combinations grow as the pool's size to the fourth power (a pool
#: of 16 at 2, 3 and 4 players balances only in cycles of 21,840 games per table size).
MAX_POOL = 16


@dataclass(frozen=True)
class Lineup:
    """The players of a run and the games it plays."""

    labels: tuple[str, ...]
    #: A pool's table sizes, ascending; empty for a fixed lineup.
    table_sizes: tuple[int, ...]
    #: The ``games`` asked for (per table size for a pool).
    requested: int
    #: Games the run plays in all.
    games: int
    #: A pool's games per table size in one balanced cycle (0 for a fixed lineup).
    cycle: int = 0

    @property
    def per_size(self) -> int:
        """Games per table size (a pool), or all the games (a fixed lineup)."""
        return self.games // len(self.table_sizes) if self.table_sizes else self.games

    def describe(self) -> str:
        """The lineup and the games it makes, for people, saying any rounding."""
        if not self.table_sizes:
            return f"{self.games:,} games of {', '.join(self.labels)}"
        sizes = ", ".join(str(s) for s in self.table_sizes)
        rounded = (
            f" ({self.requested:,} asked, rounded up to whole cycles of {self.cycle:,} games per "
            "table size: every member plays the same number of games at each size)"
            if self.per_size != self.requested
            else ""
        )
        return (
            f"pool of {len(self.labels)} ({', '.join(self.labels)}) at {sizes} players: "
            f"{self.per_size:,} games per table size{rounded}, {self.games:,} in all"
        )


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _labels(value: Any, key: str, source: str, allowed: str) -> list[str]:
    labels = split_specs(value) if isinstance(value, str) else [str(p).strip() for p in value]
    if not labels or any(not label for label in labels):
        raise InputError(
            f"{source}: {key} = {_shown(value)} is not allowed ({allowed}, none empty)"
        )
    return labels


def _sizes(value: Any, source: str, members: int, seats: tuple[int, int]) -> tuple[int, ...]:
    """Table sizes from ``"2,3,4"`` or ``[2, 3, 4]``: distinct, each a player count the game
    seats (``seats``: least and most) and at most the pool's size."""
    items: list[Any]
    if isinstance(value, str):
        items = [x.strip() for x in value.split(",") if x.strip()]
        items = [int(x) if x.isdigit() and len(x) < 4 else x for x in items]
    elif isinstance(value, list):
        items = list(value)
    else:
        items = [value]
    low, top = seats[0], min(seats[1], members)
    if (
        not items
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in items)
        or not all(low <= s <= top for s in items)
        or len(set(items)) != len(items)
    ):
        raise InputError(
            f"{source}: table_sizes = {_shown(value)} is not allowed (distinct player counts "
            f"from {low} to {top}, the pool's size or fewer, like 2,3,4)"
        )
    return tuple(sorted(items))


def _members(labels: list[str], game: str, source: str) -> list[str]:
    """A pool's members by their canonical names (:func:`strategies.registry.canonical_label`:
    however spaced or ordered, a default given or not, one member has one name); two
    spellings of one member, or a strategy of another game, are refused."""
    seen: dict[str, str] = {}
    for label in labels:
        name = parse_strategy(label, game).canonical
        first = seen.get(name)
        if first is None:
            seen[name] = label
        else:
            same = (
                f"{label!r} twice"
                if first == label
                else f"{first!r} and {label!r}, which are one member ({name})"
            )
            raise InputError(f"{source}: pool names {same} (each member once)")
    return list(seen)


def _chosen(
    file_values: dict[str, Any], flags: dict[str, Any], source: str
) -> tuple[Any, Any, Any]:
    """``(players, pool, table_sizes)`` as given, the command line's lineup replacing the
    file's."""
    for level in (flags, file_values):
        if level.get("players") is not None and level.get("pool") is not None:
            raise InputError(
                f"{source}: players and pool cannot both be given (players: one fixed lineup; "
                "pool: every combination of its members at each table size)"
            )
    if flags.get("pool") is not None:
        sizes = flags.get("table_sizes", file_values.get("table_sizes"))
        return None, flags["pool"], sizes if sizes is not None else file_values.get("table_sizes")
    if flags.get("players") is not None:
        return flags["players"], None, flags.get("table_sizes")
    sizes = flags.get("table_sizes")
    if sizes is None:
        sizes = file_values.get("table_sizes")
    return file_values.get("players"), file_values.get("pool"), sizes


def lineup(
    file_values: dict[str, Any],
    flags: dict[str, Any],
    game: str,
    games: int,
    seating: str,
    source: str,
) -> Lineup:
    """The run's players and games (``games`` as asked: per table size for a pool; seating
    decides a pool's cycle)."""
    players, pool, sizes = _chosen(file_values, flags, source)
    if pool is None:
        if sizes is not None:
            raise InputError(
                f"{source}: table_sizes = {_shown(sizes)} is for a pool (give pool = [...] or "
                "--pool, not players)"
            )
        if players is None:
            return Lineup(tuple(DEFAULT_PLAYERS[game]), (), games, games)
        labels = _labels(players, "players", source, "2 to 4 strategy names")
        return Lineup(tuple(labels), (), games, games)
    labels = _labels(pool, "pool", source, f"2 to {MAX_POOL} strategy names")
    if not 2 <= len(labels) <= MAX_POOL:
        raise InputError(
            f"{source}: pool = {_shown(pool)} is not allowed (2 to {MAX_POOL} strategy names, "
            f"got {len(labels)})"
        )
    labels = _members(labels, game, source)
    facts = game_kind(game).facts
    table_sizes = (
        _sizes(sizes, source, len(labels), facts.players)
        if sizes is not None
        else facts.table_sizes(len(labels))
    )
    cycle = cycle_games_per_size(len(labels), table_sizes, seating)
    per_size = -(-games // cycle) * cycle
    return Lineup(tuple(labels), table_sizes, games, per_size * len(table_sizes), cycle)


def describe(config: RunConfig) -> str:
    """A resolved run's lineup and games for people (:meth:`Lineup.describe`)."""
    sizes = config.table_sizes
    cycle = cycle_games_per_size(len(config.labels), sizes, config.seating) if sizes else 0
    per_size = config.games // len(sizes) if sizes else config.games
    asked = config.requested_games or per_size
    return Lineup(config.labels, sizes, asked, config.games, cycle).describe()
