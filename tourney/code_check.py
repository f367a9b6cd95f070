"""Whether the built-in code that plays games is still the code that was imported: a
fingerprint of every function, class and module global of the ``sim`` and ``strategies``
packages, taken once and compared before each in-process run of :mod:`tourney.api`.

A plug-in runs in the caller's process, and its monkeypatch (a built-in player's method
replaced, an engine function rebound, a function's ``__code__`` swapped) would outlive its
run: a later run of built-in players would play other games under the same names. The
fingerprint holds, per name, the identity of each module global and class attribute and a
digest of each function's code, so a replaced object, a new attribute on a built-in class
and a swapped code object all show. Module globals a module's own functions assign (a
``global`` statement: caches, the kept deal) are state, not code, and are left out; so are
objects changed in place (a dict filled as a cache). The standard library and third-party
packages are not covered.
"""

from __future__ import annotations

import dis
import hashlib
import importlib
import pkgutil
import sys
from collections.abc import Iterator
from types import CodeType, FunctionType, ModuleType

#: The packages whose code plays games: the contract, referee, engines, runner and the
#: built-in strategies.
PACKAGES = ("sim", "strategies")

#: Name (``module.global`` or ``module.Class.attribute``) -> fingerprint.
Snapshot = dict[str, str]


def _digest(code: CodeType) -> str:
    """The code object's identity and a digest of its bytecode and names (``co_code`` is the
    bytecode as compiled: the interpreter's specialised copy, which changes as it runs, is
    not part of it)."""
    parts = (code.co_code, code.co_names, code.co_varnames, code.co_freevars)
    return f"{id(code)}/" + hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


def _of(value: object) -> str:
    """One object's fingerprint: its identity, and for a function its code and defaults."""
    if isinstance(value, FunctionType):
        return (
            f"f{id(value)}:{_digest(value.__code__)}:{id(value.__defaults__)}:"
            f"{id(value.__kwdefaults__)}"
        )
    if isinstance(value, staticmethod | classmethod):
        return f"m{id(value)}:{_of(value.__func__)}"
    if isinstance(value, property):
        return f"p{id(value)}:" + ":".join(_of(f) for f in (value.fget, value.fset, value.fdel))
    wrapped = getattr(value, "__wrapped__", None) if callable(value) else None
    if isinstance(wrapped, FunctionType):  # functools.cache and friends
        return f"w{id(value)}:{_of(wrapped)}"
    return f"i{id(value)}"


def _stored_globals(code: CodeType) -> Iterator[str]:
    """Names a function (or code nested in it) assigns with a ``global`` statement."""
    for ins in dis.get_instructions(code):
        if ins.opname in ("STORE_GLOBAL", "DELETE_GLOBAL"):
            yield str(ins.argval)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield from _stored_globals(const)


def _state_names(module: ModuleType) -> set[str]:
    names: set[str] = set()
    for value in list(vars(module).values()):
        if isinstance(value, FunctionType) and value.__module__ == module.__name__:
            names.update(_stored_globals(value.__code__))
        elif isinstance(value, type) and value.__module__ == module.__name__:
            for attr in list(vars(value).values()):
                func = getattr(attr, "__func__", attr)
                if isinstance(func, FunctionType):
                    names.update(_stored_globals(func.__code__))
    return names


#: Class attributes that are not code, or that Python itself adds as it runs
#: (``__slotnames__``: copyreg's note when an instance is first pickled).
_CLASS_SKIPPED = frozenset(
    {"__dict__", "__weakref__", "__doc__", "__module__", "_abc_impl", "__slotnames__"}
)


def _class_entries(prefix: str, cls: type, seen: set[int]) -> Iterator[tuple[str, str]]:
    if id(cls) in seen:
        return
    seen.add(id(cls))
    yield f"{prefix}.__bases__", ",".join(str(id(b)) for b in cls.__bases__)
    for name, value in list(vars(cls).items()):
        if name in _CLASS_SKIPPED:
            continue
        if isinstance(value, type) and value.__module__ == cls.__module__:
            yield from _class_entries(f"{prefix}.{name}", value, seen)
        else:
            yield f"{prefix}.{name}", _of(value)


def _modules() -> list[ModuleType]:
    return sorted(
        (
            m
            for name, m in list(sys.modules.items())
            if isinstance(m, ModuleType) and name.split(".", 1)[0] in PACKAGES
        ),
        key=lambda m: m.__name__,
    )


class Baseline:
    """The fingerprint of the built-in code as it is now (every module of :data:`PACKAGES`
    is imported first, so that a module a plug-in imports later is covered too)."""

    def __init__(self) -> None:
        for top in PACKAGES:
            package = importlib.import_module(top)
            for info in pkgutil.walk_packages(package.__path__, f"{top}."):
                try:
                    importlib.import_module(info.name)
                except Exception:  # a module needing an optional library: not covered
                    continue
        self.state = {m.__name__: _state_names(m) for m in _modules()}
        self.snapshot = self.take()

    def take(self) -> Snapshot:
        """The fingerprint now, of the modules the baseline covers."""
        out: Snapshot = {}
        seen: set[int] = set()
        for module in _modules():
            state = self.state.get(module.__name__)
            if state is None:
                continue
            for name, value in list(vars(module).items()):
                if name.startswith("__") or name in state:
                    continue
                key = f"{module.__name__}.{name}"
                if isinstance(value, type) and value.__module__ == module.__name__:
                    out.update(_class_entries(key, value, seen))
                else:
                    out[key] = _of(value)
        return out

    def changes(self) -> list[str]:
        """The names whose object or code differs from the baseline's, added or removed."""
        now = self.take()
        keys = now.keys() | self.snapshot.keys()
        return sorted(k for k in keys if now.get(k) != self.snapshot.get(k))
