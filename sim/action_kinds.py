"""The base of the games' typed kinds: decision kinds and action tags as ``IntEnum`` members.

A member is an ``int`` for every comparison and hash (``int``'s own, so comparing one costs
what comparing ints costs, and no code of ours runs in it), and its ``str`` and format are its
public name, the lower-case string the kinds had before they were typed: what the stored
tables, the move log's text and the messages say. Converting at that edge keeps every stored
byte as it was.

Members are plain answers: :func:`sim.outcome.is_plain` accepts exactly the members of the
classes made here (an enum with members cannot be subclassed, so a strategy cannot bring an
``==`` of its own), and an isolated strategy's answer is sent to the game as plain ints
(:func:`plain_ints`), equal to the members it stands for.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

#: Every class made from :class:`Kind`, filled as they are defined.
KIND_TYPES: set[type] = set()


class Kind(IntEnum):
    """An ``IntEnum`` whose ``str`` is its public name (the member's name in lower case)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        KIND_TYPES.add(cls)

    def __str__(self) -> str:
        return self.name.lower()

    def __format__(self, spec: str) -> str:
        return format(self.name.lower(), spec)


def plain_ints(answer: Any) -> Any:
    """``answer`` with every kind member in it (itself, or an element of a tuple) as a plain
    ``int``: equal to the member, and made of builtin values only."""
    t = type(answer)
    if t in KIND_TYPES:
        return int(answer)
    if t is tuple and any(type(x) in KIND_TYPES for x in answer):
        return tuple(int(x) if type(x) in KIND_TYPES else x for x in answer)
    return answer
