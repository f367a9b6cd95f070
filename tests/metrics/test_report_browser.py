"""The HTML report opened in a real headless Chromium (Debian's package, which ``.ci/run``
installs): every image loads and the console shows no error."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser
from typer.testing import CliRunner

from pipelines.cli.main import app
from tests.browser import chromium, new_page


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium for the module's tests; each opens its pages fresh."""
    with chromium() as running:
        yield running


def _open(browser: Browser, index: Path) -> dict[str, Any]:
    """What a reader sees of a page in Chromium: images (alt, loaded, width, caption),
    sections (heading, caption), findings, warnings and console errors."""
    with new_page(browser) as (page, errors):
        page.goto(index.as_uri())
        seen: dict[str, Any] = page.evaluate(
            """() => ({
                images: Array.from(document.images).map(i => ({
                    alt: i.alt, complete: i.complete, width: i.naturalWidth,
                    caption: (i.closest('figure')?.querySelector('figcaption')?.textContent
                              || '')})),
                sections: Array.from(document.querySelectorAll('section')).map(s => ({
                    heading: s.querySelector('h2')?.textContent || '',
                    caption: s.querySelector('p.caption')?.textContent || ''})),
                findings: Array.from(document.querySelectorAll('ul.findings li'))
                    .map(li => li.textContent),
                warnings: Array.from(document.querySelectorAll('ul.warnings li'))
                    .map(li => li.textContent),
                overflow: document.documentElement.scrollWidth > window.innerWidth,
            })"""
        )
    seen["errors"] = errors
    return seen


def _check(seen: dict[str, Any], headings: list[str]) -> None:
    assert seen["errors"] == []
    assert [s["heading"] for s in seen["sections"]] == headings
    assert all(len(s["caption"]) > 20 for s in seen["sections"]), seen["sections"]
    assert seen["images"], "no figures"
    for image in seen["images"]:
        assert image["complete"] and image["width"] > 0, image
        assert len(image["alt"]) > 10 and len(image["caption"]) > 20, image
    assert seen["findings"] and all("[" in f for f in seen["findings"][:3])
    assert not seen["overflow"]  # nothing wider than a 1400 px window


def test_html_report_in_chromium(browser: Browser, small_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "rep"
    assert CliRunner().invoke(app, ["report", str(small_run), "--out", str(out)]).exit_code == 0
    seen = _open(browser, out / "index.html")
    _check(seen, ["Summary", "Win rate", "Curse impact", "Board fairness", "Game shape"])
    assert len(seen["images"]) >= 5
    assert any("first seat" in f for f in seen["findings"])


def test_treasure_island_html_report_in_chromium(
    browser: Browser, ti_run: Path, tmp_path: Path
) -> None:
    out = tmp_path / "rep"
    assert CliRunner().invoke(app, ["report", str(ti_run), "--out", str(out)]).exit_code == 0
    seen = _open(browser, out / "index.html")
    _check(
        seen,
        [
            "Summary",
            "Win rate",
            "Bust rate against the exact chance",
            "Plunder sizes",
            "Key + Chest bonus",
            "Use of each power",
            "Game shape",
        ],
    )
    assert any("exact chance" in f for f in seen["findings"])


def test_a_run_and_its_twin_read_in_six_screens_with_the_headline_first(
    browser: Browser, tmp_path: Path
) -> None:
    """The demo's shape (a 4-player run and its twin without curses, several islands) at a
    1400 x 900 window: the headline is the first thing under the title and fits the first
    screen, says what report.json says, every section is there, and the page is at most six
    screens long (what found nothing or only describes is folded)."""
    base = tmp_path / "demo"
    simulate = ["simulate", "--backend", "serial", "--shard-size", "60", "--games", "240",
                "--islands", "abc-1,ABC-2,generated:3", "--seed", "3", "--out", str(base),
                "--twin", "curses"]  # fmt: skip
    runner = CliRunner()
    assert runner.invoke(app, simulate).exit_code == 0
    out = tmp_path / "rep"
    twin = tmp_path / "demo-without-curses"
    result = runner.invoke(app, ["report", str(base), str(twin), "--out", str(out)])
    assert result.exit_code == 0, result.output
    said = json.loads((out / "report.json").read_text())["headline"]
    assert 1 <= len(said) <= 3
    with new_page(browser) as (page, errors):
        page.set_viewport_size({"width": 1400, "height": 900})
        page.goto((out / "index.html").as_uri())
        seen = page.evaluate(
            """() => {
                const h = document.querySelector('h1').nextElementSibling;
                return {
                    first: h.className,
                    bottom: h.getBoundingClientRect().bottom,
                    sentences: Array.from(h.querySelectorAll('p')).map(p => p.textContent),
                    nav: Array.from(document.querySelectorAll('nav a')).map(a => a.textContent),
                    height: document.documentElement.scrollHeight,
                };
            }"""
        )
    assert errors == []
    assert seen["first"] == "headline" and seen["bottom"] < 900
    assert seen["sentences"] == said
    assert seen["nav"] == [
        "Summary", "Win rate", "Curse impact", "Board fairness", "Game shape"
    ]  # fmt: skip
    assert seen["height"] / 900 <= 6, seen["height"] / 900
