"""The game contract: what a game is to the runner and the pipelines, typed, and the only
module of the runner's side a game imports (with :mod:`sim.game_tables` for its tables).

A game implements :class:`RulesLike` (its rules) and :class:`PlayableGame` (a built game)
and declares one :class:`GameKind` over those two types, registered by name through the
``tourney.games`` entry-point group (:mod:`sim.runner.games` finds them), so a game can live
in its own package::

    [project.entry-points."tourney.games"]
    tobago = "sim.tobago.kind:KIND"

That entry point is a game's only one: its kind also names what the game brings to the
layers above this one (its players' catalog, its part of the report, its own commands) by
import path, as strings, which the layer that uses each part imports when it needs it
(:func:`sim.runner.games.game_part`), so that nothing here imports them.

Everything the runner needs of a game goes through its kind: its rules (loading, overrides,
keys), building and playing a scheduled game (:class:`GamePlan`; a range of them as
columns, :class:`PlanBatch`, for a compiled engine), its tables and their builder, what a
replay page reads of a game, and the facts generic code states about it
(player counts, end reasons, its words for boards and notable events, its data files). The
runner holds boards, strategies and replay data as opaque values: only their game reads
them. This module imports no game and nothing of the runner.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, Literal, Protocol, TypeVar

import numpy as np

from sim.errors import InputError
from sim.guard import NO_GUARD, Guard
from sim.outcome import END_REASONS, GameResult, Violation

if TYPE_CHECKING:
    import pyarrow as pa

#: A value of a rules file, a manifest or a replay document: plain JSON-like data, read only
#: by the game that wrote it.
JsonValue = object
#: A JSON-like object (a manifest's record, a replay frame).
JsonDict = dict[str, JsonValue]
#: A board as the runner holds it (Tobago's island): only its game reads it.
Board = object
#: ``rng -> strategy`` for any game: the strategy is its game's to call.
Factory = Callable[[random.Random], object]
#: What a game without boards puts in the ``island`` column.
NO_ISLAND = "-"
#: The parts a kind names by import path, each imported by the layer that uses it: the
#: strategies, the report (pipelines.report), the command line (pipelines.cli) and the
#: compiled engine (the runner, only for a run it plays: :mod:`sim.compiled_engine`).
GamePart = Literal["strategies", "report", "commands", "compiled"]
GAME_PARTS: tuple[GamePart, ...] = ("strategies", "report", "commands", "compiled")


@dataclass(frozen=True, slots=True)
class GamePlan:
    """One scheduled game: ``order[seat]`` is the index of the player in that seat (an index
    into the spec's ``players``, which for a pool is the pool); ``island`` is the board it is
    played on (:data:`NO_ISLAND` for a game without boards). The runner's schedule
    (:mod:`sim.runner.schedule`) makes them; a game builds its game from one."""

    game_id: int
    block: int
    rotation: int
    seed: int
    island: str
    order: tuple[int, ...]


@dataclass(frozen=True)
class PlanBatch:
    """Consecutive scheduled games as columns (what a compiled engine takes): game ``i`` is
    ``GamePlan(game_id[i], block[i], rotation[i], seed[i], islands[island[i]], order[i,
    :n_players[i]])``; ``order`` is padded with -1 to the widest table."""

    game_id: np.ndarray  # int64
    block: np.ndarray  # int64
    rotation: np.ndarray  # int64
    seed: np.ndarray  # uint64
    island: np.ndarray  # int64, an index into islands
    islands: tuple[str, ...]
    order: np.ndarray  # int64, games x widest table, -1 padded
    n_players: np.ndarray  # int64

    def __len__(self) -> int:
        return len(self.game_id)

    @classmethod
    def of(cls, plans: Sequence[GamePlan]) -> PlanBatch:
        """The batch of ``plans``."""
        islands = tuple(dict.fromkeys(p.island for p in plans))
        index = {name: i for i, name in enumerate(islands)}
        width = max((len(p.order) for p in plans), default=0)
        order = np.full((len(plans), width), -1, dtype=np.int64)
        for i, plan in enumerate(plans):
            order[i, : len(plan.order)] = plan.order
        return cls(
            np.array([p.game_id for p in plans], dtype=np.int64),
            np.array([p.block for p in plans], dtype=np.int64),
            np.array([p.rotation for p in plans], dtype=np.int64),
            np.array([p.seed for p in plans], dtype=np.uint64),
            np.array([index[p.island] for p in plans], dtype=np.int64),
            islands,
            order,
            np.array([len(p.order) for p in plans], dtype=np.int64),
        )

    def plans(self) -> list[GamePlan]:
        """The batch as plans."""
        columns = zip(
            self.game_id.tolist(),
            self.block.tolist(),
            self.rotation.tolist(),
            self.seed.tolist(),
            self.island.tolist(),
            self.order.tolist(),
            self.n_players.tolist(),
            strict=True,
        )
        return [
            GamePlan(g, b, r, s, self.islands[i], tuple(o[:n])) for g, b, r, s, i, o, n in columns
        ]


class RulesLike(Protocol):
    """What generic code reads of a game's rules object (what its ``load_rules`` returns)."""

    @property
    def game(self) -> str:
        """The name of its game (its kind's ``name``)."""
        ...

    @property
    def preset(self) -> str: ...

    @property
    def hash(self) -> str:
        """A digest of the resolved rules (recorded per game and run)."""
        ...

    def to_dict(self) -> dict[str, JsonValue]:
        """The resolved rules as plain JSON-able values."""
        ...


class PlayableGame(Protocol):
    """A built game: what the runner calls and reads of it, before and after playing."""

    @property
    def result(self) -> GameResult | None: ...

    @property
    def violations(self) -> list[Violation]: ...

    @property
    def decisions(self) -> int: ...

    def play(self) -> object: ...


#: What the runner reads of a finished game of any kind (the same protocol).
PlayedGame = PlayableGame

RulesT = TypeVar("RulesT", bound=RulesLike)
GameT = TypeVar("GameT", bound=PlayableGame)
GameT_contra = TypeVar("GameT_contra", bound=PlayableGame, contravariant=True)
RulesT_contra = TypeVar("RulesT_contra", bound=RulesLike, contravariant=True)
GameT_co = TypeVar("GameT_co", bound=PlayableGame, covariant=True)


class BuildGame(Protocol[RulesT_contra, GameT_co]):
    """Builds one scheduled game, ready to play (``game.play()`` plays it); ``boards`` maps
    island arguments to the boards a run recorded for its island files (any other island is
    resolved by name)."""

    def __call__(
        self,
        plan: GamePlan,
        rules: RulesT_contra,
        factories: Sequence[Factory],
        boards: Mapping[str, Board] | None = None,
        guard: Guard = NO_GUARD,
    ) -> GameT_co: ...


@dataclass(frozen=True)
class ReplayHooks(Generic[GameT]):
    """What a replay page reads of a game, as plain data (see ``sim.tobago.snapshot``)."""

    #: What never changes in the game (built, not yet played).
    scene: Callable[[GameT], JsonDict]
    #: The state now.
    snapshot: Callable[[GameT], JsonDict]
    #: ``watch(game, on_row)``: call ``on_row(row index)`` after every row the game logs.
    watch: Callable[[GameT, Callable[[int], None]], None]
    #: ``describer(game)(row)``: a logged row in words.
    describer: Callable[[GameT], Callable[[tuple[int, ...]], JsonDict]]
    #: The page's script that draws a frame (it defines ``GAME``), as a package resource:
    #: (package, file name). Named, not imported: it belongs to the analysis layer.
    renderer: tuple[str, str]


class Builder(Protocol[GameT_contra]):
    """Collects finished games and builds a shard's tables."""

    def add(self, plan: GamePlan, game: GameT_contra) -> None: ...

    def build(self) -> dict[str, pa.Table]: ...


@dataclass(frozen=True)
class BoardHooks(Generic[RulesT]):
    """A game played on boards chosen by name or read from files (Tobago's islands): what
    the runner and the pipelines do with them, without knowing what a board is."""

    #: ``resolve(name)``: the board a name or file stands for (``InputError`` for a bad one).
    resolve: Callable[[str], Board]
    #: ``builtin()``: the names a spec's default (``all``) plays.
    builtin: Callable[[], tuple[str, ...]]
    #: ``fits(board, rules)``: ``InputError`` when ``rules`` cannot be played on ``board``.
    fits: Callable[[Board, RulesT], None]
    #: ``recorded(manifest, where, name)``: the board a run played as ``name``, from what its
    #: manifest recorded (``where`` names the manifest in messages).
    recorded: Callable[[Mapping[str, JsonValue], str, str], Board]

    #: ``read(islands)``: the boards of a spec's board files, by argument, each with what it
    #: was read from (built-in names are left to the game, which builds them by name).
    read: Callable[[tuple[str, ...]], Mapping[str, tuple[str, Board]]]
    #: ``manifest(boards)``: their records for the run's manifest (the run plays those).
    manifest: Callable[[Mapping[str, tuple[str, Board]]], dict[str, JsonDict]]
    #: ``check(recorded, now)``: refuse (``InputError``) a resume whose board files changed.
    check: Callable[[Mapping[str, JsonDict], Mapping[str, JsonDict]], None]
    #: ``name(board)``: the board's own name (an island file's island is named inside it).
    name: Callable[[Board], str]
    #: The board's name in words, singular and plural (Tobago: ``island``, ``islands``).
    noun: tuple[str, str] = ("board", "boards")


@dataclass(frozen=True)
class NotableGame:
    """A kind of notable game a game's own report part finds (Tobago: a curse that changed
    the winner): how a report introduces one, and the move-log event its replay link opens
    at (the one on the game's notable seat that cost it most), if any."""

    words: str
    event: str | None = None


@dataclass(frozen=True)
class GameFacts:
    """What a game declares once about itself, so that generic code need not know it."""

    #: The player counts a game seats, least and most.
    players: tuple[int, int]
    #: The end reasons its games can have (a subset of :data:`sim.outcome.END_REASONS`).
    end_reasons: tuple[str, ...] = END_REASONS
    #: The rules key that caps a game's length (its ``turn_cap`` end), if any.
    length_cap: str | None = "max_turns"
    #: The data files it reads, as globs relative to the data folder (they enter the code
    #: identity a run records).
    data_files: tuple[str, ...] = ()
    #: The notable games its own report part finds, by kind (Tobago: ``curse_winner``);
    #: the generic kinds (the longest game, an upset...) need no declaring.
    notable_games: Mapping[str, NotableGame] = field(default_factory=dict)

    def table_sizes(self, most: int) -> tuple[int, ...]:
        """The player counts a pool of ``most`` members can seat."""
        low, high = self.players
        return tuple(range(low, min(high, most) + 1))


@dataclass(frozen=True)
class GameKind(Generic[RulesT, GameT]):
    """One game as the runner and the pipelines see it: its rules are ``RulesT``, a built
    game a ``GameT``."""

    name: str
    title: str
    #: The run's tables, ``games`` last (its part file marks a shard complete).
    tables: tuple[str, ...]
    #: How games are played on boards (Tobago's islands); None for a game that needs none.
    boards: BoardHooks[RulesT] | None
    load_rules: Callable[[str], RulesT]
    with_overrides: Callable[[RulesT, dict[str, JsonValue], str], RulesT]
    rules_keys: tuple[str, ...]
    builder: Callable[[str, list[str]], Builder[GameT]]
    build: BuildGame[RulesT, GameT]
    #: The rules preset played when none is named.
    default_rules: str
    #: ``render(game)``: a finished game as readable lines (``tourney play``), between the
    #: heading and the scores, which are the same for every game.
    render: Callable[[GameT], list[str]]
    #: The move log's event names by code.
    event_names: tuple[str, ...]
    #: ``log(game)``: the game's move log, flat (six ints a row: turn, seat, event, a, b, c).
    log: Callable[[GameT], list[int]]
    #: What the game declares about itself (player counts, end reasons, words, data files).
    facts: GameFacts
    #: What a replay page reads of a game; None for a game without one.
    replay: ReplayHooks[GameT] | None = None
    #: The counterfactual rules of ``--ablate`` and ``--twin``, by name: the rules keys each
    #: sets (Tobago: ``curses`` sets ``curse_count = 0``). Each name is a plural noun, the
    #: thing removed, as findings say it ("curses lower ...", "with and without curses").
    ablations: Mapping[str, Mapping[str, JsonValue]] = field(default_factory=dict)
    #: ``totals(game)``: per-game counts a rules sweep reports as means per game, by name.
    sweep_totals: Callable[[GameT], Mapping[str, int]] | None = None
    #: ``schemas()``: each table's Arrow schema, by table name (without ``run_id``), which
    #: every shard's tables are checked against before they are written; None checks only
    #: the columns every game's tables share (:mod:`sim.runner.shard_check`).
    schemas: Callable[[], Mapping[str, pa.Schema]] | None = None
    #: The game's players: ``module:attribute`` of its
    #: :class:`strategies.catalog.StrategyCatalog` (``strategies.tobago.catalog:CATALOG``);
    #: None for a game without named players.
    strategies: str | None = None
    #: Its part of the report: ``module:attribute`` of its
    #: :class:`pipelines.report.game_report.GameReport`; None for the common report alone.
    report: str | None = None
    #: The module whose import registers its own commands on the command line
    #: (``pipelines.tobago.cli_board``); None for none.
    commands: str | None = None
    #: Its compiled engine: ``module:attribute`` of a
    #: :class:`sim.compiled_engine.CompiledEngine`; None for a game with the reference only.
    compiled: str | None = None

    def named_parts(self) -> dict[GamePart, str]:
        """What the kind names by import path (see :data:`GAME_PARTS`), by part."""
        named: dict[GamePart, str | None] = {
            "strategies": self.strategies,
            "report": self.report,
            "commands": self.commands,
            "compiled": self.compiled,
        }
        return {part: target for part, target in named.items() if target is not None}

    def play(
        self,
        plan: GamePlan,
        rules: RulesT,
        factories: Sequence[Factory],
        boards: Mapping[str, Board] | None = None,
        guard: Guard = NO_GUARD,
    ) -> GameT:
        """The scheduled game, built and played."""
        game = self.build(plan, rules, factories, boards, guard)
        game.play()
        return game

    def replay_hooks(self) -> ReplayHooks[GameT]:
        """:attr:`replay`, or ``InputError`` for a game without a replay page."""
        if self.replay is None:
            raise InputError(f"{self.title} has no replay page")
        return self.replay

    def check_players(self, n: int, where: str) -> None:
        """``InputError`` starting ``where`` when the game does not seat ``n`` players."""
        low, high = self.facts.players
        if not low <= n <= high:
            raise InputError(f"{where}: {self.title} takes {low} to {high} players, got {n}")

    def board_words(self) -> tuple[str, str] | None:
        """The board's noun, singular and plural; None for a game without boards."""
        return self.boards.noun if self.boards is not None else None

    def boards_counted(self, n: int) -> str:
        """``n`` boards in the game's words (``32 islands``, ``1 island``); "" without
        boards."""
        words = self.board_words()
        if words is None:
            return ""
        return f"{n:,} {words[0] if n == 1 else words[1]}"


#: A kind of any game, as registries hold them (see :func:`sim.runner.games.discover`).
AnyKind = GameKind[RulesLike, PlayableGame]
