"""The Treasure Island report on a real 2,000-game run: every seat whose win share differs
from the fair share is a finding (the last seat's disadvantage, not only the first seat's),
the strategy x power table is a grid, and no word speaks of islands."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app

runner = CliRunner()


@pytest.fixture(scope="module")
def ti_report(ti_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ti-report")
    result = runner.invoke(app, ["report", str(ti_run), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _json(rep: Path) -> dict[str, Any]:
    obj: dict[str, Any] = json.loads((rep / "report.json").read_text())
    return obj


def test_every_seat_off_its_fair_share_is_a_finding(ti_report: Path) -> None:
    obj = _json(ti_report)
    seats = obj["cohorts"][0]["sections"]["win_rate"]["win_rate_by_seat"]
    off = {
        (r["n_players"], r["seat"])
        for r in seats
        if r["advantage_low"] > 0 or r["advantage_high"] < 0
    }
    # This run's last seat of four wins 2.1 points less than its fair share [-3.9, -0.2].
    assert (4, 3) in off
    found = [f for f in obj["findings"] if f["metric"] == "seat_advantage"]
    assert {f["group"] for f in found} == {f"seat {s + 1} ({n} players)" for n, s in off if s}
    (last,) = [f for f in found if f["group"] == "seat 4 (4 players)"]
    row = next(r for r in seats if (r["n_players"], r["seat"]) == (4, 3))
    assert (last["estimate"], last["low"], last["high"]) == (
        row["advantage"],
        row["advantage_low"],
        row["advantage_high"],
    )
    assert last["text"].startswith("Seat 4 (the last) wins 2.1 points less often than its fair")
    assert last["text"] in (ti_report / "summary.md").read_text()


def test_the_strategy_by_power_table_is_a_grid(ti_report: Path) -> None:
    obj = _json(ti_report)
    use = obj["cohorts"][0]["sections"]["push_your_luck"]["power_use"]
    page = (ti_report / "index.html").read_text()
    section = page[page.index('<section id="powers">') :].split("</section>")[0]
    tables = section.split("</table>")[:-1]
    assert len(tables) == 2  # the powers used, then those that had nothing to act on
    for table, nothing in zip(tables, (False, True), strict=True):
        _check_grid(table, [r for r in use if r["power"].endswith("_nothing") == nothing])


def _check_grid(table: str, use: list[dict[str, Any]]) -> None:
    """One row per strategy, one column per power used, each cell the uses per game with
    its interval (or 0)."""
    head = [unescape(h) for h in re.findall(r"<th>(.*?)</th>", table)]
    used = list(dict.fromkeys(r["power"] for r in use if r["uses"]))
    assert head == ["strategy"] + [p.removesuffix("_nothing").replace("_", " ") for p in used]
    rows = re.findall(r"<tr><td>(.*?)</td>(.*?)</tr>", table)
    strategies = list(dict.fromkeys(r["strategy"] for r in use))
    assert [name for name, _ in rows] == strategies and len(strategies) == 4
    for name, cells in rows:
        shown = re.findall(r"<td>(.*?)</td>", cells)
        assert len(shown) == len(used)
        for power, cell in zip(used, shown, strict=True):
            r = next(r for r in use if (r["strategy"], r["power"]) == (name, power))
            want = "0"
            if r["uses"]:
                value = f"{r['per_game']:.2f}"
                if value == "0.00":  # too rare for a rate: the count
                    value = f"{r['uses']} use" + ("s" if r["uses"] != 1 else "")
                want = (
                    f'{value}<br><span class="note">'
                    f"[{max(r['low'], 0.0):.2f}, {r['high']:.2f}]</span>"
                )
            assert cell == want, (name, power)
            assert "-0.00" not in cell


def test_no_word_about_islands(ti_report: Path) -> None:
    for name in ("index.html", "summary.md"):
        assert "island" not in (ti_report / name).read_text().replace("Treasure Island", "")


def test_the_bust_check_that_finds_nothing_is_folded(ti_report: Path) -> None:
    """The engine check answers nothing more when busts agree with their exact chance: its
    figure and table are folded under one line, the turns by strategy stay open."""
    report = json.loads((ti_report / "report.json").read_text())
    (check,) = [f for f in report["findings"] if f["metric"] == "bust_check"]
    assert check["text"].startswith("Busts show no clear departure")
    page = (ti_report / "index.html").read_text()
    busts = page[page.index('<section id="busts">') : page.index('<section id="plunder">')]
    assert "<details><summary>Busts agree with their exact chance: the figure and table" in busts
    assert busts.index("</details>") < busts.index("<h3>Turns by strategy</h3>")
