"""Opening one or more run directories for analysis, out of core.

Tables are never loaded whole: a DuckDB connection gets one view per table of the game over
the Parquet parts of every run given (Tobago: ``games``, ``seats``, ``moves``, ``treasures``;
Treasure Island: ``games``, ``seats``, ``moves``, ``turns``, ``draws``), each row tagged with
its ``run`` index, so metrics are plain SQL over views. A run is opened only when its parts
are exactly the ones its manifest records, with their sizes, row counts and hashes
(:func:`sim.storage.parts.check_parts`); the views then read that explicit list of files,
never a pattern, so a directory called ``exp[1]`` is read as itself. Bad input (not a run,
a missing, extra or corrupt part, runs of different games) is one :class:`InputError` line
naming the file. :func:`recorded_board` gives the board a run played on an island.

A run in an object store (``s3://...``) is read from a local copy: :func:`open_run` copies
every recorded part into a private temporary directory, checking each one's size, rows and
sha256 on the bytes as they arrive, and the views read those copies. Checking a part's hash
reads all of it anyway, so the copy costs no second transfer, and every query of a report
(dozens per report) then reads local files instead of the store again.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from sim.errors import InputError
from sim.outcome import UNFINISHED
from sim.runner.engine_choice import run_tables
from sim.runner.games import GAMES, UNNAMED_GAME
from sim.runner.run import MANIFEST, check_schema, read_manifest, run_code
from sim.storage.locations import open_store
from sim.storage.parts import PartRecord, PartsSummary, check_parts, records_from_manifest
from sim.storage.store import LocalStore, RunStore


def manifest_game(manifest: dict[str, Any]) -> str:
    """The game a run's manifest names (runs written before there were two games name none)."""
    return str(manifest["spec"].get("game", UNNAMED_GAME))


@dataclass(frozen=True)
class RunInfo:
    """A run and what its manifest says."""

    #: The local directory its parts are read from: the run directory itself, or the checked
    #: local copy of a run in an object store.
    path: Path
    manifest: dict[str, Any]
    #: The recorded part files of each table (all checked when the run was opened).
    parts: dict[str, list[PartRecord]] = field(default_factory=dict)
    #: What the check found: files, bytes, games, whether hashes were compared.
    checked: PartsSummary | None = None
    #: Where the run is, as people name it (a path as given, or an ``s3://`` URI).
    where: str = ""
    #: Whether the run is in an object store (``path`` is then a local copy).
    remote: bool = False

    def __post_init__(self) -> None:
        if not self.where:
            object.__setattr__(self, "where", str(self.path))

    @property
    def game(self) -> str:
        """The game the run played."""
        return manifest_game(self.manifest)

    @property
    def tables(self) -> tuple[str, ...]:
        """The tables the run keeps (a compiled run skips its move log's)."""
        return run_tables(GAMES[self.game], self.manifest)

    @property
    def complete(self) -> bool:
        """Whether every shard of the run was played."""
        return self.manifest.get("status") == "complete"


@dataclass(frozen=True)
class CheckedRun:
    """A run whose parts were found to be exactly the recorded ones."""

    store: RunStore
    manifest: dict[str, Any]
    parts: dict[str, list[PartRecord]]
    checked: PartsSummary

    @property
    def tables(self) -> tuple[str, ...]:
        """The tables the run keeps (a compiled run skips its move log's)."""
        return run_tables(GAMES[manifest_game(self.manifest)], self.manifest)


def check_run(
    location: Path | str | RunStore, hashes: bool = True, replica: Path | None = None
) -> CheckedRun:
    """Check that ``location`` holds a run whose part files are exactly the recorded ones
    (sizes and row counts always, the sha256 of every file with ``hashes``); a run in an
    object store is read as it is checked, and copied into ``replica`` when given."""
    store = open_store(location)
    if isinstance(store, LocalStore) and not store.root.is_dir():
        raise InputError(f"{store}: not a run directory (no manifest.json)")
    store.check_reachable()
    manifest = read_manifest(store)
    if manifest is None:
        raise InputError(f"{store}: not a run directory (no manifest.json)")
    check_schema(store, manifest)
    game = manifest_game(manifest)
    if game not in GAMES:
        raise InputError(f"{store}: a run of an unknown game {game!r}")
    writer = store.writer()
    if writer is not None:
        raise InputError(
            f"{store}: a simulate is writing this run ({writer}); read it once that has finished"
        )
    run_code(store, manifest)  # a run whose games were played by two codes is refused
    parts = records_from_manifest(manifest, run_tables(GAMES[game], manifest), store.show(MANIFEST))
    unfinished = manifest.get("status") != "complete"
    shards = manifest.get("shards")
    checked = check_parts(
        store,
        parts,
        hashes,
        replica,
        unfinished=unfinished,
        n_shards=shards if isinstance(shards, int) else 0,
    )
    if not parts["games"]:
        raise InputError(f"{store.show('games')}: no Parquet part files (the run has no games yet)")
    return CheckedRun(store, manifest, parts, checked)


#: Local copies of runs in object stores, kept as long as the process (DuckDB opens a view's
#: files at every query).
_COPIES: list[tempfile.TemporaryDirectory[str]] = []


def open_run(location: Path | str | RunStore, hashes: bool = True) -> RunInfo:
    """Check the run at ``location`` (see :func:`check_run`) and open it for reading: a run in
    an object store through a checked local copy of its parts."""
    store = open_store(location)
    local = store.replica()
    if local is None:
        _COPIES.append(tempfile.TemporaryDirectory(prefix="tourney-run-"))
        copy = Path(_COPIES[-1].name)
        found = check_run(store, hashes=True, replica=copy)  # the copy is checked as it comes
        return RunInfo(copy, found.manifest, found.parts, found.checked, store.uri, remote=True)
    found = check_run(store, hashes)
    return RunInfo(local, found.manifest, found.parts, found.checked, str(location))


def connect(runs: list[RunInfo], include_unfinished: bool = False) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with one view per table of the runs' game over their parts, each
    row tagged with ``run`` (the run's index in ``runs``).

    ``games`` and ``seats`` leave out games that did not reach their natural end (the turn
    cap, a deadlock: see ``sim.outcome.UNFINISHED``) unless ``include_unfinished``; those
    games are listed in the table ``unfinished`` (run, game_id, end_reason), and the views
    ``games_all`` and ``seats_all`` keep every game. The table ``seat_games`` holds the
    (finished) seats with their game's ``block``, ``n_players`` and ``island``."""
    games = {r.manifest["spec"].get("game") for r in runs}
    if len(games) > 1:
        listed = ", ".join(f"{r.path} ({r.manifest['spec'].get('game')})" for r in runs)
        raise InputError(f"runs of different games cannot be reported together: {listed}")
    con = duckdb.connect()
    # One thread, so that a report is a function of its runs: with several, DuckDB adds the
    # floating-point parts of a sum or a deviation in whatever order its threads finish, and
    # the last digits changed from one report of a run to the next. It costs about 12 s per
    # million games (30 s instead of 18 s on 2 cores), within the 60 s a report may take.
    con.execute("SET threads = 1")
    # A table some run does not keep (a compiled run's move log) is no view: the report
    # parts that read it say so instead of reading the others' rows alone.
    for table in [t for t in runs[0].tables if all(t in r.tables for r in runs)]:
        selects = [
            f"SELECT {k} AS run, * FROM read_parquet({_file_list(r, table)}, "
            "hive_partitioning = false)"
            for k, r in enumerate(runs)
        ]
        name = f"{table}_all" if table in ("games", "seats") else table
        con.execute(f"CREATE VIEW {name} AS " + " UNION ALL ".join(selects))
    reasons = ", ".join(f"'{r}'" for r in UNFINISHED)
    con.execute(
        "CREATE TEMP TABLE unfinished AS SELECT run, game_id, end_reason::VARCHAR AS end_reason "
        f"FROM games_all WHERE end_reason::VARCHAR IN ({reasons})"
        + (" AND false" if include_unfinished else "")
    )
    # The finished games are read by nearly every metric and joined to millions of move rows:
    # held once in memory (a million games take tens of MB) instead of re-read and re-filtered
    # from the parts at every query.
    con.execute(
        "CREATE TEMP TABLE games AS SELECT * FROM games_all "
        "ANTI JOIN unfinished USING (run, game_id)"
    )
    con.execute(
        "CREATE VIEW seats AS SELECT * FROM seats_all ANTI JOIN unfinished USING (run, game_id)"
    )
    # Most metrics read seats with their game's block, player count and island: joined once
    # here instead of once per metric (a few seconds saved per million games).
    con.execute(
        """CREATE TEMP TABLE seat_games AS
           SELECT s.run, s.game_id, g.block, g.n_players, g.island::VARCHAR AS island, s.seat,
                  s.player, s.strategy::VARCHAR AS strategy, s.win_share,
                  s.score::DOUBLE AS score, s.rank
           FROM seats s JOIN games g USING (run, game_id)"""
    )
    return con


@contextlib.contextmanager
def all_cores(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """Run the queries inside on every core. Only for queries whose result cannot depend on
    the order DuckDB adds rows in: integer counts and sums (and ``avg`` of integers, which
    DuckDB adds as exact integers), with an ``ORDER BY`` that fixes every row's place. Any
    floating-point sum stays on the connection's one thread (see :func:`connect`)."""
    con.execute(f"SET threads = {os.cpu_count() or 1}")
    try:
        yield
    finally:
        con.execute("SET threads = 1")


#: The characters that make DuckDB expand a path as a glob: in every path it reads, a list's
#: items included. It has no escape that works in every path (a one-character class such as
#: ``[[]`` fails next to a backslash), so such paths are read through a plain-named alias.
_GLOB_CHARS = frozenset("*?[")


class _Aliases:
    """Symbolic links with plain names, in a private temporary directory that lives as long as
    the process (DuckDB opens a view's files at every query), for part files whose paths
    DuckDB would expand."""

    def __init__(self) -> None:
        self.folder: tempfile.TemporaryDirectory[str] | None = None
        self.count = itertools.count()

    def link(self, path: Path) -> Path:
        if self.folder is None:
            self.folder = tempfile.TemporaryDirectory(prefix="tourney-parts-")
            if _GLOB_CHARS & set(self.folder.name):
                raise InputError(
                    f"{self.folder.name}: the temporary directory's path holds * ? or [; set "
                    "TMPDIR to a plain path"
                )
        alias = Path(self.folder.name) / f"{next(self.count)}.parquet"
        alias.symlink_to(path)
        return alias


_ALIASES = _Aliases()


def duckdb_path(path: Path) -> str:
    """A SQL string literal that DuckDB reads as exactly the file ``path``: absolute (no
    ``~`` expansion), quotes doubled, and through an alias when the path holds a glob
    character. Hive partitioning must be off too (``x=1`` directories add columns)."""
    text = str(path.absolute())
    if _GLOB_CHARS & set(text):
        text = str(_ALIASES.link(Path(text)))
    return "'" + text.replace("'", "''") + "'"


def _file_list(run: RunInfo, table: str) -> str:
    files = [duckdb_path(r.path(run.path)) for r in run.parts[table]]
    return "[" + ", ".join(files) + "]"


def recorded_board(run: RunInfo, island: str) -> Any:
    """The board ``run`` played as the island named ``island`` (the ``island`` column), as
    its game reads it from the run's manifest (:attr:`sim.game.BoardHooks.recorded`)."""
    boards = GAMES[run.game].boards
    if boards is None:
        raise InputError(f"{run.where}: {GAMES[run.game].title} is not played on boards")
    return boards.recorded(run.manifest, f"{run.where.rstrip('/')}/{MANIFEST}", island)


def island_file_argument(run: RunInfo, island: str) -> str | None:
    """The island file argument of ``run``'s spec that played as ``island``, if any."""
    for argument, entry in (run.manifest.get("boards") or {}).items():
        if isinstance(entry, dict) and entry.get("name") == island:
            return str(argument)
    return None
