"""The game-shape measures as balance objectives (lead changes, comebacks, when the winner is
known, and the winner's lead after a tenth of the game from the score trajectories): each
objective's value from block sums a hand can check, each game's figures exactly the reports' for
the same game (the reports' own per-game code over its move log), a study with one played on the
reference engine (asked for the compiled one: one line saying why not), and a game whose report
part cannot read its scores refused on load."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments import sweep
from pipelines.experiments.balance_objectives import SHAPE, Blocks, Sums
from pipelines.experiments.balance_spec import load_spec
from pipelines.experiments.balance_study import run_study, sweep_spec
from pipelines.metrics import game_shape
from pipelines.metrics.source import connect, open_run
from pipelines.report.assemble import game_report
from tests.pipelines.balance_studies import TI, TOBAGO, write_study

runner = CliRunner()

OBJECTIVES = """
[[objective]]
metric = "lead_changes"
[[objective]]
metric = "comeback_rate"
[[objective]]
metric = "decided_at"
"""


def _study(tmp_path: Path, values: dict[str, str], extra: str = "") -> Path:
    return write_study(tmp_path, values, OBJECTIVES, extra)


def test_each_shape_objective_from_sums_a_hand_checks(tmp_path: Path) -> None:
    spec = load_spec(_study(tmp_path, TOBAGO))
    lead, comeback, decided = spec.objectives
    # Three games: 2, 0 and 1 lead changes; a sole leader at two thirds in two, one of whom
    # lost; the winner known after half, all and three quarters of the game.
    block = {"games": 3, "first": 1.0, "turns": 30.0, "cut_off": 0, "by_player": [1.0, 2.0],
             "totals": {"shape_games": 3, "shape_lead_changes": 3, "shape_led": 2,
                        "shape_comeback": 1, "shape_decided_at": 2.25}}  # fmt: skip
    blocks = Blocks.of({0: block}, SHAPE)
    sums = Sums(blocks.columns, blocks.matrix.sum(axis=0))
    assert lead.value(sums)[0] == pytest.approx(1.0)
    assert comeback.value(sums)[0] == pytest.approx(50.0)
    assert decided.value(sums)[0] == pytest.approx(75.0)
    with_target = dataclasses.replace(lead, target=3.0)
    assert with_target.value(sums)[0] == pytest.approx(2.0)


def test_a_games_shape_is_the_reports_for_that_game(tmp_path: Path) -> None:
    spec = load_spec(_study(tmp_path, TOBAGO))
    plays = sweep_spec(spec)
    assert plays.shape and plays.engine == "reference"
    part = sweep.play_chunk((plays, {}, 0, 8))
    got = dict.fromkeys(SHAPE, 0.0)
    for b in part["blocks"].values():
        for k in got:
            got[k] += b["totals"].get(k, 0)
    run = tmp_path / "run"
    done = runner.invoke(app, ["simulate", "--players", "hunter,cautious", "--games", "8",
                               "--seed", "1", "--islands", "abc-1", "--backend", "serial",
                               "--out", str(run)])  # fmt: skip
    assert done.exit_code == 0, done.output
    con = connect([open_run(run)], include_unfinished=True)
    rows = game_shape.per_game(con, game_report("tobago").score_events or "").to_pylist()
    assert len(rows) == got["shape_games"] == 8
    assert got["shape_lead_changes"] == sum(r["lead_changes"] for r in rows)
    assert got["shape_led"] == sum(r["leader_lost"] is not None for r in rows)
    assert got["shape_comeback"] == sum(bool(r["leader_lost"]) for r in rows)
    assert got["shape_decided_at"] == pytest.approx(sum(r["decided_at"] for r in rows))
    assert got["shape_lead_changes"] > 0 and 0 < got["shape_decided_at"] < 8
    sole = [r for r in rows if r["winner"] is not None]
    assert got["shape_sole"] == len(sole) > 0
    for j in (1, 5, 10):
        lead = sum(r[f"winner_at_{j}"] - r[f"others_at_{j}"] for r in sole)
        assert got[f"shape_gap_{j}"] == pytest.approx(lead)
    assert got["shape_gap_10"] > 0  # a sole winner ends ahead of the others' mean


def test_a_shape_study_plays_on_the_reference_engine(tmp_path: Path) -> None:
    spec = load_spec(_study(tmp_path, TI))
    plays = sweep_spec(spec)
    assert plays.engine == "reference" and plays.shape
    # Without a shape objective the same study plays on the compiled engine.
    plain = dataclasses.replace(spec, objectives=(dataclasses.replace(spec.objectives[0],
                                metric="game_length"),))  # fmt: skip
    assert sweep_spec(plain).engine == "compiled"
    result = run_study(spec, tmp_path / "out", plays)
    assert result["engine"] == "reference" and "move log" in result["engine_why"]
    for t in result["trials"]:
        for value, low, high in zip(t["values"], t["low"], t["high"], strict=True):
            assert low <= value <= high and np.isfinite(value)
    asked = _study(tmp_path, TI, 'engine = "compiled"\n')
    out = runner.invoke(app, ["balance", str(asked), "--out", str(tmp_path / "x")])
    assert out.exit_code == 2
    (line,) = out.stderr.strip().splitlines()
    assert line.endswith(
        "engine compiled: a game-shape objective reads each game's move log, which the "
        "compiled engine does not keep (auto plays them on the reference)"
    )
    assert "study.toml" in line


def test_a_game_without_score_events_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pipelines.report import assemble

    part = dataclasses.replace(assemble.game_report("tobago"), score_events=None)
    monkeypatch.setattr(assemble, "game_report", lambda game: part)
    result = runner.invoke(app, ["balance", str(_study(tmp_path, TOBAGO)), "--out",
                                 str(tmp_path / "out")])  # fmt: skip
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert "study.toml: objective 'lead_changes': Tobago's report part does not say how" in line


def test_the_winners_lead_from_sums_a_hand_checks(tmp_path: Path) -> None:
    from pipelines.report.balance_page import axis_label

    extra = '[[objective]]\nmetric = "score_gap"\n[[objective]]\nmetric = "score_gap"\nat = 10\n'
    path = _study(tmp_path, TOBAGO)
    path.write_text(path.read_text() + extra)
    *_, half, end = load_spec(path).objectives
    assert (half.name, half.at, end.name, end.at) == ("score_gap:5", 5, "score_gap:10", 10)
    assert half.unit == "coins" and half.shape and half.bootstrapped  # Tobago's score unit
    assert axis_label({"name": half.name, "at": 5, "unit": half.unit}) == (
        "score gap after 5/10 of the game, coins"
    )
    assert half.label == "the winner's lead after 5/10 of the game"
    # Four games, three with a sole winner, 2, 4 and 9 coins ahead of the others' mean at
    # half time and 6, 8 and 13 at the end (a tied game adds nothing).
    totals = {"shape_games": 4, "shape_sole": 3, "shape_gap_5": 15.0, "shape_gap_10": 27.0}
    block = {"games": 4, "first": 1.0, "turns": 40.0, "cut_off": 0, "by_player": [2.0, 1.0],
             "totals": totals}  # fmt: skip
    blocks = Blocks.of({0: block}, SHAPE)
    sums = Sums(blocks.columns, blocks.matrix.sum(axis=0))
    assert half.value(sums)[0] == pytest.approx(5.0)
    assert end.value(sums)[0] == pytest.approx(9.0)


@pytest.mark.parametrize("tenth", ["0", "11", "2.5", "true"])
def test_a_tenth_outside_the_game_is_one_line(tmp_path: Path, tenth: str) -> None:
    path = _study(tmp_path, TOBAGO)
    path.write_text(path.read_text() + f'[[objective]]\nmetric = "score_gap"\nat = {tenth}\n')
    result = runner.invoke(app, ["balance", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.endswith(
        f"study.toml: objective[3]: at = {tenth.replace('true', 'True')} is not allowed "
        "(a tenth of the game, 1 to 10)"
    )
