"""Which code plays the games: the identity a run records and a shard carries to its worker.

A worker does not necessarily import the code the driver runs: Ray puts the driver's
working directory first on its workers' import path, so a checkout there shadows the
installed package, and the nodes of a cluster have their own installs. The identity is a
set of named parts, each a digest or a version, as the importing process finds them:

- ``file sim/...``, ``file strategies/...``: every source file of the packages that play
  games, and ``file PKG/...`` of the package of the run's game's entry point
  (``tourney.games``, installed or not) and of every part its kind names (its strategies'
  catalog, report part, commands and replay page's script: ``game NAME:PART``, what it
  names), with ``entry point GROUP:NAME`` (what it names) and ``dist NAME`` (its
  distribution's version). The product's own analysis layers (``pipelines``, ``reports``)
  are left out: they play no game, and a built-in game's report part or commands are the
  product's at its version, so that editing a report's code does not split its cohorts;
- ``module NAME``: the plug-in strategy modules the run names, with their base classes'
  modules and the user's own modules they import;
- ``data ...``: the data files every installed game declares it reads
  (:attr:`sim.game.GameFacts.data_files`: Tobago's islands and clue decks) and the files any
  hashed module declares in a module-level ``DATA_FILES`` (:mod:`sim.runner.loaded_code`);
- ``version ...``: the interpreter and the libraries that can change games (numpy), with
  the package version itself: compared like the rest, not only recorded.

The driver puts its identity in every shard; a worker computes its own before playing and
refuses the shard naming what differs (:func:`check_code`); a resume or a growth compares
the recorded identity with its own (:func:`differences`).

Code that is not imported at the start (a helper imported by name in the middle of a game,
a library a strategy loads lazily) is covered by what the shards report: after its games
every shard reads ``sys.modules`` (:func:`sim.runner.loaded_code.loaded_code`) and the
runner pins each module it has not seen in the run's record, with its digest, in the same
manifest write that records the shard, and refuses a shard that loaded another digest of
a pinned module (:func:`pin_loaded`); a resume or growth first checks the pinned modules'
files as it finds them. This is sound: a module that no recorded shard loaded played no
recorded game, and one that some did is pinned with them. It is cheap: a module is hashed
once per process, so a shard costs one look-up per loaded module. The alternatives are
not: refusing every module the creation did not see fails honest runs (a lazy import, the
libraries a Ray or pool worker loads that the driver never does), and a probe game at
creation misses an import that only some games make (a seat, a pool's table, a rare
branch).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import json
import platform
import site
import socket
import sys
import sysconfig
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from sim.errors import RunError
from sim.paths import data_dir
from sim.runner.games import GAMES, GROUP
from sim.runner.loaded_code import declared_data, sha256_file

#: The packages whose sources play games (found, not imported: ``sim`` never imports
#: ``strategies``).
PACKAGES = ("sim", "strategies")
#: The product's packages: a part a kind names in one of them is not hashed on its own (the
#: first two are hashed whole; the others play no game).
PRODUCT = (*PACKAGES, "pipelines", "reports", "tourney")
#: The entry-point groups a run of a game uses, each by the game's name: its kind's.
ENTRY_GROUPS = (GROUP,)
#: Libraries that can change games (besides the interpreter and the package itself).
LIBRARIES = ("numpy",)
#: Parts whose values are versions or names (shown in messages; others are digests).
_SHOWN = ("version ", "dist ", "entry point ", "game ")


@dataclass(frozen=True, slots=True)
class CodeIdentity:
    """The version and source digest of the code a process plays games with."""

    version: str
    digest: str
    #: Plug-in strategy modules hashed besides the packages (module names).
    modules: tuple[str, ...] = ()
    #: Where ``sim`` was imported from (shown in messages; not compared).
    where: str = ""
    #: The entry points hashed (``group:name``).
    entry_points: tuple[str, ...] = ()
    #: Every part by name: a digest or a version (see the module's docstring); empty in
    #: identities recorded by older versions, which are compared by ``digest``.
    parts: Mapping[str, str] = field(default_factory=dict)
    #: The modules the run's shards loaded, pinned (:func:`pin_loaded`); a run's record only.
    loaded: Mapping[str, str] = field(default_factory=dict)

    def same_code(self, other: CodeIdentity) -> bool:
        """Whether both identities name the same code."""
        return not differences(self, other)

    def short(self) -> str:
        """For people, what is compared: ``tourney 0.1.0, sources 1a2b3c4d5e6f``."""
        return f"tourney {self.version}, sources {self.digest[:12]}"

    def label(self) -> str:
        """For people: ``tourney 0.1.0, sources 1a2b3c4d5e6f (sim in /path)``."""
        where = f" (sim in {self.where})" if self.where else ""
        return f"{self.short()}{where}"

    def to_json(self, compact: bool = False) -> dict[str, Any]:
        """The identity as plain data (the manifest entry; what a shard carries); without
        its parts when ``compact`` (an execution's record)."""
        out: dict[str, Any] = {
            "version": self.version,
            "digest": self.digest,
            "modules": list(self.modules),
            "where": self.where,
            "entry_points": list(self.entry_points),
        }
        if not compact:
            out["parts"] = dict(sorted(self.parts.items()))
            out["loaded"] = dict(sorted(self.loaded.items()))
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> CodeIdentity:
        """The identity :meth:`to_json` wrote."""
        parts = obj.get("parts")
        loaded = obj.get("loaded")
        return cls(
            str(obj["version"]),
            str(obj["digest"]),
            tuple(str(m) for m in obj.get("modules", ())),
            str(obj.get("where", "")),
            tuple(str(p) for p in obj.get("entry_points", ())),
            {str(k): str(v) for k, v in parts.items()} if isinstance(parts, dict) else {},
            {str(k): str(v) for k, v in loaded.items()} if isinstance(loaded, dict) else {},
        )


def differences(a: CodeIdentity, b: CodeIdentity) -> list[tuple[str, str, str]]:
    """What differs between two identities, as ``(part, value in a, value in b)``: the
    package version, every part either has with another value (absent: ``-``), and every
    module both runs' shards loaded with other digests. Identities recorded by older
    versions (no parts) differ in ``sources`` when their digests do."""
    out: list[tuple[str, str, str]] = []
    if a.version != b.version:
        out.append(("version tourney", a.version, b.version))
    if a.parts and b.parts:
        keys = sorted(set(a.parts) | set(b.parts))
        out += [
            (k, a.parts.get(k, "-"), b.parts.get(k, "-"))
            for k in keys
            if a.parts.get(k) != b.parts.get(k)
        ]
    elif a.digest != b.digest:
        out.append(("sources", a.digest, b.digest))
    out += [
        (f"loaded {k}", a.loaded[k], b.loaded[k])
        for k in sorted(set(a.loaded) & set(b.loaded))
        if a.loaded[k] != b.loaded[k] and not (covers(a, k) or covers(b, k))
    ]
    return out


def covers(identity: CodeIdentity, key: str) -> bool:
    """Whether a loaded module (or ``module:path`` data file) is one of ``identity``'s own
    parts already (named once in messages)."""
    name, colon, _ = key.partition(":")
    if colon:
        return f"data {key}" in identity.parts
    prefixes = [".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 2)]
    return f"module {name}" in identity.parts or any(
        f"file {p}.py" in identity.parts or any(k.startswith(f"file {p}/") for k in identity.parts)
        for p in prefixes
    )


def describe(found: list[tuple[str, str, str]], a: str, b: str, limit: int = 3) -> str:
    """:func:`differences` in words: ``file x/y.py, version numpy (2.4.6 here, 0.0.0
    recorded)`` with ``a`` and ``b`` naming the two sides, and how many more."""
    words = []
    for key, va, vb in found[:limit]:
        shown = key.startswith(_SHOWN) or key == "version tourney"
        words.append(f"{key} ({va} {a}, {vb} {b})" if shown else key)
    more = len(found) - limit
    return ", ".join(words) + (f" and {more} more" if more > 0 else "")


def _package_dir(name: str) -> Path | None:
    module = sys.modules.get(name)
    origin = getattr(module, "__file__", None) if module is not None else None
    if origin is None:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
    return Path(origin).parent if origin else None


def _module_file(name: str) -> Path | None:
    module = sys.modules.get(name)
    origin = getattr(module, "__file__", None) if module is not None else None
    if origin is None:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return None
        origin = spec.origin if spec is not None else None
    return Path(origin) if origin and origin.endswith(".py") else None


def _regular_package(name: str) -> Path | None:
    """The folder of ``name`` when it is a regular package (with an ``__init__.py``)."""
    path = _module_file(name)
    return path.parent if path is not None and path.name == "__init__.py" else None


def _hash_package(parts: dict[str, str], package: str) -> None:
    """Every source file of package ``package`` (or the one file of a module), and the
    data files any of them declares."""
    root = _regular_package(package)
    if root is None:
        path = _module_file(package)
        parts[f"file {package}.py"] = sha256_file(path)
        if path is not None:
            _hash_declared(parts, package, path)
        return
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        rel = path.relative_to(root)
        parts[f"file {package}/{rel.as_posix()}"] = sha256_file(path)
        name = ".".join((package, *rel.with_suffix("").parts))
        _hash_declared(parts, name.removesuffix(".__init__"), path)


def _hash_declared(parts: dict[str, str], module: str, path: Path) -> None:
    for key, file in declared_data(module, path):
        parts[f"data {key}"] = sha256_file(file)


def run_entry_points(game: str) -> tuple[str, ...]:
    """The entry points a run of ``game`` uses (``group:name``), as this process finds them."""
    return tuple(
        f"{group}:{game}"
        for group in ENTRY_GROUPS
        if any(p.name == game for p in metadata.entry_points(group=group))
    )


def _hash_entry_point(parts: dict[str, str], ident: str) -> None:
    group, _, name = ident.partition(":")
    points = [p for p in metadata.entry_points(group=group) if p.name == name]
    parts[f"entry point {ident}"] = " | ".join(sorted(p.value for p in points)) or "-"
    for point in points:
        dist = getattr(point, "dist", None)
        if dist is not None:
            parts[f"dist {dist.name}"] = str(dist.version)
        _hash_code_of(parts, point.value.partition(":")[0])
    kind = GAMES.get(name) if group == GROUP else None
    if kind is None:
        return
    for part, target in kind.named_parts().items():
        parts[f"game {name}:{part}"] = target
        _hash_code_of(parts, target.partition(":")[0])
    if kind.replay is not None:
        package, script = kind.replay.renderer
        parts[f"game {name}:replay"] = f"{package}/{script}"
        root = _hash_code_of(parts, package)
        if root is None:
            return
        root_dir, folder = _regular_package(root), _regular_package(package)
        if root_dir is not None and folder is not None:
            rel = (folder / script).relative_to(root_dir).as_posix()
            parts[f"file {root}/{rel}"] = sha256_file(folder / script)


def _hash_code_of(parts: dict[str, str], module: str) -> str | None:
    """Hash the outermost regular package of ``module`` (below a namespace package), or the
    module itself, unless it is the product's (hashed whole, or playing no game); the name
    hashed, if any."""
    pieces = module.strip().split(".")
    if pieces[0] in PRODUCT:
        return None
    for i in range(1, len(pieces) + 1):
        name = ".".join(pieces[:i])
        if i == len(pieces) or _regular_package(name) is not None:
            _hash_package(parts, name)
            return name
    return None


def _versions() -> dict[str, str]:
    out = {"version python": f"{platform.python_implementation()} {platform.python_version()}"}
    for lib in LIBRARIES:
        try:
            out[f"version {lib}"] = metadata.version(lib)
        except metadata.PackageNotFoundError:
            out[f"version {lib}"] = "absent"
    return out


def _digest(parts: Mapping[str, str]) -> str:
    text = json.dumps(sorted(parts.items()), separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def data_globs() -> tuple[str, ...]:
    """The data files the installed games read, as globs relative to the data folder. Every
    game's, not only the run's: the identity is one per process (whichever game its runs
    play), as it was when the built-in games' files were listed here, so that the runs
    recorded then still resume and grow."""
    return tuple(dict.fromkeys(g for kind in GAMES.values() for g in kind.facts.data_files))


@functools.cache
def code_identity(
    modules: tuple[str, ...] = (), entry_points: tuple[str, ...] = ()
) -> CodeIdentity:
    """This process's identity, with the plug-in strategy ``modules`` and the
    ``entry_points`` (:func:`run_entry_points`) a run uses (computed once)."""
    parts: dict[str, str] = {}
    for package in PACKAGES:
        _hash_package(parts, package)
    for ident in entry_points:
        _hash_entry_point(parts, ident)
    for name in modules:
        path = _module_file(name)
        parts[f"module {name}"] = sha256_file(path)
        if path is not None:
            _hash_declared(parts, name, path)
    data = data_dir()
    for pattern in data_globs():
        for path in sorted(data.glob(pattern)):
            parts[f"data data/{path.relative_to(data).as_posix()}"] = sha256_file(path)
    parts.update(_versions())
    try:
        version = metadata.version("tourney")
    except metadata.PackageNotFoundError:
        version = "unknown"
    sim_dir = _package_dir("sim")
    return CodeIdentity(version, _digest(parts), modules, str(sim_dir or ""), entry_points, parts)


def plugin_modules(factories: Iterable[Any]) -> tuple[str, ...]:
    """The modules of the strategies behind ``factories`` that are not part of the
    packages (a user's ``pkg.mod:Class``), with the modules of their base classes and every
    module those import, directly or not, that is not installed (outside the standard
    library and site-packages: the user's own helpers), sorted. Imports are read from the
    sources, so the driver and its workers find the same list."""
    names: set[str] = set()
    for factory in factories:
        target = getattr(factory, "func", factory)  # functools.partial(cls, **params)
        for cls in getattr(target, "__mro__", (target,)):
            module = getattr(cls, "__module__", None)
            if isinstance(module, str) and module.split(".")[0] not in (*PACKAGES, "builtins"):
                names.add(module)
    todo = sorted(names)
    while todo:
        for imported in _imports(todo.pop()):
            if imported not in names and _local(imported):
                names.add(imported)
                todo.append(imported)
    return tuple(sorted(names))


def _imports(name: str) -> list[str]:
    """The modules the source of module ``name`` imports (absolute names; ``from pkg import
    x`` also names ``pkg.x``, which may be a module)."""
    path = _module_file(name)
    try:
        tree = ast.parse(path.read_bytes()) if path is not None else None
    except (OSError, SyntaxError, ValueError):
        tree = None
    if tree is None:
        return []
    package = name if path is not None and path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            try:
                base = (
                    importlib.util.resolve_name("." * node.level + (node.module or ""), package)
                    if node.level
                    else (node.module or "")
                )
            except (ImportError, ValueError):
                continue
            if base:
                out.append(base)
                out += [f"{base}.{alias.name}" for alias in node.names if alias.name != "*"]
    return out


def _local(name: str) -> bool:
    """Whether module ``name`` is the user's own Python source: a ``.py`` file outside the
    standard library and the installed packages, and not part of the hashed packages."""
    if name.split(".", maxsplit=1)[0] in PACKAGES:
        return False
    path = _module_file(name)
    if path is None:
        return False
    try:
        resolved = path.resolve()
    except OSError:
        return False
    return not any(resolved.is_relative_to(root) for root in _installed_roots())


@functools.cache
def _installed_roots() -> tuple[Path, ...]:
    """The standard library's and the installed packages' directories."""
    paths = sysconfig.get_paths()
    roots = {paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths}
    roots.update(site.getsitepackages())
    roots.add(site.getusersitepackages())
    return tuple(sorted(Path(r).resolve() for r in roots if r))


def check_code(expected: CodeIdentity) -> None:
    """``RunError`` unless this process runs the code ``expected`` names (call it in a
    worker before playing a shard)."""
    mine = code_identity(expected.modules, expected.entry_points)
    found = differences(mine, expected)
    if found:
        raise RunError(
            f"a worker on {socket.gethostname()} runs other code ({mine.label()}) than the "
            f"driver ({expected.label()}): {describe(found, 'here', 'in the driver')} "
            "differ; no game of its shard was played. Run tourney from a directory without "
            "another checkout's sim/ and strategies/, and install the same versions on "
            "every node"
        )


def pin_loaded(record: dict[str, str], loaded: Iterable[tuple[str, str]], shard: int) -> None:
    """Add what shard ``shard`` loaded to the run's ``record`` of loaded modules (in
    place); ``RunError`` (and nothing added) when it loaded another digest of a module the
    record holds: its games were played by other code."""
    clash = [(k, v) for k, v in loaded if k in record and record[k] != v]
    if clash:
        key, digest = clash[0]
        raise RunError(
            f"shard {shard} loaded {key} with other content (sha256 {digest[:12]}) than the "
            f"run's other shards did ({record[key][:12]}), so its games were played by other "
            "code; it is not recorded: restore that file (or simulate into another --out) "
            "and run the same command to resume"
        )
    record.update(loaded)
