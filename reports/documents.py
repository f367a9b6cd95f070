"""Report documents from tidy rows and figures: a self-contained HTML page (images embedded as
data URIs, all text escaped) and a Markdown summary, in one layout for every game.

The markup and the fixed words of a page live in Jinja2 templates (``reports/templates``:
``page.html`` for the page, ``parts.html`` for its pieces, ``summary.md`` for the Markdown);
this module turns rows into cells and calls them. It knows only column names and how to
format a kind of number (:class:`Column`); what the columns mean is the caller's business.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jinja2
import markupsafe

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


def _parts() -> Any:
    """The macros of ``reports/templates/parts.html``."""
    return _TEMPLATES.get_template("parts.html").module


def _html(text: str) -> markupsafe.Markup:
    """HTML made by another piece (not to be escaped again)."""
    return markupsafe.Markup(text)


def html_table(rows: Rows, columns: Sequence[Column], limit: int = 400) -> str:
    """An escaped HTML table of ``rows`` (at most ``limit``) with formatted cells."""
    more = f"{len(rows) - limit:,}" if len(rows) > limit else ""
    cells = [[c.cell(r) for c in columns] for r in rows[:limit]]
    return str(_parts().table([c.header for c in columns], cells, more))


def folded(summary: str, inner: str) -> str:
    """Content collapsed under a one-line summary (long tables, what answers nothing)."""
    return str(_parts().folded(summary, _html(inner)))


def figure(png: bytes, alt: str, caption: str) -> str:
    """An embedded PNG with its alt text and a caption under it."""
    return str(_parts().figure(base64.b64encode(png).decode(), alt, caption))


def paragraph(text: str, cls: str = "") -> str:
    """An escaped paragraph."""
    return str(_parts().paragraph(text, cls))


def subheading(text: str) -> str:
    return str(_parts().subheading(text))


def bullet_list(items: Sequence[str], cls: str) -> str:
    """An escaped list (findings, warnings)."""
    return str(_parts().bullets(list(items), cls))


def warning_list(
    items: Sequence[tuple[str, str]],
    cls: str = "warnings",
    lead: str = "Replay one",
    pages: Mapping[str, str] | None = None,
    links: Sequence[str] | None = None,
) -> str:
    """Warnings: each an escaped text and, if given, the command that replays the game it is
    about, with a link to that game's replay page: the item's own in ``links`` if given, else
    the one ``pages`` (command -> page) has."""
    shown = [
        (text, command, (links[k] if links and links[k] else (pages or {}).get(command, "")))
        for k, (text, command) in enumerate(items)
    ]
    return str(_parts().warnings(shown, cls, lead))


def game_list(items: Sequence[tuple[str, str, str, str]], cls: str = "notable") -> str:
    """Games to look at: each an escaped text, a link to its page (if any, else a note on
    why there is none) and the command that replays it."""
    return str(_parts().games(list(items), cls))


def code(text: str) -> str:
    return str(_parts().code(text))


def side_by_side(left: str, right: str) -> str:
    """Two parts next to each other (a figure and its table), so a page stays short."""
    return str(_parts().side_by_side(_html(left), _html(right)))


@dataclass(frozen=True)
class Section:
    """A section of the page as a value: anchor, heading, a caption saying what it answers,
    its content, and whether it is folded (a section that found nothing shows its heading
    and caption, its content closed under them)."""

    anchor: str
    heading: str
    caption: str
    body: str
    folded: bool = False


_STYLE = (
    "body{font-family:system-ui,sans-serif;margin:1.2em auto;max-width:80em;padding:0 1.5em;"
    "color:#1d2329;line-height:1.4}"
    "h1{margin:0 0 .1em}h2{border-bottom:2px solid #dde3e8;padding-bottom:.1em;"
    "margin-top:1.2em}h3{margin-top:1em}"
    "nav{margin:.4em 0 .8em;font-size:95%}nav a{margin-right:1em}"
    ".headline{font-size:115%;background:#eef4fa;border-left:5px solid #235a8c;"
    "padding:.6em 1em;margin:.6em 0}.headline p{margin:.25em 0}"
    "table{border-collapse:collapse;margin:.5em 0;font-size:90%}"
    "td,th{border:1px solid #d4dbe1;padding:2px 8px;text-align:right}"
    "td:first-child,th:first-child{text-align:left}th{background:#eef2f5}"
    "img{max-width:100%}figure{margin:.5em 0}figcaption{color:#4a5660;font-size:88%;"
    "max-width:60em}.caption{color:#4a5660;margin:.3em 0}.note{color:#5a6670}"
    ".pair{display:flex;gap:1.5em;align-items:flex-start}.pair>div{flex:1 1 50%;min-width:0}"
    "ul.findings{background:#f1f7f1;border-left:4px solid #3a8a4a;padding:.5em 1em .5em 2em;"
    "margin:.4em 0}"
    "ul.warnings{background:#fdf3e6;border-left:4px solid #d27a00;padding:.5em 1em .5em 2em}"
    "p.warning{background:#fdf3e6;border-left:4px solid #d27a00;padding:.5em 1em}"
    "ul.findings{columns:2 34em;column-gap:2.5em}ul.findings li{break-inside:avoid}"
    "ul.findings li,ul.warnings li{margin:.2em 0}p.scope{font-weight:600;margin:.6em 0 .1em}"
    "details{margin:.4em 0}summary{cursor:pointer;color:#235a8c}"
    "section.folded>details>summary{font-size:120%;font-weight:600;color:#1d2329}"
    "code{background:#eef2f5;padding:1px 4px;border-radius:3px;font-size:90%}"
)

_TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("reports", "templates"),
    autoescape=jinja2.select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
    undefined=jinja2.StrictUndefined,
)


def render(template: str, **values: Any) -> str:
    """``reports/templates/<template>`` filled with ``values`` (escaped in HTML templates;
    HTML made here is passed as :class:`markupsafe.Markup`)."""
    return _TEMPLATES.get_template(template).render(**values)


def html_page(
    title: str,
    subtitle: str,
    sections: Sequence[Section],
    headline: Sequence[str] = (),
    notes: Sequence[str] = (),
) -> str:
    """A whole page: the title, the headline, a subtitle line, a table of contents, the
    notes that hold for the whole page (folded into one) and the sections."""
    return render(
        "page.html",
        title=title,
        subtitle=subtitle,
        headline=list(headline),
        notes=list(notes),
        style=markupsafe.Markup(_STYLE),
        sections=[
            {
                "anchor": s.anchor,
                "heading": s.heading,
                "caption": s.caption,
                "body": markupsafe.Markup(s.body),
                "folded": s.folded,
            }
            for s in sections
        ],
    )


def markdown_table(rows: Rows, columns: Sequence[Column], limit: int = 60) -> str:
    """A Markdown table of ``rows`` with formatted cells."""
    if not rows:
        return "_no rows_\n"
    lines = [
        "| " + " | ".join(c.header for c in columns) + " |",
        "|" + "---|" * len(columns),
    ]
    for r in rows[:limit]:
        lines.append("| " + " | ".join(c.cell(r).replace("|", "\\|") for c in columns) + " |")
    if len(rows) > limit:
        lines.append(f"\n… {len(rows) - limit:,} more rows in the tables folder.")
    return "\n".join(lines) + "\n"


def markdown_page(title: str, subtitle: str, headline: Sequence[str], blocks: Sequence[str]) -> str:
    """A whole Markdown summary: the title, the headline in bold, a subtitle line and the
    blocks (each already Markdown)."""
    return render(
        "summary.md", title=title, subtitle=subtitle, headline=list(headline), blocks=list(blocks)
    )
