"""One sign convention for a paired comparison: B - A in report.json, in the Markdown table,
in the findings and on the dot plot, said once at the top of the comparison."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli.main import app
from tests.metrics.test_report import COMMON, _report

runner = CliRunner()


def test_a_known_paired_effect_has_one_sign_everywhere(tmp_path: Path) -> None:
    base = tmp_path / "base"
    args = [*COMMON, "--games", "80", "--seed", "9", "--out", str(base), "--twin", "curses"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    out = tmp_path / "rep"
    obj = _report(base, tmp_path / "base-without-curses", out=out)
    (pairing,) = obj["comparisons"]
    # The known effect of these seeds: cautious wins more often without curses (B), by more
    # than the interval's width leaves in doubt.
    (diff,) = [
        d for d in pairing["differences"] if d["metric"] == "win_share" and d["group"] == "cautious"
    ]
    assert 0 < diff["low"] < diff["estimate"] < diff["high"]
    (finding,) = [
        f for f in obj["findings"] if f["metric"] == "paired_win_share" and f["group"] == "cautious"
    ]
    assert (finding["estimate"], finding["low"], finding["high"]) == (
        diff["estimate"],
        diff["low"],
        diff["high"],
    )
    points = f"{100 * diff['estimate']:.1f} points"
    assert finding["text"].startswith(f"Removing curses raises cautious's win share by {points}")
    # Game length: shorter without curses, negative in the JSON, "shortens" in words.
    (turns,) = [d for d in pairing["differences"] if d["metric"] == "turns"]
    (said,) = [f for f in obj["findings"] if f["metric"] == "paired_turns"]
    assert turns["high"] < 0 and said["estimate"] == turns["estimate"]
    assert said["text"].startswith("Removing curses shortens games")

    summary = (out / "summary.md").read_text()
    # The comparison in the curse section, as on the page; said once in summary.md.
    section = summary.split("### What curses do")[1]
    assert summary.count("Differences are B - A: ") == 1
    # The runs by their short names (their long labels are said once, in the list of runs).
    assert "Differences are B - A: base-without-curses (B) minus base (A), " in section
    row = re.search(r"^\| cautious \| 80 \| (\S+) \[", section, re.MULTILINE)
    assert row is not None and row.group(1) == f"+{100 * diff['estimate']:.1f}"
    # The HTML page says the convention once in the comparison and nowhere contradicts it.
    page = (out / "index.html").read_text()
    assert page.count("Differences are B - A: ") == 1
    assert "A - B" not in page and "Curses lower" not in page
