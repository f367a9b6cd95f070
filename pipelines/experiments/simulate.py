"""``tourney simulate``: a spec file plus command-line overrides -> a resolved run -> the runner.

The spec file (TOML, example in ``data/specs/``) holds the keys ``game``, ``players`` (or
``pool`` and ``table_sizes``: :mod:`pipelines.experiments.pools`), ``games``, ``seed``, ``seating``,
``islands``, ``rules``, ``shard_size``, ``backend``, ``workers``, ``address``, ``out`` and
``shared_out``; a flag given on the command line wins over the file.

``out`` is a path or a URI (``s3://BUCKET/PREFIX``, ``file:///PATH``; see
:mod:`sim.storage.store`). A run that joins a cluster (``address``) is written by workers on
other machines, so its ``out`` must be a place every node reaches: an object store, or an
absolute path that ``shared_out = true`` (``--shared-out``) declares to be on a filesystem
every node mounts at that same path. Anything else is refused before the run starts (a
worker that cannot see the run's manifest would refuse its shard anyway, see
:func:`sim.runner.shard.check_visible`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipelines.experiments.game_choice import choose_game
from pipelines.experiments.pools import Lineup, lineup
from pipelines.experiments.progress import Progress
from pipelines.play.ablation import ablated
from sim.compiled_engine import ENGINES
from sim.errors import InputError
from sim.game import AnyKind, BoardHooks, RulesLike
from sim.guard import MAX_DECISION_TIMEOUT, MIN_DECISION_TIMEOUT, Guard
from sim.runner.backends import BACKENDS, check_address_format
from sim.runner.games import GAMES, NO_ISLAND, UNNAMED_GAME
from sim.runner.run import RunConfig, RunReport, run
from sim.storage.locations import is_uri, open_store
from sim.storage.store import RunStore
from sim.toml_files import read_toml
from strategies.registry import builtin_name, parse_strategy

__all__ = ["ablated"]

SPEC_KEYS = (
    "game",
    "players",
    "pool",
    "table_sizes",
    "games",
    "seed",
    "seating",
    "islands",
    "rules",
    "shard_size",
    "backend",
    "workers",
    "address",
    "out",
    "ablate",
    "twin",
    "shared_out",
    "audit",
    "decision_timeout",
    "shard_timeout",
    "isolate",
    "engine",
)
DEFAULTS: dict[str, Any] = {
    "game": None,  # the spec's, else the one the command fits (pipelines.experiments.game_choice)
    "players": None,  # the game's default players
    "pool": None,  # instead of players: every combination of the pool at each table size
    "table_sizes": None,  # a pool's: default every size from 2 to 4 the pool can fill
    "games": 20_000,
    "seed": 1,
    "seating": "rotate",
    "islands": None,  # Tobago: all 32 built-in islands; games without islands: none
    "rules": None,  # the game's default preset
    "shard_size": 1000,
    "backend": "ray",
    "workers": 2,
    "address": None,
    "out": None,
    "ablate": None,
    "twin": None,
    "shared_out": False,
    "audit": False,  # check after every decision that the game is unchanged (sim.guard)
    "decision_timeout": None,  # seconds a decision may take (off by default)
    "shard_timeout": None,  # seconds a shard may take (process and ray backends)
    "isolate": False,  # each plug-in strategy in its own process (sim.isolate)
    "engine": "auto",  # the compiled engine when it can play the run (sim.runner.engine_choice)
}


def read_spec(path: Path) -> dict[str, Any]:
    """The keys of a spec file (validated names; values are checked by :func:`resolve`)."""
    raw = read_toml(path, "spec file")
    description = raw.pop("description", None)
    if description is not None and not isinstance(description, str):
        raise InputError(f"{path}: description = {description!r} is not allowed (a string)")
    if description:
        raw["label"] = description.strip()
    for key in raw:
        if key == "label":
            continue
        if key not in SPEC_KEYS:
            raise InputError(f"{path}: unknown key {key!r} (allowed: {', '.join(SPEC_KEYS)})")
    return raw


def parse_islands(boards: BoardHooks[RulesLike], value: Any, source: str) -> tuple[str, ...]:
    """``all`` (the game's built-in boards), ``generated:N`` (the first N generated ones), a
    name or file, or a comma-separated list / TOML list of those names."""
    if isinstance(value, list):
        names = [str(v) for v in value]
    elif isinstance(value, str):
        text = value.strip()
        if text == "all":
            return boards.builtin()
        if text.startswith("generated:") and "," not in text:
            count = text.removeprefix("generated:")
            if not count.isdigit() or len(count) > 6 or not 1 <= int(count) <= MAX_ISLANDS:
                raise InputError(
                    f"{source}: islands = {_shown(value)} is not allowed (generated:N with N "
                    f"from 1 to {MAX_ISLANDS})"
                )
            return tuple(f"generated:{k}" for k in range(int(count)))
        names = [x.strip() for x in text.split(",") if x.strip()]
    else:
        raise InputError(f"{source}: islands must be a name, a list, 'all' or 'generated:N'")
    if not names:
        raise InputError(f"{source}: islands is empty")
    if len(names) > MAX_ISLANDS:
        raise InputError(
            f"{source}: islands lists {len(names):,} {boards.noun[1]} "
            f"(at most {MAX_ISLANDS} allowed)"
        )
    for name in names:
        boards.resolve(name)  # validates: unknown names and bad files fail here, before running
    return tuple(names)


def game_islands(kind: AnyKind, value: Any, source: str, label: str) -> tuple[str, ...]:
    """The islands ``value`` names (default all) for a game played on islands; for a game
    without islands the placeholder, and ``InputError`` (starting ``label``) if any was named."""
    if kind.boards:
        return parse_islands(kind.boards, "all" if value is None else value, source)
    if value is not None:
        raise InputError(f"{label}: {kind.title} is not played on islands")
    return (NO_ISLAND,)


#: Upper bounds of the numbers a run takes: each far above any real use, each low enough that
#: the driver's bookkeeping (tasks, the manifest's part records) and a worker's memory for
#: one shard stay small. A value outside is one line naming the key, value and range.
MAX_GAMES = 100_000_000
MAX_SHARD_SIZE = 100_000
MAX_SHARDS = 100_000
MAX_WORKERS = 256
#: Islands in one run: each worker keeps every board of the run in memory (and generating
#: one takes about 30 ms).
MAX_ISLANDS = 256
MAX_SEED = 2**64 - 1
#: Spec keys whose value is a string (``players`` and ``islands`` may also be lists).
_STRING_KEYS = (
    "game", "seating", "rules", "backend", "address", "out", "ablate", "twin", "engine",
)  # fmt: skip


def _shown(value: Any) -> str:
    """A value in a message: its repr, cut short (a spec may hold anything)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _bounded(source: str, key: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(
            f"{source}: {key} = {_shown(value)} is not allowed (an integer from {low:,} to "
            f"{high:,})"
        )
    return value


def _check_types(values: dict[str, Any], source: str) -> None:
    """``InputError`` for a value of the wrong type (a TOML spec can hold any)."""
    for key in _STRING_KEYS:
        value = values.get(key)
        if value is not None and not isinstance(value, str):
            raise InputError(f"{source}: {key} = {_shown(value)} is not allowed (a string)")
    for key in ("players", "pool", "islands"):
        value = values.get(key)
        if value is None or isinstance(value, str):
            continue
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise InputError(
                f"{source}: {key} = {_shown(value)} is not allowed (a string or a list of strings)"
            )


def _unnamed_game(file_values: dict[str, Any], flags: dict[str, Any]) -> str:
    """The game of a run that names none: a spec file's is Tobago (see
    :data:`sim.runner.games.UNNAMED_GAME`); the command line's, the one its flags fit."""
    if file_values:
        return UNNAMED_GAME
    lineup = flags.get("players") or flags.get("pool")
    return choose_game(
        None,
        players=lineup if isinstance(lineup, str) else None,
        rules=[flags.get("rules")],
        boards=flags.get("islands") is not None,
        ablation=flags.get("ablate") or flags.get("twin"),
    )


def _game(game: Any, file_values: dict[str, Any], flags: dict[str, Any], source: str) -> str:
    """The game named, or the one the other values fit; ``InputError`` for an unknown one."""
    if game is None:
        game = _unnamed_game(file_values, flags)
    if game not in GAMES:
        allowed = ", ".join(GAMES)
        raise InputError(f"{source}: game = {game!r} is not allowed (one of {allowed})")
    return str(game)


def resolve(file_values: dict[str, Any], flags: dict[str, Any], source: str) -> RunConfig:
    """Merge defaults, the spec file and the flags; validate everything."""
    values = dict(DEFAULTS)
    values.update(file_values)
    values.update({k: v for k, v in flags.items() if v is not None})
    _check_types(values, source)
    game = values["game"] = _game(values["game"], file_values, flags, source)
    kind = GAMES[game]
    seating = values["seating"]
    if seating not in ("rotate", "random"):
        raise InputError(f"{source}: seating = {seating!r} is not allowed (rotate or random)")
    asked = _bounded(source, "games", values["games"], 1, MAX_GAMES)
    who = lineup(file_values, flags, game, asked, seating, source)
    labels = list(who.labels)
    if not who.table_sizes:
        kind.check_players(len(labels), f"{source}: players")
    specs = [parse_strategy(label, game) for label in labels]
    games = who.games
    if games > MAX_GAMES:
        raise InputError(
            f"{source}: games = {asked:,} per table size makes {games:,} games (at most "
            f"{MAX_GAMES:,} allowed)"
        )
    shard_size = _shard_size(source, values["shard_size"], games)
    workers = _bounded(source, "workers", values["workers"], 1, MAX_WORKERS)
    seed = _bounded(source, "seed", values["seed"], 0, MAX_SEED)
    backend = values["backend"]
    if backend not in BACKENDS:
        allowed = ", ".join(BACKENDS)
        raise InputError(f"{source}: backend = {backend!r} is not allowed ({allowed})")
    values["rules"] = values["rules"] or kind.default_rules
    if kind.boards and values["islands"] is None:
        values["islands"] = "all"
    ablate = values.get("ablate")
    rules, rules_source = _rules(kind, str(values["rules"]), ablate, source)
    islands = game_islands(kind, values["islands"], source, f"{source}: islands")
    if kind.boards:
        for name in islands:  # e.g. Tobago's landmarks must fit the rules' spacing
            kind.boards.fits(kind.boards.resolve(name), rules)
    address = values["address"] or None
    if address is not None and backend == "ray":
        check_address_format(address)
    shared = values["shared_out"]
    if not isinstance(shared, bool):
        raise InputError(f"{source}: shared_out = {_shown(shared)} is not allowed (true or false)")
    guard, shard_timeout = _guard(values, backend, source)
    engine = _engine(values["engine"], source)
    out = values["out"]
    run_dir = out_store(
        out or str(Path("data") / "runs" / _run_id(values, who)),
        joining=address is not None and backend == "ray",
        shared=shared,
        source=source,
    )
    label = str(file_values.get("label") or run_label(rules_source, labels, who.table_sizes))
    if ablate and file_values.get("label"):
        label += f" (without {ablate})"
    return RunConfig(
        run_dir=run_dir,
        game=game,
        labels=tuple(labels),
        factories=tuple(s.factory() for s in specs),
        rules=rules,
        rules_source=rules_source,
        games=games,
        seed=seed,
        seating=seating,
        islands=islands,
        shard_size=shard_size,
        backend=backend,
        workers=workers,
        address=address,
        label=label,
        table_sizes=who.table_sizes,
        requested_games=asked,
        guard=guard,
        shard_timeout=shard_timeout,
        engine=engine,
        compiled_seats=tuple((builtin_name(s, game), s.params) for s in specs),
    )


def _engine(value: Any, source: str) -> str:
    """The engine asked for (``auto`` is resolved when the run is opened)."""
    if value not in ENGINES:
        raise InputError(f"{source}: engine = {value!r} is not allowed ({', '.join(ENGINES)})")
    return str(value)


def _shard_size(source: str, value: Any, games: int) -> int:
    """The games per shard, checked (and the number of shards they make)."""
    shard_size = _bounded(source, "shard_size", value, 1, MAX_SHARD_SIZE)
    if -(-games // shard_size) > MAX_SHARDS:
        raise InputError(
            f"{source}: games = {games:,} in shards of {shard_size:,} makes "
            f"{-(-games // shard_size):,} shards (at most {MAX_SHARDS:,} allowed: raise "
            "shard_size)"
        )
    return shard_size


def _rules(
    kind: AnyKind, rules_source: str, ablate: str | None, source: str
) -> tuple[RulesLike, str]:
    """The run's rules, without the ablated part if any, and how they are named."""
    rules = kind.load_rules(rules_source)
    if ablate:
        rules = ablated(rules, ablate, f"{source}: ablate =")
        rules_source = f"{rules_source} without {ablate}"
    return rules, rules_source


def _seconds(source: str, key: str, value: Any, high: float, low: float = 0) -> float | None:
    """A time limit in seconds (None: off); ``InputError`` outside (0, high], or outside
    [low, high] when ``low`` is given."""
    if value is None:
        return None
    bad = isinstance(value, bool) or not isinstance(value, int | float)
    if bad or not (low <= value <= high if low else 0 < value <= high):
        allowed = f"from {low:g} to {high:g}" if low else f"more than 0 and at most {high:g}"
        raise InputError(f"{source}: {key} = {_shown(value)} is not allowed (seconds, {allowed})")
    return float(value)


def _guard(values: dict[str, Any], backend: str, source: str) -> tuple[Guard, float | None]:
    """The run's guard (audit, decision time limit) and its shard time limit, checked."""
    audit = values["audit"]
    if not isinstance(audit, bool):
        raise InputError(f"{source}: audit = {_shown(audit)} is not allowed (true or false)")
    isolate = values["isolate"]
    if not isinstance(isolate, bool):
        raise InputError(f"{source}: isolate = {_shown(isolate)} is not allowed (true or false)")
    decision = _seconds(
        source, "decision_timeout", values["decision_timeout"], MAX_DECISION_TIMEOUT,
        MIN_DECISION_TIMEOUT,
    )  # fmt: skip
    shard = _seconds(source, "shard_timeout", values["shard_timeout"], 7 * 86_400)
    if shard is not None and backend == "serial":
        raise InputError(
            f"{source}: shard_timeout needs --backend process or ray (a shard that overruns is "
            "stopped by the driver, which the serial backend does not have)"
        )
    return Guard(audit=audit, decision_timeout=decision, isolate=isolate), shard


def out_store(out: str, joining: bool, shared: bool, source: str) -> RunStore:
    """The store ``out`` names; when the run joins a cluster (``joining``), ``InputError``
    unless every node can reach it: a URI of an object store, or an absolute path declared
    ``shared``."""
    store = open_store(out)
    if not joining or not store.local:
        return store
    if is_uri(out) or Path(out).is_absolute():
        if shared:
            return store
        raise InputError(
            f"{source}: out = {out!r} is a path on this machine, but with --address the "
            "workers on other nodes write the parts: give an s3:// URI, or add --shared-out if "
            "every node mounts this directory at the same path"
        )
    raise InputError(
        f"{source}: out = {out!r} is a relative path, but with --address the workers on other "
        "nodes write the parts, each from its own directory: give an s3:// URI, or an absolute "
        "path that every node mounts, with --shared-out"
    )


def run_label(
    rules_source: str, labels: list[str], table_sizes: tuple[int, ...] | list[int] = ()
) -> str:
    """A run's name for people when its spec has no description: its rules (a rules file by
    its file name, never the preset it starts from) and its players (a pool with its table
    sizes)."""
    base, without, ablation = rules_source.partition(" without ")
    rules = Path(base).name if base.endswith(".toml") else base
    who = ", ".join(labels)
    if table_sizes:
        who = f"pool {who} at {', '.join(str(s) for s in table_sizes)} players"
    return f"{rules}{without}{ablation}: {who}"


def twin_config(
    file_values: dict[str, Any], flags: dict[str, Any], source: str
) -> RunConfig | None:
    """The counterfactual twin of the run ``resolve`` makes, when ``twin`` (curses or
    amulets) is set: the same spec without that part, on the same seeds, in the run
    directory's sibling ``<name>-without-<twin>``; ``None`` without a twin."""
    values = {**file_values, **{k: v for k, v in flags.items() if v is not None}}
    twin = values.get("twin")
    if not twin:
        return None
    if values.get("ablate"):
        raise InputError(f"{source}: twin and ablate cannot both be given (a twin is an ablation)")
    base = resolve(file_values, flags, source)
    kind = GAMES[base.game]
    if twin not in kind.ablations:
        allowed = " or ".join(kind.ablations) or f"none: {kind.title} has no ablations"
        raise InputError(f"{source}: twin = {twin!r} is not allowed ({allowed})")
    out = base.run_dir.sibling(f"{base.run_dir.name}-without-{twin}")
    return resolve(file_values, {**flags, "ablate": twin, "out": out.uri, "twin": None}, source)


def _run_id(values: dict[str, Any], who: Lineup) -> str:
    """A readable, deterministic directory name for a spec without ``--out``. The number of
    games is not part of it, so the same command with more games grows that run."""
    import hashlib
    import json

    key = json.dumps(
        {k: values[k] for k in ("game", "seed", "seating", "islands", "rules", "ablate")}
        | {"players": list(who.labels), "shard_size": values["shard_size"]}
        | ({"table_sizes": list(who.table_sizes)} if who.table_sizes else {})
        | {k: values[k] for k in ("audit", "decision_timeout", "isolate") if values.get(k)},
        sort_keys=True,
        default=str,
    )
    digest = hashlib.sha256(key.encode()).hexdigest()[:8]
    kind = "pool-" if who.table_sizes else ""
    return f"{values['game']}-{kind}seed{values['seed']}-{digest}"


def at_once(config: RunConfig, to_play: int) -> int:
    """How many shards of ``config`` play at the same time (fewer than the workers in a
    short run)."""
    workers = 1 if config.backend == "serial" else config.workers
    return min(workers, max(1, -(-to_play // config.shard_size)))


def simulate(
    config: RunConfig,
    progress: Progress | None = None,
    on_start: Callable[[int, list[str]], None] | None = None,
) -> RunReport:
    """Run the tournament (``on_start``: see :func:`sim.runner.run.run`), ``progress`` told
    each shard's games and those finished inside shards still playing."""
    if progress is None:
        return run(config, None, on_start)
    try:
        return run(config, progress, on_start, progress.in_shard, progress.stage)
    finally:
        progress.finish()  # a bar stopped by an error or an interrupt still ends its line
