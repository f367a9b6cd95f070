"""The report's two documents rendered from the same :class:`~reports.blocks.Section` values:
a self-contained HTML page (images embedded as data URIs, every text escaped) and a Markdown
summary, in one layout for every game.

The markup, the style and the fixed words live in the Jinja2 templates of
``reports/templates``: ``page.html`` and ``parts.html`` (a macro per kind of block) for the
page, ``summary.md`` and ``parts.md`` for the summary. This module only loads them and gives
the Markdown ones their escaping: text in Markdown stays text (no HTML tag, no entity, no
column break in a table).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import jinja2

from reports.blocks import Section

#: How many rows of a table the Markdown summary shows (the page shows up to 400).
MARKDOWN_ROWS = 60

# What CommonMark would read as the start of an HTML tag, comment or declaration, or as a
# character reference: escaped so that a strategy named ``<script>`` or ``&amp;`` is text.
_MD_HTML = re.compile(r"<(?=[A-Za-z/!?])|&(?=[A-Za-z#])")


def md_text(value: object) -> str:
    """Text for Markdown prose: what would be raw HTML or an entity escaped."""
    text = " ".join(str(value).split())
    return _MD_HTML.sub(lambda m: "&lt;" if m.group() == "<" else "&amp;", text)


def md_cell(value: object) -> str:
    """Text for a Markdown table cell: as :func:`md_text`, and a ``|`` kept in its cell."""
    return md_text(value).replace("|", "\\|")


def md_code(value: object) -> str:
    """An inline code span holding ``value`` as it is, fenced by more backticks than it
    holds in a row."""
    text = " ".join(str(value).split())
    runs = [len(r) for r in re.findall(r"`+", text)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("reports", "templates"),
        autoescape=jinja2.select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters.update(md=md_text, md_cell=md_cell, md_code=md_code)
    return env


_TEMPLATES = _environment()


def _render(template: str, **values: Any) -> str:
    """``reports/templates/<template>`` filled with ``values`` (escaped in HTML templates)."""
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
    return _render(
        "page.html",
        title=title,
        subtitle=subtitle,
        headline=list(headline),
        notes=list(notes),
        sections=list(sections),
    )


def markdown_page(
    title: str,
    subtitle: str,
    headline: Sequence[str],
    lines: Sequence[str] = (),
    sections: Sequence[Section] = (),
    notes: Sequence[str] = (),
) -> str:
    """A whole Markdown summary: the title, the headline in bold, a subtitle line, the
    sections (their open content; of what the page folds, only the brief parts; no
    figures), ``lines`` of Markdown as they are, and the notes on the figures."""
    text = _render(
        "summary.md",
        title=title,
        subtitle=subtitle,
        headline=list(headline),
        sections=list(sections),
        lines=list(lines),
        notes=list(notes),
        limit=MARKDOWN_ROWS,
    )
    # The templates write every block followed by a blank line; blocks that render to
    # nothing (a figure, a fold without a brief part) leave runs of them.
    return re.sub(r"\n{3,}", "\n\n", text).rstrip("\n") + "\n"
