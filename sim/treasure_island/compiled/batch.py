"""Many games in one compiled call: the games in chunks, each chunk's streams seeded first,
all together.

Seeding a Mersenne Twister is a chain of about 1,900 steps, each waiting for the one before,
and a game seeds its ``cards`` stream (once a seed block: the block's later games copy the
first one's setup), its ``characters`` stream when characters are dealt, and the own stream
of each seat whose player draws. So the games are played a chunk at a time: first the keys
the chunk's games need are gathered (a block's games share theirs) and seeded in lockstep
(:func:`sim.treasure_island.compiled.rng.seed_many`) into rows of ``streams`` after the
rows a game plays in, then each game plays with ``seeded``: the rows of its streams.
"""

from __future__ import annotations

import numpy as np

from sim.treasure_island.compiled import layout as lay
from sim.treasure_island.compiled import rng
from sim.treasure_island.compiled import strategies as ps
from sim.treasure_island.compiled.engine import play_game

_SLOTS = lay.SEAT_STREAM + lay.MAX_SEATS
#: Rows of ``streams`` :func:`play_games` needs: a game's, then room for a chunk's keys.
STREAM_ROWS = lay.STREAM_ROWS + rng.LOCKSTEP


def new_room() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What :func:`play_games` works in: the game's state, the streams, the seeding's
    scratch, the chunk's keys and each game's rows of ``streams`` (allocated once a call)."""
    return (
        np.zeros(lay.STATE_SIZE, dtype=np.int64),
        rng.new_states(STREAM_ROWS),
        np.zeros((rng.SCRATCH_ROWS, rng.LOCKSTEP), dtype=np.uint32),
        np.zeros(rng.LOCKSTEP, dtype=np.uint64),
        np.zeros((rng.LOCKSTEP, _SLOTS), dtype=np.int64),
    )


@rng.jit
def _fresh(seeds: np.ndarray, sizes: np.ndarray, i: int) -> bool:
    """Whether game ``i`` starts a seed block (its seeds or size are not the game before's)."""
    if i == 0 or sizes[i] != sizes[i - 1]:
        return True
    for k in range(seeds.shape[1]):  # noqa: SIM110 (no generator in compiled code)
        if seeds[i, k] != seeds[i - 1, k]:
            return True
    return False


@rng.jit
def _key(keys: np.ndarray, used: int, seed: np.uint64) -> int:
    keys[used] = seed
    return used


@rng.jit
def _gather(
    rules: np.ndarray,
    seeds: np.ndarray,
    sizes: np.ndarray,
    players: np.ndarray,
    first: int,
    keys: np.ndarray,
    slots: np.ndarray,
) -> tuple[int, int]:
    """The keys of games ``first``.. up to a chunk's room, and each game's rows (``slots``,
    key indices; -1: a stream the game does not read). The end of the chunk, the keys."""
    used = 0
    i = first
    while i < len(sizes) and i - first < rng.LOCKSTEP and used + _SLOTS <= rng.LOCKSTEP:
        row = slots[i - first]
        if i == first or _fresh(seeds, sizes, i):
            row[:] = -1  # a new block: nothing to share with the game before
        else:
            for k in range(_SLOTS):
                row[k] = slots[i - first - 1, k]
        if _fresh(seeds, sizes, i):
            row[lay.CARDS_STREAM] = _key(keys, used, seeds[i, lay.CARDS_STREAM])
            used += 1
        if rules[lay.R_CHARACTERS] and row[lay.CHARACTERS_STREAM] < 0:
            row[lay.CHARACTERS_STREAM] = _key(keys, used, seeds[i, lay.CHARACTERS_STREAM])
            used += 1
        for seat in range(sizes[i]):
            slot = lay.SEAT_STREAM + seat
            if players[i, seat] == ps.RANDOM and row[slot] < 0:
                row[slot] = _key(keys, used, seeds[i, slot])
                used += 1
        i += 1
    return i, used


@rng.jit
def play_games(
    room_g: np.ndarray,
    streams: np.ndarray,
    scratch: np.ndarray,
    keys: np.ndarray,
    slots: np.ndarray,
    rules: np.ndarray,
    pool: np.ndarray,
    seeds: np.ndarray,
    sizes: np.ndarray,
    players: np.ndarray,
    params: np.ndarray,
    game_out: np.ndarray,
    seat_out: np.ndarray,
    shares: np.ndarray,
) -> None:
    """Games ``i`` of ``sizes[i]`` players: ``seeds[i]`` their streams' seeds (``cards``,
    ``characters``, then each seat's; only those the game reads matter), ``players[i,
    seat]`` and ``params[i, seat]`` each seat's player; the outputs as
    :func:`~sim.treasure_island.compiled.engine.play_game`'s. The room to work in is
    :func:`new_room`'s."""
    first = 0
    while first < len(sizes):
        stop, used = _gather(rules, seeds, sizes, players, first, keys, slots)
        rng.seed_many(keys, used, scratch, streams[lay.STREAM_ROWS :])
        for i in range(first, stop):
            row = slots[i - first]
            for k in range(_SLOTS):
                if row[k] >= 0:
                    row[k] += lay.STREAM_ROWS
            play_game(
                room_g,
                rules,
                pool,
                streams,
                row,
                players[i],
                params[i],
                sizes[i],
                _fresh(seeds, sizes, i),
                game_out[i],
                seat_out[i],
                shares[i],
            )
        first = stop
