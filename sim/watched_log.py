"""A move log that calls back after every row: how a replay sees each event as it happens.

Both engines append their move log as six ints a row to a flat ``list`` (often through a bound
``extend`` or ``+=`` on the hot paths, to save a Python call per row). A
:class:`WatchedRows` is such a list that calls ``on_row(index)`` once each row is complete,
while the engine's state is exactly as it was when it logged the row. A game whose log is
swapped for one before it is played is played as usual; games played without one pay
nothing for the possibility.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import SupportsIndex

WIDTH = 6


class WatchedRows(list[int]):
    """A flat move-log list calling ``on_row(row index)`` after each complete row."""

    def __init__(self, on_row: Callable[[int], None]) -> None:
        super().__init__()
        self._on_row = on_row

    def _added(self, before: int) -> None:
        # Rows are appended whole, six ints at a time; a call may append several.
        for end in range(before + WIDTH, len(self) + 1, WIDTH):
            self._on_row(end // WIDTH - 1)

    def extend(self, values: Iterable[int]) -> None:
        before = len(self)
        super().extend(values)
        self._added(before)

    def __iadd__(self, values: Iterable[int]) -> WatchedRows:  # type: ignore[override,misc]
        self.extend(values)
        return self

    def append(self, value: int) -> None:
        before = len(self) - len(self) % WIDTH
        super().append(value)
        if len(self) % WIDTH == 0:
            self._added(before)

    def insert(self, index: SupportsIndex, value: int) -> None:
        raise TypeError("a move log is appended to, never inserted into")
