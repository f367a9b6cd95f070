"""The boards of a run's island files, recorded so that the run never depends on the files.

A built-in island (``aBc-2``) or a generated one (``generated:7``) is a pure function of its
name and the code. An island file is not: it can change, move, or be absent on a worker or
when the run is reported. So the driver reads each island file of a spec once, records in
the manifest (``boards``) the sha256 of its bytes and the board itself (its name, cells and
any fixed landmarks, in the JSON shape ``tourney board show --json`` writes, without the
derived clues), and ships the board in every shard: workers play that board, resume refuses
a file whose content changed, and reports draw the recorded board.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sim.errors import InputError
from sim.text_input import decode_text, read_bytes
from sim.tobago.board import Board
from sim.tobago.board_json import board_from_json
from sim.tobago.generated import PREFIX
from sim.tobago.island_file import parse_island_text
from sim.tobago.landmarks import HUT, PALM, STATUE
from sim.tobago.modular import parse_name
from sim.tobago.terrain import TERRAIN_NAMES


def is_island_file(argument: str) -> bool:
    """Whether an island argument names a file (not a built-in or generated island)."""
    return parse_name(argument) is None and not argument.startswith(PREFIX)


def read_island_file(argument: str) -> tuple[str, Board]:
    """The sha256 of an island file's bytes and the board parsed from those same bytes
    (read once: what is hashed is what is played)."""
    path = Path(argument)
    data = read_bytes(path, "island file")
    text = decode_text(data, path, "island file")
    if path.suffix == ".json":
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: cannot read board JSON ({exc})") from None
        board = board_from_json(obj, str(path))
    else:
        board = parse_island_text(text, str(path))
    return hashlib.sha256(data).hexdigest(), board


def board_record(board: Board) -> dict[str, Any]:
    """The board as JSON: cells in cell-id order and the fixed landmarks (a statue facing
    drawn per game is null); ``[]`` when every game places its own landmarks."""
    island = board.island
    marks: list[dict[str, Any]] = []
    if board.fixed is not None:
        fixed = board.fixed
        for kind, cells in ((HUT, fixed.huts), (PALM, fixed.palms), (STATUE, fixed.statues)):
            for pos, cell in enumerate(cells):
                q, r = island.coords[cell]
                facing = fixed.facings[pos] if kind == STATUE else None
                marks.append({"kind": kind, "q": q, "r": r, "facing": facing})
    return {
        "island": island.name,
        "cells": [
            {"q": q, "r": r, "terrain": TERRAIN_NAMES[t]}
            for (q, r), t in zip(island.coords, island.terrain, strict=True)
        ],
        "landmarks": marks,
    }


def board_from_record(record: dict[str, Any], source: str) -> Board:
    """The board a manifest records (validated like any board JSON)."""
    return board_from_json(record, source)


def recorded_board(manifest: Mapping[str, Any], where: str, island: str) -> Board:
    """The board a run played as the island named ``island`` (its ``island`` column): the
    board its manifest recorded for an island file, else the built-in or generated island of
    that name. ``where`` names the manifest in messages."""
    from sim.tobago.catalog import resolve_board

    for argument, entry in (manifest.get("boards") or {}).items():
        if isinstance(entry, dict) and entry.get("name") == island:
            return board_from_record(entry["board"], f"{where}: boards[{argument}]")
    return resolve_board(island)


def read_boards(islands: tuple[str, ...]) -> dict[str, tuple[str, Board]]:
    """The sha256 and board of each island file among ``islands``, by argument."""
    return {arg: read_island_file(arg) for arg in dict.fromkeys(islands) if is_island_file(arg)}


def boards_manifest(boards: dict[str, tuple[str, Board]]) -> dict[str, dict[str, Any]]:
    """The manifest's ``boards``: per island file its island's name, sha256 and board."""
    return {
        arg: {"name": board.name, "sha256": digest, "board": board_record(board)}
        for arg, (digest, board) in boards.items()
    }


def check_boards(recorded: Mapping[str, dict[str, Any]], now: Mapping[str, dict[str, Any]]) -> None:
    """``InputError`` when an island file's content differs from what the run recorded."""
    for argument, entry in now.items():
        before = recorded.get(argument)
        if before is not None and before.get("sha256") != entry["sha256"]:
            raise InputError(
                f"{argument}: the island file changed since the run started (sha256 "
                f"{str(before.get('sha256'))[:12]}, now {entry['sha256'][:12]}); restore it "
                "or use another --out"
            )
