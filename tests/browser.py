"""Real headless Chromium for the page tests: one place that finds the browser, starts it,
opens pages at a 1400 px window and collects each page's console errors."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

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


@contextmanager
def chromium() -> Iterator[Browser]:
    """A running headless Chromium. Without Chromium the test is skipped, or fails under CI
    (where .ci/run installs it)."""
    if not Path(CHROMIUM).exists():
        message = "Chromium is missing: install Debian's chromium package (.ci/run does)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def new_page(browser: Browser) -> Iterator[tuple[Page, list[str]]]:
    """A fresh page of ``browser`` (its own context: nothing kept from another page) at
    1400 x 1000 px, and the console and page errors it collects; closed afterwards."""
    errors: list[str] = []
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page, errors
    finally:
        page.close()


@contextmanager
def chromium_page() -> Iterator[tuple[Page, list[str]]]:
    """A Chromium of its own with one page, as :func:`new_page` gives it."""
    with chromium() as browser, new_page(browser) as opened:
        yield opened
