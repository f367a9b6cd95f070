"""What a game is to the runner and the pipelines: one :class:`GameKind` per game, found by
name through the ``tourney.games`` entry-point group, so a game can live in its own package.

A game package registers its kind in its ``pyproject.toml``::

    [project.entry-points."tourney.games"]
    tobago = "sim.tobago.kind:KIND"

and everything the runner needs of it goes through the kind: its rules (loading, overrides,
keys), building and playing a scheduled game, its tables and their builder, and what a replay
page reads of a game. This module imports no game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Protocol

from sim.errors import InputError
from sim.guard import NO_GUARD, Guard
from sim.outcome import GameResult, Violation
from sim.runner.schedule import GamePlan

if TYPE_CHECKING:
    import pyarrow as pa

#: The entry-point group games register their :class:`GameKind` under, by game name.
GROUP = "tourney.games"
#: The game of a command, spec or manifest that names none (the product's first game; runs
#: written before there were two games name none).
DEFAULT_GAME = "tobago"
#: A game's rules object (what its ``load_rules`` returns; it names its game in ``.game``).
Rules = Any
#: ``rng -> strategy`` for any game.
Factory = Callable[..., Any]
#: What a game without boards puts in the ``island`` column.
NO_ISLAND = "-"


class PlayedGame(Protocol):
    """What the runner reads of a finished game of any kind."""

    result: GameResult | None
    violations: list[Violation]
    decisions: int


class BuildGame(Protocol):
    """Builds one scheduled game, ready to play (``game.play()`` plays it); ``boards`` maps
    island arguments to the boards a run recorded for its island files (any other island is
    resolved by name)."""

    def __call__(
        self,
        plan: GamePlan,
        rules: Any,
        factories: Sequence[Factory],
        boards: Mapping[str, Any] | None = None,
        guard: Guard = NO_GUARD,
    ) -> Any: ...


@dataclass(frozen=True)
class ReplayHooks:
    """What a replay page reads of a game, as plain data (see ``sim.tobago.snapshot``)."""

    #: What never changes in the game (built, not yet played).
    scene: Callable[[Any], dict[str, Any]]
    #: The state now.
    snapshot: Callable[[Any], dict[str, Any]]
    #: ``watch(game, on_row)``: call ``on_row(row index)`` after every row the game logs.
    watch: Callable[[Any, Callable[[int], None]], None]
    #: ``describer(game)(row)``: a logged row in words.
    describer: Callable[[Any], Callable[[tuple[int, ...]], dict[str, Any]]]
    #: The page's script that draws a frame (it defines ``GAME``), as a package resource:
    #: (package, file name). Named, not imported: it belongs to the analysis layer.
    renderer: tuple[str, str]


class Builder(Protocol):
    """Collects finished games and builds a shard's tables."""

    def add(self, plan: GamePlan, game: Any) -> None: ...

    def build(self) -> dict[str, pa.Table]: ...


@dataclass(frozen=True)
class BoardHooks:
    """A game played on boards chosen by name or read from files (Tobago's islands): what
    the runner and the pipelines do with them, without knowing what a board is."""

    #: ``resolve(name)``: the board a name or file stands for (``InputError`` for a bad one).
    resolve: Callable[[str], Any]
    #: ``builtin()``: the names a spec's default (``all``) plays.
    builtin: Callable[[], tuple[str, ...]]
    #: ``fits(board, rules)``: ``InputError`` when ``rules`` cannot be played on ``board``.
    fits: Callable[[Any, Any], None]
    #: ``recorded(manifest, where, name)``: the board a run played as ``name``, from what its
    #: manifest recorded (``where`` names the manifest in messages).
    recorded: Callable[[Mapping[str, Any], str, str], Any]

    #: ``read(islands)``: the boards of a spec's board files, by argument, each with what it
    #: was read from (built-in names are left to the game, which builds them by name).
    read: Callable[[tuple[str, ...]], dict[str, tuple[str, Any]]]
    #: ``manifest(boards)``: their records for the run's manifest (the run plays those).
    manifest: Callable[[dict[str, tuple[str, Any]]], dict[str, dict[str, Any]]]
    #: ``check(recorded, now)``: refuse (``InputError``) a resume whose board files changed.
    check: Callable[[dict[str, dict[str, Any]], dict[str, dict[str, Any]]], None]


@dataclass(frozen=True)
class GameKind:
    """One game as the runner and the pipelines see it."""

    name: str
    title: str
    #: The run's tables, ``games`` last (its part file marks a shard complete).
    tables: tuple[str, ...]
    #: How games are played on boards (Tobago's islands); None for a game that needs none.
    boards: BoardHooks | None
    load_rules: Callable[[str], Any]
    with_overrides: Callable[[Any, dict[str, Any], str], Any]
    rules_keys: tuple[str, ...]
    builder: Callable[[str, list[str]], Builder]
    build: BuildGame
    #: The rules preset played when none is named.
    default_rules: str
    #: ``render(game)``: a finished game as readable lines (``tourney play``), between the
    #: heading and the scores, which are the same for every game.
    render: Callable[[Any], list[str]]
    #: The move log's event names by code.
    event_names: tuple[str, ...]
    #: ``log(game)``: the game's move log, flat (six ints a row: turn, seat, event, a, b, c).
    log: Callable[[Any], list[int]]
    #: What a replay page reads of a game; None for a game without one.
    replay: ReplayHooks | None = None
    #: The counterfactual rules of ``--ablate`` and ``--twin``, by name: the rules keys each
    #: sets (Tobago: ``curses`` sets ``curse_count = 0``).
    ablations: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: ``totals(game)``: per-game counts a rules sweep reports as means per game, by name.
    sweep_totals: Callable[[Any], Mapping[str, int]] | None = None
    #: ``schemas()``: each table's Arrow schema, by table name (without ``run_id``), which
    #: every shard's tables are checked against before they are written; None checks only
    #: the columns every game's tables share (:mod:`sim.runner.shard_check`).
    schemas: Callable[[], Mapping[str, pa.Schema]] | None = None

    def play(
        self,
        plan: GamePlan,
        rules: Any,
        factories: Sequence[Factory],
        boards: Mapping[str, Any] | None = None,
        guard: Guard = NO_GUARD,
    ) -> Any:
        """The scheduled game, built and played."""
        game = self.build(plan, rules, factories, boards, guard)
        game.play()
        return game

    def replay_hooks(self) -> ReplayHooks:
        """:attr:`replay`, or ``InputError`` for a game without a replay page."""
        if self.replay is None:
            raise InputError(f"{self.title} has no replay page")
        return self.replay


def discover() -> tuple[dict[str, GameKind], dict[str, str]]:
    """Every registered game by name, and why any that failed to load did (by name)."""
    games: dict[str, GameKind] = {}
    broken: dict[str, str] = {}
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        try:
            kind = point.load()
        except Exception as exc:  # a broken plug-in: its game is refused by name, not all
            broken[point.name] = f"{point.value} cannot be loaded ({type(exc).__name__}: {exc})"
            continue
        if not isinstance(kind, GameKind) or kind.name != point.name:
            broken[point.name] = f"{point.value} is not the GameKind of a game {point.name!r}"
            continue
        if point.name in games:
            broken[point.name] = f"two packages register a game {point.name!r}"
            continue
        games[point.name] = kind
    if not games and not broken:
        raise InputError(
            f"no games are registered (entry points {GROUP!r}): install the project "
            "(pip install -e .) so that its games are found"
        )
    return games, broken
