"""The report's documents from section values: each kind of block rendered as HTML and as
Markdown from the same :class:`~reports.blocks.Section`, with its text kept as text in both
(a strategy named ``<script>`` or with a ``|`` in its name)."""

from __future__ import annotations

import re

import pytest

from reports import documents
from reports.blocks import (
    Alert,
    Block,
    Brief,
    Bullets,
    Cell,
    Code,
    Figure,
    Folded,
    Game,
    Games,
    Paired,
    Paragraph,
    Section,
    SideBySide,
    Subheading,
    Table,
    Warnings,
    col,
    walk,
)

NAME = "<script>alert(1)</script> a|b"
PNG = b"\x89PNG fake"


def _both(*blocks: Block, folded: bool = False) -> tuple[str, str]:
    """The HTML section and the Markdown section of one section holding ``blocks``."""
    section = Section("s", "Heading", "What it answers.", blocks, folded)
    page = documents.html_page("t", "sub", [section])
    html = page.split('<section id="s"')[1].split("</section>")[0]
    md = documents.markdown_page("t", "sub", [], sections=[section])
    return html, md.split("## Heading\n", 1)[1]


def _no_markup(html: str, md: str) -> None:
    """The name is text in both: no tag it opens, in either document."""
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt; a|b" in html
    assert "<script" not in md and "&lt;script>alert(1)&lt;/script> a" in md


def test_a_paragraph_and_a_subheading() -> None:
    html, md = _both(
        Subheading(f"About {NAME}"), Paragraph(NAME, "note"), Paragraph("scope", "scope")
    )
    assert html.startswith('><h2>Heading</h2>\n<p class="caption">What it answers.</p>\n<h3>About ')
    assert '<p class="note">&lt;script&gt;' in html and '<p class="scope">scope</p>' in html
    assert md.startswith("\n_What it answers._\n\n### About &lt;script>")
    assert "\n\n&lt;script>alert(1)&lt;/script> a|b\n\n**scope**\n" in md
    _no_markup(html, md)


def test_a_table_of_rows_by_columns() -> None:
    rows = [{"strategy": NAME, "share": 0.25, "low": 0.2, "high": 0.3}]
    table = Table.of(
        rows, [col("strategy", "text"), col("share", "share_ci", "share", "low", "high")]
    )
    html, md = _both(table)
    assert "<th>strategy</th><th>share</th>" in html and "<td>25.0% [20.0, 30.0]</td>" in html
    # In Markdown a | in a cell is escaped, so that the row keeps its two columns.
    row = "| &lt;script>alert(1)&lt;/script> a\\|b | 25.0% [20.0, 30.0] |"
    assert f"| strategy | share |\n|---|---|\n{row}\n" in md
    _no_markup(html, md)


def test_a_long_table_says_how_many_rows_are_left_out() -> None:
    rows = [{"k": k} for k in range(450)]
    html, md = _both(Table.of(rows, [col("k", "count")]))
    assert html.count("<tr>") == 401 and "… 50 more rows in the tables folder." in html
    assert md.count("\n| ") == 1 + documents.MARKDOWN_ROWS
    assert "… 390 more rows in the tables folder." in md
    empty_html, empty_md = _both(Table.of([], [col("k", "count")]))
    assert "<p><em>no rows</em></p>" in empty_html and "_no rows_" in empty_md


def test_a_grid_of_cells_with_their_intervals() -> None:
    grid = Table(
        ("strategy", "helm"), ((NAME, Cell("1.17", "[1.13, 1.21]")), ("b", "0")), grid=True
    )
    html, md = _both(grid)
    assert '<div class="wide"><table class="grid">' in html
    assert '<td>1.17<br><span class="note">[1.13, 1.21]</span></td>' in html
    assert "| 1.17 [1.13, 1.21] |" in md and "| b | 0 |" in md
    _no_markup(html, md)


def test_a_figure_is_on_the_page_only() -> None:
    html, md = _both(Figure(PNG, f"alt {NAME}", f"caption {NAME}"))
    assert 'src="data:image/png;base64,iVBORyBmYWtl"' in html and "<figcaption>caption " in html
    assert 'alt="alt &lt;script&gt;' in html and "<script>" not in html
    assert "caption" not in md and "alt" not in md


def test_bullets_warnings_and_games() -> None:
    html, md = _both(
        Bullets((NAME, "second"), "findings"),
        Warnings((Alert(f"warned {NAME}", "tourney play --seed 7", "games/a.html#step=3"),
                  Alert("no command"))),
        Games((Game(f"long {NAME}", "games/b.html", "", "tourney play --run r --game-id 1"),
               Game("no page", "", "it no longer replays", "tourney play --run r --game-id `2`"))),
    )  # fmt: skip
    assert '<ul class="findings"><li>&lt;script&gt;' in html
    assert ('<br>Replay one: <code>tourney play --seed 7</code> <a href="games/a.html#step=3">'
            "Open its replay page</a>.</li><li>no command</li></ul>") in html  # fmt: skip
    assert '<a href="games/b.html">Open its replay page</a>.<br>Replay it: <code>' in html
    assert '<span class="note">(it no longer replays)</span>' in html
    assert "\n- &lt;script>alert(1)&lt;/script> a|b\n- second\n" in md
    assert (" Replay one: `tourney play --seed 7` [Replay page](games/a.html#step=3).\n"
            "- no command\n") in md  # fmt: skip
    assert "[Replay page](games/b.html). Replay it: `tourney play --run r --game-id 1`" in md
    # A command holding backticks stays one code span.
    assert "(it no longer replays) Replay it: `` tourney play --run r --game-id `2` ``" in md
    _no_markup(html, md)


def test_code() -> None:
    html, md = _both(Code(f"tourney play {NAME}"))
    assert "<code>tourney play &lt;script&gt;" in html
    assert f"`tourney play {NAME}`" in md


def test_a_fold_shows_only_its_brief_part_in_markdown() -> None:
    table = Table.of([{"k": 1}], [col("k", "count")])
    html, md = _both(
        Folded(
            f"folded {NAME}",
            (
                Paragraph("only on the page"),
                Brief((table,), f"brief {NAME}"),
                Figure(PNG, "a", "c"),
            ),
        ),
        Folded("nothing to say", (Paragraph("hidden"),)),
    )
    assert html.count("<details><summary>") == 2 and "<summary>folded &lt;script&gt;" in html
    assert "only on the page" in html and "<td>1</td>" in html and "hidden" in html
    assert "only on the page" not in md and "hidden" not in md and "nothing to say" not in md
    assert "**brief &lt;script>alert(1)&lt;/script> a|b**\n\n| k |\n|---|\n| 1 |\n" in md
    assert "brief" not in html  # the page has the fold's summary line instead


def test_a_folded_section_keeps_its_heading_caption_and_brief_parts() -> None:
    html, md = _both(Paragraph("inside"), Brief((Paragraph("said in the summary"),)), folded=True)
    assert html.startswith(' class="folded"><details><summary>Heading</summary>')
    assert "inside" in html and "said in the summary" in html
    assert "inside" not in md and "_What it answers._" in md and "said in the summary" in md


def test_side_by_side_and_a_paired_comparison() -> None:
    html, md = _both(
        Paired(3, (Subheading("What curses do"),
                   SideBySide((Figure(PNG, "a", "c"),), (Paragraph(f"right {NAME}"),)))),
    )  # fmt: skip
    assert html.startswith(
        '><h2>Heading</h2>\n<p class="caption">What it answers.</p>\n<div data-pairing="3">'
        '<h3>What curses do</h3><div class="pair"><div><figure>'
    )
    assert "</figure></div><div><p>right &lt;script&gt;" in html
    assert "### What curses do\n\nright &lt;script>" in md
    _no_markup(html, md)


def test_walk_finds_the_blocks_inside_others() -> None:
    inner = Paired(1, (Paragraph("x"),))
    blocks = (Folded("f", (Brief((SideBySide((), (inner,)),)),)),)
    assert inner in list(walk(blocks))


@pytest.mark.parametrize(
    ("text", "md"),
    [
        ("p < 0.001 and a & b", "p < 0.001 and a & b"),  # no tag, no entity: as it is
        ("<b>bold</b> &amp; <!-- c -->", "&lt;b>bold&lt;/b> &amp;amp; &lt;!-- c -->"),
        ("two\nlines", "two lines"),
    ],
)
def test_markdown_text_is_text(text: str, md: str) -> None:
    assert documents.md_text(text) == md


def test_the_summary_opens_with_the_title_and_the_headline_in_bold() -> None:
    md = documents.markdown_page(
        "tourney report: <x>", "sub", ["First.", "Second."], notes=["a note"]
    )
    assert md.split("\n\n")[:4] == ["# tourney report: &lt;x>", "**First.**", "**Second.**", "sub"]
    assert md.endswith("## How to read the figures\n\n- a note\n")
    assert not re.search(r"\n\n\n", md)
