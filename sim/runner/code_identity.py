"""Which code plays the games: the identity a shard carries from the driver to its worker.

A worker does not necessarily import the code the driver runs: Ray puts the driver's
working directory first on its workers' import path, so a checkout there shadows the
installed package, and the nodes of a cluster have their own installs. The identity is the
package version and a sha256 over the source files of the packages that play games (``sim``
and ``strategies``), of the plug-in strategy modules the run uses (with their base classes'
modules and the user's own modules they import), and of the data files a game reads
(section faces, clue decks), each as the importing process finds them. The driver
puts its identity in every shard; a worker computes its own before playing and refuses the
shard when they differ (:func:`check_code`), so no game is ever played by other code.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import site
import socket
import sys
import sysconfig
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from sim.errors import RunError
from sim.paths import data_dir

#: The packages whose sources play games (found, not imported: ``sim`` never imports
#: ``strategies``).
PACKAGES = ("sim", "strategies")
#: Data files games read, relative to the data folder.
DATA_GLOBS = ("islands/*.txt", "clues/*.toml")


@dataclass(frozen=True, slots=True)
class CodeIdentity:
    """The version and source digest of the code a process plays games with."""

    version: str
    digest: str
    #: Plug-in strategy modules hashed besides the packages (module names).
    modules: tuple[str, ...] = ()
    #: Where ``sim`` was imported from (shown in messages; not compared).
    where: str = ""

    def same_code(self, other: CodeIdentity) -> bool:
        """Whether both identities name the same code."""
        return (self.version, self.digest) == (other.version, other.digest)

    def short(self) -> str:
        """For people, what is compared: ``tourney 0.1.0, sources 1a2b3c4d5e6f``."""
        return f"tourney {self.version}, sources {self.digest[:12]}"

    def label(self) -> str:
        """For people: ``tourney 0.1.0, sources 1a2b3c4d5e6f (sim in /path)``."""
        where = f" (sim in {self.where})" if self.where else ""
        return f"{self.short()}{where}"

    def to_json(self) -> dict[str, Any]:
        """The identity as plain data (the manifest entry; what a shard carries)."""
        return {
            "version": self.version,
            "digest": self.digest,
            "modules": list(self.modules),
            "where": self.where,
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> CodeIdentity:
        """The identity :meth:`to_json` wrote."""
        return cls(
            str(obj["version"]),
            str(obj["digest"]),
            tuple(str(m) for m in obj.get("modules", ())),
            str(obj.get("where", "")),
        )


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


def _add(digest: Any, label: str, path: Path | None) -> None:
    digest.update(label.encode() + b"\0")
    try:
        content = path.read_bytes() if path is not None else b"<absent>"
    except OSError:
        content = b"<unreadable>"
    digest.update(hashlib.sha256(content).digest())


@functools.cache
def code_identity(modules: tuple[str, ...] = ()) -> CodeIdentity:
    """This process's identity, with the plug-in strategy ``modules`` (computed once)."""
    digest = hashlib.sha256()
    for package in PACKAGES:
        root = _package_dir(package)
        if root is None:
            _add(digest, f"{package}/", None)
            continue
        for path in sorted(root.rglob("*.py")):
            if "__pycache__" not in path.parts:
                _add(digest, f"{package}/{path.relative_to(root).as_posix()}", path)
    for name in modules:
        _add(digest, f"module {name}", _module_file(name))
    data = data_dir()
    for pattern in DATA_GLOBS:
        for path in sorted(data.glob(pattern)):
            _add(digest, f"data/{path.relative_to(data).as_posix()}", path)
    try:
        version = metadata.version("tourney")
    except metadata.PackageNotFoundError:
        version = "unknown"
    sim_dir = _package_dir("sim")
    return CodeIdentity(version, digest.hexdigest(), modules, str(sim_dir or ""))


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
    mine = code_identity(expected.modules)
    if not mine.same_code(expected):
        raise RunError(
            f"a worker on {socket.gethostname()} runs other code ({mine.label()}) than the "
            f"driver ({expected.label()}); no game of its shard was played. Run tourney "
            "from a directory without another checkout's sim/ and strategies/, and install "
            "the same version on every node"
        )
