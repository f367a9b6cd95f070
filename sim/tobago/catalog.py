"""Resolving an island argument: a built-in name, ``generated:SEED`` or an island file path."""

from __future__ import annotations

from pathlib import Path

from sim.errors import InputError
from sim.tobago.board import Board
from sim.tobago.board_json import load_board_json
from sim.tobago.generated import PREFIX, generated_island
from sim.tobago.island_file import load_island_file
from sim.tobago.modular import island_names, load_island, parse_name

ALLOWED = (
    "a built-in name such as aBc-2 (see 'tourney board list'), generated:SEED with SEED a "
    "non-negative integer, or the path of an island file (.island or .json)"
)


def resolve_board(spec: str) -> Board:
    """The board named by ``spec``; ``InputError`` says what is allowed."""
    if parse_name(spec) is not None:
        return Board(load_island(spec))
    if spec.startswith(PREFIX):
        raw = spec[len(PREFIX) :]
        if not raw.isdigit():
            raise InputError(f"island {spec!r}: SEED must be a non-negative integer")
        # Bounded, so that a thousand-digit seed is one short line, not an int() error.
        if len(raw) > 20 or int(raw) >= 2**64:
            shown = raw if len(raw) <= 24 else f"{raw[:20]}... ({len(raw)} digits)"
            raise InputError(f"island generated:{shown}: SEED must be at most 2**64 - 1")
        return Board(generated_island(int(raw)))
    path = Path(spec)
    if path.suffix == ".json":
        return load_board_json(path)
    if path.suffix == ".island" or path.exists() or "/" in spec:
        return load_island_file(path)
    raise InputError(f"unknown island {spec!r} (allowed: {ALLOWED})")


def builtin_names() -> list[str]:
    """The 32 built-in islands."""
    return island_names()
