"""Which game is which: seeds, islands, lineups and seatings as pure functions of the game index.

A run of ``games`` games under root seed ``seed`` plays game ``g`` with the seed
``derive_seed(seed, "game", block)``, ``block`` the seed block that game belongs to.

**A fixed lineup** (``players``): every game seats all the players. With ``seating =
"rotate"`` (the duplicate format) the games come in blocks of ``n`` consecutive indices, ``n``
the number of players: every game of a block shares its seed and island and seats the
players rotated by one more place each time (for players P0..P3: P0 P1 P2 P3, P1 P2 P3 P0,
P2 P3 P0 P1, P3 P0 P1 P2; for three players the three cyclic rotations), so each player meets
the same deal from every seat. With ``seating = "random"`` every game is its own block and
the seating is a shuffle drawn from the game's seed. Islands go round the island list block
by block.

**A pool** (``pool`` with ``table_sizes``): the games come in **cycles**. A cycle holds, for
each table size ``s`` in turn, every combination of ``s`` pool members (in lexicographic
order of their pool indices), each as one seed block: its ``s`` rotations with ``rotate``,
one game with a seeded shuffle with ``random``. A table size whose combinations make fewer
games than another's is repeated within the cycle (on new deals), so that every table size
gets the same number of games per cycle, ``L`` = the least common multiple of the sizes'
block-set lengths (pool of 4 at 2, 3, 4 players with rotations: 6 x 2, 4 x 3 and 1 x 4
games, so ``L`` = 12 and size 4's single combination is played on 3 deals per cycle). Within
a table size, every member plays the same number of games and, with rotations, from every
seat equally often. The ``k``-th block of cycle ``c`` plays on island ``(c + k) mod I``, so
every combination goes round all the islands.

A fixed lineup is the pool case of one table size holding everybody (one block per cycle):
the same formulas give the same games. Because the layout depends only on the game index
(never on the number of games), a run can grow: the first ``N`` games of a larger run are
the games of the smaller one.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np

from sim.game import GamePlan, PlanBatch
from sim.seeding import derive_seed, stream

__all__ = ["GamePlan", "PlanBatch", "Schedule", "cycle_games_per_size", "plan_game"]


@functools.lru_cache(maxsize=64)
def _layout(
    n_players: int, table_sizes: tuple[int, ...], seating: str
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int]:
    """The blocks of one cycle (each the players of one seed block, in seat order for
    rotation 0), the game index where each starts within the cycle, and the cycle's length."""
    sizes = table_sizes or (n_players,)
    per_size = cycle_games_per_size(n_players, sizes, seating)
    blocks: list[tuple[int, ...]] = []
    for size in sizes:
        combos = list(itertools.combinations(range(n_players), size))
        repeats = per_size // (len(combos) * (size if seating == "rotate" else 1))
        blocks += combos * repeats
    starts: list[int] = []
    at = 0
    for players in blocks:
        starts.append(at)
        at += len(players) if seating == "rotate" else 1
    return tuple(blocks), tuple(starts), at


def cycle_games_per_size(n_players: int, table_sizes: tuple[int, ...], seating: str) -> int:
    """Games each table size gets per cycle of a pool of ``n_players``: the least common
    multiple of the sizes' block sets (every combination, times its rotations)."""
    lengths = [
        math.comb(n_players, size) * (size if seating == "rotate" else 1) for size in table_sizes
    ]
    return math.lcm(*lengths)


@dataclass(frozen=True)
class Schedule:
    """The plan of every game of a run (see the module docstring). ``table_sizes`` empty (or
    ``(n_players,)``, the same games) means a fixed lineup of all ``n_players``; otherwise the
    players are a pool."""

    root_seed: int
    n_players: int
    seating: str
    islands: tuple[str, ...]
    table_sizes: tuple[int, ...] = ()

    @property
    def cycle_games(self) -> int:
        """Games in one cycle (a pool's balanced unit; a fixed lineup's seed block)."""
        return _layout(self.n_players, self.table_sizes, self.seating)[2]

    def plan(self, game_id: int) -> GamePlan:
        """The plan of game ``game_id``; depends on nothing but the schedule and the index."""
        blocks, starts, length = _layout(self.n_players, self.table_sizes, self.seating)
        cycle, offset = divmod(game_id, length)
        k = bisect.bisect_right(starts, offset) - 1
        players = blocks[k]
        block = cycle * len(blocks) + k
        seed = derive_seed(self.root_seed, "game", block)
        island = self.islands[(cycle + k) % len(self.islands)]
        if self.seating == "rotate":
            rotation = offset - starts[k]
            s = len(players)
            order = tuple(players[(rotation + j) % s] for j in range(s))
        else:
            rotation = 0
            shuffled = list(players)
            stream(seed, "seating").shuffle(shuffled)
            order = tuple(shuffled)
        return GamePlan(game_id, block, rotation, seed, island, order)

    def plan_batch(self, first: int, count: int) -> PlanBatch:
        """The plans of games ``first`` .. ``first + count - 1`` as columns: the same games
        as :meth:`plan` (one seed derived per seed block, the rotations by numpy)."""
        blocks, starts, length = _layout(self.n_players, self.table_sizes, self.seating)
        width = max(len(players) for players in blocks)
        members = np.full((len(blocks), width), -1, dtype=np.int64)
        for at_block, players in enumerate(blocks):
            members[at_block, : len(players)] = players
        sizes = np.array([len(players) for players in blocks], dtype=np.int64)
        game_id = np.arange(first, first + count, dtype=np.int64)
        cycle, offset = np.divmod(game_id, length)
        k = np.searchsorted(np.array(starts, dtype=np.int64), offset, side="right") - 1
        block = cycle * len(blocks) + k
        unique, at = np.unique(block, return_inverse=True)
        seeds = [derive_seed(self.root_seed, "game", b) for b in unique.tolist()]
        seed = np.array(seeds, dtype=np.uint64)[at]
        n = sizes[k]
        if self.seating == "rotate":
            rotation = offset - np.array(starts, dtype=np.int64)[k]
            seat = np.arange(width, dtype=np.int64)
            picked = (rotation[:, None] + seat) % n[:, None]
            order = np.where(seat < n[:, None], members[k[:, None], picked], -1)
        else:
            rotation = np.zeros(count, dtype=np.int64)
            order = members[k]
            for i, plan_seed in enumerate(seed.tolist()):
                shuffled = order[i, : n[i]].tolist()
                stream(plan_seed, "seating").shuffle(shuffled)
                order[i, : n[i]] = shuffled
        island = (cycle + k) % len(self.islands)
        return PlanBatch(game_id, block, rotation, seed, island, self.islands, order, n)


def plan_game(
    game_id: int, root_seed: int, n_players: int, seating: str, islands: tuple[str, ...]
) -> GamePlan:
    """The plan of game ``game_id`` of a fixed lineup of ``n_players``."""
    return Schedule(root_seed, n_players, seating, islands).plan(game_id)
