"""``tourney report`` end to end on a small real run, and the documents' escaping."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli import app
from pipelines.report import JSON_KEYS
from reports import documents

runner = CliRunner()


def test_report_writes_every_output(small_run: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", str(small_run), "--out", str(tmp_path / "rep")])
    assert result.exit_code == 0, result.output
    rep = tmp_path / "rep"
    assert (rep / "index.html").is_file() and (rep / "summary.md").is_file()
    obj = json.loads((rep / "report.json").read_text())
    assert tuple(obj) == JSON_KEYS  # stable top-level keys, in order
    assert obj["games"] == 48 and obj["complete"] is True
    shares = {r["strategy"]: r["win_share"] for r in obj["win_rate"]["win_rate_by_strategy"]}
    assert set(shares) == {"hunter", "cartographer", "collector", "cautious"}
    assert abs(sum(shares.values()) - 1.0) < 1e-9  # one win shared out per game
    assert {"island_fairness", "seat_win_shares"} <= set(obj["board_fairness"])
    assert (rep / "tables" / "win_rate_by_strategy.parquet").is_file()
    assert (rep / "tables" / "cell_heat.csv").is_file()
    page = (rep / "index.html").read_text()
    assert page.count("data:image/png;base64,") >= 4 and "http" not in page.split("<body>")[1]


def test_unfinished_run_is_reported_and_flagged(small_run: Path, tmp_path: Path) -> None:
    manifest = json.loads((small_run / "manifest.json").read_text())
    partial = tmp_path / "partial"
    partial.mkdir()
    for table in ("games", "seats", "moves", "treasures", "failures"):
        (partial / table).mkdir()
        first = sorted((small_run / table).glob("*.parquet"))[0]
        (partial / table / first.name).write_bytes(first.read_bytes())
    manifest["status"] = "partial"
    (partial / "manifest.json").write_text(json.dumps(manifest))
    result = runner.invoke(app, ["report", str(partial), "--format", "json,md"])
    assert result.exit_code == 0
    assert "unfinished run" in result.stderr
    obj = json.loads((partial / "report" / "report.json").read_text())
    assert obj["complete"] is False and 0 < obj["games"] < 48
    assert "Unfinished run" in (partial / "report" / "summary.md").read_text()
    assert not (partial / "report" / "index.html").exists()


def test_report_bad_input(tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 2 and "not a run directory" in result.stderr
    result = runner.invoke(app, ["report", str(tmp_path), "--format", "pdf"])
    assert result.exit_code == 2 and "unknown format 'pdf'" in result.stderr


def test_user_text_is_escaped() -> None:
    rows = [{"strategy": "<script>alert(1)</script>", "win_share": 0.5}]
    table = documents.html_table(rows)
    assert "<script>" not in table and "&lt;script&gt;" in table
    page = documents.html_page("a & b", [("x", "<h>", table)])
    assert "a &amp; b" in page and "&lt;h&gt;" in page


def test_missing_part_file_is_named(small_run: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "manifest.json").write_text((small_run / "manifest.json").read_text())
    for table in ("games", "seats", "moves", "treasures", "failures"):
        (broken / table).mkdir()
        for part in sorted((small_run / table).glob("*.parquet")):
            if table == "moves" and part.name == "part-000001.parquet":
                continue
            (broken / table / part.name).write_bytes(part.read_bytes())
    result = runner.invoke(app, ["report", str(broken)])
    assert result.exit_code == 2
    assert "moves/part-000001.parquet: missing part file (shard 1 has games but no moves)" in (
        result.stderr
    )


def test_ablated_run_gives_the_paired_curse_effect(tmp_path: Path) -> None:
    common = ["simulate", "--backend", "serial", "--games", "40", "--shard-size", "20",
              "--seed", "9", "--islands", "abc-1,ABC-2"]  # fmt: skip
    base, ablated = tmp_path / "base", tmp_path / "nocurse"
    assert runner.invoke(app, [*common, "--out", str(base)]).exit_code == 0
    result = runner.invoke(app, [*common, "--ablate", "curses", "--out", str(ablated)])
    assert result.exit_code == 0, result.output
    manifest = json.loads((ablated / "manifest.json").read_text())
    assert manifest["spec"]["resolved_rules"]["curse_count"] == 0
    assert manifest["spec"]["rules"] == "rulebook without curses"
    out = tmp_path / "rep"
    assert runner.invoke(app, ["report", str(base), str(ablated), "--out", str(out)]).exit_code == 0
    obj = json.loads((out / "report.json").read_text())
    paired = obj["curse_impact"]["paired_difference"]
    assert {r["strategy"] for r in paired} == {"hunter", "cartographer", "collector", "cautious"}
    assert all(r["pairs"] == 40 for r in paired)
    assert abs(sum(r["win_share_diff"] for r in paired)) < 1e-9  # one win per game either way
