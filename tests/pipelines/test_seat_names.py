"""One seat numbering in everything a person reads: seats are numbered from 1 ("seat 1"),
never "P0"-style, in reports (HTML, Markdown, the findings and warnings of report.json), the
replay pages they link to and ``tourney play``'s text, for both games. (The data tables keep
their 0-based ``seat`` columns.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app

runner = CliRunner()
#: A seat named P0-style; embedded pictures are left out first (base64 holds any letters).
P_SEAT = re.compile(r"\bP[0-9]\b")
PICTURE = re.compile(r"data:image/png;base64,[A-Za-z0-9+/=]+")


def _p_seats(text: str) -> list[str]:
    return P_SEAT.findall(PICTURE.sub("", text))


@pytest.mark.parametrize("run_fixture", ["small_run", "ti_run"])
def test_reports_and_their_replay_pages_number_seats_from_1(
    run_fixture: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    run_dir: Path = request.getfixturevalue(run_fixture)
    out = tmp_path / "rep"
    result = runner.invoke(app, ["report", str(run_dir), "--out", str(out)])
    assert result.exit_code == 0, result.output
    obj = json.loads((out / "report.json").read_text())
    pages = sorted((out / "games").glob("*.html"))
    assert pages
    said = [f["text"] for f in obj["findings"]] + [w["text"] for w in obj["warnings"]]
    said += [g["text"] for g in obj["games_to_look_at"]]
    for name, text in [
        ("index.html", (out / "index.html").read_text()),
        ("summary.md", (out / "summary.md").read_text()),
        ("report.json texts", "\n".join(said)),
        *((p.name, p.read_text()) for p in pages),
    ]:
        assert _p_seats(text) == [], name
    # The replay pages' own words: the players line and every event's text.
    page = pages[0].read_text()
    assert "seat 1 " in page


@pytest.mark.parametrize(
    "args",
    [
        ["--game", "tobago", "--seed", "7", "--island", "aBc-2"],
        ["--game", "treasure-island", "--seed", "7"],
    ],
)
def test_play_text_numbers_seats_from_1(args: list[str]) -> None:
    result = runner.invoke(app, ["play", *args])
    assert result.exit_code == 0, result.output
    assert _p_seats(result.stdout) == []
    assert "seat 1 " in result.stdout and "seat 0" not in result.stdout
