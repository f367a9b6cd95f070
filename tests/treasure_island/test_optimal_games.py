"""The single-turn optimum in real games: its answers are legal, and the report's gap to it
is paired by seed block. ``optimal`` takes seconds of CPU a game, so both tests read
the same two games: one seed block, ``optimal`` against ``stop-at(n=1)`` from either seat,
with characters dealt so that every power's decision is asked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.metrics.source import connect, open_run

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def optimal_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two games, one per process worker."""
    out = tmp_path_factory.mktemp("optimal") / "run"
    simulate = ["simulate", "--game", "treasure-island", "--games", "2", "--rules", "characters"]
    simulate += ["--backend", "process", "--workers", "2", "--shard-size", "1"]
    players = ["--players", "optimal,stop-at(n=1)", "--seed", "4", "--out", str(out)]
    made = CliRunner().invoke(app, [*simulate, *players])
    assert made.exit_code == 0, made.output
    return out


def test_optimal_plays_only_legal_answers(optimal_run: Path) -> None:
    # Any illegal answer or exception of a strategy is a recorded failure (its fallback is
    # played): none in either game, from either seat, and every power asked.
    con = connect([open_run(optimal_run)], include_unfinished=True)
    assert con.sql("SELECT count(*), sum(violations) FROM games").fetchall() == [(2, 0)]
    assert con.sql("SELECT count(*) FROM failures").fetchall() == [(0,)]
    seats = con.sql("SELECT seat, strategy::VARCHAR FROM seats ORDER BY game_id, seat").fetchall()
    assert sorted(seats) == [(0, "optimal"), (0, "stop-at(n=1)"), (1, "optimal"),
                             (1, "stop-at(n=1)")]  # fmt: skip
    events = {e for (e,) in con.sql("SELECT DISTINCT event::VARCHAR FROM moves").fetchall()}
    assert {"draft", "place", "reveal", "pistol", "plunder"} <= events


def test_the_gap_to_optimal_is_paired_by_seed_block(optimal_run: Path, tmp_path: Path) -> None:
    con = connect([open_run(optimal_run)])
    from pipelines.treasure_island.report import optimal_gap

    (gap,) = optimal_gap(con).to_pylist()
    # By hand: per block, stop-at's mean points per turn minus optimal's.
    blocks = con.sql(
        """SELECT g.block, s.strategy::VARCHAR, avg(t.points)
           FROM turns t JOIN seats s USING (run, game_id, seat) JOIN games g USING (run, game_id)
           GROUP BY 1, 2"""
    ).fetchall()
    per: dict[int, dict[str, float]] = {}
    for block, strategy, ppt in blocks:
        per.setdefault(block, {})[strategy] = ppt
    diffs = [v["stop-at(n=1)"] - v["optimal"] for v in per.values()]
    assert gap["strategy"] == "stop-at(n=1)" and gap["blocks"] == 1
    assert abs(gap["gap"] - sum(diffs) / len(diffs)) < 1e-9
    # One seed block is too few for an interval (Student's t needs 5): null bounds, and
    # the page and the finding say so instead of an interval. The page is the Markdown one:
    # it renders the same sections as the HTML page, whose replay pages would play both
    # games again (the optimal player's every solve, as long as the run itself); so would
    # counting the choices per decision, hence --choices 0.
    assert gap["low"] is None and gap["high"] is None
    rep = tmp_path / "rep"
    args = ["report", str(optimal_run), "--out", str(rep), "--format", "md,json", "--choices", "0"]
    assert CliRunner().invoke(app, args).exit_code == 0
    page = (rep / "summary.md").read_text()
    assert "## Gap to the single-turn optimum" in page
    section = page.split("## Gap to the single-turn optimum")[1].split("\n## ")[0]
    assert "| stop-at(n=1) | 1 | " in section and "(too few blocks for an interval)" in section
    report = json.loads((rep / "report.json").read_text())
    (finding,) = [f for f in report["findings"] if f["metric"] == "optimal_gap"]
    assert finding["low"] is None and "(too few blocks for an interval)" in finding["text"]
