"""Which code plays the games: the identity a shard carries from the driver to its worker.

A worker does not necessarily import the code the driver runs: Ray puts the driver's
working directory first on its workers' import path, so a checkout there shadows the
installed package, and the nodes of a cluster have their own installs. The identity is the
package version and a sha256 over the source files of the packages that play games (``sim``
and ``strategies``), of the plug-in strategy modules the run uses, and of the data files a
game reads (section faces, clue decks), each as the importing process finds them. The driver
puts its identity in every shard; a worker computes its own before playing and refuses the
shard when they differ (:func:`check_code`), so no game is ever played by other code.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import socket
import sys
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

    def label(self) -> str:
        """For people: ``tourney 0.1.0, sources 1a2b3c4d5e6f (sim in /path)``."""
        where = f" (sim in {self.where})" if self.where else ""
        return f"tourney {self.version}, sources {self.digest[:12]}{where}"

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
    packages (a user's ``pkg.mod:Class``), sorted."""
    names = set()
    for factory in factories:
        target = getattr(factory, "func", factory)  # functools.partial(cls, **params)
        module = getattr(target, "__module__", None)
        if isinstance(module, str) and module.split(".")[0] not in PACKAGES:
            names.add(module)
    return tuple(sorted(names))


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
