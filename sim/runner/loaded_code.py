"""The code a process has loaded, as the code identity reads it: file digests, the data files
a module declares, and every module loaded from outside the standard library.

**Declared data.** A module (a game's, a strategy's, a helper's) that reads data files names
them in a module-level ``DATA_FILES``: a literal tuple of paths or glob patterns relative to
the module's folder, for example ``DATA_FILES = ("weights.csv", "tables/*.json")``. It is
read from the source (never by importing), so a driver and its workers find the same files,
and each file is hashed with the code.

**Loaded modules.** After a shard's games, :func:`loaded_code` reads ``sys.modules``: every
module outside the standard library that the shard loaded (or loaded again), by name, with
the sha256 of its file (source or extension) and of the data files it declares. The packages
that the identity hashes whole (``sim``, ``strategies``) are left out. A module's digest is
taken the first time a process sees it (a module is imported once per process) and kept, so
later shards of that process cost one dictionary look-up per module.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import importlib.util
import os
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

from sim.errors import InputError

#: What a file that cannot be read hashes to (so present and absent files differ).
ABSENT = "<absent>"
#: Module names that are never part of the code that plays (the program that was started).
_MAIN = ("__main__", "__mp_main__")
#: Data files by path: (mtime_ns, size, inode) and digest; a data file is read during play
#: and may change between shards, so it is hashed again whenever its stat changes.
_DATA: dict[str, tuple[tuple[int, int, int], str]] = {}
#: Loaded modules by name: the module object and its digest and declared data files (None for
#: a module left out: the standard library's, one without a file). A module object that is
#: not this one (reloaded) is read again.
_SEEN: dict[str, tuple[object, tuple[str, tuple[tuple[str, Path], ...]] | None]] = {}


def sha256_file(path: Path | str | None) -> str:
    """The sha256 of the file's bytes (hex), or :data:`ABSENT`."""
    if path is None:
        return ABSENT
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return ABSENT


def data_digest(path: Path) -> str:
    """:func:`sha256_file` of a data file, cached while its stat is unchanged."""
    try:
        st = os.stat(path)
    except OSError:
        return ABSENT
    key = (st.st_mtime_ns, st.st_size, st.st_ino)
    hit = _DATA.get(str(path))
    if hit is not None and hit[0] == key:
        return hit[1]
    digest = sha256_file(path)
    _DATA[str(path)] = (key, digest)
    return digest


def declared_data(module: str, path: Path, source: bytes | None = None) -> list[tuple[str, Path]]:
    """The data files module ``module`` (its file ``path``) declares in ``DATA_FILES``, as
    ``("<module>:<relative path>", file)``; a pattern that matches nothing is kept as itself
    (its file absent). ``InputError`` for a ``DATA_FILES`` that is not a literal tuple of
    strings."""
    if source is None:
        try:
            source = path.read_bytes()
        except OSError:
            return []
    if b"DATA_FILES" not in source:
        return []
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    value: object = None
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        if any(isinstance(t, ast.Name) and t.id == "DATA_FILES" for t in targets):
            assert isinstance(node, ast.Assign | ast.AnnAssign)
            try:
                value = ast.literal_eval(node.value) if node.value is not None else None
            except ValueError:
                value = None
            if not isinstance(value, tuple | list) or not all(isinstance(v, str) for v in value):
                raise InputError(
                    f"{path}: DATA_FILES must be a literal tuple of path strings (relative "
                    "to the module's folder, glob patterns allowed)"
                )
    if not isinstance(value, tuple | list):
        return []
    folder = path.parent
    out: list[tuple[str, Path]] = []
    for pattern in value:
        assert isinstance(pattern, str)
        if any(c in pattern for c in "*?["):
            matches = sorted(folder.glob(pattern))
            if not matches:
                out.append((f"{module}:{pattern}", folder / pattern))
            for match in matches:
                rel = os.path.relpath(match, folder).replace(os.sep, "/")
                out.append((f"{module}:{rel}", match))
        else:
            out.append((f"{module}:{pattern}", folder / pattern))
    return out


@functools.cache
def _stdlib_roots() -> tuple[Path, ...]:
    paths = sysconfig.get_paths()
    roots = {paths["stdlib"], os.path.join(sys.base_prefix, "lib")}
    return tuple(Path(r).resolve() for r in roots if r)


def is_stdlib(name: str, file: str) -> bool:
    """Whether module ``name`` loaded from ``file`` is the standard library's own (a name of
    the standard library, from the interpreter's library folder, not a user's shadow)."""
    if name.partition(".")[0] not in sys.stdlib_module_names:
        return False
    try:
        resolved = Path(file).resolve()
    except OSError:
        return False
    return any(resolved.is_relative_to(root) for root in _stdlib_roots()) and (
        "site-packages" not in resolved.parts
    )


def _read(name: str, file: str) -> tuple[str, tuple[tuple[str, Path], ...]]:
    """A module's digest and its declared data files."""
    path = Path(file)
    try:
        source = path.read_bytes()
    except OSError:
        return ABSENT, ()
    declared: list[tuple[str, Path]] = []
    if path.suffix == ".py":
        # Malformed: the module's own digest covers what it says.
        with contextlib.suppress(InputError):
            declared = declared_data(name, path, source)
    return hashlib.sha256(source).hexdigest(), tuple(declared)


def modules_now() -> dict[str, int]:
    """The modules loaded now, by name, with the identity of the module object (what
    :func:`loaded_code` compares with to read only what a shard loaded)."""
    return {name: id(module) for name, module in list(sys.modules.items())}


def loaded_code(
    skip: tuple[str, ...] = ("sim", "strategies"), since: dict[str, int] | None = None
) -> dict[str, str]:
    """Every module this process has loaded from outside the standard library (but the
    packages ``skip``, hashed whole elsewhere), by name, with the digest of its file, and
    every data file those modules declare (``module:path``), with its digest. With ``since``
    (:func:`modules_now` at the start of a shard): only the modules loaded, or loaded again,
    after it, so that a long-lived process (a notebook, a test session) does not report the
    modules of its earlier, unrelated runs."""
    out: dict[str, str] = {}
    for name, module in list(sys.modules.items()):
        if name in _MAIN or name.partition(".")[0] in skip:
            continue
        if since is not None and since.get(name) == id(module):
            continue
        seen = _SEEN.get(name)
        if seen is None or seen[0] is not module:
            try:
                file = getattr(module, "__file__", None)
            except Exception:  # a lazy module object that fails on attribute access
                file = None
            read = None
            if isinstance(file, str) and isinstance(module, ModuleType):
                read = None if is_stdlib(name, file) else _read(name, file)
            seen = (module, read)
            _SEEN[name] = seen
        if seen[1] is None:
            continue
        digest, declared = seen[1]
        out[name] = digest
        for key, path in declared:
            out[key] = data_digest(path)
    return out


def find_file(name: str) -> Path | None:
    """The file module ``name`` would be loaded from now, found without running any code:
    a module already loaded here, a top-level module, or a submodule of a loaded package;
    None otherwise (or when it has no file)."""
    module = sys.modules.get(name)
    parent = name.rpartition(".")[0]
    if module is None and parent and parent not in sys.modules:
        return None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    origin = spec.origin if spec is not None else None
    return Path(origin) if origin and os.path.isfile(origin) else None


def changed_since(recorded: dict[str, str]) -> list[tuple[str, str, str]]:
    """The entries of a recorded :func:`loaded_code` whose files differ now, as ``(key,
    recorded digest, digest now)``: what a resume or a growth would play with other code.
    Modules this process cannot find without importing them are left to the shards'
    reports."""
    out = []
    for key, digest in sorted(recorded.items()):
        name, colon, rel = key.partition(":")
        file = find_file(name)
        if file is None:
            continue
        now = data_digest(file.parent / rel) if colon else sha256_file(file)
        if now != digest:
            out.append((key, digest, now))
    return out
