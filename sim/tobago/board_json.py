"""The board as JSON: cells, landmarks and every clue card's candidate cells.

The object is ``{"island", "cells": [{"q", "r", "terrain"}], "landmarks": [{"kind", "q", "r",
"facing"}], "clues": [{"id", "relation", "target", "cells": [[q, r], ...]}]}``. Reading it back
(:func:`board_from_json`) rebuilds the island with its landmarks fixed, validated like an island
file; the clue cells are derived data and are recomputed, not read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sim.bits import bits_of
from sim.errors import InputError
from sim.text_input import read_text
from sim.tobago.board import Board, FixedLayout
from sim.tobago.clues import ClueDeck, clue_masks
from sim.tobago.island import Island
from sim.tobago.landmarks import DEFAULT_MIN_DISTANCE, KINDS, STATUE, Landmarks, landmark_problems
from sim.tobago.terrain import TERRAIN_BY_NAME, TERRAIN_NAMES
from sim.tobago.validation import MAX_CELLS, island_problems


def board_to_json(
    island: Island, landmarks: Landmarks, deck: ClueDeck, next_to_includes_self: bool = False
) -> dict[str, Any]:
    """The JSON object of an island with one landmark placement and a clue deck."""
    coords = island.coords
    marks = []
    for kind in KINDS:
        for pos, cell in enumerate(landmarks.cells(kind)):
            facing = landmarks.facings[pos] if kind == STATUE else None
            marks.append(
                {"kind": kind, "q": coords[cell][0], "r": coords[cell][1], "facing": facing}
            )
    masks = clue_masks(island, landmarks, deck, next_to_includes_self)
    return {
        "island": island.name,
        "cells": [
            {"q": q, "r": r, "terrain": TERRAIN_NAMES[t]}
            for (q, r), t in zip(coords, island.terrain, strict=True)
        ],
        "landmarks": marks,
        "clues": [
            {
                "id": card.id,
                "relation": card.relation,
                "target": card.target,
                "cells": [list(coords[i]) for i in bits_of(mask)],
            }
            for card, mask in zip(deck.cards, masks, strict=True)
        ],
    }


def board_from_json(obj: Any, source: str = "<json>") -> Board:
    """The board of a JSON object made by :func:`board_to_json` (validated)."""

    def fail(message: str) -> InputError:
        return InputError(f"{source}: {message}")

    if not isinstance(obj, dict):
        raise fail("expected a JSON object with 'island', 'cells' and 'landmarks'")
    name = obj.get("island")
    if not isinstance(name, str) or not name:
        raise fail("'island' must be a non-empty string")
    cells = []
    raw_cells = obj.get("cells")
    if not isinstance(raw_cells, list):
        raise fail("'cells' must be a list of {q, r, terrain}")
    if len(raw_cells) > MAX_CELLS:  # before building: the island's tables grow with cells squared
        raise fail(f"the island has {len(raw_cells)} cells (at most {MAX_CELLS} allowed)")
    for k, c in enumerate(raw_cells):
        if not (
            isinstance(c, dict) and isinstance(c.get("q"), int) and isinstance(c.get("r"), int)
        ):
            raise fail(f"cells[{k}] must have integer 'q' and 'r'")
        if c.get("terrain") not in TERRAIN_BY_NAME:
            allowed = ", ".join(TERRAIN_NAMES)
            raise fail(f"cells[{k}]: unknown terrain (allowed: {allowed})")
        cells.append(((c["q"], c["r"]), TERRAIN_BY_NAME[c["terrain"]]))
    try:
        island = Island(name, cells, origin="file")
    except ValueError as exc:
        raise fail(str(exc)) from None
    for cell_id, message in island_problems(island):
        where = (
            f"cell q={island.coords[cell_id][0]}, r={island.coords[cell_id][1]}: "
            if cell_id is not None
            else ""
        )
        raise fail(where + message)
    raw_marks = obj.get("landmarks", [])
    if not isinstance(raw_marks, list):
        raise fail("'landmarks' must be a list of {kind, q, r, facing}")
    if not raw_marks:
        return Board(island)
    by_kind: dict[str, list[int]] = {k: [] for k in KINDS}
    facings: list[int | None] = []
    for k, m in enumerate(raw_marks):
        if not isinstance(m, dict) or m.get("kind") not in KINDS:
            raise fail(f"landmarks[{k}]: 'kind' must be one of {', '.join(KINDS)}")
        cell = (m.get("q"), m.get("r"))
        if cell not in island.index:
            raise fail(f"landmarks[{k}]: ({m.get('q')}, {m.get('r')}) is not an island cell")
        by_kind[m["kind"]].append(island.index[cell])  # type: ignore[index]
        if m["kind"] == STATUE:
            facing = m.get("facing")
            if facing is not None and (not isinstance(facing, int) or not 0 <= facing < 6):
                raise fail(f"landmarks[{k}]: statue facing must be 0-5 or null")
            facings.append(facing)
    probe = Landmarks(
        tuple(by_kind["hut"]),
        tuple(by_kind["palm"]),
        tuple(by_kind["statue"]),
        tuple(f or 0 for f in facings),
    )
    for cell_id, message in landmark_problems(island, probe, DEFAULT_MIN_DISTANCE):
        where = (
            f"cell q={island.coords[cell_id][0]}, r={island.coords[cell_id][1]}: "
            if cell_id is not None
            else ""
        )
        raise fail("landmarks: " + where + message)
    fixed = FixedLayout(probe.huts, probe.palms, probe.statues, tuple(facings))
    return Board(island, fixed)


def load_board_json(path: Path) -> Board:
    """Read a board JSON file (as written by ``tourney board show --json``)."""
    text = read_text(path, "island file")
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: cannot read board JSON ({exc})") from None
    return board_from_json(obj, str(path))
