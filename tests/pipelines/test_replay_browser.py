"""Replay pages in a real headless Chromium (Debian's package): no console error, every event
stepped through with the keyboard with the event list in step, events clicked, the URL
fragment kept, and what the page shows at a few steps equal to the engine's state there (ATV
cells, candidate counts, scores; stash points for Treasure Island)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from typer.testing import CliRunner

from pipelines.cli.main import app
from tests.browser import chromium_page
from tests.pipelines.replay_helpers import game_at

runner = CliRunner()


@pytest.fixture(scope="module")
def browser_page() -> Iterator[tuple[Page, list[str]]]:
    """A Chromium page at 1400 px and the console errors it collects."""
    with chromium_page() as opened:
        yield opened


def _write(tmp_path: Path, game: str) -> Path:
    out = tmp_path / f"{game}.html"
    result = runner.invoke(app, ["replay", "--game", game, "--seed", "7", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _open(page: Page, path: Path, step: int | None = None) -> float:
    """Open the page (at ``step``); the milliseconds from the start of loading until it had
    drawn its first step (the page marks that moment)."""
    page.goto("about:blank")  # a fresh load, not a move within the page
    page.goto(path.as_uri() + (f"#step={step}" if step is not None else ""))
    page.wait_for_selector("#event-list li.current")
    ready: float = page.evaluate("performance.getEntriesByName('replay-ready')[0].startTime")
    return ready


def _position(page: Page) -> int:
    return int(page.evaluate("state.step"))


def _hash_is(page: Page, want: str) -> None:
    """The address shows ``want`` (it follows the position a moment later)."""
    page.wait_for_function(f"location.hash === {want!r}", timeout=3000)


def _step_through(page: Page) -> int:
    """Step from the start to the end with the arrow key; the number of events."""
    total = int(page.evaluate("EVENTS.length"))
    page.keyboard.press("Home")
    assert _position(page) == 0
    for k in range(1, total + 1):
        page.keyboard.press("ArrowRight")
        current = page.evaluate(
            "document.querySelector('#event-list li.current:not(.turn-head)')"
            "?.getAttribute('data-step')"
        )
        assert current == str(k)
    assert _position(page) == total
    _hash_is(page, f"#step={total}")
    page.keyboard.press("ArrowRight")  # past the end: stays at the last step
    assert _position(page) == total
    page.keyboard.press("ArrowLeft")
    assert _position(page) == total - 1
    return total


def _cell(q: int, r: int) -> str:
    return f"({q},{r})"


def _tobago_shown(page: Page) -> dict[str, Any]:
    shown: dict[str, Any] = page.evaluate(
        """() => ({
            atv: Array.from(document.querySelectorAll('.seat .atv-cell')).map(e => e.textContent),
            atvSvg: Array.from(document.querySelectorAll('svg g.atv'))
                .map(g => [Number(g.dataset.seat), Number(g.dataset.cell)]),
            scores: Array.from(document.querySelectorAll('.seat')).map(
                s => s.querySelector('.score')?.textContent ?? null),
            maps: Array.from(document.querySelectorAll('.map')).map(
                m => m.querySelector('.count')?.textContent ?? 'empty'),
            legend: Array.from(document.querySelectorAll('#legend .item')).map(e => e.textContent),
            hands: Array.from(document.querySelectorAll('.seat')).map(
                s => s.querySelectorAll('.hand li').length),
        })"""
    )
    return shown


def test_tobago_replay_page_shows_the_engines_state(
    browser_page: tuple[Page, list[str]], tmp_path: Path
) -> None:
    page, errors = browser_page
    errors.clear()
    path = _write(tmp_path, "tobago")
    assert _open(page, path) < 1000  # milliseconds; about 100 on a laptop
    total = _step_through(page)
    # Jumping to a turn goes to its first event; play moves on until paused.
    page.fill("#turn-input", "5")
    page.press("#turn-input", "Enter")
    first = page.evaluate("EVENTS.findIndex(e => e.turn >= 5)") + 1
    assert _position(page) == first
    page.select_option("#speed", "32")
    page.click("#play")
    page.wait_for_function(f"state.step >= {first + 5}", timeout=5000)
    page.click("#play")
    paused = _position(page)
    page.wait_for_timeout(300)
    assert _position(page) == paused
    # Clicking an event goes there.
    page.click('#event-list li[data-step="40"]')
    assert _position(page) == 40
    _hash_is(page, "#step=40")
    raise_step = 1 + next(i for i, e in enumerate(page.evaluate("EVENTS")) if e["name"] == "raise")
    for step in (0, 12, raise_step, total // 2, total):
        _open(page, path, step)  # the fragment puts the page at the step
        assert _position(page) == step
        state = game_at("tobago", 7, step).state
        coords = state.island.coords
        shown = _tobago_shown(page)
        want_atv = [_cell(*coords[c]) if c >= 0 else "not placed" for c in state.atv]
        assert shown["atv"] == want_atv, step
        assert sorted(shown["atvSvg"]) == [[s, c] for s, c in enumerate(state.atv) if c >= 0]
        assert shown["scores"] == [str(state.score(p)) for p in range(state.n)], step
        want_maps = [
            str(state.map_cand[m].bit_count()) if state.map_cards[m] else "empty" for m in range(4)
        ]
        assert shown["maps"] == want_maps, step
        assert shown["hands"] == [len(h) for h in state.hands]
    assert {"jungle", "mountain", "scrub", "beach", "river", "lake", "hut", "palm"} <= set(
        shown["legend"]
    )
    # One seat's view: the others' hands and scores are face down.
    page.select_option("#view", "1")
    _hash_is(page, f"#step={total}&view=1")
    seen = _tobago_shown(page)
    assert seen["hands"][1] == len(state.hands[1]) and seen["hands"][0] == 0
    assert seen["scores"][1] == str(state.score(1)) and seen["scores"][0] is None
    assert errors == []


def test_treasure_island_replay_page_shows_the_engines_state(
    browser_page: tuple[Page, list[str]], tmp_path: Path
) -> None:
    page, errors = browser_page
    errors.clear()
    path = _write(tmp_path, "treasure-island")
    assert _open(page, path) < 1000
    total = _step_through(page)
    page.click('#event-list li[data-step="25"]')
    assert _position(page) == 25
    events = page.evaluate("EVENTS")
    bust_step = 1 + next(i for i, e in enumerate(events) if e["name"] == "bust")
    for step in (0, 9, bust_step, total // 2, total):
        _open(page, path, step)
        g = game_at("treasure-island", 7, step)
        shown = page.evaluate(
            """() => ({
                points: Array.from(document.querySelectorAll('.seat .points'))
                    .map(e => Number(e.textContent)),
                pile: Number(document.querySelector('.pile-count').textContent),
                area: document.querySelectorAll('.area .card').length,
            })"""
        )
        assert shown["points"] == g.points, step
        assert shown["pile"] == len(g.pile), step
        if step == bust_step:  # the play area and the card that busted it
            assert shown["area"] == len(g.area) + 1
    assert errors == []


@pytest.mark.parametrize("run_fixture", ["small_run", "ti_run"])
def test_a_reports_link_opens_the_replay_at_its_moment(
    browser_page: tuple[Page, list[str]],
    tmp_path: Path,
    run_fixture: str,
    request: pytest.FixtureRequest,
) -> None:
    """Each "Open its replay page" link of a report, clicked in the report, opens the page
    at the step the link names, with that step's event marked as the current one."""
    import json

    page, errors = browser_page
    errors.clear()
    run_dir: Path = request.getfixturevalue(run_fixture)
    out = tmp_path / "rep"
    result = runner.invoke(app, ["report", str(run_dir), "--out", str(out)])
    assert result.exit_code == 0, result.output
    looks = json.loads((out / "report.json").read_text())["games_to_look_at"]
    assert looks and all(g["step"] for g in looks)
    for g in looks:
        page.goto("about:blank")
        page.goto((out / "index.html").as_uri())
        # The games to look at are folded under one line: a reader opens it first.
        page.click("#summary details:has(ul.notable) > summary")
        page.click(f'a[href="{g["page"]}#step={g["step"]}"]')
        page.wait_for_selector("#event-list li.current")
        assert _position(page) == g["step"], g["kind"]
        current = page.evaluate(
            "document.querySelector('#event-list li.current:not(.turn-head)')"
            "?.getAttribute('data-step')"
        )
        assert current == str(g["step"])
        assert page.url.endswith(f"{g['page']}#step={g['step']}")
        # What the page shows names seats from 1, as everything else does.
        shown = page.evaluate("document.body.innerText")
        assert re.findall(r"\bP[0-9]\b", shown) == [] and "seat 1" in shown
        atv = page.evaluate(
            "Array.from(document.querySelectorAll('svg g.atv'))"
            ".map(g => [Number(g.dataset.seat), g.querySelector('text').textContent])"
        )
        assert all(label == str(seat + 1) for seat, label in atv)  # the board's seat marks
    assert errors == []
