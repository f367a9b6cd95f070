"""A measured prototype of a compiled Tobago engine's hottest part, the clue filter: the
legal clue plays of a hand (``LegalActions._clue_plays``: every card and map whose clue
leaves some but not all of the map's candidates) and the scripted players' scoring of them
(``ScriptedPlayer._best_clue``: cells eliminated, a bonus for locating a treasure near the
ATV, a malus when a rival is nearer, the spread bonus), in numba over cells as words.

It plays the bench's games (the default lineup, a run's rotated schedule), records every
call of the two reference methods with its answer, answers the same positions with the
compiled functions (exit 1 on any difference), and times, in alternating rounds: the
reference game, the reference methods replayed call by call, the compiled functions inside
one compiled loop (what a full port pays) and called once per position from Python (what a
partial port pays). From these: the clue filter's share of a game and Amdahl's whole-game
speed-up. It also gives what a full port would pay around the game: the random draws of each
stream (what a Mersenne-Twister-exact port reproduces) and their cost compiled, the stream
seeds, the deal, and the run's tables built in Python. ``--profile N`` first cProfiles N games
and prints each part's share.

    .venv/bin/python scripts/tobago_compiled_prototype.py              # 600 games, 5 rounds
    .venv/bin/python scripts/tobago_compiled_prototype.py --games 2000 --rounds 7 --profile 1000

See docs/compiled-tobago.md for what the figures mean for a full port.
"""

# numba has no type stubs (as for sim.treasure_island.compiled, see pyproject.toml).
# mypy: disallow-untyped-decorators=False, warn-return-any=False

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sim.tobago.deal as deal_module
import sim.tobago.engine as engine_module
from pipelines.play.game import BENCH_SEED
from sim import referee, seeding
from sim.game import GamePlan
from sim.runner.games import game_kind
from sim.runner.schedule import Schedule
from sim.tobago.decisions import ActionKind
from sim.tobago.legal_actions import LegalActions, plays_table
from sim.tobago.rules import TobagoRules
from sim.tobago.tables import TableBuilder
from sim.treasure_island.compiled import rng as mt
from strategies.registry import parse_strategy, split_specs
from strategies.tobago.geometry import leg_tables
from strategies.tobago.scripted import ScriptedPlayer

LINEUP = "hunter,cartographer,collector,cautious"
#: Cells per word: 63, so that a word is a non-negative int64 (numba never mixes signed and
#: unsigned integers) and 2 words hold the built-in islands (75 to 104 cells).
BITS = 63
WORD = (1 << BITS) - 1
WORDS = 2
MAX_HAND = 16
MAX_PLAYS = MAX_HAND * 4
_CLUE = ActionKind.CLUE


# -- the compiled clue filter --------------------------------------------------------------------


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


# -- recorded positions --------------------------------------------------------------------------


@dataclass
class Recorded:
    """The calls of the two reference methods in the games played, with their answers."""

    masks: list[tuple[int, ...]] = field(default_factory=list)  # per game
    islands: list[int] = field(default_factory=list)  # per game, into dists
    dists: list[tuple[list[int], ...]] = field(default_factory=list)  # per island
    #: (game, seat, tag, only_map, hand, cands, roses, plays)
    plays: list[tuple[Any, ...]] = field(default_factory=list)
    #: (game, plays, cands, atvs, map_roses, seat, weights, legs, answer index, score)
    best: list[tuple[Any, ...]] = field(default_factory=list)
    #: random draws (32-bit words) by stream, and streams seeded, over all games
    words: dict[str, int] = field(default_factory=dict)
    seeded: dict[str, int] = field(default_factory=dict)
    drew: dict[str, int] = field(default_factory=dict)  # streams that drew at least once
    derived: int = 0  # stream seeds derived (BLAKE2b)


def _setup(games: int) -> tuple[Any, TobagoRules, list[Any], list[GamePlan]]:
    """Tobago's kind, its rulebook rules, the lineup's factories and the bench's first
    ``games`` plans (the per-island caches warmed on other seeds)."""
    kind: Any = game_kind("tobago")
    rules = kind.load_rules("rulebook")
    islands = tuple(kind.boards.builtin())
    factories = [parse_strategy(s, "tobago").factory() for s in split_specs(LINEUP)]
    plans = [Schedule(BENCH_SEED, len(factories), "rotate", islands).plan(g) for g in range(games)]
    warm = Schedule(BENCH_SEED + 1, len(factories), "rotate", islands)
    for g in range(min(128, games)):
        kind.play(warm.plan(g), rules, factories)
    return kind, rules, factories, plans


def record(games: int) -> Recorded:
    """Play the bench's first ``games`` games with the two methods and the streams watched."""
    kind, rules, factories, plans = _setup(games)
    if rules.bga_allow_non_reducing_without_markers:
        raise SystemExit("the prototype covers the rules without the BGA clue flag")
    rec = Recorded()
    island_ids: dict[int, int] = {}
    now = [-1]
    plays_ref = LegalActions._clue_plays
    best_ref = ScriptedPlayer._best_clue

    def plays_watch(self: Any, seat: int, tag: Any, only_map: int = -1) -> Any:
        s = self.state
        key = (now[0], seat, tag, only_map, tuple(s.hands[seat]), tuple(s.map_cand), s.roses[seat])
        out = plays_ref(self, seat, tag, only_map)
        rec.plays.append((*key, tuple((c, m) for _, c, m in out)))
        return out

    def best_watch(self: Any, view: Any, actions: Any) -> Any:
        out = best_ref(self, view, actions)
        prefix = []
        for a in actions:
            if a[0] is not _CLUE:
                break
            prefix.append((a[1], a[2]))
        seat = view.seat
        st = self.style
        atvs = (view.atv(seat), *(view.atv(p) for p in self._rivals))
        s = view._s  # the recorder reads the state the view reads
        index = -1 if out[0] is None else list(actions).index(out[0])
        weights = (st.clue_weight, st.locate_bonus, st.spread_bonus)
        row = (now[0], tuple(prefix), tuple(s.map_cand), atvs, [list(r) for r in s.map_roses])
        rec.best.append((*row, seat, weights, self.legs_per_move, index, out[1]))
        return out

    restore = _watch_streams(rec)
    LegalActions._clue_plays = plays_watch  # type: ignore[method-assign]
    ScriptedPlayer._best_clue = best_watch  # type: ignore[method-assign]
    try:
        for g, plan in enumerate(plans):
            now[0] = g
            game = kind.build(plan, rules, factories)
            island = game.state.island
            if id(island) not in island_ids:
                island_ids[id(island)] = len(rec.dists)
                rec.dists.append(leg_tables(island)[0])
            rec.islands.append(island_ids[id(island)])
            rec.masks.append(game.state.clue_masks)
            game.play()
    finally:
        LegalActions._clue_plays = plays_ref  # type: ignore[method-assign]
        ScriptedPlayer._best_clue = best_ref  # type: ignore[method-assign]
        restore()
    return rec


def _watch_streams(rec: Recorded) -> Callable[[], None]:
    """Count each stream's 32-bit words drawn (``random()`` takes two, ``getrandbits(k)``
    one per 32 bits; ``randrange``, ``choice`` and ``shuffle`` are built on them) and the
    streams seeded; returns what undoes it."""
    names: dict[int, str] = {}
    used: set[int] = set()
    make, derive = seeding.stream, seeding.derive_seed
    cls = seeding.Stream
    random_ref, bits_ref = cls.random, cls.getrandbits

    def named(seed: int, *path: str | int) -> seeding.Stream:
        made = make(seed, *path)
        name = str(path[0])
        names[id(made)] = name
        used.discard(id(made))  # an id freed by a finished game's stream may come again
        rec.seeded[name] = rec.seeded.get(name, 0) + 1
        return made

    def seat_stream(seed: int) -> seeding.Stream:
        made = cls(seed)
        names[id(made)] = "seat"
        used.discard(id(made))
        rec.seeded["seat"] = rec.seeded.get("seat", 0) + 1
        return made

    def derived(seed: int, *path: str | int) -> int:
        rec.derived += 1
        return derive(seed, *path)

    def count(self: Any, words: int) -> None:
        name = names.get(id(self), "other")
        rec.words[name] = rec.words.get(name, 0) + words
        if id(self) not in used:
            used.add(id(self))
            rec.drew[name] = rec.drew.get(name, 0) + 1

    def random_watch(self: Any) -> float:
        count(self, 2)
        return random_ref(self)

    def bits_watch(self: Any, k: int) -> int:
        count(self, max(1, (k + 31) // 32))
        return bits_ref(self, k)

    modules = (seeding, deal_module, engine_module)
    for module in modules:
        module.stream = named  # type: ignore[attr-defined]
    setattr(referee, "Stream", seat_stream)  # noqa: B010 (not exported by sim.referee)
    setattr(referee, "derive_seed", derived)  # noqa: B010
    seeding.derive_seed = derived
    cls.random = random_watch  # type: ignore[method-assign]
    cls.getrandbits = bits_watch  # type: ignore[method-assign]

    def restore() -> None:
        for module in modules:
            module.stream = make  # type: ignore[attr-defined]
        setattr(referee, "Stream", cls)  # noqa: B010
        setattr(referee, "derive_seed", derive)  # noqa: B010
        seeding.derive_seed = derive
        cls.random = random_ref  # type: ignore[method-assign]
        cls.getrandbits = bits_ref  # type: ignore[method-assign]

    return restore


# -- the positions as arrays ---------------------------------------------------------------------


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


# -- the reference, replayed ---------------------------------------------------------------------


class _State:
    """The state fields ``_clue_plays`` reads."""

    __slots__ = ("clue_masks", "hands", "map_cand", "roses", "rules")

    def __init__(self, rules: TobagoRules, masks: tuple[int, ...], row: tuple[Any, ...]) -> None:
        seat, hand, cands, roses = row[1], row[4], row[5], row[6]
        self.rules = rules
        self.clue_masks = masks
        self.hands: list[list[int]] = [[] for _ in range(4)]
        self.hands[seat] = list(hand)
        self.map_cand = list(cands)
        self.roses = [0] * 4
        self.roses[seat] = roses


class _Lister(LegalActions):
    """One game's listing, its cache kept from call to call as in the game."""

    def __init__(self, cards: int) -> None:
        self._clue_table = plays_table(_CLUE, cards)
        self._last_plays = None
        self._last_lists = [None, None, None, None]


class _View:
    """What ``_best_clue`` reads of a view, as cheap as the real view's methods."""

    __slots__ = ("_atvs", "_cands", "_map_roses", "seat")

    def __init__(self, row: tuple[Any, ...], seat: int, n: int) -> None:
        atvs = row[3]
        self.seat = seat
        self._cands = row[2]
        self._map_roses = row[4]
        self._atvs = [0] * n
        for p, cell in zip((seat, *(q for q in range(n) if q != seat)), atvs, strict=True):
            self._atvs[p] = cell

    def candidate_masks(self) -> list[int]:
        return list(self._cands)

    def atv(self, seat: int) -> int:
        return self._atvs[seat]

    def roses_on_maps(self, seat: int) -> list[int]:
        return [roses.count(seat) for roses in self._map_roses]


def reference_calls(rec: Recorded, rules: TobagoRules) -> list[Callable[[], object]]:
    """Each recorded call as a call of the reference code, in the recorded order."""
    calls: list[Callable[[], object]] = []
    listers: dict[int, _Lister] = {}
    for row in rec.plays:
        game = row[0]
        masks = rec.masks[game]
        lister = listers.setdefault(game, _Lister(len(masks)))
        lister.state = _State(rules, masks, row)  # type: ignore[assignment]
        calls.append(_bound_plays(lister, lister.state, row))  # type: ignore[arg-type]
    players: dict[tuple[int, int], ScriptedPlayer] = {}
    for row in rec.best:
        game, seat = row[0], row[5]
        n = len(row[3])
        player = players.get((game, seat))
        if player is None:
            player = players[game, seat] = ScriptedPlayer(None)  # type: ignore[arg-type]
            player.masks = rec.masks[game]
            player.dist = rec.dists[rec.islands[game]]
            player._rivals = (*range(seat), *range(seat + 1, n))
        style = player.style.__class__(
            clue_weight=row[6][0], locate_bonus=row[6][1], spread_bonus=row[6][2]
        )
        calls.append(_bound_best(player, style, row[7], _View(row, seat, n), row[1]))
    return calls


def _bound_plays(lister: _Lister, state: _State, row: tuple[Any, ...]) -> Callable[[], object]:
    seat, tag, only = row[1], row[2], row[3]

    def call() -> object:
        lister.state = state  # type: ignore[assignment]
        return lister._clue_plays(seat, tag, only)

    return call


def _bound_best(
    player: ScriptedPlayer, style: Any, legs: int, view: _View, plays: Sequence[tuple[int, int]]
) -> Callable[[], object]:
    actions = tuple((_CLUE, c, m) for c, m in plays)

    def call() -> object:
        player.style = style
        player.legs_per_move = legs
        return player._best_clue(view, actions)  # type: ignore[arg-type]

    return call


def _null_calls(count: int) -> list[Callable[[], object]]:
    """Calls that do what a replayed call adds around the reference (a closure setting an
    attribute): their time is taken off the replay's."""
    holder = _Lister(1)

    def call() -> object:
        holder.state = None  # type: ignore[assignment]
        return None

    return [call] * count


def python_calls(a: Arrays) -> list[Callable[[], object]]:
    """Each position as one call of a compiled function from Python, its arguments made
    before the clock starts (what a partial port would pay per call)."""
    calls: list[Callable[[], object]] = []
    out = np.zeros((MAX_PLAYS, 2), np.int64)
    args: tuple[Any, ...]
    for i in range(a.p_game.shape[0]):
        args = (
            a.p_hand[i], int(a.p_len[i]), a.p_cands[i], a.masks[a.p_game[i]],
            int(a.p_roses[i]), int(a.p_only[i]), out,
        )  # fmt: skip
        calls.append(_bound(clue_plays, args))
    for i in range(a.b_game.shape[0]):
        g = a.b_game[i]
        args = (
            a.b_plays[i], int(a.b_len[i]), a.b_cands[i], a.masks[g], a.dists[a.islands[g]],
            a.b_atvs[i, : a.b_seats[i]], a.b_roses_on[i], a.b_weights[i], int(a.b_legs[i]),
        )  # fmt: skip
        calls.append(_bound(best_clue, args))
    return calls


def _bound(function: Callable[..., object], args: tuple[Any, ...]) -> Callable[[], object]:
    def call() -> object:
        return function(*args)

    return call


def _run(calls: Sequence[Callable[[], object]]) -> float:
    start = time.perf_counter()
    for call in calls:
        call()
    return time.perf_counter() - start


# -- the whole game and its parts ----------------------------------------------------------------


def play_games(
    kind: Any, rules: TobagoRules, factories: list[Any], plans: list[GamePlan], played: list[Any]
) -> float:
    """Seconds to play ``plans`` with the reference engine; the games go into ``played``."""
    played.clear()
    start = time.perf_counter()
    for plan in plans:
        played.append(kind.play(plan, rules, factories))
    return time.perf_counter() - start


def table_seconds(plans: list[GamePlan], played: list[Any]) -> float:
    """Seconds to build the run's five tables of the ``played`` games, as a shard does."""
    start = time.perf_counter()
    builder = TableBuilder("tobago", LINEUP.split(","))
    for plan, game in zip(plans, played, strict=True):
        builder.add(plan, game)
    builder.build()
    return time.perf_counter() - start


def deal_seconds(kind: Any, rules: TobagoRules, plans: list[GamePlan]) -> float:
    """Seconds to make the deals of ``plans``: each seed block's once, as the engine keeps a
    block's deal for its games."""
    boards = {p.island: kind.boards.resolve(p.island) for p in plans}
    blocks = sorted({(p.seed, p.island, len(p.order)) for p in plans})
    start = time.perf_counter()
    for seed, island, n in blocks:
        deal_module._deal(boards[island], seed, rules, n)
    return time.perf_counter() - start


def seed_seconds(count: int) -> float:
    """Seconds to derive ``count`` stream seeds (BLAKE2b, in Python)."""
    start = time.perf_counter()
    for g in range(count):
        seeding.derive_seed(g, "seat", 3)
    return time.perf_counter() - start


def mt_seconds(games: int, streams: int, words: int) -> float:
    """Seconds for a compiled Mersenne Twister (Treasure Island's port of CPython's) to seed
    ``streams`` streams and draw ``words`` words per game, for ``games`` games."""
    state = mt.new_states(streams)
    _mt_loop(state, 1, streams, words)  # compiled before the clock starts
    start = time.perf_counter()
    _mt_loop(state, games, streams, words)
    return time.perf_counter() - start


def cpython_seed_seconds(count: int) -> float:
    """Seconds for CPython's own generator (C) to seed ``count`` streams and draw each one's
    first word (which twists its state)."""
    start = time.perf_counter()
    for s in range(count):
        seeding.Stream(s * 16 + 1).getrandbits(32)
    return time.perf_counter() - start


@njit(cache=True)
def _mt_loop(state: np.ndarray, games: int, streams: int, words: int) -> int:
    total = 0
    for g in range(games):
        for s in range(streams):
            mt.seed_u64(state[s], np.uint64(g * 16 + s + 1))
        for w in range(words):
            total += mt.next_word(state[w % streams])
    return total


# -- where a game's time goes (cProfile) ---------------------------------------------------------

#: The parts of a game, as ``file:function`` of the reference and its built-in players (``*``:
#: every function of the file); a builtin's time goes to the part of its caller.
PARTS: dict[str, str] = {
    "clue filter (legal clue plays, their scoring)": "legal_actions.py:_clue_plays "
    "scripted.py:_best_clue scripted.py:best_share amulets.py:_locate_now state.py:clue_legal",
    "movement (legs: the engine's and the leg choice)": "turn.py:_move scripted.py:_leg "
    "scripted.py:_target scripted.py:_wander island.py:bits_of geometry.py:legs_from",
    "distribution (raise, draws, offers, curses, amulets appear)": "distribution.py:* "
    "scripted.py:_offer seeding.py:shuffle",
    "setup and deal (landmarks, clue masks, seats, start cells)": "engine.py:__init__ "
    "engine.py:setup deal.py:* landmarks.py:* clues.py:* board.py:* start.py:* "
    "state.py:__init__ referee.py:seat_game referee.py:_build referee.py:__init__ "
    "seeding.py:* kind.py:build",
    "referee and views (asking, checking answers, what a seat sees)": "referee.py:ask "
    "referee.py:asker engine.py:ask view.py:* state.py:located_cells",
    "turn logic (turn loop, main actions, amulets, deadlock)": "turn.py:* engine.py:* "
    "legal_actions.py:* state.py:* scripted.py:* amulets.py:* deadlock.py:*",
}
OTHER = "the rest"


def part_of(where: tuple[str, int, str]) -> str | None:
    """The part a profiled function belongs to (None: a builtin, charged to its caller)."""
    path, _, name = where
    if path == "~":
        return None
    base = os.path.basename(path)
    for part, members in PARTS.items():
        if f"{base}:{name}" in members.split() or f"{base}:*" in members.split():
            return part
    return OTHER


def profile_shares(games: int) -> tuple[dict[str, float], float]:
    """cProfile ``games`` of the bench's games: each part's share of the profiled time, and
    that time."""
    kind, rules, factories, plans = _setup(games)
    profiler = cProfile.Profile()
    profiler.enable()
    for plan in plans:
        kind.play(plan, rules, factories)
    profiler.disable()
    stats: Any = pstats.Stats(profiler).stats  # type: ignore[attr-defined] # (file, line, name) -> (cc, nc, tt, ct, callers)
    seconds: dict[str, float] = {}
    for where, (_, _, own, _, callers) in stats.items():
        part = part_of(where)
        if part is not None:
            seconds[part] = seconds.get(part, 0.0) + own
            continue
        for caller, (_, _, tt, _) in callers.items():  # per-caller own time of a builtin
            charged = part_of(caller) or OTHER
            seconds[charged] = seconds.get(charged, 0.0) + tt
    total = sum(seconds.values())
    return {part: t / total for part, t in sorted(seconds.items(), key=lambda x: -x[1])}, total


# -- the report ----------------------------------------------------------------------------------


def check(a: Arrays, rec: Recorded, replay: list[Callable[[], object]]) -> list[str]:
    """The compiled answers against the recorded ones, and the replayed reference's
    listings against the game's (the replay is the reference the timings run)."""
    out = new_outputs(a)
    run_plays(a, out)  # compiles (or loads the cache) and answers every position
    run_best(a, out)
    bad = differences(rec, out)
    for i, row in enumerate(rec.plays):
        got: Any = replay[i]()
        if tuple((c, m) for _, c, m in got) != row[-1]:
            bad.append(f"the replayed reference's clue plays at {i} differ from the game's")
    return bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="bench games to record and time")
    parser.add_argument("--rounds", type=int, default=5, help="alternating timed rounds")
    parser.add_argument("--profile", type=int, default=0, help="games to cProfile (0: none)")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} (cores: {os.cpu_count()})")
    if args.profile:
        shares, total = profile_shares(args.profile)
        print(f"cProfile of {args.profile} games ({total:.2f} s profiled):")
        for part, share in shares.items():
            print(f"  {share:6.1%}  {part}")
    rec = record(args.games)
    kind, rules, factories, plans = _setup(args.games)
    a = arrays(rec)
    replay = reference_calls(rec, rules)
    bad = check(a, rec, replay)
    print(
        f"{args.games} games: {len(rec.plays):,} clue-play listings, {len(rec.best):,} clue "
        f"scorings checked: {len(bad)} differ"
    )
    for line in bad[:5]:
        print("  " + line)
    if bad:
        return 1
    t = timings(args.rounds, rec, a, replay, (kind, rules, factories, plans))
    report(args.games, rec, t)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


def timings(
    rounds: int,
    rec: Recorded,
    a: Arrays,
    replay: list[Callable[[], object]],
    setup: tuple[Any, TobagoRules, list[Any], list[GamePlan]],
) -> dict[str, list[float]]:
    """Every side's seconds in each of ``rounds`` rounds; the sides alternate within a round,
    so that each sees the same machine, and every cost can be set against the game's."""
    kind, rules, factories, plans = setup
    games = len(plans)
    split = len(rec.plays)
    per_call = python_calls(a)
    nulls = _null_calls(len(replay))
    out = new_outputs(a)
    streams = round(sum(rec.seeded.values()) / games)
    words = round(sum(rec.words.values()) / games)
    _run(per_call)
    mt_seconds(1, streams, words)  # compiled (or loaded) before the clock starts
    played: list[Any] = []
    sides: tuple[tuple[str, Callable[[], float]], ...] = (
        ("games", lambda: play_games(kind, rules, factories, plans, played)),
        ("tables", lambda: table_seconds(plans, played)),
        ("ref plays", lambda: _run(replay[:split])),
        ("ref best", lambda: _run(replay[split:])),
        ("null", lambda: _run(nulls)),
        ("loop plays", lambda: run_plays(a, out)),
        ("loop best", lambda: run_best(a, out)),
        ("call plays", lambda: _run(per_call[:split])),
        ("call best", lambda: _run(per_call[split:])),
        ("deal", lambda: deal_seconds(kind, rules, plans)),
        ("seeds", lambda: seed_seconds(rec.derived)),
        ("mt", lambda: mt_seconds(games, streams, words)),
        ("mt one", lambda: mt_seconds(games, 1, 1)),
        ("cpython one", lambda: cpython_seed_seconds(games)),
    )
    t: dict[str, list[float]] = {key: [] for key, _ in sides}
    for _ in range(rounds):
        for key, seconds in sides:
            t[key].append(seconds())
    return t


def report(games: int, rec: Recorded, t: dict[str, list[float]]) -> None:
    """Print the fastest round of each side: the game, the clue filter's calls (reference and
    compiled), its share of a game and Amdahl's speed-ups, then what surrounds the game."""
    game = min(t["games"]) / games
    median = statistics.median(t["games"]) / games
    print(f"reference game: fastest {game * 1e6:,.0f} us, median {median * 1e6:,.0f} us")
    null = min(t["null"]) / (len(rec.plays) + len(rec.best))
    ref_total = loop_total = call_total = 0.0
    for part, calls in (("plays", len(rec.plays)), ("best", len(rec.best))):
        ref = min(t["ref " + part]) / calls - null
        loop = min(t["loop " + part]) / calls
        call = min(t["call " + part]) / calls
        ref_total += ref * calls
        loop_total += loop * calls
        call_total += call * calls
        print(
            f"{'listing' if part == 'plays' else 'scoring'} ({calls / games:.0f} calls a game), "
            f"per call: reference {ref * 1e9:,.0f} ns (replay's {null * 1e9:.0f} ns taken off); "
            f"compiled {loop * 1e9:,.0f} ns in a compiled loop ({ref / loop:.1f}x), "
            f"{call * 1e9:,.0f} ns called from Python ({ref / call:.2f}x)"
        )
    share = ref_total / games / game
    print(f"the clue filter's share of a reference game: {share:.1%}")
    for name, total in (("in a compiled loop", loop_total), ("called from Python", call_total)):
        speed = ref_total / total
        whole = 1 / ((1 - share) + share / speed)
        print(f"Amdahl, the clue filter alone compiled ({name}, {speed:.1f}x): {whole:.2f}x")
    draws_report(games, rec)
    for key, what in (
        ("mt", "the game's draws on a compiled Mersenne Twister (Treasure Island's)"),
        ("seeds", f"the game's {rec.derived / games:.2f} stream seeds (BLAKE2b, Python)"),
        ("deal", "the deal (landmarks, clue masks, treasure deck; Python; once a seed block)"),
        ("tables", "the run's five tables (TableBuilder, Python)"),
    ):
        cost = min(t[key]) / games
        print(f"{what}: {cost * 1e6:,.1f} us a game, {cost / game:.1%} of the reference game")
    one, c_one = min(t["mt one"]) / games, min(t["cpython one"]) / games
    print(
        f"a stream seeded and its first word drawn: {one * 1e6:.1f} us compiled, "
        f"{c_one * 1e6:.1f} us in CPython (C)"
    )


def draws_report(games: int, rec: Recorded) -> None:
    """The random draws of a game by stream."""
    words = sum(rec.words.values())
    seeded = sum(rec.seeded.values())
    print(f"random draws: {words / games:,.0f} words a game from {seeded / games:.2f} streams")
    for name in sorted(rec.words, key=lambda k: -rec.words[k]):
        print(
            f"  {name:14s} {rec.words[name] / games:8,.1f} words, "
            f"{rec.seeded.get(name, 0) / games:.2f} streams seeded, "
            f"{rec.drew.get(name, 0) / games:.2f} drew, a game"
        )


if __name__ == "__main__":
    sys.exit(main())
