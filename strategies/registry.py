"""Strategy names -> classes, and parsing of strategy specs from specs and the command line.

A spec is ``name``, ``name(key=value, ...)`` or ``package.module:ClassName(key=value, ...)``.
Values are ints, floats, ``true``/``false`` or names (``rollout=expected-value``); each class
checks its own. A class is built as ``Class(rng, **params)`` and
must have ``decide(view, decision)``; classes pickle by reference, so they travel to workers.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import random
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sim.errors import InputError, RunError
from sim.outcome import STRATEGY_FAILURES, describe
from sim.sealed import trust
from strategies.catalog import discover
from strategies.membership import games_of


class _Lineups(dict[str, tuple[str, ...]]):
    """The default lineups by game; the lineup of a game without one is ``InputError`` in
    one line (why its catalog failed to load, or that its kind names none), not a
    ``KeyError``."""

    def __missing__(self, game: str) -> tuple[str, ...]:
        if game in BROKEN_CATALOGS:
            raise InputError(BROKEN_CATALOGS[game])
        raise InputError(f"game {game!r}: its kind names no strategies, so it has no players")


#: Every registered game's catalog (named by its kind), by game name; and why any that a
#: kind names failed to load.
CATALOGS, BROKEN_CATALOGS = discover()
#: Strategy names by game.
REGISTRIES: dict[str, dict[str, type]] = {g: c.strategies for g, c in CATALOGS.items()}
#: The players of a game when none are named.
DEFAULT_PLAYERS: dict[str, tuple[str, ...]] = _Lineups({g: c.defaults for g, c in CATALOGS.items()})
# The built-in players read games through the direct view; every other class (a plug-in, or a
# subclass of a built-in) gets a sealed one (sim.sealed).
trust(*(cls for registry in REGISTRIES.values() for cls in registry.values()))


#: A parameter's value in a spec.
Param = float | int | bool | str
#: A name-valued parameter: lower-case letters, digits and dashes, starting with a letter.
_NAME = re.compile(r"[a-z][a-z0-9-]*")


@dataclass(frozen=True, slots=True)
class StrategySpec:
    """A parsed strategy: its label (as written), class and parameters."""

    label: str
    cls: type
    params: tuple[tuple[str, Param], ...]
    #: The strategy named one way whatever the spelling (see :func:`canonical_label`).
    canonical: str = ""

    def factory(self) -> Callable[[random.Random], Any]:
        """``rng -> strategy``: builds the strategy with its parameters."""
        return functools.partial(self.cls, **dict(self.params))


def builtin_name(spec: StrategySpec, game: str) -> str:
    """The name of the built-in player ``spec`` is (the first name its class is registered
    under in ``game``'s catalog), or "" for any other class (a plug-in, a subclass): what a
    compiled engine is told of a seat (:data:`sim.compiled_engine.CompiledSeat`)."""
    return next((n for n, cls in REGISTRIES[game].items() if cls is spec.cls), "")


def _value(text: str) -> Param:
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(low)
    except ValueError:
        pass
    try:
        return float(low)
    except ValueError:
        if _NAME.fullmatch(low):
            return low
        raise


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of specs, keeping commas inside parentheses."""
    out: list[str] = []
    depth = 0
    current = ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        out.append(current.strip())
    return out


def _import_plugin(name: str, module_name: str) -> Any:
    """A user's strategy module: importable as installed, or from the current directory
    (where people keep their own files; it is added to the end of ``sys.path``, so it never
    shadows an installed module, and process-pool workers inherit it)."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        top = module_name.split(".", maxsplit=1)[0]
        if exc.name is None or exc.name.split(".")[0] != top:
            raise InputError(f"strategy {name!r} cannot be imported ({exc})") from None
    except Exception as exc:  # a plug-in that fails as it is imported: one line, not a trace
        raise InputError(f"strategy {name!r}: importing {module_name!r} failed ({exc!r})") from None
    here = os.getcwd()
    if here not in sys.path:
        sys.path.append(here)
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and exc.name.split(".")[0] == module_name.split(".", maxsplit=1)[0]:
            raise InputError(
                f"strategy {name!r}: no module {module_name!r} in the current directory "
                f"({here}) or the installed packages (the Python path); put "
                f"{module_name.replace('.', '/')}.py there, or install it"
            ) from None
        raise InputError(f"strategy {name!r} cannot be imported ({exc})") from None
    except Exception as exc:
        raise InputError(f"strategy {name!r}: importing {module_name!r} failed ({exc!r})") from None


def _shown_value(value: Param) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def _param_defaults(cls: type) -> dict[str, object]:
    """The parameters' values when none are given, as far as the class tells: its
    constructor's defaults, and ``param_defaults()`` where it defines one."""
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        signature = None
    found: dict[str, object] = {}
    if signature is not None:
        for p in signature.parameters.values():
            if p.default is not inspect.Parameter.empty:
                found[p.name] = p.default
    extra = getattr(cls, "param_defaults", None)
    if callable(extra):
        try:
            more = extra()
        except Exception:  # a plug-in's hook that fails tells nothing
            more = None
        if isinstance(more, dict):
            found.update(more)
    return found


def canonical_label(name: str, cls: type, params: tuple[tuple[str, Param], ...], game: str) -> str:
    """One name for one strategy, however it is spelled: the registry's name of a built-in
    class, the parameters sorted by key, written as ``key=value`` without spaces, and those
    given their default value (same type and value) left out, so that
    ``hunter(take_at = 3)``, ``hunter(take_at=3)`` and ``hunter`` are one name."""
    builtin = next((n for n, c in REGISTRIES.get(game, {}).items() if c is cls), None)
    defaults = _param_defaults(cls)
    kept = [
        f"{key}={_shown_value(value)}"
        for key, value in sorted(params)
        if not (key in defaults and type(defaults[key]) is type(value) and defaults[key] == value)
    ]
    head = builtin or name
    return f"{head}({', '.join(kept)})" if kept else head


def _check_game(name: str, cls: type, game: str) -> None:
    """``InputError`` for a class that belongs to other games and not to ``game``."""
    owners = games_of(cls, REGISTRIES)
    if owners and game not in owners:
        raise InputError(
            f"strategy {name!r} is a strategy of {', '.join(sorted(owners))}, not of {game} "
            f"(allowed: {', '.join(REGISTRIES.get(game, {}))}, or package.module:ClassName "
            f"of a {game} player)"
        )


def parse_strategy(text: str, game: str) -> StrategySpec:
    """The strategy of ``game`` named by ``text``; ``InputError`` says what is allowed."""
    if game in BROKEN_CATALOGS:
        raise InputError(BROKEN_CATALOGS[game])
    registry = REGISTRIES.get(game, {})
    label = text.strip()
    name, params_text = label, ""
    if "(" in label:
        if not label.endswith(")"):
            raise InputError(
                f"strategy {label!r}: parameters go in parentheses, like name(key=value)"
            )
        name, params_text = label[:-1].split("(", 1)
    name = name.strip()
    if ":" in name:
        module_name, _, class_name = name.partition(":")
        module = _import_plugin(name, module_name)
        cls = getattr(module, class_name, None)
        if cls is None:
            raise InputError(
                f"strategy {name!r}: module {module_name!r} ({module.__file__}) has no "
                f"{class_name!r}"
            )
        if not isinstance(cls, type) or not callable(getattr(cls, "decide", None)):
            raise InputError(
                f"strategy {name!r} is not a class with a decide(view, decision) method"
            )
    elif name in registry:
        cls = registry[name]
    else:
        allowed = ", ".join(registry)
        others = sorted(g for g, r in REGISTRIES.items() if g != game and name in r)
        elsewhere = f" of {game} ({name!r} is a strategy of {', '.join(others)})" if others else ""
        raise InputError(
            f"unknown strategy {name!r}{elsewhere} (allowed: {allowed}, or "
            "package.module:ClassName)"
        )
    _check_game(name, cls, game)
    params: list[tuple[str, Param]] = []
    for part in split_specs(params_text):
        key, eq, raw = part.partition("=")
        if not eq or not key.strip():
            raise InputError(f"strategy {label!r}: parameter {part!r} is not key=value")
        if any(key.strip() == k for k, _ in params):
            raise InputError(f"strategy {label!r}: parameter {key.strip()!r} is given twice")
        try:
            params.append((key.strip(), _value(raw)))
        except ValueError:
            raise InputError(
                f"strategy {label!r}: {key.strip()} = {raw.strip()!r} is not a number, "
                "true/false or a name"
            ) from None
    try:
        cls(random.Random(0), **dict(params))
    except (TypeError, ValueError) as exc:
        raise InputError(f"strategy {label!r}: {exc}") from None
    except STRATEGY_FAILURES as exc:
        # The class itself fails (not its parameters): nothing is played (exit 1). A
        # constructor that fails only in some games is recorded per game instead.
        raise RunError(
            f"strategy {label!r} cannot be built: {describe(exc)}; fix the plug-in's "
            "__init__ (a strategy is built as Class(rng, **params))"
        ) from None
    return StrategySpec(label, cls, tuple(params), canonical_label(name, cls, tuple(params), game))
