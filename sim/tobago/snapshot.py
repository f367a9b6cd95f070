"""A Tobago game as a replay shows it: the scene that never changes, the state at any moment,
and every logged event in words, all as plain JSON-ready data read from the engine's state.

:func:`watch` swaps the game's move log for one that calls back after every row (see
:mod:`sim.watched_log`); a replay then takes a :func:`snapshot` at each row, so every frame
is the engine's own state at the moment it logged that event. Nothing here plays or decides:
the rules stay in the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim.bits import bits_of
from sim.tobago.engine import TobagoGame
from sim.tobago.landmarks import KINDS
from sim.tobago.movelog import EVENTS, describe
from sim.tobago.state import N_MAPS
from sim.tobago.terrain import TERRAIN_NAMES
from sim.watched_log import WatchedRows

#: ``secret`` of an event no player may see when it happens (the blind extra card).
NOBODY = -2
_DRAW = "draw"
_EXTRA = "extra_card"
#: Which arguments of an event are cells (``leg``: from, to) and which one is a map.
_CELLS = {
    "start_cell": (0,),
    "leg": (0, 1),
    "amulet_pickup": (0,),
    "amulet_appears": (0,),
    "amulet_marker": (1,),
    "raise": (1,),
}
_MAP_ARG = {
    "start_clue": 1,
    "clue": 1,
    "amulet_clue": 1,
    "restart": 1,
    "amulet_marker": 0,
    "raise": 0,
}


def watch(game: TobagoGame, on_row: Callable[[int], None]) -> None:
    """Call ``on_row(row index)`` after every row the game logs (before it is played)."""
    log = game.state.log
    if log.flat:
        raise ValueError("watch a game before it is played")
    log.flat = WatchedRows(on_row)


def scene(game: TobagoGame) -> dict[str, Any]:
    """What stays the same all game: cells ``[q, r, terrain]`` by cell id, terrain names,
    landmark cells by kind, the statues' cells in facing order, every clue card in words,
    the marker threshold and the first player."""
    s = game.state
    island = s.island
    return {
        "cells": [
            [q, r, TERRAIN_NAMES[t]]
            for (q, r), t in zip(island.coords, island.terrain, strict=True)
        ],
        "terrains": list(TERRAIN_NAMES),
        "landmarks": {kind: list(s.landmarks.cells(kind)) for kind in KINDS},
        "clues": [card.words for card in s.rules.deck.cards],
        "maps": N_MAPS,
        "threshold": s.rules.marker_threshold,
        "first_player": game.first_player,
    }


def snapshot(game: TobagoGame) -> dict[str, Any]:
    """The state now, hidden parts included (hands, treasure values, cards drawn for a
    distribution). Keys are stable, so two snapshots differ exactly in the keys that changed.

    Per map ``m`` (key ``map<m>``): its clue cards and their roses' owners (oldest first),
    its candidate cells (none while the map is empty), their count, whether the markers are
    out and the located cell (-1 if none)."""
    s = game.state
    out: dict[str, Any] = {
        "turn": s.turn,
        "current": s.current,
        "atv": list(s.atv),
        "hands": [list(h) for h in s.hands],
        "roses": list(s.roses),
        "amulets": list(s.amulets),
        "treasures": [list(t) for t in s.treasures],
        "scores": [s.score(p) for p in range(s.n)],
        "drawn": [list(d) for d in s.drawn],
        "amulet_cells": bits_of(s.amulet_board),
        "amulet_stack": s.amulet_stack,
        "facings": list(s.facings),
        "dist_roses": list(s.dist_roses),
        "treasure_deck": len(s.t_deck),
        "treasure_discard": len(s.t_discard),
        "treasure_removed": len(s.t_removed),
        "clue_deck": len(s.clue_draw),
        "clue_discard": len(s.clue_discard),
        "over": s.over,
    }
    for m in range(N_MAPS):
        cards = s.map_cards[m]
        cand = s.map_cand[m]
        out[f"map{m}"] = {
            "cards": list(cards),
            "roses": list(s.map_roses[m]),
            "candidates": bits_of(cand) if cards else [],
            "count": cand.bit_count() if cards else 0,
            "markers": s.markers_shown(m),
            "located": s.located(m),
        }
    return out


def describer(game: TobagoGame) -> Callable[[tuple[int, ...]], dict[str, Any]]:
    """Describes the game's logged rows ``(turn, seat, kind, a, b, c)`` for people: each as
    its event name, its text, and ``secret``: -1 when every player sees it, the seat that
    alone sees it (a treasure card drawn), or :data:`NOBODY` (the blind extra card, seen when
    it is turned up); ``masked`` is then its text for the others. ``cells`` lists the cells
    the event is about and ``map`` the map, when it has them."""
    s = game.state
    coords = s.island.coords
    clues = [card.words for card in s.rules.deck.cards]

    def cell(i: int) -> str:
        q, r = coords[i]
        return f"({q},{r})"

    def event(row: tuple[int, ...]) -> dict[str, Any]:
        turn, seat, kind, a, b, c = row
        name = EVENTS[kind][0]
        record: dict[str, Any] = {
            "turn": turn,
            "seat": seat,
            "name": name,
            "text": describe(kind, a, b, c, cell, clues),
            "secret": -1,
        }
        cells = _CELLS.get(name)
        if cells is not None:
            record["cells"] = [(a, b, c)[k] for k in cells]
        if name in _MAP_ARG:
            record["map"] = (a, b, c)[_MAP_ARG[name]]
        if name == _DRAW:
            record["secret"] = seat
            record["masked"] = "a treasure card, face down"
        elif name == _EXTRA:
            record["secret"] = NOBODY
            record["masked"] = "one more card, blind"
        return record

    return event
