"""Report documents from tidy tables and figures: a self-contained HTML page (images embedded
as data URIs, all text escaped) and a Markdown summary. Knows only column names."""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from typing import Any

Rows = Sequence[dict[str, Any]]


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}" if abs(value) < 100 else f"{value:.1f}"
    return str(value)


def html_table(rows: Rows, columns: Sequence[str] | None = None, limit: int = 200) -> str:
    """An escaped HTML table of ``rows`` (at most ``limit`` of them)."""
    if not rows:
        return "<p><em>no rows</em></p>"
    cols = list(columns or rows[0].keys())
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_cell(r.get(c)))}</td>" for c in cols) + "</tr>"
        for r in rows[:limit]
    )
    more = f"<p>… {len(rows) - limit} more rows in the tables.</p>" if len(rows) > limit else ""
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{more}"


def image(png: bytes, alt: str) -> str:
    """An embedded PNG."""
    data = base64.b64encode(png).decode()
    return f'<img alt="{html.escape(alt, quote=True)}" src="data:image/png;base64,{data}">'


def html_page(title: str, sections: Sequence[tuple[str, str, str]]) -> str:
    """A whole page: ``sections`` are ``(anchor, heading, inner HTML)``."""
    nav = " · ".join(f'<a href="#{a}">{html.escape(h)}</a>' for a, h, _ in sections)
    parts = "".join(
        f'<section id="{a}"><h2>{html.escape(h)}</h2>{inner}</section>' for a, h, inner in sections
    )
    style = (
        "body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}"
        "table{border-collapse:collapse;margin:1em 0;font-size:90%}"
        "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
        "th{background:#eee}img{max-width:100%}.note{color:#555}"
    )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{style}</style></head>"
        f"<body><h1>{html.escape(title)}</h1><nav>{nav}</nav>{parts}</body></html>"
    )


def markdown_table(rows: Rows, columns: Sequence[str] | None = None, limit: int = 50) -> str:
    """A Markdown table of ``rows``."""
    if not rows:
        return "_no rows_\n"
    cols = list(columns or rows[0].keys())
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows[:limit]:
        lines.append("| " + " | ".join(_cell(r.get(c)).replace("|", "\\|") for c in cols) + " |")
    return "\n".join(lines) + "\n"
