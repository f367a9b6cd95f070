"""``tourney regress``: passes an unchanged engine, catches a changed rule, errors exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipelines.cli import app
from pipelines.regress import change_words

runner = CliRunner()


def make_suite(tmp_path: Path, hand_size: int) -> Path:
    (tmp_path / "rules.toml").write_text(f"hand_size = {hand_size}\n")
    suite = tmp_path / "suite.toml"
    suite.write_text(
        """
[[case]]
name = "small"
players = ["hunter", "cartographer", "collector", "cautious"]
games = 400
seed = 11
islands = "abc-1,ABC-2"
rules = "rules.toml"
golden_games = 2
"""
    )
    return suite


def regress(suite: Path, baseline: Path, out: Path, *extra: str) -> tuple[int, str, str]:
    args = ["regress", str(suite), "--baseline", str(baseline), "--out", str(out), "--workers", "1"]
    result = runner.invoke(app, [*args, *extra])
    return result.exit_code, result.stdout, result.stderr


def test_unchanged_engine_passes_and_changed_rule_is_caught(tmp_path: Path) -> None:
    suite = make_suite(tmp_path, 4)
    baseline = tmp_path / "baseline.json"
    assert regress(suite, baseline, tmp_path / "o", "--update-baseline")[0] == 0
    code, out, _ = regress(suite, baseline, tmp_path / "o")
    assert code == 0, out
    assert "0 of 7 checks changed" in out
    junit = (tmp_path / "o" / "junit.xml").read_text()
    assert 'tests="7" failures="0"' in junit

    make_suite(tmp_path, 6)  # the same suite, but the rules file now deals 6 cards
    code, out, _ = regress(suite, baseline, tmp_path / "o2")
    assert code == 1, out
    report = json.loads((tmp_path / "o2" / "report.json").read_text())
    failed = {c["check"] for c in report["checks"] if c["failed"]}
    assert "golden_games" in failed and "turns" in failed
    turns = next(c for c in report["checks"] if c["check"] == "turns")
    assert turns["verdict"].startswith(("turns rises: +", "turns falls: -"))
    assert 'failures="0"' not in (tmp_path / "o2" / "junit.xml").read_text()


def test_errors_exit_2(tmp_path: Path) -> None:
    suite = make_suite(tmp_path, 4)
    code, _, err = regress(suite, tmp_path / "missing.json", tmp_path / "o")
    assert code == 2 and "baseline not found" in err
    baseline = tmp_path / "baseline.json"
    regress(suite, baseline, tmp_path / "o", "--update-baseline")
    suite.write_text(suite.read_text().replace("games = 400", "games = 300"))
    code, _, err = regress(suite, baseline, tmp_path / "o")
    assert code == 2 and "differs from the baseline's definition" in err
    bad = tmp_path / "bad.toml"
    bad.write_text('[[case]]\nname = "x"\nplayers = ["hunter"]\n')
    code, _, err = regress(bad, baseline, tmp_path / "o")
    assert code == 2 and "'players' must list 2 to 4 strategies" in err


def test_checked_in_suite_matches_its_baseline_definition() -> None:
    root = Path(__file__).parents[2]
    baseline = json.loads((root / "ci" / "baseline.json").read_text())
    assert set(baseline["cases"]) == {"scripted-4p", "bga-3p", "treasure-island-4p"}


def test_table_prints_figures_for_people() -> None:
    from pipelines.regress import table_lines

    checks: list[dict[str, Any]] = [
        {"case": "c", "check": "first_seat", "baseline": 0.3084, "current": 0.3551,
         "difference": 0.0467, "z": 9.5, "failed": True},
        {"case": "c", "check": "turns", "baseline": 32.916, "current": 32.95,
         "difference": 0.034, "z": 0.41, "failed": False},
        {"case": "c", "check": "golden_games", "baseline": "075bb0f0aa", "current": "075bb0f0aa",
         "difference": None, "z": None, "failed": False},
    ]  # fmt: skip
    lines = table_lines(checks)
    assert lines[0].split() == ["case", "check", "baseline", "current", "z", "p", "verdict"]
    assert lines[1].split() == ["c", "first_seat", "30.8%", "35.5%", "+9.50", "p", "<", "0.0001",
                                "CHANGED"]  # fmt: skip
    assert lines[2].split() == ["c", "turns", "32.92", "32.95", "+0.41", "p", "=", "0.68", "ok"]
    assert lines[3].split() == ["c", "golden_games", "075bb0f0", "075bb0f0", "ok"]


def test_a_damaged_baseline_is_one_line_exit_2(tmp_path: Path) -> None:
    suite = tmp_path / "suite.toml"
    suite.write_text(
        '[[case]]\nname = "tiny"\nplayers = ["hunter", "cautious"]\ngames = 40\nseed = 3\n'
        'islands = "abc-1"\ngolden_games = 1\n'
    )
    good = tmp_path / "good.json"
    assert regress(suite, good, tmp_path / "o", "--update-baseline")[0] == 0
    base = json.loads(good.read_text())
    case = base["cases"]["tiny"]

    def damaged(name: str, obj: object, raw: str | None = None) -> Path:
        path = tmp_path / f"{name}.json"
        path.write_text(raw if raw is not None else json.dumps(obj))
        return path

    def stats(**changes: object) -> dict[str, Any]:
        return {**base, "cases": {"tiny": {**case, "stats": {**case["stats"], **changes}}}}

    turns = case["stats"]["turns"]
    without_turns = {k: v for k, v in case["stats"].items() if k != "turns"}
    cases = [
        (damaged("syntax", None, "{\"version\": 1, \"cases\": "), "not a readable baseline"),
        (damaged("list", [1, 2]), "not a tourney baseline (version 1)"),
        (damaged("cases-list", {"version": 1, "cases": []}), "'cases' must map case names"),
        (damaged("no-cases", {"version": 1, "cases": {}}), "'cases' must map case names"),
        (damaged("case-str", {"version": 1, "cases": {"tiny": "x"}}), "case 'tiny': not an"),
        (damaged("empty", stats() | {"cases": {"tiny": {**case, "stats": {}}}}),
         "case 'tiny': 'stats' is missing or empty"),
        (damaged("nan", None, json.dumps(stats(turns={**turns, "mean": float("nan")}))),
         "statistic 'turns': mean must be a finite number"),
        (damaged("inf-sd", None, json.dumps(stats(turns={**turns, "sd": float("inf")}))),
         "statistic 'turns': sd must be a finite number"),
        (damaged("no-n", stats(turns={"mean": 1.0, "sd": 0.5})),
         "statistic 'turns': n must be an integer >= 1"),
        (damaged("no-golden", {**base, "cases": {"tiny": {**case, "golden": None}}}),
         "case 'tiny': 'golden' is missing"),
        (damaged("other-case", {**base, "cases": {"other": case}}),
         "baseline has no case 'tiny'"),
        (damaged("no-turns", {**base, "cases": {"tiny": {**case, "stats": without_turns}}}),
         "baseline case 'tiny' has no statistic 'turns'"),
    ]  # fmt: skip
    for path, message in cases:
        code, out, err = regress(suite, path, tmp_path / "o")
        assert code == 2, (path.name, out, err)
        assert message in err, (path.name, err)
        assert len(err.strip().splitlines()) == 1


def test_a_baseline_missing_a_case_or_statistic_fails_before_any_game(tmp_path: Path) -> None:
    """The suite is a billion games: only a check made before playing can answer at all."""
    suite = tmp_path / "suite.toml"
    suite.write_text(
        '[[case]]\nname = "huge"\nplayers = ["hunter", "cautious"]\ngames = 1000000000\n'
        'islands = "abc-1"\ngolden_games = 1\n'
    )
    spec = {"game": "tobago", "players": ["hunter", "cautious"], "games": 1000000000, "seed": 1,
            "islands": ["abc-1"], "rules": "rulebook", "golden_games": 1}  # fmt: skip
    stat = {"mean": 0.5, "sd": 0.5, "n": 10}
    some = {"win:hunter": stat, "win:cautious": stat, "first_seat": stat}  # no "turns"
    for name, cases, message in [
        ("no-stat", {"huge": {"spec": spec, "golden": "ab", "stats": some}},
         "baseline case 'huge' has no statistic 'turns'"),
        ("no-case", {"other": {"spec": spec, "golden": "ab", "stats": some}},
         "baseline has no case 'huge'"),
        ("other-spec", {"huge": {"spec": {**spec, "seed": 2}, "golden": "ab", "stats": some}},
         "case 'huge' differs from the baseline's definition"),
    ]:  # fmt: skip
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({"version": 1, "cases": cases}))
        # A subprocess with a time limit: played, the suite would run for days.
        done = subprocess.run(
            [str(Path(sys.executable).parent / "tourney"), "regress", str(suite), "--baseline",
             str(path), "--out", str(tmp_path / "o"), "--workers", "1"],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 2 and message in done.stderr, (name, done.stderr)


def test_each_check_says_no_more_than_its_interval_and_what_it_could_have_seen() -> None:
    # Seven checks at family-wise 5%: z = 2.690110 (1 - 0.05 / 14); se 0.2 turns.
    z = 2.690110
    ok = change_words("turns", 0.1, 0.2, z, 0.05 / 7, 300)
    assert ok["verdict"] == (
        "no clear change in turns: +0.10 turns [-0.44, +0.64] (current - baseline, "
        "Bonferroni-adjusted interval); the smallest change this check could detect with 80% "
        "power is 0.71 turns; 0.35 turns would need about 1,200 games"
    )
    # (2.690110 + 0.841621) * 0.2 = 0.706346; half of it needs four times the 300 games.
    assert ok["detectable_effect"] == pytest.approx(0.706346, abs=1e-6)
    assert ok["games_for_effect"] == 1200
    changed = change_words("win:hunter", -0.08, 0.01, z, 0.05 / 7, 300)
    assert changed == {
        "verdict": "win:hunter falls: -8.0 points [-10.7, -5.3] (current - baseline, "
        "Bonferroni-adjusted interval)",
        "detectable_effect": None,
    }
