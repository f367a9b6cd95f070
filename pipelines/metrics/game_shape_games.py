"""The per-game half of :mod:`pipelines.metrics.game_shape`: from the score rows of a batch of
games, each game's lead changes, its leader at two thirds, when its winner was known and its
score trajectory, in numpy.

DuckDB only reads (a filtered scan of the move log, a few thousand games at a time by game
id, so memory stays flat however large the run); the ordered steps (a score that holds until
its seat's next row, the leader after each turn, the last turn without the winner ahead) are
cumulative maxima and sorted searches over whole arrays, several times faster than DuckDB's
window functions on one thread. Every step is integer arithmetic but the trajectories' means
of the other seats (one division per game and point), so the result does not depend on the
order rows are read in.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Points of the score trajectories: after each tenth of a game's turns.
POINTS = 10
#: A seat the game does not have: below every score.
ABSENT = np.int64(-(1 << 40))


@dataclass(frozen=True)
class Games:
    """A batch of finished games of one run, sorted by game id: per game its player count,
    turns, final scores and sole winner (-1 without one), per seat up to ``seats``."""

    game_id: np.ndarray
    n_players: np.ndarray
    turns: np.ndarray
    final: np.ndarray  # (games, seats), ABSENT beyond the game's seats
    winner: np.ndarray


@dataclass(frozen=True)
class Scores:
    """Score rows of the batch: game index, turn, seat, and the value (a running score, one
    row per seat and turn; or, when ``changes``, a change, any number of rows)."""

    game: np.ndarray
    turn: np.ndarray
    seat: np.ndarray
    value: np.ndarray
    changes: bool


def _wide(games: Games, s: Scores) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per game and turn with a row, then once more after the last turn with the final
    scores: the row's game, its order ``2 turn`` (``2 T - 1`` for the final scores) and every
    seat's score then (a score holds until its seat's next row; 0 before the first).

    One sort (of the rows' keys) does it: changes are summed into their (game, turn) row and
    added up down the rows of each game; running scores are carried down each seat's column
    to the next row that has one."""
    n, seats = len(games.game_id), games.final.shape[1]
    events = (s.game.astype(np.int64) << 32) | (2 * s.turn)
    finals = (np.arange(n, dtype=np.int64) << 32) | (2 * games.turns - 1)
    rows, inverse = np.unique(np.concatenate([events, finals]), return_inverse=True)
    event_row, final_row = inverse[: len(events)], inverse[len(events) :]
    row_game = rows >> 32
    row_ord = rows & ((1 << 32) - 1)
    starts = np.searchsorted(row_game, row_game, side="left")  # each row's game's first row
    cell = event_row * seats + s.seat
    if s.changes:
        summed = np.bincount(cell, weights=s.value, minlength=len(rows) * seats)
        delta = np.rint(summed).astype(np.int64).reshape(-1, seats)
        total = np.cumsum(delta, axis=0)
        wide = total - (total[starts] - delta[starts])  # from the game's first row only
    else:
        found = np.full(len(rows) * seats, -1, dtype=np.int64)
        found[cell] = np.arange(len(cell))  # one row per seat and turn
        found = found.reshape(-1, seats)
        index = np.arange(len(rows))
        wide = np.zeros((len(rows), seats), dtype=np.int64)
        for k in range(seats):
            held = np.maximum.accumulate(np.where(found[:, k] >= 0, index, -1))
            ok = held >= starts
            wide[ok, k] = s.value[found[held[ok], k]]
    wide[final_row] = games.final  # the final scores close every game (ABSENT: no seat)
    absent = np.arange(seats)[None, :] >= games.n_players[row_game][:, None]
    wide[absent] = ABSENT
    return row_game, row_ord, wide


def _at(keys: np.ndarray, row_game: np.ndarray, game: np.ndarray, limit: np.ndarray) -> np.ndarray:
    """Per game, the last row before ``limit`` (an order), -1 when it has none."""
    pos = np.searchsorted(keys, game.astype(np.int64) * (1 << 32) + limit, side="left") - 1
    ok = pos >= 0
    ok[ok] = row_game[pos[ok]] == game[ok]
    return np.where(ok, pos, -1)


def per_game(games: Games, s: Scores) -> dict[str, np.ndarray]:
    """The measures of every game of the batch (see :mod:`pipelines.metrics.game_shape`)."""
    n = len(games.game_id)
    row_game, row_ord, wide = _wide(games, s)
    top = wide.max(axis=1)
    at_top = (wide == top[:, None]).sum(axis=1)
    leader = np.where(at_top == 1, wide.argmax(axis=1), -1)
    led = np.flatnonzero(leader >= 0)
    change = (row_game[led][1:] == row_game[led][:-1]) & (leader[led][1:] != leader[led][:-1])
    changes = np.bincount(row_game[led][1:][change], minlength=n)
    keys = row_game * (1 << 32) + row_ord
    game = np.arange(n)
    third = _at(keys, row_game, game, 2 * np.maximum(1, (2 * games.turns) // 3))
    two_thirds = np.where(third >= 0, leader[np.maximum(third, 0)], -1)
    winner = games.winner
    good = (leader == winner[row_game]) & (winner[row_game] >= 0)
    index = np.arange(len(row_game))
    last_bad = np.maximum.accumulate(np.where(good, -1, index))
    end = np.searchsorted(row_game, game, side="right") - 1
    start = np.searchsorted(row_game, game, side="left")
    first_good = np.maximum(last_bad[end] + 1, start)
    holds = first_good <= end
    decided_ord = row_ord[np.minimum(first_good, len(row_ord) - 1)]
    decided = np.where(holds, (decided_ord // 2 + 1) / games.turns, 1.0)
    out: dict[str, np.ndarray] = {
        "lead_changes": changes.astype(np.int32),
        "leader_at_two_thirds": two_thirds.astype(np.int32),
        "decided_at": decided.astype(np.float64),
    }
    present = np.where(wide == ABSENT, 0, wide)
    sole = winner >= 0
    for j in range(1, POINTS + 1):
        pos = _at(keys, row_game, game, 2 * ((j * games.turns + POINTS - 1) // POINTS))
        safe = np.maximum(pos, 0)
        mine = np.where(pos >= 0, present[safe, np.maximum(winner, 0)], 0)
        rest = np.where(pos >= 0, present[safe].sum(axis=1), 0) - mine
        out[f"winner_at_{j}"] = np.where(sole, mine, np.nan).astype(np.float64)
        out[f"others_at_{j}"] = np.where(sole, rest / (games.n_players - 1), np.nan)
    return out
