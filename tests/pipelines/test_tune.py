"""``tourney tune``: it finds a planted optimum within the range it reports, confirms the
best against the default on fresh seeds, writes a spec ``simulate`` accepts, resumes, runs on
Ray, and refuses bad input with one line."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from pipelines.experiments.tune import Estimate, confirmation_verdict, parse_param
from sim.errors import InputError
from tests.pipelines.planted import OPTIMUM
from tests.pipelines.test_data_files import one_line_exit_2


def _tourney(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    code = "from pipelines.cli.main import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        check=False,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env=None,
    )


def test_parameters_parse_into_grids() -> None:
    assert parse_param("n=1..5", 5).values == (1, 2, 3, 4, 5)
    assert parse_param("n=1..9", 3).values == (1, 5, 9)
    assert parse_param("n=1..3", 5).values == (1, 2, 3)
    assert parse_param("k=0.0..1", 5).values == (0.0, 0.25, 0.5, 0.75, 1.0)
    assert parse_param("k=0..1", 5, {"k": 1.0}).values == (0.0, 0.25, 0.5, 0.75, 1.0)
    assert parse_param("rollout=stop-at,random", 5).values == ("stop-at", "random")
    for bad in ("k", "k=2..1", "k=a..b", "k=1..inf"):
        with pytest.raises(InputError, match="--param"):
            parse_param(bad, 5)


def test_tune_finds_the_planted_optimum_within_its_range(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[2]
    out = tmp_path / "tune"
    planted = [
        "tune", "tests.pipelines.planted:Planted", "--game", "treasure-island",
        "--param", "x=0..1", "--points", "11", "--field", "expected-value",
        "--games", "200", "--backend", "serial", "--out", str(out), "--json",
    ]  # fmt: skip
    done = _tourney(*planted, cwd=repo)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    low, high = result["plausible_ranges"]["x"]
    best = result["best"]["params"]["x"]
    assert low <= OPTIMUM <= high and low <= best <= high
    assert high - low <= 0.2 + 1e-9  # informative: at most the optimum's two neighbours
    assert best == pytest.approx(OPTIMUM)
    # The untuned default (x = 0.5) loses to the best on fresh seeds, significantly.
    confirmation = result["confirmation"]
    assert confirmation["significant"] and confirmation["difference"]["mean"] > 0
    assert confirmation["default_verdict"].startswith(
        "the best setting wins more than the default: best - default +"
    )
    assert "round 1: 11 settings" in done.stderr  # progress, on stderr with --json
    spec = tomllib.loads((out / "tuned.toml").read_text())
    assert spec["players"] == ["tests.pipelines.planted:Planted(x=0.3)", "expected-value"]
    assert spec["game"] == "treasure-island"
    # The written spec plays.
    run = _tourney(
        "simulate",
        str(out / "tuned.toml"),
        "--games",
        "20",
        "--backend",
        "serial",
        "--out",
        str(tmp_path / "run"),
        cwd=repo,
    )
    assert run.returncode == 0, run.stderr
    # The same command again resumes every run: the same answer, nothing replayed.
    again = _tourney(*planted, cwd=repo)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["rounds"] == result["rounds"]


@pytest.mark.cluster
def test_tune_runs_on_ray(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[2]
    done = _tourney(
        "tune",
        "stop-at",
        "--game",
        "treasure-island",
        "--param",
        "n=2,4",
        "--field",
        "expected-value",
        "--games",
        "40",
        "--backend",
        "ray",
        "--workers",
        "2",
        "--out",
        str(tmp_path / "t"),
        cwd=repo,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("best setting: stop-at")
    manifest = json.loads((tmp_path / "t" / "round-1" / "setting-0" / "manifest.json").read_text())
    assert [e["backend"] for e in manifest["executions"]] == ["ray"]


def test_late_or_unwritable_failures_are_found_before_any_game(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[2]
    (tmp_path / "afile").write_text("")
    base = ["tune", "stop-at", "--game", "treasure-island", "--field", "expected-value"]
    cases = [
        # Round 5 of 32 settings would play 160,000,000 games a setting.
        (["--param", "n=1..32", "--points", "32", "--games", "10000000"], "5 rounds"),
        (["--param", "n=2,4", "--write", str(tmp_path)], "a directory"),
        (["--param", "n=2,4", "--write", str(tmp_path / "afile" / "x.toml")], "not a directory"),
        (["--param", "k=inf,2"], "not a finite number"),
    ]
    for args, message in cases:
        out = tmp_path / "o"
        assert message in one_line_exit_2([*base, *args, "--backend", "serial", "--out", str(out)])
        assert not out.exists()
    # As a user meets it: the console script's own process says one line and nothing else.
    done = _tourney(*base, "--param", "n=2,4", "--out", str(tmp_path / "afile"), cwd=repo)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "not a directory" in lines[0], lines
    assert not done.stdout


def test_the_written_spec_keeps_the_islands_and_json_is_strict(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[2]
    out = tmp_path / "t"
    done = _tourney(
        "tune",
        "hunter",
        "--param",
        "take_at=3,5",
        "--field",
        "cautious",
        "--games",
        "2",
        "--islands",
        "generated:7",
        "--backend",
        "serial",
        "--out",
        str(out),
        cwd=repo,
    )
    assert done.returncode == 0, done.stderr
    assert tomllib.loads((out / "tuned.toml").read_text())["islands"] == "generated:7"

    def refuse(constant: str) -> None:
        raise ValueError(constant)

    result = json.loads((out / "tune.json").read_text(), parse_constant=refuse)
    assert result["islands"] == "generated:7"
    assert result["best"]["interval"] == [None, None]  # one block: no interval, not NaN


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hunter", "--param", "take_at=2..8", "--field", "nobody"], "unknown strategy 'nobody'"),
        (["hunter", "--param", "take_at=x..8", "--field", "cautious"], "--param take_at=x..8"),
        (["hunter", "--param", "nope=1..3", "--field", "cautious"], "unknown parameter 'nope'"),
        (["hunter", "--param", "take_at=1.5..3", "--field", "cautious"], "take_at = 1.5"),
        (
            ["hunter", "--param", "take_at=1..3", "--param", "take_at=1..2", "--field", "cautious"],
            "given twice",
        ),
        (["hunter", "--param", "take_at=1..3", "--field", "a,b,c,d"], "1 to 3 strategies"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    line = one_line_exit_2(["tune", *args, "--backend", "serial", "--out", str(tmp_path / "o")])
    assert message in line
    assert not (tmp_path / "o").exists()


def test_the_confirmation_claims_no_more_than_its_interval() -> None:
    better = confirmation_verdict(Estimate(0.05, 0.02, 0.08, 100), 600)
    assert better == {
        "verdict": "the best setting wins more than the default: best - default +5.0 points "
        "[+2.0, +8.0]"
    }
    # An interval that contains 0: no direction, and what the confirmation could have seen
    # (se 0.06 / 3.919928 = 0.015306; 2.801585 se = 4.29 points; half needs 4 x 600 games).
    same = confirmation_verdict(Estimate(0.01, -0.02, 0.04, 100), 600)
    assert same["verdict"] == (
        "no clear difference between the best setting and the default: best - default "
        "+1.0 points [-2.0, +4.0]; the smallest difference this run could detect with 80% "
        "power is 4.3 points; 2.1 points would need about 2,400 games"
    )
    assert same["detectable_effect"] == pytest.approx(0.042882, abs=1e-6)
    assert same["games_for_effect"] == 2400
    assert (
        "too few blocks"
        in confirmation_verdict(Estimate(0.01, math.nan, math.nan, 1), 6)["verdict"]
    )
