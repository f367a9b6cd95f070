"""The output tables of a Tobago run, accumulated game by game and built as Arrow tables.

``games`` (one row per game), ``seats`` (one per game and seat), ``moves`` (one per logged
decision or event), ``treasures`` (one per distribution, derived from the move log) and
``failures`` (one per recorded strategy failure, with its error text). The column list and
types here are the data contract documented in ``data/README.md``; rows come sorted by game
id, then seat or ply.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from sim.game import GamePlan
from sim.game_tables import (
    FAILURES_SCHEMA,
    GAME_COLUMNS,
    MOVES_SCHEMA,
    SEAT_COLUMNS,
    append_common,
    append_failures,
    moves_table,
    table_of,
)
from sim.tobago.engine import TobagoGame
from sim.tobago.movelog import CODE, EVENTS

EVENT_NAMES = [name for name, _ in EVENTS]
_DIST_EVENTS = {
    CODE[k]
    for k in (
        "draw",
        "extra_card",
        "reveal",
        "take",
        "pass",
        "unclaimed",
        "curse_hit",
        "leftover",
        "restart",
        "amulet_appears",
        "statues_turn",
        "treasure_reshuffle",
        "clue_reshuffle",
        "violation",
    )
}
_RAISE, _DRAW, _EXTRA, _REVEAL, _TAKE = (
    CODE["raise"],
    CODE["draw"],
    CODE["extra_card"],
    CODE["reveal"],
    CODE["take"],
)

GAMES_SCHEMA = pa.schema(
    [
        *GAME_COLUMNS,
        ("distributions", pa.int16()),
        ("decisions", pa.int32()),
        ("violations", pa.int32()),
    ]
)
SEATS_SCHEMA = pa.schema(
    [
        *SEAT_COLUMNS,
        ("treasure_cards", pa.int16()),
        ("treasures_raised", pa.int16()),
        ("clues_played", pa.int16()),
        ("amulets_collected", pa.int16()),
        ("amulets_used", pa.int16()),
        ("amulets_left", pa.int16()),
        ("curse_hits", pa.int16()),
        ("coins_lost", pa.int16()),
        ("violations", pa.int16()),
    ]
)
TREASURES_SCHEMA = pa.schema(
    [
        ("game_id", pa.int64()),
        ("distribution", pa.int16()),
        ("turn", pa.int32()),
        ("map", pa.int8()),
        ("raiser", pa.int8()),
        ("roses", pa.int8()),
        ("cards_drawn", pa.int8()),
        ("curse_revealed", pa.bool_()),
        ("curse_position", pa.int8()),
        ("coins_handed_out", pa.int16()),
        ("taker_seats", pa.list_(pa.int8())),
        ("taken_values", pa.list_(pa.int8())),
    ]
)
SCHEMAS: dict[str, pa.Schema] = {
    "games": GAMES_SCHEMA,
    "seats": SEATS_SCHEMA,
    "moves": MOVES_SCHEMA,
    "treasures": TREASURES_SCHEMA,
    "failures": FAILURES_SCHEMA,
}


class TableBuilder:
    """Columns of the five tables for a batch of games, filled game by game."""

    def __init__(self, game: str, labels: list[str]) -> None:
        self.game = game
        self.labels = labels
        self.cols: dict[str, dict[str, list[Any]]] = {
            name: {f.name: [] for f in schema} for name, schema in SCHEMAS.items()
        }
        self.move_flat: list[int] = []
        self.move_ids: list[int] = []

    def add(self, plan: GamePlan, game: TobagoGame) -> None:
        """Record one finished game."""
        s = game.state
        island = s.island.name
        result = game.result
        assert result is not None
        gid = plan.game_id
        rows = s.log.flat
        n_rows = len(rows) // 6
        dists = self._treasures(gid, rows)

        append_common(self.cols, plan, self.game, island, result, self.labels)
        g = self.cols["games"]
        g["distributions"].append(dists)
        g["decisions"].append(game.decisions)
        g["violations"].append(len(game.violations))

        st = self.cols["seats"]
        bad = append_failures(self.cols["failures"], plan, game.violations, self.labels)
        for seat in range(s.n):
            st["treasure_cards"].append(len(s.treasures[seat]))
            st["treasures_raised"].append(s.treasures_raised[seat])
            st["clues_played"].append(s.clues_played[seat])
            st["amulets_collected"].append(s.amulets_collected[seat])
            st["amulets_used"].append(s.amulets_used[seat])
            st["amulets_left"].append(s.amulets[seat])
            st["curse_hits"].append(s.curse_hits[seat])
            st["coins_lost"].append(s.coins_lost[seat])
            st["violations"].append(bad[seat])

        self.move_flat.extend(rows)
        self.move_ids.append(n_rows)

    def _treasures(self, gid: int, rows: list[int]) -> int:
        """Append one row per distribution found in a game's log; return how many."""
        t = self.cols["treasures"]
        count = 0
        i = 0
        n = len(rows)
        while i < n:
            if rows[i + 2] != _RAISE:
                i += 6
                continue
            turn, raiser, m, n_roses = rows[i], rows[i + 1], rows[i + 3], rows[i + 5]
            drawn = 0
            curse_at = -1
            seats: list[int] = []
            values: list[int] = []
            i += 6
            while i < n and rows[i + 2] in _DIST_EVENTS:
                kind = rows[i + 2]
                if kind in (_DRAW, _EXTRA):
                    drawn += 1
                elif kind == _REVEAL and rows[i + 3] < 0:
                    curse_at = rows[i + 4]
                elif kind == _TAKE:
                    seats.append(rows[i + 1])
                    values.append(rows[i + 3])
                i += 6
            t["game_id"].append(gid)
            t["distribution"].append(count)
            t["turn"].append(turn)
            t["map"].append(m)
            t["raiser"].append(raiser)
            t["roses"].append(n_roses)
            t["cards_drawn"].append(drawn)
            t["curse_revealed"].append(curse_at >= 0)
            t["curse_position"].append(curse_at)
            t["coins_handed_out"].append(sum(values))
            t["taker_seats"].append(seats)
            t["taken_values"].append(values)
            count += 1
        return count

    def build(self) -> dict[str, pa.Table]:
        """The tables of the games added so far."""
        out = {
            name: table_of(self.cols[name], SCHEMAS[name])
            for name in ("games", "seats", "treasures", "failures")
        }
        game_ids = self.cols["games"]["game_id"]
        out["moves"] = moves_table(self.move_flat, self.move_ids, game_ids, EVENT_NAMES)
        return out
