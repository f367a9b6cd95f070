"""The HTML report opened in a real headless Chromium (Debian's package, which ``.ci/run``
installs): every image loads and the console shows no error."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import sync_playwright
from typer.testing import CliRunner

from pipelines.cli import app

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _open(index: Path) -> tuple[list[list[Any]], list[str], list[str]]:
    """Images (alt, loaded, width), section headings and console errors of a page."""
    if not Path(CHROMIUM).exists():
        message = "Chromium is missing: install Debian's chromium package (.ci/run does)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(index.as_uri())
        images = page.evaluate(
            "Array.from(document.images).map(i => [i.alt, i.complete, i.naturalWidth])"
        )
        headings = page.evaluate(
            "Array.from(document.querySelectorAll('h2')).map(h => h.textContent)"
        )
        browser.close()
    return images, headings, errors


def test_html_report_in_chromium(small_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "rep"
    assert CliRunner().invoke(app, ["report", str(small_run), "--out", str(out)]).exit_code == 0
    images, headings, errors = _open(out / "index.html")
    assert len(images) >= 4
    assert all(complete and width > 0 for _, complete, width in images), images
    assert headings == ["Summary", "Win rate", "Curse impact", "Board fairness"]
    assert errors == []


def test_treasure_island_html_report_in_chromium(ti_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "rep"
    assert CliRunner().invoke(app, ["report", str(ti_run), "--out", str(out)]).exit_code == 0
    images, headings, errors = _open(out / "index.html")
    assert len(images) >= 5
    assert all(complete and width > 0 for _, complete, width in images), images
    assert headings == [
        "Summary",
        "Win rate",
        "Seat advantage",
        "Bust rate against the exact chance",
        "Plunder sizes",
        "Key + Chest bonus",
        "Use of each power",
    ]
    assert errors == []
