"""Treasure Island's lookup tables, made once at import and read by the engine's hot paths
instead of computing (CPython allocates every int above 256): bit counts and kinds of a kind
mask, the ``(seat, kind)`` answers of every opponent and mask, each pile's top card and the
points it carries, the Fisher-Yates steps of a partial shuffle, and the decisions every game
shares (decisions are immutable); and the codes the tables record (placement sources, how a
turn ended).
"""

from __future__ import annotations

from typing import Any

from sim.treasure_island import decisions
from sim.treasure_island.cards import CHEST, KEY, N_KINDS, PER_KIND, TOP_INDEX, TOP_LOSS

# Placement sources (the ``b`` argument of ``place`` and of the draws table).
FROM_PILE, FROM_HELM, FROM_KNIFE, FROM_CANDLE = 0, 1, 2, 3
# How a turn ended (the ``reason`` of the turns table).
CHOSEN, SPYGLASS_BACK, PILE_EMPTY, BUSTED = 0, 1, 2, 3
KEY_CHEST = (1 << KEY) | (1 << CHEST)
FULL_PILE = (1 << PER_KIND) - 1
#: Bits set in every mask up to 10 bits: the kinds in a kind mask, the cards in a pile mask.
BITS: tuple[int, ...] = tuple(m.bit_count() for m in range(1 << N_KINDS))
#: The kinds of every kind mask, in order, made once.
KINDS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in range(N_KINDS) if m >> k & 1) for m in range(1 << N_KINDS)
)
#: The ``(seat, kind)`` answers for every seat and kind mask, made once.
PAIRS_OF: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(tuple((o, k) for k in range(N_KINDS) if m >> k & 1) for m in range(1 << N_KINDS))
    for o in range(4)
)
#: The other seats of each seat, by number of players.
OPPONENTS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(o for o in range(n) if o != s) for s in range(n)) for n in range(5)
)
#: The other seats of each seat, by number of players, each with its ``PAIRS_OF`` row.
_PairsRow = tuple[tuple[tuple[int, int], ...], ...]
OPPONENT_ROWS: tuple[tuple[tuple[tuple[int, _PairsRow], ...], ...], ...] = tuple(
    tuple(tuple((o, PAIRS_OF[o]) for o in others) for others in by_seat) for by_seat in OPPONENTS
)
#: An empty pile's entry in ``POP_TOP``: unpacking it raises, as taking from it must.
_NO_TOP: Any = ()
#: ``POP_TOP[kind][pile]``: the pile without its top card, that card, and the points lost.
POP_TOP: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(
        (
            m ^ 1 << TOP_INDEX[m],
            k * PER_KIND + TOP_INDEX[m],
            TOP_LOSS[k][m],
        )
        if m
        else _NO_TOP
        for m in range(1 << PER_KIND)
    )
    for k in range(N_KINDS)
)
#: A card's bit in the 6-bit pile mask of its kind.
PILE_BIT: tuple[int, ...] = tuple(1 << (c % PER_KIND) for c in range(N_KINDS * PER_KIND))
_Decision = decisions.Decision
# The named tuple's ``__new__`` is a Python call: the hot path builds the tuple directly.
_new = tuple.__new__
#: The draw-or-plunder question of each seat (immutable, so shared by every game).
CONTINUE_DECISIONS: tuple[decisions.Decision, ...] = tuple(
    decisions.Decision(decisions.CONTINUE, i, decisions.CONTINUE_OPTIONS) for i in range(4)
)
#: The continue question as the referee asks it (:attr:`sim.referee.Referee.yeses`).
CONTINUE_QUESTION = (CONTINUE_DECISIONS, decisions.CONTINUE_OPTIONS)
#: The Spyglass question of each seat and revealed card (immutable, so shared by every game).
SPYGLASS_DECISIONS: tuple[tuple[decisions.Decision, ...], ...] = tuple(
    tuple(
        _new(_Decision, (decisions.SPYGLASS, i, decisions.SPYGLASS_OPTIONS, c))
        for c in range(N_KINDS * PER_KIND)
    )
    for i in range(4)
)
#: ``STEPS[size][take]``: the Fisher-Yates steps that take ``take`` cards off a list of
#: ``size`` (the discard never holds more than the 60 cards), each as (the position it fills,
#: how many positions it picks from); the step pairs are shared.
_STEP_PAIRS: tuple[tuple[int, int], ...] = tuple((i - 1, i) for i in range(61))
STEPS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(tuple(_STEP_PAIRS[i] for i in range(size, size - take, -1)) for take in range(size + 1))
    for size in range(61)
)


def question(
    kind: decisions.DecisionKind, seat: int, options: tuple[Any, ...], value: int
) -> decisions.Decision:
    """The power question the referee asks (the Spyglass's are built once, by seat and card)."""
    if options is decisions.SPYGLASS_OPTIONS:
        return SPYGLASS_DECISIONS[seat][value]
    return _new(_Decision, (kind, seat, options, value))
