"""The reference's recorded calls replayed one by one on minimal states and views (the
reference side of the timings), the compiled functions called once per position from
Python, and the check of the compiled and replayed answers against the recorded ones."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sim.tobago.decisions import ActionKind
from sim.tobago.legal_actions import LegalActions, plays_table
from sim.tobago.rules import TobagoRules
from strategies.tobago.scripted import ScriptedPlayer

from .capture import Recorded
from .kernels import MAX_PLAYS, best_clue, clue_plays
from .positions import Arrays, differences, new_outputs, run_best, run_plays

_CLUE = ActionKind.CLUE


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


def null_calls(count: int) -> list[Callable[[], object]]:
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


def run_calls(calls: Sequence[Callable[[], object]]) -> float:
    start = time.perf_counter()
    for call in calls:
        call()
    return time.perf_counter() - start


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
