"""The move log: one row per decision and event, appended as small ints to columns.

Columns: ``turn``, ``seat`` (-1 for the table), ``kind`` (a code of :data:`EVENTS`), and three
int arguments ``a``, ``b``, ``c`` (-1 when unused), appended to one flat int list (one call
per row). The runner turns the columns into Arrow record batches; :func:`render` turns them
into text for people.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence

from sim.outcome import END_TEXTS
from sim.tobago.island import Island

#: Event names by code, with the meaning of their arguments.
EVENTS: tuple[tuple[str, str], ...] = (
    ("start_cell", "a=cell"),
    ("start_clue", "a=card b=map c=candidates"),
    ("clue", "a=card b=map c=candidates"),
    ("leg", "a=from b=to c=amulet collected (1) or not (0)"),
    ("amulet_pickup", "a=cell (at turn start)"),
    ("amulet_marker", "a=map b=cell c=candidates"),
    ("amulet_clue", "a=card b=map c=candidates"),
    ("amulet_move", ""),
    ("amulet_exchange", "a=cards exchanged"),
    ("raise", "a=map b=cell c=roses"),
    ("draw", "a=value (-1 curse), secret to the drawer"),
    ("extra_card", "a=value (-1 curse), drawn blind"),
    ("reveal", "a=value (-1 curse) b=card number in the distribution"),
    ("take", "a=value b=rose position"),
    ("pass", "a=value b=rose position"),
    ("unclaimed", "a=value"),
    ("curse_hit", "a=amulet (0), card (1) or nothing (2) b=card value lost"),
    ("leftover", "a=cards discarded unrevealed b=curses among them"),
    ("restart", "a=card b=map c=candidates"),
    ("amulet_appears", "a=cell b=statue"),
    ("statues_turn", ""),
    ("treasure_reshuffle", "a=cards"),
    ("clue_reshuffle", "a=cards"),
    ("violation", "a=decision kind code b=fallback used (1)"),
    ("end_turn", ""),
    ("game_end", "a=end reason: 0 deck exhausted, 1 turn cap, 2 deadlock, 3 timeout"),
    ("score", "a=coins b=rank c=amulets left"),
    ("exchange", "a=cards exchanged (the main action, rules flag exchange_as_main_action)"),
)
CODE: dict[str, int] = {name: code for code, (name, _) in enumerate(EVENTS)}


class MoveLog:
    """Append-only rows of one game's events, stored flat: six ints per row (a plain list:
    extending it is several times cheaper than extending an ``array``)."""

    __slots__ = ("flat",)

    WIDTH = 6

    def __init__(self) -> None:
        self.flat: list[int] = []

    def add(self, turn: int, seat: int, kind: int, a: int = -1, b: int = -1, c: int = -1) -> None:
        """Append one row."""
        self.flat.extend((turn, seat, kind, a, b, c))

    def __len__(self) -> int:
        return len(self.flat) // 6

    def column(self, k: int) -> array[int]:
        """Column ``k`` (0 turn, 1 seat, 2 kind, 3 a, 4 b, 5 c) as an int array."""
        return array("i", self.flat[k::6])

    def rows(self) -> list[tuple[int, int, int, int, int, int]]:
        """All rows as tuples ``(turn, seat, kind, a, b, c)``."""
        f = self.flat
        return list(zip(f[0::6], f[1::6], f[2::6], f[3::6], f[4::6], f[5::6], strict=True))


def _value(v: int) -> str:
    return "curse" if v < 0 else f"{v} coins"


def describe(
    kind: int, a: int, b: int, c: int, cell: Callable[[int], str], card_texts: Sequence[str]
) -> str:
    """What one row says, in words (without its turn and seat); ``cell`` names a cell id."""
    name = EVENTS[kind][0]
    if name in ("start_clue", "clue", "restart", "amulet_clue"):
        return f"{card_texts[a]!r} on map {b} -> {c} candidates"
    if name == "start_cell":
        return f"ATV starts at {cell(a)}"
    if name == "leg":
        return f"{cell(a)} -> {cell(b)}" + (" and collects an amulet" if c == 1 else "")
    if name in ("amulet_pickup", "amulet_appears"):
        return cell(a) + (f" (statue {b})" if name == "amulet_appears" else "")
    if name == "amulet_marker":
        return f"removes the marker of map {a} at {cell(b)} -> {c} candidates"
    if name == "raise":
        return f"map {a} at {cell(b)} with {c} roses"
    if name in ("draw", "extra_card", "unclaimed"):
        return _value(a)
    if name == "reveal":
        return f"card {b + 1}: {_value(a)}"
    if name in ("take", "pass"):
        return f"{_value(a)} at rose {b + 1}"
    if name == "curse_hit":
        return ("discards an amulet", f"loses a {b}-coin card", "has nothing to lose")[a]
    if name == "leftover":
        return f"{a} cards discarded unrevealed ({b} curses)"
    if name in ("treasure_reshuffle", "clue_reshuffle", "amulet_exchange", "exchange"):
        return f"{a} cards"
    if name == "violation":
        return f"illegal or failed answer to a {a} decision; fallback used"
    if name == "game_end":
        return "the treasure deck ran out" if a == 0 else END_TEXTS[a]
    if name == "score":
        return f"{a} coins, rank {b}, {c} amulets left"
    return ""


def render(log: MoveLog, island: Island, card_texts: tuple[str, ...]) -> list[str]:
    """One readable line per row."""

    def cell(i: int) -> str:
        q, r = island.coords[i]
        return f"({q},{r})"

    out = []
    for turn, seat, kind, a, b, c in log.rows():
        name = EVENTS[kind][0]
        who = "table" if seat < 0 else f"seat {seat + 1}"
        text = describe(kind, a, b, c, cell, card_texts)
        out.append(f"t{turn:<3} {who:<7} {name:<18} {text}".rstrip())
    return out
