"""The prototype's compiled functions (numba, over cells as words): the legal clue plays of a
hand and the scripted players' scoring of them, each over every recorded position in one
compiled loop, and a compiled Mersenne Twister's seeding and draws."""

# numba has no type stubs (as for sim.treasure_island.compiled, see pyproject.toml).
# mypy: disallow-untyped-decorators=False, warn-return-any=False

from __future__ import annotations

import numpy as np
from numba import njit

from sim.treasure_island.compiled import rng as mt

#: Cells per word: 63, so that a word is a non-negative int64 (numba never mixes signed and
#: unsigned integers) and 2 words hold the built-in islands (75 to 104 cells).
BITS = 63
WORD = (1 << BITS) - 1
WORDS = 2
MAX_HAND = 16
MAX_PLAYS = MAX_HAND * 4


@njit(cache=True)
def popcount(x: int) -> int:
    """Bits set in a non-negative int64 (SWAR, without the multiply that could overflow)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit(cache=True)
def top_bit(x: int) -> int:
    """The highest bit set in a positive int64 (``int.bit_length() - 1``)."""
    bit = 0
    while x > 1:
        x >>= 1
        bit += 1
    return bit


@njit(cache=True)
def clue_plays(
    hand: np.ndarray, n_hand: int, cands: np.ndarray, masks: np.ndarray, roses: int,
    only_map: int, out: np.ndarray
) -> int:  # fmt: skip
    """``_clue_plays`` (the rules without the BGA flag): the plays ``(card, map)`` into
    ``out`` by card, then map; their count."""
    if roses == 0:
        return 0
    count = 0
    first = 0 if only_map < 0 else only_map
    last = 4 if only_map < 0 else only_map + 1
    for i in range(n_hand):
        card = hand[i]
        for m in range(first, last):
            nonzero = False
            reduces = False
            for w in range(cands.shape[1]):
                after = cands[m, w] & masks[card, w]
                if after:
                    nonzero = True
                if after != cands[m, w]:
                    reduces = True
            if nonzero and reduces:
                out[count, 0] = card
                out[count, 1] = m
                count += 1
    return count


@njit(cache=True)
def best_clue(
    plays: np.ndarray, n_plays: int, cands: np.ndarray, masks: np.ndarray, dist: np.ndarray,
    atvs: np.ndarray, roses_on: np.ndarray, weights: np.ndarray, legs_per_move: int
) -> tuple[int, float]:  # fmt: skip
    """``_best_clue`` over ``plays``: the index of the best play (-1: none) and its score.
    ``atvs``: the seat's ATV, then its rivals' in seat order; ``weights``: clue weight,
    locate bonus, spread bonus (0: none)."""
    weight, locate, spread = weights[0], weights[1], weights[2]
    best = -1
    best_score = -1.0
    for k in range(n_plays):
        card, m = plays[k, 0], plays[k, 1]
        n_before = 0
        n_after = 0
        high = 0  # the last word with a cell left
        for w in range(cands.shape[1]):
            after = cands[m, w] & masks[card, w]
            n_before += popcount(cands[m, w])
            n_after += popcount(after)
            if after:
                high = w
        score = weight * (n_before - n_after) / n_before
        if n_after <= 1:
            cell = high * BITS + top_bit(cands[m, high] & masks[card, high])
            near = dist[atvs[0], cell]
            score += locate * (1.0 if near <= legs_per_move else 0.2)
            for r in range(1, atvs.shape[0]):
                if dist[atvs[r], cell] < near:
                    score -= locate * 0.8
                    break
        if spread != 0.0:
            score += spread / (1 + roses_on[m])
        if score > best_score:
            best, best_score = k, score
    return best, best_score


@njit(cache=True)
def plays_all(
    masks: np.ndarray, game: np.ndarray, hand: np.ndarray, size: np.ndarray, cands: np.ndarray,
    roses: np.ndarray, only: np.ndarray, plays_out: np.ndarray, count_out: np.ndarray
) -> None:  # fmt: skip
    """Every recorded listing through :func:`clue_plays`, in one compiled loop."""
    for i in range(game.shape[0]):
        count_out[i] = clue_plays(
            hand[i], size[i], cands[i], masks[game[i]], roses[i], only[i], plays_out[i]
        )


@njit(cache=True)
def best_all(
    masks: np.ndarray, dists: np.ndarray, islands: np.ndarray, game: np.ndarray,
    plays: np.ndarray, size: np.ndarray, cands: np.ndarray, atvs: np.ndarray,
    seats: np.ndarray, roses_on: np.ndarray, weights: np.ndarray, legs: np.ndarray,
    best_out: np.ndarray, score_out: np.ndarray
) -> None:  # fmt: skip
    """Every recorded scoring through :func:`best_clue`, in one compiled loop."""
    for i in range(game.shape[0]):
        g = game[i]
        best_out[i], score_out[i] = best_clue(
            plays[i],
            size[i],
            cands[i],
            masks[g],
            dists[islands[g]],
            atvs[i, : seats[i]],
            roses_on[i],
            weights[i],
            legs[i],
        )


@njit(cache=True)
def mt_loop(state: np.ndarray, games: int, streams: int, words: int) -> int:
    total = 0
    for g in range(games):
        for s in range(streams):
            mt.seed_u64(state[s], np.uint64(g * 16 + s + 1))
        for w in range(words):
            total += mt.next_word(state[w % streams])
    return total
