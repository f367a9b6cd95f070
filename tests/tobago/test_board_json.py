"""The board JSON export: its shape, its clue cells, and the round trip."""

from __future__ import annotations

import json
from pathlib import Path

from sim.seeding import stream
from sim.tobago.board_json import board_from_json, board_to_json
from sim.tobago.catalog import resolve_board
from sim.tobago.clues import clue_masks, default_deck
from sim.tobago.modular import load_island


def test_export_shape_and_round_trip(tmp_path: Path) -> None:
    island = load_island("aBc-2")
    marks = resolve_board("aBc-2").landmarks(stream(7, "landmarks"))
    deck = default_deck()
    obj = board_to_json(island, marks, deck)
    assert set(obj) == {"island", "cells", "landmarks", "clues"}
    assert obj["island"] == "aBc-2"
    assert len(obj["cells"]) == island.n
    assert {m["kind"] for m in obj["landmarks"]} == {"hut", "palm", "statue"}
    assert all((m["facing"] is None) == (m["kind"] != "statue") for m in obj["landmarks"])
    assert len(obj["clues"]) == 52
    masks = clue_masks(island, marks, deck)
    for clue in obj["clues"]:
        assert len(clue["cells"]) == masks[clue["id"]].bit_count()

    path = tmp_path / "board.json"
    path.write_text(json.dumps(obj))
    board = resolve_board(str(path))
    again = board_to_json(board.island, board.landmarks(stream(99, "landmarks")), deck)
    assert again == obj


def test_from_json_without_landmarks_places_them_per_game() -> None:
    obj = board_to_json(
        load_island("abc-1"), resolve_board("abc-1").landmarks(stream(1)), default_deck()
    )
    obj["landmarks"] = []
    board = board_from_json(obj)
    assert board.fixed is None
