"""``tourney simulate``: a spec file plus command-line overrides -> a resolved run -> the runner.

The spec file (TOML, example in ``data/specs/``) holds the keys ``game``, ``players``,
``games``, ``seed``, ``seating``, ``islands``, ``rules``, ``shard_size``, ``backend``,
``workers``, ``address`` and ``out``; a flag given on the command line wins over the file.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, TextIO

from pipelines.play import DEFAULT_RULES
from sim.errors import InputError
from sim.runner.backends import BACKENDS
from sim.runner.games import GAMES, NO_ISLAND, GameKind
from sim.runner.run import RunConfig, RunReport, run
from sim.runner.shard import ShardSummary
from sim.tobago.catalog import resolve_board
from sim.tobago.modular import island_names
from sim.tobago.rules import TobagoRules, with_overrides
from sim.toml_files import read_toml
from strategies.registry import DEFAULT_PLAYERS, parse_strategy, split_specs

SPEC_KEYS = (
    "game",
    "players",
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
)
DEFAULTS: dict[str, Any] = {
    "game": "tobago",
    "players": None,  # the game's default players
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
}
#: Counterfactual variants on the same seeds: the rules without curses, or without amulets.
ABLATIONS: dict[str, dict[str, int]] = {
    "curses": {"curse_count": 0},
    "amulets": {"amulet_count": 0},
}


def ablated(rules: TobagoRules, name: str, label: str) -> TobagoRules:
    """``rules`` without curses or without amulets; ``label`` starts the error message."""
    if name not in ABLATIONS:
        raise InputError(f"{label} {name!r} is not allowed (curses or amulets)")
    return with_overrides(rules, ABLATIONS[name], f"{label} {name}")


def read_spec(path: Path) -> dict[str, Any]:
    """The keys of a spec file (validated names; values are checked by :func:`resolve`)."""
    raw = read_toml(path, "spec file")
    raw.pop("description", None)
    for key in raw:
        if key not in SPEC_KEYS:
            raise InputError(f"{path}: unknown key {key!r} (allowed: {', '.join(SPEC_KEYS)})")
    return raw


def parse_islands(value: Any, source: str) -> tuple[str, ...]:
    """``all`` (the 32 built-ins), ``generated:N`` (the first N generated islands), a name or
    file, or a comma-separated list / TOML list of those names."""
    if isinstance(value, list):
        names = [str(v) for v in value]
    elif isinstance(value, str):
        text = value.strip()
        if text == "all":
            return tuple(island_names())
        if text.startswith("generated:") and "," not in text:
            count = text.removeprefix("generated:")
            if not count.isdigit() or int(count) < 1:
                raise InputError(f"{source}: islands = {value!r}: generated:N needs N >= 1")
            return tuple(f"generated:{k}" for k in range(int(count)))
        names = [x.strip() for x in text.split(",") if x.strip()]
    else:
        raise InputError(f"{source}: islands must be a name, a list, 'all' or 'generated:N'")
    if not names:
        raise InputError(f"{source}: islands is empty")
    for name in names:
        resolve_board(name)  # validates: unknown names and bad files fail here, before running
    return tuple(names)


def game_islands(kind: GameKind, value: Any, source: str, label: str) -> tuple[str, ...]:
    """The islands ``value`` names (default all) for a game played on islands; for a game
    without islands the placeholder, and ``InputError`` (starting ``label``) if any was named."""
    if kind.boards:
        return parse_islands("all" if value is None else value, source)
    if value is not None:
        raise InputError(f"{label}: {kind.title} is not played on islands")
    return (NO_ISLAND,)


def _positive(source: str, key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(f"{source}: {key} = {value!r} is not allowed (a positive integer)")
    return value


def resolve(file_values: dict[str, Any], flags: dict[str, Any], source: str) -> RunConfig:
    """Merge defaults, the spec file and the flags; validate everything."""
    values = dict(DEFAULTS)
    values.update(file_values)
    values.update({k: v for k, v in flags.items() if v is not None})
    game = values["game"]
    if game not in GAMES:
        allowed = ", ".join(GAMES)
        raise InputError(f"{source}: game = {game!r} is not allowed (one of {allowed})")
    kind = GAMES[game]
    players = values["players"] or list(DEFAULT_PLAYERS[game])
    labels = split_specs(players) if isinstance(players, str) else [str(p) for p in players]
    if not 2 <= len(labels) <= 4:
        raise InputError(f"{source}: players: {kind.title} takes 2 to 4 players, got {len(labels)}")
    specs = [parse_strategy(label, game) for label in labels]
    games = _positive(source, "games", values["games"])
    shard_size = _positive(source, "shard_size", values["shard_size"])
    workers = _positive(source, "workers", values["workers"])
    seed = values["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError(f"{source}: seed = {seed!r} is not allowed (a non-negative integer)")
    seating = values["seating"]
    if seating not in ("rotate", "random"):
        raise InputError(f"{source}: seating = {seating!r} is not allowed (rotate or random)")
    backend = values["backend"]
    if backend not in BACKENDS:
        allowed = ", ".join(BACKENDS)
        raise InputError(f"{source}: backend = {backend!r} is not allowed ({allowed})")
    values["rules"] = values["rules"] or DEFAULT_RULES[game]
    if kind.boards and values["islands"] is None:
        values["islands"] = "all"
    rules_source = str(values["rules"])
    rules = kind.load_rules(rules_source)
    ablate = values.get("ablate")
    if ablate:
        if game != "tobago":
            raise InputError(f"{source}: ablate is for Tobago (curses, amulets), not {game}")
        rules = ablated(rules, ablate, f"{source}: ablate =")
        rules_source = f"{rules_source} without {ablate}"
    islands = game_islands(kind, values["islands"], source, f"{source}: islands")
    if kind.boards:
        for name in islands:  # the landmarks must fit the rules' spacing on every island
            resolve_board(name).check_spacing(rules.same_object_min_distance)
    out = values["out"]
    run_dir = Path(out) if out else Path("data") / "runs" / _run_id(values, labels)
    address = values["address"] or None
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
    )


def _run_id(values: dict[str, Any], labels: list[str]) -> str:
    """A readable, deterministic directory name for a spec without ``--out``."""
    import hashlib
    import json

    key = json.dumps(
        {k: values[k] for k in ("game", "games", "seed", "seating", "islands", "rules", "ablate")}
        | {"players": labels, "shard_size": values["shard_size"]},
        sort_keys=True,
        default=str,
    )
    digest = hashlib.sha256(key.encode()).hexdigest()[:8]
    return f"{values['game']}-{values['games']}g-seed{values['seed']}-{digest}"


class Progress:
    """Games done, games per second and time left: a bar on a terminal, plain periodic lines
    otherwise (CI logs)."""

    def __init__(self, total_games: int, stream: TextIO | None = None, every: float = 10.0) -> None:
        self.total = total_games
        self.done = 0
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.every = every
        self.start = time.perf_counter()
        self.last = -every  # the first update is shown at once

    def __call__(self, summary: ShardSummary) -> None:
        self.done += summary.games
        now = time.perf_counter() - self.start
        rate = self.done / now if now > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        text = f"{self.done}/{self.total} games, {rate:,.0f} games/s, {left:,.0f} s left"
        if self.tty:
            width = 30
            filled = int(width * self.done / max(1, self.total))
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {text}  ")
            if self.done >= self.total:
                self.stream.write("\n")
            self.stream.flush()
        elif now - self.last >= self.every or self.done >= self.total:
            self.last = now
            print(f"progress: {text}", file=self.stream, flush=True)


def simulate(config: RunConfig, progress: Progress | None = None) -> RunReport:
    """Run the tournament."""
    return run(config, progress)
