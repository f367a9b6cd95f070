"""``tourney sweep``: a grid on common seeds, its outputs, and bad parameters."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli import app

runner = CliRunner()


def test_one_parameter_sweep(tmp_path: Path) -> None:
    out = tmp_path / "s"
    result = runner.invoke(
        app,
        ["sweep", "--param", "curse_count=0,2", "--games", "80", "--islands", "abc-1",
         "--workers", "1", "--out", str(out), "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["curse_count"] for r in rows] == [0, 2]
    assert rows[0]["curse_hits_per_game"] == 0.0 and rows[0]["coins_lost_per_game"] == 0.0
    assert rows[1]["curse_hits_per_game"] > 0
    for r in rows:
        assert r["first_seat_low"] <= r["first_seat_advantage"] <= r["first_seat_high"]
        assert r["turns_low"] <= r["mean_turns"] <= r["turns_high"]
        shares = [v for k, v in r.items() if k.startswith("win:")]
        assert abs(sum(shares) - 1.0) < 1e-9 and r["strategy_spread"] == max(shares) - min(shares)
    assert (out / "sweep.csv").read_text().splitlines()[0].startswith("curse_count,games,")
    assert (out / "first_seat.png").read_bytes()[:4] == b"\x89PNG"


def test_two_parameters_make_a_grid_on_the_same_seeds(tmp_path: Path) -> None:
    args = ["sweep", "--param", "hand_size=4,5", "--param", "legs_per_move=2,3",
            "--games", "40", "--islands", "abc-1", "--workers", "2",
            "--out", str(tmp_path / "g"), "--json"]  # fmt: skip
    rows = json.loads(runner.invoke(app, args).stdout)
    assert [(r["hand_size"], r["legs_per_move"]) for r in rows] == [(4, 2), (4, 3), (5, 2), (5, 3)]
    # The rulebook point of the grid equals a one-point sweep of it: same seeds, same games.
    one = ["sweep", "--param", "hand_size=4", "--param", "legs_per_move=3",
           "--games", "40", "--islands", "abc-1", "--workers", "1",
           "--out", str(tmp_path / "o"), "--json"]  # fmt: skip
    assert json.loads(runner.invoke(app, one).stdout)[0] == rows[1]


def test_bad_parameters() -> None:
    for args, message in (
        (["--param", "speed=1,2"], "give KEY=V1,V2,..."),
        (["--param", "hand_size=4,x"], "'x' is not a number"),
        (["--param", "hand_size=0,4"], "hand_size = 0 is not allowed"),
    ):
        result = runner.invoke(app, ["sweep", *args])
        assert result.exit_code == 2, args
        assert message in result.stderr
