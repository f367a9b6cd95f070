"""The meta-game section end to end: a tiny pool run reported gives the section in the page,
in ``summary.md`` and in ``report.json`` (a mix per table size summing to 1, every interval
holding its estimate, a line for the size where the whole pool sits at every table), and a
fixed lineup's report has none."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app

runner = CliRunner()
POOL = "hunter,cartographer,collector,cautious"


def _simulate(out: Path, *lineup: str) -> None:
    result = runner.invoke(
        app,
        ["simulate", *lineup, "--games=24", "--seed=5", "--backend=serial", f"--out={out}"],
    )
    assert result.exit_code == 0, result.output


def _report(run: Path) -> tuple[dict[str, Any], str, str]:
    out = run.parent / f"{run.name}-report"
    result = runner.invoke(app, ["report", str(run), "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text())
    return report, (out / "summary.md").read_text(), (out / "index.html").read_text()


@pytest.fixture(scope="module")
def pool_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str, str]:
    run = tmp_path_factory.mktemp("meta") / "pool"
    _simulate(run, f"--pool={POOL}", "--table-sizes=2,3,4")
    return _report(run)


def test_a_pool_report_has_a_mix_per_table_size_that_sums_to_one(
    pool_report: tuple[dict[str, Any], str, str],
) -> None:
    report, _, _ = pool_report
    records = {r["n_players"]: r for r in report["meta_game"]}
    assert sorted(records) == [2, 3, 4]
    assert (records[2]["method"], records[3]["method"]) == ("nash", "alpha-rank")
    for n in (2, 3):
        mix = records[n]["mix"]
        assert set(mix) == set(POOL.split(","))
        assert sum(v["p"] for v in mix.values()) == pytest.approx(1.0)
        for v in mix.values():
            assert v["low"] - 1e-12 <= v["p"] <= v["high"] + 1e-12
            assert v["low"] >= 0.0 and v["high"] <= 1.0 + 1e-12
        assert records[n]["replicates"] == 200 and records[n]["headline"].startswith(
            f"At {n} players the stable mix is"
        )
        assert set(records[n]["outside"]) <= {s for s, v in mix.items() if v["high"] < 0.01}
    assert len(records[2]["ranking"]) == 4 and records[3]["ranking"] is None
    assert max(v["p"] for v in records[3]["mix"].values()) <= 1 / 3 + 1e-9  # distinct members
    assert records[4]["method"] is None and "whole pool" in records[4]["note"]


def test_the_page_and_the_summary_show_the_section(
    pool_report: tuple[dict[str, Any], str, str],
) -> None:
    report, summary, page = pool_report
    for n in (2, 3, 4):
        assert f"### Meta-game, {n} players" in summary
    for record in report["meta_game"][:2]:
        assert record["headline"] in summary
    assert "share of the stable mix [95% interval]" in summary
    assert 'id="meta-game"' in page and "Meta-game, 2 players" in page
    assert report["meta_game"][0]["headline"].replace("'", "&#39;") in page


def test_a_fixed_lineup_has_no_meta_game(tmp_path: Path) -> None:
    run = tmp_path / "lineup"
    _simulate(run, "--players=hunter,cartographer,collector,cautious")
    report, summary, page = _report(run)
    assert report["meta_game"] == []
    assert "Meta-game" not in summary and 'id="meta-game"' not in page
    assert "meta_game" not in json.dumps(report["cohorts"])
