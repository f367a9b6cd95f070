"""The recorded positions as the compiled functions take them (arrays of cells as words),
their answers through the compiled loops, and where those answers differ from the
reference's."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .capture import Recorded
from .kernels import BITS, MAX_HAND, MAX_PLAYS, WORD, WORDS, best_all, plays_all


def words_of(mask: int) -> list[int]:
    """A cell mask as ``WORDS`` words of ``BITS`` cells."""
    if mask >> (BITS * WORDS):
        raise SystemExit(f"an island of more than {BITS * WORDS} cells: raise WORDS")
    return [(mask >> (BITS * w)) & WORD for w in range(WORDS)]


@dataclass
class Arrays:
    """The recorded positions as the compiled functions take them."""

    masks: np.ndarray  # game, card, word
    dists: np.ndarray  # island, cell, cell
    islands: np.ndarray  # per game
    p_game: np.ndarray
    p_hand: np.ndarray  # position, card slot; with p_len
    p_len: np.ndarray
    p_cands: np.ndarray  # position, map, word
    p_roses: np.ndarray
    p_only: np.ndarray
    b_game: np.ndarray
    b_plays: np.ndarray  # position, play, (card, map); with b_len
    b_len: np.ndarray
    b_cands: np.ndarray
    b_atvs: np.ndarray  # position, seat slot; with b_seats
    b_seats: np.ndarray
    b_roses_on: np.ndarray
    b_weights: np.ndarray
    b_legs: np.ndarray


def arrays(rec: Recorded) -> Arrays:
    """:class:`Arrays` of ``rec``."""
    cards = max(len(m) for m in rec.masks)
    masks = np.zeros((len(rec.masks), cards, WORDS), dtype=np.int64)
    for g, game_masks in enumerate(rec.masks):
        for c, mask in enumerate(game_masks):
            masks[g, c] = words_of(mask)
    size = max(len(d) for d in rec.dists)
    dists = np.full((len(rec.dists), size, size), 99, dtype=np.int64)
    for i, dist in enumerate(rec.dists):
        dists[i, : len(dist), : len(dist)] = np.array(dist, dtype=np.int64)
    n, k = len(rec.plays), len(rec.best)
    a = Arrays(
        masks, dists, np.array(rec.islands, dtype=np.int64),
        np.zeros(n, np.int64), np.zeros((n, MAX_HAND), np.int64), np.zeros(n, np.int64),
        np.zeros((n, 4, WORDS), np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
        np.zeros(k, np.int64), np.zeros((k, MAX_PLAYS, 2), np.int64), np.zeros(k, np.int64),
        np.zeros((k, 4, WORDS), np.int64), np.zeros((k, 4), np.int64), np.zeros(k, np.int64),
        np.zeros((k, 4), np.int64), np.zeros((k, 3), np.float64), np.zeros(k, np.int64),
    )  # fmt: skip
    for i, (game, _seat, _tag, only, hand, cands, roses, _out) in enumerate(rec.plays):
        a.p_game[i], a.p_len[i], a.p_roses[i], a.p_only[i] = game, len(hand), roses, only
        a.p_hand[i, : len(hand)] = hand
        a.p_cands[i] = [words_of(c) for c in cands]
    for i, (game, plays, cands, atvs, map_roses, seat, weights, legs, _, _) in enumerate(rec.best):
        a.b_game[i], a.b_len[i], a.b_seats[i], a.b_legs[i] = game, len(plays), len(atvs), legs
        if plays:
            a.b_plays[i, : len(plays)] = plays
        a.b_cands[i] = [words_of(c) for c in cands]
        a.b_atvs[i, : len(atvs)] = atvs
        a.b_roses_on[i] = [r.count(seat) for r in map_roses]
        a.b_weights[i] = weights
    return a


@dataclass
class Outputs:
    """What the compiled functions answer for every position."""

    plays: np.ndarray
    counts: np.ndarray
    best: np.ndarray
    scores: np.ndarray


def new_outputs(a: Arrays) -> Outputs:
    """Room for every position's answers."""
    n, k = a.p_game.shape[0], a.b_game.shape[0]
    return Outputs(
        np.zeros((n, MAX_PLAYS, 2), np.int64),
        np.zeros(n, np.int64),
        np.zeros(k, np.int64),
        np.zeros(k, np.float64),
    )


def run_plays(a: Arrays, out: Outputs) -> float:
    """The listings through :func:`plays_all`; the seconds."""
    start = time.perf_counter()
    plays_all(
        a.masks, a.p_game, a.p_hand, a.p_len, a.p_cands, a.p_roses, a.p_only,
        out.plays, out.counts,
    )  # fmt: skip
    return time.perf_counter() - start


def run_best(a: Arrays, out: Outputs) -> float:
    """The scorings through :func:`best_all`; the seconds."""
    start = time.perf_counter()
    best_all(
        a.masks, a.dists, a.islands, a.b_game, a.b_plays, a.b_len, a.b_cands, a.b_atvs,
        a.b_seats, a.b_roses_on, a.b_weights, a.b_legs, out.best, out.scores,
    )  # fmt: skip
    return time.perf_counter() - start


def differences(rec: Recorded, out: Outputs) -> list[str]:
    """Positions where the compiled answers differ from the reference's."""
    bad: list[str] = []
    for i, row in enumerate(rec.plays):
        want = row[-1]
        got = tuple((int(c), int(m)) for c, m in out.plays[i, : out.counts[i]])
        if got != want:
            bad.append(f"clue plays at position {i} (game {row[0]}): {got} != {want}")
    for i, row in enumerate(rec.best):
        index, score = row[-2], row[-1]
        if out.best[i] != index or out.scores[i] != score:
            pair = (int(out.best[i]), float(out.scores[i]))
            bad.append(f"best clue at position {i} (game {row[0]}): {pair} != {(index, score)}")
    return bad
