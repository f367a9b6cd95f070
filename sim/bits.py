"""Bitmask helpers every game's state and strategies share (cells of an island, cards of a
pile)."""

from __future__ import annotations


def bits_of(mask: int) -> list[int]:
    """The indices set in ``mask``, ascending (set bits only: masks here are sparse)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
