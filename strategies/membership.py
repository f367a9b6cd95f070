"""Which game a strategy class belongs to, as far as can be known from its code: the games
whose built-in players it is or derives from, or whose packages hold it, its ancestors or the
view and decision types its ``decide`` is annotated with.

A game's packages are read off its catalog: the packages of its built-in classes and of the
types their ``decide`` takes (Tobago: ``strategies.tobago`` and ``sim.tobago``). A package two
games share says nothing. A class nothing ties to a game (a plain plug-in without
annotations) belongs to no game and is not refused.
"""

from __future__ import annotations

import functools
import sys
import typing
from collections.abc import Iterator, Mapping


def _package(module: str) -> str:
    return module.rsplit(".", 1)[0]


def _hint_types(hint: object) -> Iterator[type]:
    if isinstance(hint, type):
        yield hint
    for arg in typing.get_args(hint):
        yield from _hint_types(arg)


def _decide_modules(cls: type) -> set[str]:
    """The modules of the types ``cls.decide`` is annotated with (none if they cannot be
    resolved: an annotation only a type checker sees)."""
    try:
        hints = typing.get_type_hints(getattr(cls, "decide", None))
    except Exception:  # a plug-in's annotations are its own business
        return set()
    return {t.__module__ for hint in hints.values() for t in _hint_types(hint)}


def _ours(module: str) -> bool:
    """Whether a module can tie a class to a game: one in a package, not of the standard
    library (``typing.Any`` says nothing of a game)."""
    top = module.split(".", 1)[0]
    return "." in module and top not in sys.stdlib_module_names


def _markers(cls: type) -> set[str]:
    """The packages that tie ``cls`` to a game: its own and its ancestors', and those of the
    types its ``decide`` takes."""
    modules = {c.__module__ for c in cls.__mro__ if c is not object} | _decide_modules(cls)
    return {_package(m) for m in modules if _ours(m)}


@functools.cache
def _game_packages(registries: tuple[tuple[str, tuple[type, ...]], ...]) -> dict[str, set[str]]:
    found = {game: {p for cls in classes for p in _markers(cls)} for game, classes in registries}
    return {
        game: {p for p in packages if not any(p in o for g, o in found.items() if g != game)}
        for game, packages in found.items()
    }


def games_of(cls: type, registries: Mapping[str, Mapping[str, type]]) -> set[str]:
    """The games ``cls`` belongs to (empty: none can be told)."""
    key = tuple((g, tuple(r.values())) for g, r in sorted(registries.items()))
    packages = _game_packages(key)
    mine = _markers(cls)
    owners = {g for g, r in registries.items() if any(issubclass(cls, c) for c in r.values())}
    return owners | {g for g, p in packages.items() if p & mine}
