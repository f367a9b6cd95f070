"""Choices per decision as a balance objective: its value from block sums a hand can check,
each game's count exactly the reports' count for the same game played again, the games
played through the counting referee exactly as without it, and a study with it played on the
reference engine (asked for the compiled one: one line saying why not)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments import sweep
from pipelines.experiments.balance_objectives import Blocks, Sums
from pipelines.experiments.balance_shape import NEEDS_REFEREE
from pipelines.experiments.balance_spec import load_spec
from pipelines.experiments.balance_study import run_study, sweep_spec
from pipelines.metrics.source import open_run
from pipelines.play import choices
from pipelines.play.outcomes import CHOICE_TOTALS, outcomes
from tests.pipelines.balance_studies import TI, TOBAGO, write_study

runner = CliRunner()

OBJECTIVES = """
[[objective]]
metric = "choices_per_decision"
"""


def _study(tmp_path: Path, values: dict[str, str], extra: str = "") -> Path:
    return write_study(tmp_path, values, OBJECTIVES, extra)


def test_choices_per_decision_from_sums_a_hand_checks(tmp_path: Path) -> None:
    (objective,) = load_spec(_study(tmp_path, TOBAGO)).objectives
    assert objective.counts_choices and objective.bootstrapped and not objective.shape
    # Two blocks: 10 decisions offering 37 choices, then 30 offering 83: 120 / 40 = 3.
    blocks = Blocks.of(
        {
            i: {"games": 2, "first": 1.0, "turns": 20.0, "cut_off": 0, "by_player": [1.0, 1.0],
                "totals": dict(zip(CHOICE_TOTALS, counts, strict=True))}
            for i, counts in enumerate([(10, 37), (30, 83)])
        },
        CHOICE_TOTALS,
    )  # fmt: skip
    sums = Sums(blocks.columns, blocks.matrix.sum(axis=0))
    assert objective.value(sums)[0] == pytest.approx(3.0)
    assert dataclasses.replace(objective, target=3.5).value(sums)[0] == pytest.approx(0.5)


def test_a_games_count_is_the_reports_for_that_game(tmp_path: Path) -> None:
    plays = sweep_spec(load_spec(_study(tmp_path, TOBAGO)))
    assert plays.choices and not plays.shape and plays.engine == "reference"
    part = sweep.play_chunk((plays, {}, 0, 8))
    got = [sum(b["totals"][k] for b in part["blocks"].values()) for k in CHOICE_TOTALS]
    run = tmp_path / "run"
    done = runner.invoke(app, ["simulate", "--players", "hunter,cautious", "--games", "8",
                               "--seed", "1", "--islands", "abc-1", "--backend", "serial",
                               "--out", str(run)])  # fmt: skip
    assert done.exit_code == 0, done.output
    info = open_run(run)
    tallies = [choices.count_game(info, g) for g in range(8)]  # played again, checked
    assert got == [sum(t.decisions for t in tallies), sum(t.choices for t in tallies)]
    assert got[1] > got[0] > 0


def test_counting_does_not_change_the_games(tmp_path: Path) -> None:
    plays = sweep_spec(load_spec(_study(tmp_path, TI)))
    rules = sweep._rules(plays, {"rum_cards": 3})
    plans = [plays.schedule.plan(g) for g in range(12)]
    plain = outcomes("reference", plans, rules, plays.lineup)
    counted = outcomes("reference", plans, rules, plays.lineup, count_choices=True)
    assert [o._replace(totals={}) for o in counted] == [o._replace(totals={}) for o in plain]
    for o in counted:
        assert o.totals[CHOICE_TOTALS[1]] >= o.totals[CHOICE_TOTALS[0]] > 0
    with pytest.raises(ValueError, match="reference engine's referee"):
        outcomes("compiled", plans, rules, plays.lineup, count_choices=True)


def test_a_choices_study_plays_on_the_reference_engine(tmp_path: Path) -> None:
    spec = load_spec(_study(tmp_path, TI))
    plays = sweep_spec(spec)
    assert plays.engine == "reference" and plays.choices
    result = run_study(spec, tmp_path / "out", plays)
    assert result["engine"] == "reference" and result["engine_why"] == NEEDS_REFEREE
    for t in result["trials"]:
        for value, low, high in zip(t["values"], t["low"], t["high"], strict=True):
            assert low <= value <= high and value >= 1.0 and np.isfinite(high)
    asked = _study(tmp_path, TI, 'engine = "compiled"\n')
    out = runner.invoke(app, ["balance", str(asked), "--out", str(tmp_path / "x")])
    assert out.exit_code == 2
    (line,) = out.stderr.strip().splitlines()
    assert "study.toml" in line and line.endswith(
        f"engine compiled: {NEEDS_REFEREE} (auto plays them on the reference)"
    )
