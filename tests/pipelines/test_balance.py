"""``tourney balance``: a study file checked on load, a tiny study end to end (its page,
JSON, trials and rules files), a study killed and run again ending as one never stopped, and
a rules file that ``simulate --rules`` takes."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments.balance_spec import check_expression, evaluate, load_spec
from pipelines.experiments.balance_study import run_study, sweep_spec
from pipelines.experiments.progress import Progress
from sim.errors import InputError
from tests.browser import chromium_page
from tests.pipelines.balance_kill import killed_then_resumed

runner = CliRunner()

TINY = """
game = "tobago"
players = ["hunter", "cautious"]
islands = "abc-1"
trials = 6
games = 16
rungs = 2
eta = 2
confirm_games = 120
confirm_top = 2
workers = 1
[space.legs_per_move]
choices = [2, 3, 4]
[space.curse_count]
low = 0
high = 3
[[objective]]
metric = "first_seat_advantage"
[[objective]]
metric = "game_length"
target = 30
"""


def _study(tmp_path: Path, text: str = TINY, name: str = "study.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (("trials = 6", "trials = 0"), "trials = 0 is not allowed (an integer from 1 to"),
        (("workers = 1", "workers = 1\nwhat = 3"), "unknown key 'what'"),
        (("[space.curse_count]", "[space.curses]"), "space.curses: not a Tobago rules key"),
        (("high = 3", "high = 0"), "space.curse_count: low = 0 must be below high = 0"),
        (("high = 3", "high = 99"), "space.curse_count"),
        (("choices = [2, 3, 4]", "choices = [2]"), "space.legs_per_move: choices = [2]"),
        (('metric = "game_length"', 'metric = "fun"'), "objective[1]: metric = 'fun' is not"),
        (("target = 30", 'target = 30\ndirection = "up"'), "objective[1]: direction = 'up'"),
        (
            ("workers = 1", 'workers = 1\nconstraints = ["hand_size < 5"]'),
            "constraint 'hand_size < 5' names 'hand_size'",
        ),
        (
            ("workers = 1", "workers = 1\nconstraints = [\"__import__('os')\"]"),
            "uses Call, which is not allowed",
        ),
        (('game = "tobago"', 'game = "chess"'), "study.toml: game: unknown game 'chess'"),
        (('"hunter", "cautious"', '"hunter", "nobody"'), "study.toml: players: unknown strategy"),
    ],
)
def test_a_bad_study_is_one_line_naming_the_file_and_key(
    tmp_path: Path, change: tuple[str, str], said: str
) -> None:
    path = _study(tmp_path, TINY.replace(*change))
    result = runner.invoke(app, ["balance", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and said in lines[0], lines
    assert not (tmp_path / "out").exists()


def test_constraints_are_read_without_eval() -> None:
    names = {"hand_size", "curse_count"}
    check_expression("hand_size <= 2 * curse_count + 4 and not curse_count == 3", names, "f")
    assert evaluate("hand_size <= 2 * curse_count + 4", {"hand_size": 6, "curse_count": 1}, "f")
    assert not evaluate("hand_size <= 2 * curse_count + 4", {"hand_size": 7, "curse_count": 1}, "f")
    assert evaluate(
        "3 < hand_size < 5 or curse_count % 2 == 1", {"hand_size": 6, "curse_count": 3}, "f"
    )
    for bad in ("hand_size.real > 1", "[1][0]", "lambda: 1", "hand_size if 1 else 2"):
        with pytest.raises(InputError, match="not allowed"):
            check_expression(bad, names, "f")


def test_a_tiny_study_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["balance", str(_study(tmp_path)), "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["candidates_searched"] == 6 and len(data["trials"]) == 6
    # The rulebook's setting is the first candidate, and every candidate played its rungs
    # on the same seed blocks (16 games, then 32).
    assert data["trials"][0]["params"] == {"legs_per_move": 3, "curse_count": 2}
    assert {t["games"] for t in data["trials"]} <= {16, 32}
    assert data["search_games"] == sum(t["games_played"] for t in data["trials"])
    for t in data["trials"]:
        for value, low, high in zip(t["values"], t["low"], t["high"], strict=True):
            assert low <= value <= high
    conf = data["confirmation"]
    if conf is not None:
        assert conf["games"] == 120 and conf["tests"] == 2 * len(conf["candidates"])
        for c in conf["candidates"]:
            for p in c["objectives"]:
                low, high = p["difference_interval"]
                assert low <= p["difference"] <= high
                assert p["better"] == (p["difference_interval_corrected"][1] < 0)
    assert data["headline"] and (out / "balance.html").read_text().startswith("<!DOCTYPE html>")
    assert (
        (out / "trials.csv")
        .read_text()
        .splitlines()[0]
        .startswith("number,legs_per_move,curse_count,rung,games")
    )
    assert (out / "study.journal").exists()
    # The page in a real browser: the headline first, every figure drawn, no error.
    with chromium_page() as (page, errors):
        page.goto((out / "balance.html").resolve().as_uri())
        assert page.locator("#headline p").first.inner_text() == data["headline"][0]
        sizes = page.eval_on_selector_all("img", "imgs => imgs.map(i => i.naturalWidth)")
        assert len(sizes) >= 1 + 2 + 2 and all(w > 0 for w in sizes), sizes
        assert errors == []


def test_a_killed_study_resumes_to_the_same_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = load_spec(_study(tmp_path))
    whole = run_study(spec, tmp_path / "whole", sweep_spec(spec))
    said: list[str] = []
    again = killed_then_resumed(spec, tmp_path / "again", monkeypatch, said.append)
    assert any(line.startswith("resuming the study: ") for line in said)
    assert again["trials"] == whole["trials"]
    assert again["confirmation"] == whole["confirmation"]
    assert again["headline"] == whole["headline"]
    # Another spec in the same directory is refused, not mixed in.
    other = load_spec(_study(tmp_path, TINY.replace("games = 16", "games = 20"), "b.toml"))
    with pytest.raises(InputError, match="holds a study of another spec"):
        run_study(other, tmp_path / "again", sweep_spec(other))


def test_a_recommended_setting_is_a_rules_file_simulate_takes(tmp_path: Path) -> None:
    # Two legs a move lengthen 4-player games by about 8 turns: nearest to 45 turns is a
    # setting no confirmation can miss.
    text = TINY.replace(
        'players = ["hunter", "cautious"]',
        'players = ["hunter", "cautious", "collector", "cartographer"]',
    )
    text = text.replace("target = 30", "target = 45").replace("trials = 6", "trials = 8")
    text = text.replace("[space.curse_count]\nlow = 0\nhigh = 3\n", "")
    text = text.replace('[[objective]]\nmetric = "first_seat_advantage"\n', "")
    out = tmp_path / "out"
    result = runner.invoke(app, ["balance", str(_study(tmp_path, text)), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        "Recommended: legs_per_move=2, confirmed against the rulebook (legs_per_move=3)"
    )
    rules = out / "rules" / "legs_per_move-2.toml"
    assert rules.read_text().splitlines()[2:] == ['preset = "rulebook"', "legs_per_move = 2"]
    run = tmp_path / "run"
    played = runner.invoke(
        app,
        [
            "simulate",
            "--rules",
            str(rules),
            "--games",
            "8",
            "--islands",
            "abc-1",
            "--backend",
            "serial",
            "--out",
            str(run),
        ],
    )
    assert played.exit_code == 0, played.output
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["spec"]["resolved_rules"]["legs_per_move"] == 2


def test_the_readme_study_loads() -> None:
    spec = load_spec(Path(__file__).resolve().parents[2] / "data/studies/tobago-balance.toml")
    assert [d.key for d in spec.space] == ["hand_size", "curse_count", "legs_per_move"]
    assert [o.name for o in spec.objectives] == ["first_seat_advantage", "game_length"]


def test_a_study_revises_the_total_its_progress_shows() -> None:
    stream = io.StringIO()
    progress = Progress("balance", stream=stream, clock=lambda: 0.0)
    progress.begin(100)
    progress.update(50)
    progress.retotal(400)
    assert progress.line().startswith("balance: 50/400 games")


def test_an_objective_with_a_target_is_named_as_the_distance_it_measures() -> None:
    from pipelines.report.balance_page import axis_label

    length = {"name": "game_length", "unit": "turns", "target": 30.0}
    assert axis_label(length) == "game length: distance from 30, turns"
    assert axis_label({**length, "target": None}) == "game length, turns"
