"""The content of a report as values: a :class:`Section` (anchor, heading, caption, folded or
not) holds typed blocks — paragraphs, sub-headings, tables, figures, lists, folds, two
parts side by side — and :mod:`reports.documents` renders the same values as the HTML page
and as the Markdown summary.

Blocks carry text and numbers already written as text, never markup: the templates decide
how each kind looks. A table is made from tidy rows by :class:`Column` s, which know only a
row's keys and how to write a kind of number (:data:`FORMATS`); what the columns mean is the
caller's business.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from reports import numbers

Rows = Sequence[dict[str, Any]]


def _share_ci(r: dict[str, Any], keys: tuple[str, ...]) -> str:
    value, low, high = (r.get(k) for k in keys)
    if value is None:
        return ""
    text = numbers.pct(float(value))
    if low is None or high is None:
        return text
    return f"{text} {numbers.interval(float(low), float(high))}"


def _points_ci(r: dict[str, Any], keys: tuple[str, ...]) -> str:
    value, low, high = (r.get(k) for k in keys)
    if value is None:
        return ""
    return (
        f"{100 * float(value):+.1f} {numbers.interval(float(low or 0), float(high or 0))}"
        if low is not None and high is not None
        else f"{100 * float(value):+.1f}"
    )


def _mean_ci(
    r: dict[str, Any], keys: tuple[str, ...], signed: bool = False, digits: int = 1
) -> str:
    value, low, high = (r.get(k) for k in keys)
    if value is None:
        return ""
    text = numbers.number(float(value), digits, signed)
    if low is None or high is None:
        return text
    return f"{text} {numbers.interval(float(low), float(high), scale=1.0, digits=digits)}"


def _blocks(
    fmt: Callable[[dict[str, Any], tuple[str, ...]], str],
) -> Callable[[dict[str, Any], tuple[str, ...]], str]:
    """``fmt`` for a mean over seed blocks, which has no interval below a minimum of blocks:
    the estimate and why no interval follows it."""

    def cell(r: dict[str, Any], keys: tuple[str, ...]) -> str:
        text = fmt(r, keys)
        if text and (r.get(keys[1]) is None or r.get(keys[2]) is None):
            return f"{text} ({numbers.TOO_FEW_BLOCKS})"
        return text

    return cell


def _one(fmt: Callable[[float], str]) -> Callable[[dict[str, Any], tuple[str, ...]], str]:
    def cell(r: dict[str, Any], keys: tuple[str, ...]) -> str:
        value = r.get(keys[0])
        if value is None:
            return ""
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, int | float):
            return fmt(float(value))
        return str(value)

    return cell


#: How each kind of column is written: a function of the row and the column's keys.
FORMATS: dict[str, Callable[[dict[str, Any], tuple[str, ...]], str]] = {
    "text": lambda r, k: "" if r.get(k[0]) is None else str(r.get(k[0])),
    "yesno": lambda r, k: "" if r.get(k[0]) is None else ("yes" if r.get(k[0]) else "no"),
    "count": _one(numbers.count),
    "pct": _one(numbers.pct),
    "points": _one(lambda x: f"{100 * x:+.1f}"),
    "num1": _one(lambda x: numbers.number(x, 1)),
    "num2": _one(lambda x: numbers.number(x, 2)),
    "signed1": _one(lambda x: numbers.number(x, 1, signed=True)),
    "p": _one(lambda p: numbers.p_value(p).removeprefix("p = ")),
    "share_ci": _share_ci,
    "points_ci": _points_ci,
    "mean_ci": _mean_ci,
    "mean2_ci": lambda r, k: _mean_ci(r, k, digits=2),
    "signed_ci": lambda r, k: _mean_ci(r, k, signed=True),
    # Means over seed blocks (paired differences): no interval below a minimum of blocks.
    "points_ci_blocks": _blocks(_points_ci),
    "signed_ci_blocks": _blocks(lambda r, k: _mean_ci(r, k, signed=True)),
    "signed2_ci_blocks": _blocks(lambda r, k: _mean_ci(r, k, signed=True, digits=2)),
}


@dataclass(frozen=True)
class Column:
    """A table column: its header, its kind (a key of :data:`FORMATS`) and the row keys it
    reads (one, or value, low and high for the ``*_ci`` kinds)."""

    header: str
    kind: str
    keys: tuple[str, ...]

    def cell(self, row: dict[str, Any]) -> str:
        return FORMATS[self.kind](row, self.keys)


def col(header: str, kind: str, *keys: str) -> Column:
    """A :class:`Column`; ``keys`` default to the header."""
    return Column(header, kind, keys or (header,))


# -- blocks ---------------------------------------------------------------------------------
# Each block names its kind (``kind``), which is what the templates dispatch on.


@dataclass(frozen=True)
class Paragraph:
    """A paragraph; ``style`` is ``""``, ``"note"`` (an aside), ``"warning"`` or ``"scope"``
    (the label of the list that follows)."""

    text: str
    style: str = ""
    kind: ClassVar[str] = "paragraph"


@dataclass(frozen=True)
class Subheading:
    text: str
    kind: ClassVar[str] = "subheading"


@dataclass(frozen=True)
class Cell:
    """A table cell with a second, smaller line under it (a rate and its interval)."""

    text: str
    note: str


@dataclass(frozen=True)
class Table:
    """A table of cells already written as text: its column headers, its rows, how many rows
    were left out (they are in the tables folder), whether it is a wide grid (scrolls
    sideways, cells kept on their lines) and what to say when it has no rows."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str | Cell, ...], ...]
    more: int = 0
    grid: bool = False
    empty: str = "no rows"
    kind: ClassVar[str] = "table"

    @classmethod
    def of(cls, rows: Rows, columns: Sequence[Column], limit: int = 400) -> Table:
        """``rows`` (at most ``limit``) with each column's cells formatted."""
        return cls(
            tuple(c.header for c in columns),
            tuple(tuple(c.cell(r) for c in columns) for r in rows[:limit]),
            max(0, len(rows) - limit),
        )


@dataclass(frozen=True)
class Figure:
    """A PNG with its alt text and a caption under it."""

    png: bytes
    alt: str
    caption: str
    kind: ClassVar[str] = "figure"

    @property
    def base64(self) -> str:
        return base64.b64encode(self.png).decode()


@dataclass(frozen=True)
class Bullets:
    """A list; ``style`` names what it lists (``"runs"``, ``"findings"``)."""

    items: tuple[str, ...]
    style: str
    kind: ClassVar[str] = "bullets"


@dataclass(frozen=True)
class Alert:
    """A warning, the command that replays a game it is about ("" for none) and the link to
    that game's replay page ("" for none)."""

    text: str
    command: str = ""
    link: str = ""


@dataclass(frozen=True)
class Warnings:
    """Warnings, each with the command that replays one affected game (``lead`` introduces
    it) and a link to its replay page."""

    items: tuple[Alert, ...]
    lead: str = "Replay one"
    kind: ClassVar[str] = "warnings"


@dataclass(frozen=True)
class Game:
    """A game to look at: what makes it notable, the link to its replay page ("" for none,
    then ``note`` says why) and the command that replays it."""

    text: str
    link: str
    note: str
    command: str


@dataclass(frozen=True)
class Games:
    items: tuple[Game, ...]
    kind: ClassVar[str] = "games"


@dataclass(frozen=True)
class Code:
    text: str
    kind: ClassVar[str] = "code"


@dataclass(frozen=True)
class Folded:
    """Blocks collapsed under a one-line summary on the page (what describes rather than
    answers). The Markdown summary shows only the :class:`Brief` parts among them."""

    summary: str
    blocks: tuple[Block, ...]
    kind: ClassVar[str] = "folded"


@dataclass(frozen=True)
class Brief:
    """Blocks of a :class:`Folded` that the Markdown summary shows all the same (it has no
    folds), under ``heading`` when given (on the page the fold's summary line says it)."""

    blocks: tuple[Block, ...]
    heading: str = ""
    kind: ClassVar[str] = "brief"


@dataclass(frozen=True)
class SideBySide:
    """Two parts next to each other on the page (a figure and its tables), one after the
    other in Markdown."""

    left: tuple[Block, ...]
    right: tuple[Block, ...]
    kind: ClassVar[str] = "side_by_side"


@dataclass(frozen=True)
class Paired:
    """Blocks that show the paired comparison numbered ``index``, so that the page shows
    each comparison once."""

    index: int
    blocks: tuple[Block, ...]
    kind: ClassVar[str] = "paired"


Block = (
    Paragraph
    | Subheading
    | Table
    | Figure
    | Bullets
    | Warnings
    | Games
    | Code
    | Folded
    | Brief
    | SideBySide
    | Paired
)


@dataclass(frozen=True)
class Section:
    """A section of the page as a value: anchor, heading, a caption saying what it answers,
    its blocks, and whether it is folded (a section that found nothing shows its heading
    and caption, its content closed under them)."""

    anchor: str
    heading: str
    caption: str
    blocks: tuple[Block, ...]
    folded: bool = False


def walk(blocks: Sequence[Block]) -> Iterator[Block]:
    """Every block of ``blocks`` and of the blocks inside them, in page order."""
    for b in blocks:
        yield b
        if isinstance(b, Folded | Brief | Paired):
            yield from walk(b.blocks)
        elif isinstance(b, SideBySide):
            yield from walk(b.left)
            yield from walk(b.right)
