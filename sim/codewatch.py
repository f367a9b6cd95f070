"""The audit's watch over code: a decision must not change the engine's or another player's code.

Under ``--audit`` the referee watches, for one game, the code of the engine (every loaded
module of the game's package and of the shared game machinery: :data:`CORE`) and of every
seat's strategy (the classes of its type's method resolution order and their modules, the
built-in ``object`` and the standard library aside). After each decision it compares:

- which function, class, method (a function, ``staticmethod``, ``classmethod`` or ``property``)
  each watched module or class binds under each name, including names added or removed;
- each watched function's ``__code__``, ``__defaults__`` and ``__kwdefaults__`` (replacing a
  function's code in place is the subtlest monkeypatch).

A change to code that the deciding seat does not own (its own classes and their modules are
its own business: a strategy may rebind its own methods) is put back as it was and reported
as ``changed the code of NAME``; the referee records it as the seat's violation and plays the
decision's fallback. What it does not watch: module-level values that are not code (numbers,
tables, caches), and objects reached only through other objects.

The comparison costs one pass over the watched names per decision (identities only; the
watched objects are held, so an identity is never reused by a new object).
"""

from __future__ import annotations

import operator
import sys
import types
from collections.abc import Iterable, Sequence
from typing import Any

_CODE = (types.FunctionType, type, staticmethod, classmethod, property)
#: A function's code, defaults and keyword defaults.
_CODE_OF = operator.attrgetter("__code__", "__defaults__", "__kwdefaults__")


def _is_code(value: object) -> bool:
    return isinstance(value, _CODE)


def _function_of(value: object) -> types.FunctionType | None:
    inner = value.__func__ if isinstance(value, staticmethod | classmethod) else value
    return inner if isinstance(inner, types.FunctionType) else None


def _owned(cls: type) -> list[Any]:
    """The classes and modules that make up a strategy's code (not ``object``, nor the
    standard library's)."""
    out: list[Any] = []
    stdlib = sys.stdlib_module_names
    for klass in cls.__mro__:
        top = klass.__module__.split(".")[0]
        # The engine's own stand-ins (a fallback player, an isolated seat's) are the engine's.
        if top in stdlib or top in ("builtins", "sim"):
            continue
        out.append(klass)
        module = sys.modules.get(klass.__module__)
        if module is not None:
            out.append(module)
    return out


class CodeWatch:
    """The watched code of one game and who owns which part (see the module docstring)."""

    def __init__(self, engine_package: str | None, classes: Sequence[type | None]) -> None:
        """The code of a game of ``engine_package`` whose seats play strategies of
        ``classes`` (``None``: a seat built by a function, which owns no class)."""
        owners: dict[int, Any] = {}
        #: Per owner (by identity): the seats whose own code it is.
        self.seats: dict[int, set[int]] = {}
        # The game's package, the shared machinery (top-level modules of ``sim``) and the
        # packages of the players' classes (the built-in players of the game).
        packages = {engine_package} | {
            cls.__module__.rpartition(".")[0] for cls in classes if cls is not None
        }
        packages.discard("")
        packages.discard(None)
        prefixes = tuple(f"{p}." for p in packages)
        names: Iterable[str] = [
            m
            for m in list(sys.modules)
            if m in packages
            or m.startswith(prefixes)
            or (m.startswith("sim.") and m.count(".") == 1)
        ]
        for name in names:
            module = sys.modules.get(name)
            if module is None:
                continue
            owners[id(module)] = module
            # The classes it defines (the built-in players, the engine's classes).
            for value in list(vars(module).values()):
                if isinstance(value, type) and value.__module__ == name:
                    owners[id(value)] = value
        #: Per seat, the seats playing the same strategy class (whose code is its own too).
        self.mates = [
            {j for j, other in enumerate(classes) if other is cls and cls is not None}
            for cls in classes
        ]
        for seat, cls in enumerate(classes):
            for owner in _owned(cls) if cls is not None else ():
                owners.setdefault(id(owner), owner)
                self.seats.setdefault(id(owner), set()).add(seat)
        self.owners = list(owners.values())
        self.baseline()

    def baseline(self) -> None:
        """Take the code as it is now as the code to keep."""
        self.saved: list[tuple[Any, dict[str, Any]]] = []
        self.functions: list[tuple[types.FunctionType, Any, Any, Any, Any]] = []
        for owner in self.owners:
            bound = {k: v for k, v in vars(owner).items() if _is_code(v)}
            self.saved.append((owner, bound))
            for value in bound.values():
                f = _function_of(value)
                if f is not None:
                    self.functions.append((f, f.__code__, f.__defaults__, f.__kwdefaults__, owner))
        self.watched = [f[0] for f in self.functions]
        self.signature = self._signature()

    def _signature(self) -> list[tuple[Any, ...]]:
        # C-speed passes: every watched namespace's values, every function's code.
        out = [tuple(vars(owner).values()) for owner in self.owners]
        out.append(tuple(map(_CODE_OF, self.watched)))
        return out

    def changed_by(self, seat: int) -> str | None:
        """After ``seat``'s decision: the name of the first code it changed that is not its
        own, put back as it was; ``None`` if it changed none (its own code's changes are
        kept)."""
        try:
            if self._signature() == self.signature:
                return None
        except Exception:  # a rebound value whose ``==`` fails: look closer
            pass
        found: list[str] = []
        for owner, bound in self.saved:
            current = {k: v for k, v in vars(owner).items() if _is_code(v)}
            differs = [
                k for k in bound.keys() | current.keys() if current.get(k) is not bound.get(k)
            ]
            if not differs or self._mine(seat, owner):
                continue
            found += [f"{_name(owner)}.{k}" for k in sorted(differs)]
            for k in differs:
                if k in bound:
                    setattr(owner, k, bound[k])
                else:
                    delattr(owner, k)
        for f, code, defaults, kwdefaults, owner in self.functions:
            same = f.__code__ is code and f.__defaults__ is defaults
            if (same and f.__kwdefaults__ is kwdefaults) or self._mine(seat, owner):
                continue
            found.append(f"{f.__module__}.{f.__qualname__}")
            f.__code__, f.__defaults__, f.__kwdefaults__ = code, defaults, kwdefaults
        self.baseline()
        return found[0] if found else None

    def _mine(self, seat: int, owner: Any) -> bool:
        """Whether ``owner`` is code of ``seat``'s strategy class only (no other class's)."""
        seats = self.seats.get(id(owner))
        return bool(seats) and seats <= self.mates[seat]  # type: ignore[operator]


def _name(owner: Any) -> str:
    if isinstance(owner, types.ModuleType):
        return owner.__name__
    return f"{owner.__module__}.{owner.__qualname__}"
