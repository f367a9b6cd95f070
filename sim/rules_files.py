"""What the games' rules modules share: checking scalar keys, reading preset and override
files, plain values and the stable digest. Each game keeps its own rules object, its ranges
and its special keys.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

from sim.errors import InputError
from sim.toml_files import read_toml

#: Returned by :func:`check_scalar` for a key it does not know how to check.
NOT_SCALAR: Any = object()


def check_scalar(
    source: str,
    key: str,
    value: Any,
    keys: tuple[str, ...],
    int_ranges: dict[str, tuple[int, int]],
    bools: tuple[str, ...],
    choices: dict[str, tuple[str, ...]],
) -> Any:
    """``value`` checked for an int, bool or choice ``key``; :data:`NOT_SCALAR` for another
    known key; ``InputError`` naming source, key and what is allowed."""

    def bad(allowed: str) -> InputError:
        return InputError(f"{source}: {key} = {value!r} is not allowed ({allowed})")

    if key not in keys:
        raise InputError(f"{source}: unknown rules key {key!r} (allowed: {', '.join(keys)})")
    if key in int_ranges:
        lo, hi = int_ranges[key]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise bad(f"an integer from {lo} to {hi}")
        return value
    if key in bools:
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    if key in choices:
        if value not in choices[key]:
            raise bad("one of " + ", ".join(choices[key]))
        return value
    return NOT_SCALAR


def read_preset(name: str, presets: tuple[str, ...], folder: Path) -> tuple[Path, dict[str, Any]]:
    """The keys of preset ``name`` (``folder/NAME.toml``), with ``preset`` set to its name."""
    if name not in presets:
        raise InputError(f"unknown rules preset {name!r} (allowed: {', '.join(presets)})")
    path = folder / f"{name}.toml"
    raw = read_toml(path, "rules file")
    raw.pop("description", None)
    if raw.get("preset", name) != name:
        raise InputError(f"{path}: preset must be {name!r}")
    raw["preset"] = name
    return path, raw


def read_overrides(
    spec: str, presets: tuple[str, ...], default: str
) -> tuple[str, str, dict[str, Any]]:
    """A user's rules file: its name, the preset it starts from, and its other keys."""
    path = Path(spec)
    if path.suffix != ".toml" and not path.exists():
        raise InputError(
            f"unknown rules {spec!r} (allowed: a preset, {', '.join(presets)}, or a TOML file)"
        )
    raw = read_toml(path, "rules file")
    raw.pop("description", None)
    base = raw.pop("preset", default)
    return str(path), base, raw


def plain_fields(rules: Any) -> dict[str, Any]:
    """A rules dataclass's public fields as JSON-able values (tuples as lists)."""
    return {
        f.name: list(v) if isinstance(v := getattr(rules, f.name), tuple) else v
        for f in dataclasses.fields(rules)
        if f.name[0] != "_"
    }


def digest(payload: dict[str, Any]) -> str:
    """A stable 16-hex-digit digest of a JSON-able dict (key order does not matter)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
