"""``tourney play`` and ``tourney bench``: output and errors (the golden playthroughs are
in ``tests/golden``)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli.main import app

runner = CliRunner()
PLAY_ARGS = ["play", "--game", "tobago", "--players", "hunter,cartographer,collector,cautious"]


def test_play_ends_with_scores_and_winner() -> None:
    result = runner.invoke(app, [*PLAY_ARGS, "--seed", "3", "--island", "generated:5"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Tobago, seed 3, island generated:5, rules rulebook")
    assert lines[-2].startswith("scores: seat 1 ")
    assert lines[-1].startswith(("winner: ", "shared win: "))


def test_play_json_lines_end_with_the_result() -> None:
    result = runner.invoke(app, [*PLAY_ARGS, "--seed", "3", "--rules", "bga", "--json"])
    assert result.exit_code == 0
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows[0]["event"] == "start_cell"
    final = rows[-1]
    assert final["event"] == "result" and final["rules"] == "bga"
    assert abs(sum(final["win_shares"]) - 1) < 1e-9
    assert len(final["scores"]) == 4


def test_same_seed_same_output() -> None:
    a = runner.invoke(app, [*PLAY_ARGS, "--seed", "11"]).stdout
    b = runner.invoke(app, [*PLAY_ARGS, "--seed", "11"]).stdout
    c = runner.invoke(app, [*PLAY_ARGS, "--seed", "12"]).stdout
    assert a == b != c


def test_bench_json_has_the_figures() -> None:
    result = runner.invoke(
        app,
        [
            "bench",
            "--game",
            "tobago",
            "--games",
            "20",
            "--chess-seconds",
            "0.2",
            "--rounds",
            "3",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["games"] == 20
    assert obj["seconds"] > 0 and obj["games_per_s"] > 0 and obj["decisions_per_s"] > 0
    assert obj["chess_random_games_per_s"] > 0
    # The rounds alternate games and yardstick: they hold every game, and the headline ratio
    # is that of the fastest rounds.
    rounds = obj["rounds"]
    assert [r["games"] for r in rounds] == [6, 7, 7]
    assert obj["best_round_games_per_s"] == max(r["games_per_s"] for r in rounds)
    best_chess = max(r["chess_random_games_per_s"] for r in rounds)
    assert obj["best_round_chess_random_games_per_s"] == best_chess
    assert obj["ratio_to_chess"] == round(obj["best_round_games_per_s"] / best_chess, 2)
    assert sum(obj["end_reasons"].values()) == 20
    assert obj["seating"] == "rotate"


def test_bench_plays_a_runs_games_under_either_seating() -> None:
    args = [
        "bench",
        "--game",
        "tobago",
        "--games",
        "8",
        "--chess-seconds",
        "0",
        "--rounds",
        "1",
        "--json",
    ]
    for seating in ("rotate", "random"):
        result = runner.invoke(app, [*args, "--seating", seating])
        assert result.exit_code == 0, result.output
        obj = json.loads(result.stdout)
        assert obj["seating"] == seating and sum(obj["end_reasons"].values()) == 8
    bad = runner.invoke(app, [*args, "--seating", "shuffled"])
    assert bad.exit_code == 2
    assert bad.output.strip().splitlines() == [
        "tourney: error: --seating: 'shuffled' is not allowed (rotate or random)"
    ]


def test_bad_inputs_are_one_line_exit_2(tmp_path: Path) -> None:
    cases = [
        (["play", "--game", "chess"], "unknown game 'chess' (allowed: tobago, treasure-island)"),
        (["play", "--players", "hunter,wizard"], "unknown strategy 'wizard'"),
        (["play", "--players", "hunter"], "Tobago takes 2 to 4 players, got 1"),
        (["play", "--players", "hunter(speed=3),random"], "unknown parameter 'speed' for hunter"),
        (["play", "--game", "tobago", "--rules", "house"], "unknown rules 'house'"),
        (["play", "--island", "zzz"], "unknown island 'zzz'"),
    ]
    bad_rules = tmp_path / "r.toml"
    bad_rules.write_text("hand_sise = 5\n")
    cases.append(
        (["play", "--game", "tobago", "--rules", str(bad_rules)], "unknown rules key 'hand_sise'")
    )
    wide = tmp_path / "wide.toml"
    wide.write_text("same_object_min_distance = 7\n")
    cases.append(
        (
            ["play", "--game", "tobago", "--rules", str(wide)],
            "same_object_min_distance = 7 is not allowed",
        )
    )
    five = tmp_path / "five.toml"
    five.write_text("same_object_min_distance = 5\n")
    example = str(Path(__file__).parents[2] / "data" / "islands" / "example.island")
    cases.append(
        (
            ["play", "--rules", str(five), "--island", example],
            "same_object_min_distance = 5 is not allowed on it (its fixed landmarks break it",
        )
    )
    cases.append(
        (
            ["simulate", "--rules", str(five), "--islands", example, "--out", str(tmp_path / "r")],
            "same_object_min_distance = 5 is not allowed on it",
        )
    )
    for args, message in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert message in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1


def test_documented_example_strategy_is_the_shipped_one_and_plays() -> None:
    root = Path(__file__).parents[2]
    doc = (root / "docs" / "strategies.md").read_text()
    code = doc.split("```python\n")[1].split("```")[0]
    assert (root / "strategies" / "examples" / "greedy.py").read_text() == code
    args = [
        "play",
        "--players",
        "strategies.examples.greedy:Greedy(take_at=3),hunter",
        "--seed",
        "4",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "seat 1 strategies.examples.greedy:Greedy(take_at=3)" in result.stdout
    assert "strategy violations" not in result.stdout
