"""The 60 trophy cards: ten kinds of six, identified by small ints, and lookup tables.

A card is ``kind * 6 + i`` with ``i`` in 0..5; its value is ``2 + i`` (``4 + i`` for the
Parrot), so within a kind a higher id is a higher value (rules spec §2). A stash pile is a
6-bit mask of the values it holds: its top card (the highest, §5.4) is the mask's highest bit,
which keeps insertion in order, "top card" and scoring to a table lookup.
"""

from __future__ import annotations

N_KINDS = 10
PER_KIND = 6
N_CARDS = N_KINDS * PER_KIND

ANCHOR, HELM, KEY, CHEST, CANDLE, KNIFE, RUM, PISTOL, PARROT, SPYGLASS = range(N_KINDS)
KIND_NAMES: tuple[str, ...] = (
    "anchor",
    "helm",
    "key",
    "chest",
    "candle",
    "knife",
    "rum",
    "pistol",
    "parrot",
    "spyglass",
)
KIND_CODE: dict[str, int] = {name: k for k, name in enumerate(KIND_NAMES)}

#: Kind and value of every card id.
KIND: tuple[int, ...] = tuple(c // PER_KIND for c in range(N_CARDS))
VALUE: tuple[int, ...] = tuple(
    (4 if c // PER_KIND == PARROT else 2) + c % PER_KIND for c in range(N_CARDS)
)
#: The lowest card of each kind: the starting discard pile (§4.3).
STARTING_DISCARD: tuple[int, ...] = tuple(k * PER_KIND for k in range(N_KINDS))
#: The other 50 cards: the draw pile before shuffling (§4.4).
STARTING_PILE: tuple[int, ...] = tuple(c for c in range(N_CARDS) if c % PER_KIND)
ALL_CARDS_MASK = (1 << N_CARDS) - 1
#: A pile mask's top card index (-1 for an empty pile).
TOP_INDEX: tuple[int, ...] = tuple(m.bit_length() - 1 for m in range(64))
#: Points a pile mask scores, per kind: the value of its top card (0 when empty).
TOP_VALUE: tuple[tuple[int, ...], ...] = tuple(
    tuple(0 if m == 0 else VALUE[k * PER_KIND + TOP_INDEX[m]] for m in range(64))
    for k in range(N_KINDS)
)
#: ``CARD_GAIN[card][pile]``: the points ``card`` adds to a stash pile (mask) of its kind.
CARD_GAIN: tuple[tuple[int, ...], ...] = tuple(
    tuple(max(0, VALUE[c] - TOP_VALUE[KIND[c]][m]) for m in range(64)) for c in range(N_CARDS)
)
#: ``TOP_LOSS[kind][pile]``: the points a pile's owner loses when its top card goes.
TOP_LOSS: tuple[tuple[int, ...], ...] = tuple(
    tuple(TOP_VALUE[k][m] - TOP_VALUE[k][m & ~(1 << TOP_INDEX[m])] if m else 0 for m in range(64))
    for k in range(N_KINDS)
)
#: Bit of each kind in a 10-bit kind mask.
KIND_BIT: tuple[int, ...] = tuple(1 << KIND[c] for c in range(N_CARDS))


def card_name(card: int) -> str:
    """``"knife 5"``: a card as people read it."""
    return f"{KIND_NAMES[KIND[card]]} {VALUE[card]}"


def gain_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``GAIN[kind][top][mask]``: the points a stash pile whose top index is ``top`` (-1
    encoded as 6 for an empty pile) would gain, summed over the cards of ``mask`` taken one at
    a time, each alone. Strategies use it for the expected gain of a random safe card."""
    out = []
    for k in range(N_KINDS):
        per_top = []
        for top in range(7):
            base = 0 if top == 6 else VALUE[k * PER_KIND + top]
            row = []
            for m in range(64):
                total = 0
                for i in range(PER_KIND):
                    if m >> i & 1:
                        total += max(0, VALUE[k * PER_KIND + i] - base)
                row.append(total)
            per_top.append(tuple(row))
        out.append(tuple(per_top))
    return tuple(out)


GAIN = gain_table()
