"""Opening a run's directory for playing (:func:`prepare`): a new run is created with its
manifest; an existing one is checked (the same spec, boards, table schema and code) and
grown, its unsound parts dropped and the shards left to play planned."""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sim.errors import InputError
from sim.game import Board, JsonDict
from sim.game_tables import SCHEMA_VERSION
from sim.runner.code_identity import (
    CodeIdentity,
    code_identity,
    covers,
    describe,
    differences,
    plugin_modules,
    run_entry_points,
)
from sim.runner.config import GROWING, GROWING_KEYS, RunConfig, shard_ranges
from sim.runner.engine_choice import SKIPPED, choose_engine, run_tables, skipped_tables
from sim.runner.games import game_kind
from sim.runner.loaded_code import changed_since
from sim.runner.manifest import (
    check_schema,
    git_commit,
    library_versions,
    read_manifest,
    run_code,
    write_manifest,
)
from sim.storage.parts import (
    PartRecord,
    plan_resume,
    records_from_manifest,
    records_to_manifest,
)
from sim.storage.store import MANIFEST, LocalStore, RunStore


@dataclass
class Prepared:
    """A run directory opened for playing: its manifest, the parts it keeps, every shard's
    games, the shards to play, what a resume repaired and the shard spans to compact."""

    manifest: dict[str, Any]
    records: dict[str, list[PartRecord]]
    ranges: list[tuple[int, int]]
    play: list[int]
    notes: list[str]
    #: Shard spans to compact, one per extent not compacted yet (never across extents, never
    #: an extent the run had when it was last complete: its parts stay as they are).
    spans: list[range]
    #: The code that plays the shards (the driver's, which is the run's).
    code: CodeIdentity
    #: The run as played: its engine resolved (``reference`` or ``compiled``).
    config: RunConfig


def _games_text(spec: dict[str, Any]) -> str:
    """A spec's game count for people (per table size for a pool)."""
    per_size = spec.get("games_per_size")
    return f"{per_size:,} games per table size" if per_size else f"{spec['games']:,} games"


def _extents(manifest: dict[str, Any], where: str) -> list[int]:
    """The run's recorded growth steps (its game count after each), checked."""
    extents = manifest.get("extents")
    games = manifest["spec"].get("games")
    if (
        not isinstance(extents, list)
        or not extents
        or not all(isinstance(e, int) and not isinstance(e, bool) for e in extents)
        or any(b <= a for a, b in itertools.pairwise([0, *extents]))
        or extents[-1] != games
    ):
        raise InputError(f"{where}: the manifest's record of its games ('extents') is malformed")
    return list(extents)


def _spans(extents: list[int], shard_size: int, compacted: int, play: set[int]) -> list[range]:
    """The shard spans to compact: every extent beyond ``compacted`` games, and an extent
    compacted before only when one of its shards is played again (a repair: its parts
    changed anyway). An intact compacted extent is left alone."""
    spans = []
    shard = 0
    for end, start in zip(extents, [0, *extents], strict=False):
        span = range(shard, shard + len(shard_ranges([end - start], shard_size)))
        if end > compacted or any(k in play for k in span):
            spans.append(span)
        shard = span.stop
    return spans


def prepare(config: RunConfig, boards: Mapping[str, tuple[str, Board]]) -> Prepared:
    """Create or reopen the run directory (held by the caller's :class:`RunLock`); refuse one
    that holds a different spec, a changed island file or a part that is not sound, and plan
    the shards to play.

    The same spec with more games **grows** the run: a new extent of games is added after
    the ones it has, cut into shards of its own, and only those games are played; the parts
    of the games it had are kept as they are (checked by hash, never rewritten or merged).
    Fewer games is refused: a run never shrinks. The engine ``auto`` is resolved here: a run
    keeps the engine it was started with (:mod:`sim.runner.engine_choice`)."""
    kind = game_kind(config.game)
    recorded_boards = kind.boards.manifest(boards) if kind.boards else {}
    code = code_identity(plugin_modules(config.factories), run_entry_points(config.game))
    existing = read_manifest(config.run_dir)
    config = dataclasses.replace(config, engine=choose_engine(config, existing))
    if existing is not None:
        return _reopen(config, existing, recorded_boards, code)
    return _create(config, recorded_boards, code)


def _reopen(
    config: RunConfig,
    existing: dict[str, Any],
    recorded_boards: dict[str, JsonDict],
    code: CodeIdentity,
) -> Prepared:
    """Reopen a run directory: check it holds this spec (grown, perhaps), its boards and the
    code that played it, drop the parts that are not sound and plan the shards left."""
    store = config.run_dir
    kind = game_kind(config.game)
    if isinstance(store, LocalStore):
        for stale in store.root.glob("*/.*.tmp"):  # what a killed writer left: never a part
            stale.unlink(missing_ok=True)
    check_schema(store, existing)
    extents, growing = _same_spec(config, existing)
    notes = [growing] if growing else []
    ranges = shard_ranges(extents, config.shard_size)
    if kind.boards:
        kind.boards.check(existing.get("boards") or {}, recorded_boards)
    recorded = records_from_manifest(existing, run_tables(kind, existing), store.show(MANIFEST))
    plan = plan_resume(store, recorded, len(ranges))
    played_by = run_code(store, existing)
    playing = bool(plan.play) or growing is not None
    notes += _same_code(store, played_by, code, any(plan.kept.values()), playing)
    existing["code"] = (played_by or code).to_json()
    store.delete_many(plan.delete)
    existing["extents"] = extents
    existing["shards"] = len(ranges)
    existing["parts"] = records_to_manifest(plan.kept)
    existing["boards"] = recorded_boards
    write_manifest(store, existing)
    compacted = int(existing.get("compacted_games") or 0)
    return Prepared(
        existing,
        plan.kept,
        ranges,
        sorted(plan.play),
        notes + plan.notes,
        _spans(extents, config.shard_size, compacted, plan.play),
        code,
        config,
    )


def _same_spec(config: RunConfig, existing: dict[str, Any]) -> tuple[list[int], str | None]:
    """The run's extents, grown by a new one when more games are asked for (the manifest's
    spec then updated, and the note that says so returned); ``InputError`` for a different
    spec or fewer games."""
    store = config.run_dir
    spec = config.spec()
    old = existing["spec"]
    differs = sorted(
        k for k in {*spec, *old} if k not in GROWING_KEYS and old.get(k) != spec.get(k)
    )
    if differs:
        raise InputError(
            f"{store}: holds a run of a different spec (differs in: {', '.join(differs)}); "
            "use another --out, or delete that directory to start over"
        )
    extents = _extents(existing, store.show(MANIFEST))
    if spec["games"] < old["games"]:
        raise InputError(
            f"{store}: holds {_games_text(old)}, more than the {_games_text(spec)} asked "
            f"for; a run grows but never shrinks (ask for {_games_text(old)} or more, or use "
            "another --out)"
        )
    if spec["games"] == old["games"]:
        return extents, None
    note = (
        f"{GROWING} from {_games_text(old)} to {_games_text(spec)}: only the "
        f"{spec['games'] - old['games']:,} new games are played, the first "
        f"{old['games']:,} stay as they are"
    )
    extents.append(spec["games"])
    existing["spec"] = spec
    existing["status"] = "running"
    return extents, note


def _same_code(
    store: RunStore,
    played_by: CodeIdentity | None,
    code: CodeIdentity,
    kept: bool,
    playing: bool,
) -> list[str]:
    """``InputError`` when this code would add games to a run that other code played (or
    whose code is unknown while it keeps parts); the note that other code reopened a run
    with nothing left to play."""
    if played_by is None and kept:
        raise InputError(
            f"{store}: the code that played its games is not recorded (a run written by "
            "an older tourney and stopped before it finished), so a resume could mix "
            "codes; simulate the run again into a new directory"
        )
    found = differences(played_by, code) if played_by is not None else []
    if played_by is not None and playing:
        # The modules its shards loaded, as the workers would find them now.
        found += [
            (f"loaded {k}", a, b)
            for k, a, b in changed_since(dict(played_by.loaded))
            if not covers(code, k)  # already named by its part
        ]
        if found:
            raise InputError(
                f"{store}: its games were played by {played_by.short()} and this is "
                f"{code.short()}, which differ in {describe(found, 'recorded', 'here')}; "
                "a run holds the games of one code, so only that code resumes or grows "
                "it (or simulate into another --out)"
            )
    if played_by is not None and found:
        return [
            f"played by {played_by.short()} (this is {code.short()}); nothing was left "
            "to play, so nothing changed"
        ]
    return []


def _create(
    config: RunConfig, recorded_boards: dict[str, JsonDict], code: CodeIdentity
) -> Prepared:
    """Create the run directory and its manifest, with every shard to play."""
    store = config.run_dir
    kind = game_kind(config.game)
    skipped = skipped_tables(kind, config.engine)
    tables = tuple(t for t in kind.tables if t not in skipped)
    if store.top_entries():
        raise InputError(f"{store}: exists, is not empty and holds no run; use another --out")
    try:
        store.make_folders(tables)
    except OSError as exc:
        raise InputError(f"{store}: cannot create the run directory ({exc.strerror})") from None
    records: dict[str, list[PartRecord]] = {table: [] for table in tables}
    ranges = shard_ranges([config.games], config.shard_size)
    manifest = {
        "schema_version": SCHEMA_VERSION,
        "run_id": config.run_id(),
        "spec": config.spec(),
        "status": "running",
        "versions": library_versions(),
        "label": config.label,
        "git_commit": git_commit(),
        "created_unix": round(time.time(), 3),
        "extents": [config.games],
        "shards": len(ranges),
        "boards": recorded_boards,
        "parts": records_to_manifest(records),
        # Recorded before any shard is played: a run killed at any point says what played it.
        "code": code.to_json(),
    } | ({SKIPPED: list(skipped)} if skipped else {})
    write_manifest(store, manifest)
    return Prepared(
        manifest,
        records,
        ranges,
        list(range(len(ranges))),
        [],
        [range(len(ranges))],
        code,
        config,
    )
