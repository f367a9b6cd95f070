"""The compiled engine's stream seeds for a batch of games, derived once per seed block.

A game's streams are seeded by :func:`sim.seeding.derive_seed` from its plan's seed: the
``cards`` stream always, ``characters`` when the rules deal characters, and a seat's own
stream only for a seat whose compiled player draws (``random``): the engine reads no other.
The games of a seed block share their plan's seed, so each seed is derived once.
"""

from __future__ import annotations

from hashlib import blake2b

import numpy as np

from sim.game import PlanBatch
from sim.treasure_island.compiled import layout as lay
from sim.treasure_island.compiled import strategies as ps


def derive_many(seeds: list[int], *path: str | int) -> list[int]:
    """``[derive_seed(seed, *path) for seed in seeds]`` for seeds below 2**128, with the
    path's bytes joined once."""
    suffix = b"".join(b"\x1f" + str(part).encode() for part in path)
    return [
        int.from_bytes(blake2b(s.to_bytes(16, "little") + suffix, digest_size=8).digest(), "little")
        for s in seeds
    ]


def stream_seed_rows(batch: PlanBatch, characters: bool, kinds: np.ndarray) -> np.ndarray:
    """Each game's stream seeds (``cards``, ``characters``, then each seat's; 0 where the
    engine reads none), ``kinds[i, seat]`` the game's compiled players."""
    unique, at = np.unique(batch.seed, return_inverse=True)
    seeds = unique.tolist()
    rows = np.zeros((len(unique), lay.SEAT_STREAM + lay.MAX_SEATS), dtype=np.uint64)
    rows[:, lay.CARDS_STREAM] = derive_many(seeds, "cards")
    if characters:
        rows[:, lay.CHARACTERS_STREAM] = derive_many(seeds, "characters")
    games, seats = np.nonzero(kinds == ps.RANDOM)
    if len(games):
        drawn = np.unique(at[games] * lay.MAX_SEATS + seats)
        for seat in range(lay.MAX_SEATS):
            which = drawn[drawn % lay.MAX_SEATS == seat] // lay.MAX_SEATS
            picked = [seeds[u] for u in which.tolist()]
            rows[which, lay.SEAT_STREAM + seat] = derive_many(picked, "seat", seat)
    return rows[at]
