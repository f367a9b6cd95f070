"""The built-in players that compile: ``random``, ``stop-at``, ``bust-threshold`` and
``expected-value`` with the shared power choices, as numba functions of the game's state.

Each answers exactly what its class in :mod:`strategies.treasure_island` answers and draws
the same random numbers from the seat's own stream (only ``random`` draws). The power
choices' tables are built here from the same definitions as
:mod:`strategies.treasure_island.powers` (this layer may not import the strategies; a test
checks that the tables agree). A seat is ``(kind, p0, p1)``: its player code and two
parameters (``n``; ``threshold``; ``k`` and ``tie_weight``).

Options of a choice are ints in the engine's order: a kind (Helm), a card (Candle), a
character code (draft), ``seat * 16 + kind`` for a pile (Knife, Pistol, bonus), and for the
Spyglass ``BACK`` then ``PLACE``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from sim.treasure_island.cards import (
    ANCHOR,
    CANDLE,
    CARD_GAIN,
    CHEST,
    HELM,
    KEY,
    KIND,
    KNIFE,
    N_CARDS,
    N_KINDS,
    PER_KIND,
    PISTOL,
    RUM,
    SPYGLASS,
    TOP_INDEX,
    TOP_LOSS,
    TOP_VALUE,
    VALUE,
)
from sim.treasure_island.characters import NAMES as CHARACTER_NAMES
from sim.treasure_island.compiled import layout as lay
from sim.treasure_island.compiled import rng

RANDOM, STOP_AT, BUST_THRESHOLD, EXPECTED_VALUE = 0, 1, 2, 3
#: The compiled players by name, with their parameters and defaults in ``(p0, p1)`` order.
PLAYERS: dict[str, tuple[int, tuple[tuple[str, float], ...]]] = {
    "random": (RANDOM, ()),
    "stop-at": (STOP_AT, (("n", 3),)),
    "bust-threshold": (BUST_THRESHOLD, (("threshold", 0.25),)),
    "expected-value": (EXPECTED_VALUE, (("k", 1.0), ("tie_weight", 0.5))),
}
# Decision kinds a power asks.
D_HELM, D_KNIFE, D_PISTOL, D_CANDLE, D_SPYGLASS, D_BONUS, D_DRAFT = range(7)
BACK, PLACE = 0, 1

#: The draft's preference (``powers.CHARACTER_ORDER``) as a rank per character code.
CHARACTER_ORDER = (
    "treasure_hunter",
    "scavenger",
    "master_gunner",
    "wrecker",
    "plunderer",
    "navigator",
    "mystic",
)
DRAFT_RANK = np.array([CHARACTER_ORDER.index(name) for name in CHARACTER_NAMES], dtype=np.int64)
#: ``powers.POWER_BONUS``: what a safe card's power is worth when it enters the play area.
POWER_BONUS = np.array(
    [
        {
            PISTOL: 3.0,
            KNIFE: 3.0,
            CANDLE: 2.0,
            ANCHOR: 1.0,
            HELM: 0.5,
            SPYGLASS: 0.5,
            RUM: -2.0,
        }.get(k, 0.0)
        for k in range(N_KINDS)
    ]
)
PISTOL_KEY = np.array([[x * 256 for x in row] for row in TOP_LOSS], dtype=np.int64)
STEAL = np.array(
    [
        [
            VALUE[k * PER_KIND + TOP_INDEX[m]] + POWER_BONUS[k] + TOP_LOSS[k][m] if m else 0.0
            for m in range(64)
        ]
        for k in range(N_KINDS)
    ]
)
KNIFE_UNSAFE = np.array(
    [
        [-100.0 - VALUE[k * PER_KIND + TOP_INDEX[m]] if m else -100.0 for m in range(64)]
        for k in range(N_KINDS)
    ]
)
CANDLE_KEY = np.array(
    [[CARD_GAIN[c][m] + POWER_BONUS[KIND[c]] for m in range(64)] for c in range(N_CARDS)]
)
HELM_KEY = np.array(
    [[POWER_BONUS[k] - 0.1 * TOP_VALUE[k][m] for m in range(64)] for k in range(N_KINDS)]
)
HELM_UNSAFE = np.array([[-100.0 - TOP_VALUE[k][m] for m in range(64)] for k in range(N_KINDS)])
_PAIR = (1 << KEY) | (1 << CHEST)
_KIND = lay.KIND_OF
_VALUE = lay.VALUE_OF
_TOP_INDEX = lay.TOP_INDEX_OF
_CARD_GAIN = lay.CARD_GAIN_OF
_GAIN_ROWS = lay.GAIN_ROWS


def seat_code(name: str, params: Mapping[str, object]) -> tuple[int, float, float]:
    """A seat's ``(kind, p0, p1)`` for the built-in player ``name`` with ``params`` (checked
    by the player's own class when the spec was parsed); ``ValueError`` for a player that
    does not compile."""
    if name not in PLAYERS:
        raise ValueError(f"{name!r} has no compiled player (compiled: {', '.join(PLAYERS)})")
    kind, defaults = PLAYERS[name]
    unknown = set(params) - {key for key, _ in defaults}
    if unknown:
        raise ValueError(f"{name!r} has no parameter {sorted(unknown)[0]!r}")
    values = [float(params.get(key, default)) for key, default in defaults]  # type: ignore[arg-type]
    values += [0.0] * (2 - len(values))
    return kind, values[0], values[1]


@rng.jit
def seat_stream(g: np.ndarray, streams: np.ndarray, seeded: np.ndarray, seat: int) -> int:
    """The row of ``streams`` holding the seat's own generator, set up on first use (as the
    reference's lazy stream) from its seeded state, the row ``seeded[seat]``."""
    row = lay.SEAT_STREAM + seat
    if g[lay.SEEDED + seat] == 0:
        rng.copy_state(streams[seeded[seat]], streams[row])
        g[lay.SEEDED + seat] = 1
    return row


@rng.inline
def _at_risk(g: np.ndarray, seat: int) -> tuple[int, int]:
    """``PlayerView.at_risk``: the unanchored cards' gain to the seat's stash, and their count."""
    start = g[lay.ANCHOR_AT] if g[lay.ANCHOR_AT] > 0 else 0
    total = 0
    for i in range(start, g[lay.AREA_LEN]):
        c = g[lay.AREA + i]
        total += _CARD_GAIN[c, g[lay.STASH + seat * 10 + _KIND[c]]]
    return total, g[lay.AREA_LEN] - start


@rng.inline
def _safe_gain_total(g: np.ndarray, seat: int) -> int:
    """``PlayerView.safe_gain_total``: the pile's safe cards' summed gain to the seat."""
    total = 0
    kinds = g[lay.AREA_KINDS]
    for k in range(10):
        if not kinds >> k & 1:
            total += _GAIN_ROWS[k, g[lay.STASH + seat * 10 + k], g[lay.PILE_PILES + k]]
    return total


@rng.inline
def keep_drawing(
    g: np.ndarray, seat: int, kind: int, p0: float, p1: float, stream: np.ndarray
) -> bool:
    """The seat's answer to the continue question (true: draw); ``stream`` is read only by
    ``random``."""
    if kind == RANDOM:
        return int(rng.random(stream) * 2) == 1
    if kind == STOP_AT:
        return g[lay.AREA_LEN] < p0
    pile = g[lay.PILE_LEN]
    known_top = g[lay.PILE + pile - 1] if g[lay.KNOWN] and pile else -1
    if kind == BUST_THRESHOLD:
        if not pile:
            chance = 0.0
        elif known_top >= 0:
            chance = 1.0 if g[lay.AREA_KINDS] >> _KIND[known_top] & 1 else 0.0
        else:
            chance = g[lay.BUSTING] / pile
        return chance <= p0
    if known_top >= 0:
        return not g[lay.AREA_KINDS] >> _KIND[known_top] & 1
    busting = g[lay.BUSTING]
    if not busting:
        return True
    gain, cards = _at_risk(g, seat)
    return _safe_gain_total(g, seat) * p0 > busting * (gain + p1 * cards)


@rng.inline
def _pile_top(g: np.ndarray, option: int) -> int:
    """The stash pile mask an option ``seat * 16 + kind`` names."""
    return g[lay.STASH + (option >> 4) * 10 + (option & 15)]


@rng.jit
def choose(g: np.ndarray, seat: int, decision: int, options: np.ndarray, count: int) -> int:
    """The shared power choices (``powers.PowerChoices``) of a stopping-rule player."""
    in_play = g[lay.AREA_KINDS]
    pair = g[lay.AREA_LEN] + 1 if in_play & _PAIR else 0
    mine = lay.STASH + seat * 10
    best = options[0]
    if decision == D_SPYGLASS:
        return BACK if in_play >> _KIND[g[lay.PILE + g[lay.PILE_LEN] - 1]] & 1 else PLACE
    if decision == D_DRAFT:
        for i in range(count):
            if DRAFT_RANK[options[i]] < DRAFT_RANK[best]:
                best = options[i]
        return best
    if decision == D_PISTOL:
        best_int = -1
        for i in range(count):
            victim, kind = options[i] >> 4, options[i] & 15
            key = PISTOL_KEY[kind, _pile_top(g, options[i])] + g[lay.POINTS + victim]
            if key > best_int:
                best, best_int = options[i], key
        return best
    if decision == D_BONUS:
        best_gain = -1
        for i in range(count):
            kind = options[i] & 15
            card = kind * 6 + _TOP_INDEX[_pile_top(g, options[i])]
            gained = _CARD_GAIN[card, g[mine + kind]]
            if gained > best_gain:
                best, best_gain = options[i], gained
        return best
    best_key = -1e9
    for i in range(count):
        if decision == D_KNIFE:
            kind = options[i] & 15
            top = _pile_top(g, options[i])
            key = KNIFE_UNSAFE[kind, top] if in_play >> kind & 1 else STEAL[kind, top]
        elif decision == D_CANDLE:
            kind = _KIND[options[i]]
            if in_play >> kind & 1:
                key = -100.0 - _VALUE[options[i]]
            else:
                key = CANDLE_KEY[options[i], g[mine + kind]]
        else:  # the Helm: options are kinds
            kind = options[i]
            key = (
                HELM_UNSAFE[kind, g[mine + kind]]
                if in_play >> kind & 1
                else HELM_KEY[kind, g[mine + kind]]
            )
        if not in_play >> kind & 1 and pair and _PAIR >> kind & 1:
            key += pair
        if key > best_key:
            best, best_key = options[i], key
    return best
