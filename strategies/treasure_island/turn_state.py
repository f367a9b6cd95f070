"""The state of a :class:`~strategies.treasure_island.turn_solver.TurnSolver`: the layout of
the hot int, the tables over kinds and pile masks it reads, the interned :class:`Context` (with
the tables kept per context, so that the search's inner loops only read them), the cut of the
hot int's values to the window still read (:func:`normalised_values`), and the counting
helpers (the order statistic of a Candle, the Key + Chest bonus of a discard).

**The state** is split in two. The *hot* part is one int that changes with every card: the
kinds in play, what the play area banks on a plunder (``bank``) and what an Anchor keeps on a
bust (``safe``), the kinds it keeps, the Rum cards owed, how many unknown cards were taken
from the pile, and each play-area card's value *clamped* into the window where a value can
still matter (between the lowest this seat's pile of that kind can fall to, by a Helm, and the
highest card of that kind any bonus, shot or steal could bring; past it only the exact
``bank`` and ``safe`` are ever read). The *context* changes only when a power fires: this
seat's stash, the opponents' stashes, the discard, the public top cards and how far this
seat's score has moved (a Helm's card out, a Scavenger's card in). Contexts are interned, and
what can no longer matter is dropped from them (the opponents' stashes once the Knife and the
Pistol are spent, the discard's cards that can no longer raise a pile once the Candle is
spent), so that paths that differ only in such things share their values. The Anchor's
kept kinds are dropped once neither a Helm nor a Scavenger's shot can still move a pile, and
in default mode a Scavenger's values are cut, state by state, to the window the rest of the
turn can still read (see :func:`normalised_values`): without that a Scavenger's turn kept
every card's value apart after its Pistol had fired, and one turn took minutes and
gigabytes.
"""

from __future__ import annotations

from math import comb
from operator import mul
from typing import Protocol

from sim.bits import bits_of
from sim.treasure_island.cards import (
    ANCHOR,
    CANDLE,
    CHEST,
    HELM,
    KEY,
    KNIFE,
    N_KINDS,
    PARROT,
    PER_KIND,
    PISTOL,
    RUM,
    SPYGLASS,
    TOP_INDEX,
    TOP_VALUE,
    VALUE,
)

PAIR = (1 << KEY) | (1 << CHEST)
ALL_KINDS = (1 << N_KINDS) - 1
#: A public top card known only to be of a kind in play (it busts whoever draws it).
BUSTS = -1

# The hot int: kinds | bank | safe | Rum owed | unknown cards taken | kinds kept | values.
BANK_AT, SAFE_AT, RUM_AT, TAKEN_AT, KEPT_AT, CANON_AT = 10, 17, 24, 27, 33, 43
CTX_AT = CANON_AT + 4 * N_KINDS
BANK_MASK = 127 << BANK_AT
SAFE_MASK = 127 << SAFE_AT
RUM_MASK = 7 << RUM_AT
RUM_ONE = 1 << RUM_AT
TAKEN_ONE = 1 << TAKEN_AT
KEPT_MASK = ALL_KINDS << KEPT_AT
#: The bits of the hot int that decide what a context can drop.
CANON_MASK = ((1 << (4 * N_KINDS)) - 1) << CANON_AT
SHAPE = ALL_KINDS | CANON_MASK
#: The bits of the hot int that decide which values can still matter.
NORM = SHAPE | KEPT_MASK
PLAIN = (1 << KEY) | (1 << CHEST) | (1 << PARROT)
#: Kinds whose placement only changes the hot int (no choice, no chance).
SIMPLE = PLAIN | (1 << ANCHOR) | (1 << RUM)
ACTIVE = (1 << HELM) | (1 << KNIFE) | (1 << PISTOL) | (1 << CANDLE) | (1 << SPYGLASS)

#: The kinds of every kind mask, in order.
KINDS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in range(N_KINDS) if m >> k & 1) for m in range(1 << N_KINDS)
)
#: ``ABOVE[kind][value]``: the 60-bit mask of the kind's cards worth more than ``value``.
ABOVE: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << (k * PER_KIND + i) for i in range(PER_KIND) if VALUE[k * PER_KIND + i] > v)
        for v in range(16)
    )
    for k in range(N_KINDS)
)
#: 60-bit mask of each kind's cards.
KIND_CARDS: tuple[int, ...] = tuple(((1 << PER_KIND) - 1) << (k * PER_KIND) for k in range(N_KINDS))
#: A pile mask cut to its top card, and to its top two cards.
TOP1_OF: tuple[int, ...] = tuple(1 << TOP_INDEX[m] if m else 0 for m in range(64))
TOP2_OF: tuple[int, ...] = tuple(TOP1_OF[m] | TOP1_OF[m & ~TOP1_OF[m]] for m in range(64))
TOP1 = TOP1_OF.__getitem__
TOP2 = TOP2_OF.__getitem__


#: ``(size, take)`` -> the weight of each rank of :func:`order_statistic_mean`, largest first,
#: and their total (``comb(size, take)``): the same few pairs come back millions of times.
_RANK_WEIGHTS: dict[tuple[int, int], tuple[tuple[int, ...], int]] = {}


def order_statistic_mean(values: list[float], take: int) -> float:
    """The mean of the largest of ``take`` values drawn at random without replacement from
    ``values`` (all of them when ``take`` >= their number)."""
    size = len(values)
    take = min(take, size)
    if take <= 0:
        return 0.0
    weights = _RANK_WEIGHTS.get((size, take))
    if weights is None:
        # The i-th largest (0-based) is the maximum when it is drawn and none above it is.
        ranks = tuple(comb(size - 1 - i, take - 1) for i in range(size))
        weights = _RANK_WEIGHTS[size, take] = (ranks, comb(size, take))
    ranks, total = weights
    mean: float = sum(map(mul, sorted(values, reverse=True), ranks)) / total
    return mean


class Context:
    """The slow-changing part of a state (see the module docstring); interned per solve."""

    __slots__ = (
        "bonus",
        "classes",
        "cur",
        "dcards",
        "discard",
        "dsize",
        "held",
        "id",
        "inc",
        "known",
        "moves",
        "norm",
        "opp",
        "picks",
        "reach",
        "refined",
        "shots",
        "steals",
        "targets",
    )

    def __init__(
        self,
        cid: int,
        cur: tuple[int, ...],
        opp: tuple[tuple[int, ...], ...],
        discard: int,
        dsize: int,
        known: tuple[int, ...],
    ) -> None:
        self.id = cid << CTX_AT
        #: This seat's stash, ten pile masks.
        self.cur = cur
        #: The kinds of this seat's non-empty piles (a Helm's options).
        self.held = sum(1 << k for k in range(N_KINDS) if cur[k])
        #: The opponents' stashes (empty once nothing can use them).
        self.opp = opp
        #: The discard as a 60-bit card mask (only the cards that can still matter), and its
        #: true size.
        self.discard = discard
        self.dsize = dsize
        #: The discard's cards (of ``discard``), each with its kind's bit, in order (empty:
        #: not listed yet; see ``turn_powers.candle``).
        self.dcards: tuple[tuple[int, int], ...] = ()
        #: Public top cards of the pile, top first.
        self.known = known
        #: The Key + Chest bonus by the kinds banked and their clamped values (one int: see
        #: ``TurnSolver.bonus``).
        self.bonus: dict[int, float] = {}
        #: The same context with what can no longer matter dropped, by the kinds in play and
        #: their clamped values (what decides it).
        self.refined: dict[int, Context] = {}
        #: The hot state's value nibbles cut to the window where they still matter, by the
        #: kinds in play, their values and the kinds kept (:func:`normalised_values`).
        self.norm: dict[int, int] = {}
        #: The context after a Candle takes a card of the discard, by the hot state's shape
        #: and the card.
        self.picks: dict[int, Context] = {}
        #: The context after this seat's pile moves, by the shape, the kind, the new pile
        #: and the incoming card (packed into one int: see ``turn_powers._move_mine``).
        self.moves: dict[int, Context] = {}
        #: Per kind mask in play, an upper bound of what the rest of the turn can add to the
        #: bank (empty: not computed yet; see ``TurnSolver._reach``).
        self.reach: tuple[int, ...] = ()
        #: Per card, what placing it adds to the hot int before its power (empty: not
        #: computed yet; see ``TurnSolver.increments``).
        self.inc: tuple[int, ...] = ()
        #: Per kind, the pile's unknown cards grouped by what they change (empty: not
        #: computed yet; see ``TurnSolver.classes``).
        self.classes: list[tuple[tuple[int, int, int], ...]] = []
        #: The context after a Knife's steal, and after a Pistol's shot, by the hot state's
        #: shape, the victim and the kind.
        self.steals: dict[int, Context] = {}
        self.shots: dict[int, Context] = {}
        #: The opponents' non-empty piles, (opponent index, kind), by the kinds allowed (a
        #: Knife's or a Pistol's options).
        self.targets: dict[int, list[tuple[int, int]]] = {}


#: A solver state: the hot int and its context.
State = tuple[int, Context]


#: The cards of a 60-bit mask, in order (set bits only: a Candle's discard holds a few).
cards_of = bits_of


def replace_pile(
    opp: tuple[tuple[int, ...], ...], victim: int, kind: int, new: int
) -> tuple[tuple[int, ...], ...]:
    stash = opp[victim]
    changed = (*stash[:kind], new, *stash[kind + 1 :])
    return (*opp[:victim], changed, *opp[victim + 1 :])


def discard_bonus(discard: int, size: int, tops: list[int], cards: int) -> float:
    """The expected points ``cards`` random cards of a discard of ``size`` add to piles whose
    top values are ``tops`` (``discard``: the cards that can add any, as a 60-bit mask)."""
    take = min(cards, size)
    if take <= 0 or not discard:
        return 0.0
    value = 0
    for k in range(N_KINDS):
        if not discard & KIND_CARDS[k]:
            continue
        top = tops[k]
        i = 0
        for j in range(PER_KIND - 1, -1, -1):  # the kind's discard cards, highest first
            c = k * PER_KIND + j
            if discard >> c & 1:
                if VALUE[c] <= top:
                    break
                # Drawn, with none of the i higher ones: the kind's top becomes VALUE[c].
                value += (VALUE[c] - top) * comb(size - 1 - i, take - 1)
                i += 1
    return value / comb(size, take)


def normalised_values(h: int, c: Context, pending: int) -> int:
    """The value nibbles of ``h`` clamped into the window the rest of the turn can still
    read them in (the Scavenger's default mode; the exact bonus reads every value, and
    without a Scavenger the default mode keeps one value a kind). A play-area card's
    value is read only where this seat's pile of its kind moves: down by a Helm still to
    come (for a kind an Anchor keeps, or may yet keep), up by a Scavenger's shot still
    to come. Between the lowest and the highest top the pile can still have, the card
    banks the same difference whatever its value past them."""
    kinds = h & ALL_KINDS
    used = kinds & ~pending
    helm = not used >> HELM & 1
    kept = ALL_KINDS if not used >> ANCHOR & 1 else h >> KEPT_AT & ALL_KINDS
    shot = not used >> PISTOL & 1  # only a Scavenger's values are normalised
    out = 0
    for k in KINDS_OF[kinds]:
        pile = c.cur[k]
        top = TOP_VALUE[k][pile]
        lo = hi = top
        if helm and kept >> k & 1 and pile:
            lo = TOP_VALUE[k][pile & ~(1 << TOP_INDEX[pile])]
        if shot:
            for stash in c.opp:
                hi = max(hi, TOP_VALUE[k][stash[k]])
        v = h >> (CANON_AT + 4 * k) & 15
        out |= min(max(v, lo), hi) << (CANON_AT + 4 * k)
    return out


class Solver(Protocol):
    """What the powers (:mod:`~strategies.treasure_island.turn_powers`) and the bounds
    (:mod:`~strategies.treasure_island.turn_bounds`) read of the
    :class:`~strategies.treasure_island.turn_solver.TurnSolver` whose steps they are."""

    character: str
    knife_area: bool
    reveal: int
    rum_cards: int
    unknown: tuple[int, ...]
    counts: tuple[int, ...]
    unknown_size: int
    busting_of: tuple[int, ...]
    _memo: dict[int, float]

    def context(
        self,
        h: int,
        cur: tuple[int, ...],
        opp: tuple[tuple[int, ...], ...],
        discard: int,
        dsize: int,
        known: tuple[int, ...],
        incoming: int = -1,
        pending: int = 0,
    ) -> Context: ...

    def increment(self, card: int, cur: tuple[int, ...]) -> int: ...

    def increments(self, c: Context) -> tuple[int, ...]: ...

    def classes(self, c: Context) -> list[tuple[tuple[int, int, int], ...]]: ...

    def choice(self, h: int, c: Context) -> float: ...

    def plunder(self, h: int, c: Context) -> float: ...

    def bust(self, h: int, c: Context) -> float: ...

    def draw(self, h: int, c: Context) -> float: ...

    def place(self, h: int, c: Context, card: int) -> float: ...

    def after_place(self, h: int, c: Context, card: int, before: int) -> float: ...
