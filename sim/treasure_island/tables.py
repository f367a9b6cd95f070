"""The output tables of a Treasure Island run, built game by game as Arrow tables.

``games`` (one row per game), ``seats`` (one per game and seat), ``moves`` (one per logged
event, the same columns as Tobago's), ``turns`` (one per turn: how it ended, what it banked)
and ``draws`` (one per card taken from the draw pile, with the kinds in play, the pile's size
and its busting cards just before: the exact bust chance of every draw, derived from the move
log), plus ``failures`` as for Tobago. The column lists here are the data contract
documented in ``data/README.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa

from sim.game import GamePlan
from sim.game_tables import (
    FAILURES_SCHEMA,
    GAME_COLUMNS,
    SEAT_COLUMNS,
    append_common,
    append_failures,
    log_grid,
    moves_from_grid,
    moves_table,
    table_of,
)
from sim.treasure_island.cards import STARTING_PILE
from sim.treasure_island.engine import BUSTED, TreasureIslandGame
from sim.treasure_island.movelog import CODE, EVENTS

EVENT_NAMES = [name for name, _ in EVENTS]
REASONS = ("chosen", "spyglass", "pile_empty", "bust")
_DICT8 = pa.dictionary(pa.int8(), pa.string())

GAMES_SCHEMA = pa.schema(
    [
        *GAME_COLUMNS,
        ("decisions", pa.int32()),
        ("violations", pa.int32()),
        ("busts", pa.int16()),
        ("key_chest_bonuses", pa.int16()),
    ]
)
SEATS_SCHEMA = pa.schema(
    [
        *SEAT_COLUMNS,
        ("character", _DICT8),
        ("stash_cards", pa.int16()),
        ("stash_kinds", pa.int8()),
        ("turns_played", pa.int16()),
        ("busts", pa.int16()),
        ("cards_banked", pa.int16()),
        ("bonus_cards", pa.int16()),
        ("violations", pa.int16()),
    ]
)
TURNS_SCHEMA = pa.schema(
    [
        ("game_id", pa.int64()),
        ("turn", pa.int16()),
        ("seat", pa.int8()),
        ("placed", pa.int8()),
        ("reason", _DICT8),
        ("banked", pa.int8()),
        ("bonus_cards", pa.int16()),
        ("points", pa.int16()),
        ("key_chest", pa.bool_()),
    ]
)
DRAWS_SCHEMA = pa.schema(
    [
        ("game_id", pa.int64()),
        ("turn", pa.int16()),
        ("seat", pa.int8()),
        ("draw", _DICT8),
        ("card", pa.int8()),
        ("kinds_in_play", pa.int8()),
        ("pile_size", pa.int8()),
        ("busting", pa.int8()),
        ("bust", pa.bool_()),
    ]
)
SCHEMAS: dict[str, pa.Schema] = {
    "games": GAMES_SCHEMA,
    "seats": SEATS_SCHEMA,
    "moves": moves_table([], [], [], EVENT_NAMES).schema,
    "turns": TURNS_SCHEMA,
    "draws": DRAWS_SCHEMA,
    "failures": FAILURES_SCHEMA,
}
_DRAW_CODES = (CODE["draw"], CODE["draw_forced"], CODE["draw_known"])
_BUST = CODE["bust"]
_PILE = len(STARTING_PILE)
_TURN_WIDTH = len(TreasureIslandGame.TURN_FIELDS)


class TreasureIslandTableBuilder:
    """Columns of the five tables for a batch of games, filled game by game."""

    def __init__(self, game: str, labels: list[str]) -> None:
        self.game = game
        self.labels = labels
        self.cols: dict[str, dict[str, list[Any]]] = {
            name: {f.name: [] for f in SCHEMAS[name]} for name in ("games", "seats", "failures")
        }
        self.move_flat: list[int] = []
        self.move_rows: list[int] = []
        self.turn_flat: list[int] = []
        self.turn_rows: list[int] = []

    def add(self, plan: GamePlan, game: TreasureIslandGame) -> None:
        """Record one finished game (what the turns add up to is counted in :meth:`build`)."""
        result = game.result
        assert result is not None
        append_common(self.cols, plan, self.game, plan.island, result, self.labels)
        g = self.cols["games"]
        g["decisions"].append(game.decisions)
        g["violations"].append(len(game.violations))
        bad = append_failures(self.cols["failures"], plan, game.violations, self.labels)
        st = self.cols["seats"]
        st["character"] += game.characters
        st["stash_cards"] += game.cards
        st["stash_kinds"] += [m.bit_count() for m in game.stash_kinds]
        st["violations"] += bad
        self.move_flat += game.log
        self.move_rows.append(len(game.log) // 6)
        self.turn_flat += game.turn_rows
        self.turn_rows.append(len(game.turn_rows) // _TURN_WIDTH)

    def build(self) -> dict[str, pa.Table]:
        """The tables of the games added so far."""
        grid = np.array(self.turn_flat, dtype=np.int32).reshape(-1, _TURN_WIDTH)
        game_pos = np.repeat(np.arange(len(self.turn_rows)), self.turn_rows)
        n_games = len(self.turn_rows)
        busted = grid[:, 3] == BUSTED
        g = self.cols["games"]
        g["busts"] = np.bincount(game_pos[busted], minlength=n_games).tolist()
        g["key_chest_bonuses"] = np.bincount(game_pos, grid[:, 7], n_games).astype(int).tolist()
        seat_offset = np.cumsum(g["n_players"]) - np.array(g["n_players"])
        seat_row = seat_offset[game_pos] + grid[:, 1]
        n_seats = len(self.cols["seats"]["seat"])
        st = self.cols["seats"]
        st["turns_played"] = np.bincount(seat_row, minlength=n_seats).tolist()
        st["busts"] = np.bincount(seat_row[busted], minlength=n_seats).tolist()
        for total, field in (("cards_banked", 4), ("bonus_cards", 5)):
            st[total] = np.bincount(seat_row, grid[:, field], n_seats).astype(int).tolist()
        out = {
            name: table_of(self.cols[name], SCHEMAS[name])
            for name in ("games", "seats", "failures")
        }
        game_ids = self.cols["games"]["game_id"]
        log = log_grid(self.move_flat)
        out["moves"] = moves_from_grid(log, self.move_rows, game_ids, EVENT_NAMES)
        out["turns"] = self._turns(grid, game_ids)
        out["draws"] = self._draws(log, game_ids)
        return out

    def _turns(self, grid: np.ndarray, game_ids: list[int]) -> pa.Table:
        ids = np.repeat(np.array(game_ids, dtype=np.int64), self.turn_rows)
        reasons = pa.DictionaryArray.from_arrays(
            pa.array(grid[:, 3].astype(np.int8)), pa.array(REASONS, pa.string())
        )
        return pa.Table.from_arrays(
            [
                pa.array(ids),
                pa.array(grid[:, 0].astype(np.int16)),
                pa.array(grid[:, 1].astype(np.int8)),
                pa.array(grid[:, 2].astype(np.int8)),
                reasons,
                pa.array(grid[:, 4].astype(np.int8)),
                pa.array(grid[:, 5].astype(np.int16)),
                pa.array(grid[:, 6].astype(np.int16)),
                pa.array(grid[:, 7].astype(bool)),
            ],
            schema=TURNS_SCHEMA,
        )

    def _draws(self, grid: np.ndarray, game_ids: list[int]) -> pa.Table:
        """Draw rows of the logs; a draw busts exactly when the next row is a ``bust`` (the
        engine logs the bust at once), and the pile's size before a game's k-th draw is
        50 - k (a Spyglass that puts its card back takes nothing)."""
        ids = np.repeat(np.array(game_ids, dtype=np.int64), self.move_rows)
        kinds = grid[:, 2]
        is_draw = np.isin(kinds, _DRAW_CODES)
        next_kind = np.append(kinds[1:], -1)
        bust = is_draw & (next_kind == _BUST)
        where = np.flatnonzero(is_draw)
        draw_ids = ids[where]
        # k-th draw within its game: position minus the position of the game's first draw
        first = np.searchsorted(draw_ids, draw_ids, side="left")
        k = np.arange(len(where)) - first
        codes = np.searchsorted(np.array(_DRAW_CODES), kinds[where])
        names = pa.array(["draw", "draw_forced", "draw_known"], pa.string())
        return pa.Table.from_arrays(
            [
                pa.array(draw_ids),
                pa.array(grid[where, 0].astype(np.int16)),
                pa.array(grid[where, 1].astype(np.int8)),
                pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int8)), names),
                pa.array(grid[where, 3].astype(np.int8)),
                pa.array(grid[where, 4].astype(np.int8)),
                pa.array((_PILE - k).astype(np.int8)),
                pa.array(grid[where, 5].astype(np.int8)),
                pa.array(bust[where]),
            ],
            schema=DRAWS_SCHEMA,
        )
