"""How long a report page is, in screenfuls: the page's height in headless Chromium at a
1400 x 900 viewport divided by 900, and optionally a picture of its first screen.

    .venv/bin/python scripts/screenfuls.py data/runs/demo/report/index.html
    .venv/bin/python scripts/screenfuls.py PAGE --shot docs/img/report-first-screen.png

Needs the dev extras (playwright) and Debian's chromium.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

WIDTH, HEIGHT = 1400, 900
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def screenfuls(pages: list[Path], shot: Path | None = None) -> list[tuple[Path, int, float]]:
    """Each page's height in pixels and in screenfuls; ``shot`` gets the first page's first
    screen as a PNG."""
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        for k, path in enumerate(pages):
            page.goto(path.resolve().as_uri())
            height = int(page.evaluate("document.documentElement.scrollHeight"))
            if shot is not None and k == 0:
                shot.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(shot))
            out.append((path, height, height / HEIGHT))
        browser.close()
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="+", type=Path)
    parser.add_argument("--shot", type=Path, help="PNG of the first page's first screen")
    args = parser.parse_args(argv)
    missing = [p for p in args.pages if not p.is_file()]
    if missing:
        print(f"screenfuls: {missing[0]}: no such file", file=sys.stderr)
        return 2
    for path, height, screens in screenfuls(args.pages, args.shot):
        print(f"{path}: {height} px = {screens:.1f} screenfuls at {WIDTH} x {HEIGHT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
