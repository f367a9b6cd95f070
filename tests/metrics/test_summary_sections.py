"""``summary.md`` is the page's sections in Markdown: the same sections in the same order,
every sub-heading and table the page shows open, and of what it folds only the brief parts
(the ratings, the games to look at, the headline tables of the game's own sections)."""

from __future__ import annotations

import html
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app


class _Page(HTMLParser):
    """The sections' headings, and each sub-heading and table header row with whether it
    is folded (inside a ``<details>``)."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[str] = []
        self.parts: list[tuple[str, bool]] = []
        self._depth = 0  # <details> open around the current element
        self._in: str | None = None  # the element whose text is being read
        self._text = ""
        self._row: list[str] | None = None
        self._section = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "section":
            self._section = True
        elif tag == "details":
            self._depth += 1
        elif tag == "thead":
            self._row = []
        elif tag in ("h2", "h3", "th") or (tag == "summary" and self._section):
            self._in, self._text = tag, ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "details":
            self._depth -= 1
        elif tag == "thead" and self._row is not None:
            self.parts.append(("| " + " | ".join(self._row) + " |", self._depth > 0))
            self._row = None
        elif tag == self._in:
            text, self._in = self._text, None
            if tag == "h2" or (tag == "summary" and self._section and self._depth == 1):
                self.sections.append(text)
                self._section = False
            elif tag == "h3":
                self.parts.append((f"### {text}", self._depth > 0))
            elif tag == "th" and self._row is not None:
                self._row.append(text)

    def handle_data(self, data: str) -> None:
        if self._in:
            self._text += data


@pytest.fixture(scope="module")
def report(small_run: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    out = tmp_path_factory.mktemp("summary")
    result = CliRunner().invoke(app, ["report", str(small_run), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return (out / "index.html").read_text(), (out / "summary.md").read_text()


def test_the_summary_has_the_page_s_sections_in_order(report: tuple[str, str]) -> None:
    page, md = report
    parsed = _Page()
    parsed.feed(page)
    headings = [line[3:] for line in md.splitlines() if line.startswith("## ")]
    assert parsed.sections == ["Summary", "Win rate", "Curse impact", "Board fairness",
                               "Game shape"]  # fmt: skip
    assert headings == [*parsed.sections, "How to read the figures"]


def test_what_the_page_shows_open_the_summary_shows(report: tuple[str, str]) -> None:
    page, md = report
    parsed = _Page()
    parsed.feed(page)
    lines = md.splitlines()
    shown = [html.unescape(text) for text, folded in parsed.parts if not folded]
    assert len(shown) > 8 and "### Findings" in shown
    at = [lines.index(text) for text in shown]  # each in the summary, in the page's order
    assert at == sorted(at)


def test_of_what_the_page_folds_the_summary_shows_the_brief_parts(report: tuple[str, str]) -> None:
    page, md = report
    parsed = _Page()
    parsed.feed(page)
    folded = {html.unescape(text) for text, folded in parsed.parts if folded}
    lines = set(md.splitlines())
    brief = {
        "### Ratings, every table size at once (Plackett-Luce, Elo scale)",
        "### How often curses strike",
    }
    assert brief <= folded and brief <= lines
    # Head to head, opponent mixes and the per-island seats are on the page only.
    assert {"### Head to head", "### Win share by opponent mix"} <= folded - lines
    assert not any(line.startswith("| island | seat |") for line in lines)
    assert "**Games to look at**" in lines and "**Per island: fairness tests**" in lines
    assert "data:image" not in md and "<" not in md.replace("p < 0.", "")
