"""``tourney regress``: every check reproduced exactly, changed within noise or changed
significantly (paired over the replayed seed blocks); a changed rule or strategy is caught,
errors exit 2."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from statistics import NormalDist
from typing import Any

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments.regress import (
    check_cases_in_baseline,
    read_baseline,
    read_suite,
    run_case,
)
from pipelines.experiments.regress_checks import (
    EXACT,
    GOLDEN_CHANGED,
    NOISE,
    SIGNIFICANT,
    paired_change,
    table_lines,
)
from pipelines.stats.core import t_quantile, t_sf
from sim import referee
from strategies.treasure_island.stopping import StopAt

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
    assert (
        "7 checks: 7 reproduced exactly, 0 changed within noise, 0 changed significantly, "
        "golden games changed in 0 of 1 cases"
    ) in out
    junit = (tmp_path / "o" / "junit.xml").read_text()
    assert 'tests="7" failures="0"' in junit

    make_suite(tmp_path, 6)  # the same suite, but the rules file now deals 6 cards
    code, out, _ = regress(suite, baseline, tmp_path / "o2")
    assert code == 1, out
    report = json.loads((tmp_path / "o2" / "report.json").read_text())
    failed = {c["check"] for c in report["checks"] if c["failed"]}
    assert "golden_games" in failed and "turns" in failed
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
    baseline = read_baseline(root / "ci" / "baseline.json")  # format version 2, whole
    assert set(baseline["cases"]) == {"scripted-4p", "bga-3p", "treasure-island-4p"}
    # Every case, statistic and seed block of the suite is there (checked without playing).
    check_cases_in_baseline(read_suite(root / "ci" / "nightly.toml"), baseline)


def test_copies_of_one_strategy_pool_into_the_mean_of_their_shares(tmp_path: Path) -> None:
    suite = tmp_path / "suite.toml"
    suite.write_text(
        '[[case]]\nname = "twins"\ngame = "treasure-island"\nplayers = ["stop-at", "stop-at", '
        '"random"]\ngames = 30\nseed = 2\ngolden_games = 0\n'
    )
    (case,) = read_suite(suite)
    stats = run_case(case, 1)["stats"]
    assert set(stats) == {"win:stop-at", "win:random", "first_seat", "turns"}
    # The two copies' mean share and random's share make up each game's one win.
    assert 2 * stats["win:stop-at"]["mean"] + stats["win:random"]["mean"] == pytest.approx(1.0)
    assert len(stats["turns"]["blocks"]) == 10


def test_table_prints_figures_for_people() -> None:
    checks: list[dict[str, Any]] = [
        {"case": "c", "check": "first_seat", "state": SIGNIFICANT, "baseline": 0.3084,
         "current": 0.3551, "estimate": 0.0467, "low": 0.0371, "high": 0.0563, "p": 1e-9,
         "blocks": 1250},
        {"case": "c", "check": "turns", "state": NOISE, "baseline": 32.91604,
         "current": 32.91596, "estimate": -0.00008, "low": -0.00024, "high": 0.00008, "p": 0.32,
         "blocks": 500},
        {"case": "c", "check": "turns", "state": EXACT, "baseline": 32.916, "current": 32.916,
         "estimate": 0.0, "low": 0.0, "high": 0.0, "p": 1.0,
         "blocks": 500},
        {"case": "c", "check": "golden_games", "state": GOLDEN_CHANGED, "baseline": "075bb0f0aa",
         "current": "1d2e3f4a5b"},
    ]  # fmt: skip
    lines = table_lines(checks)
    assert lines[0].split() == ["case", "check", "baseline", "current", "blocks", "change",
                                "[95%", "interval]", "p", "state"]  # fmt: skip
    assert lines[1].split() == ["c", "first_seat", "30.8%", "35.5%", "1,250", "+4.7", "points",
                                "[+3.7,", "+5.6]", "p", "<", "0.0001", "changed",
                                "significantly"]  # fmt: skip
    # A change in the 5th decimal prints with the digits that show it, never as "+0.00".
    assert lines[2].split() == ["c", "turns", "32.91604", "32.91596", "500", "-0.00008", "turns",
                                "[-0.00024,", "+0.00008]", "p", "=", "0.32", "changed",
                                "within", "noise"]  # fmt: skip
    assert lines[3].split() == ["c", "turns", "32.92", "32.92", "500", "none", "reproduced",
                                "exactly"]  # fmt: skip
    assert lines[4].split() == ["c", "golden_games", "075bb0f0", "1d2e3f4a", "changed"]
    # Figures that differ in the 3rd decimal, a change and interval that would print as
    # "-0.000 [-0.000, +0.000]" at three: four decimals.
    noise = {
        "case": "c",
        "check": "turns",
        "state": NOISE,
        "baseline": 30.8926,
        "current": 30.8925,
        "estimate": -0.0001,
        "low": -0.0003,
        "high": 0.0001,
        "p": 0.32,
        "blocks": 500,
    }
    assert table_lines([noise])[1].split()[2:9] == ["30.8926", "30.8925", "500", "-0.0001",
                                                    "turns", "[-0.0003,", "+0.0001]"]  # fmt: skip


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
        (damaged("list", [1, 2]), "not a tourney baseline (version 2)"),
        (damaged("cases-list", {"version": 2, "cases": []}), "'cases' must map case names"),
        (damaged("no-cases", {"version": 2, "cases": {}}), "'cases' must map case names"),
        (damaged("case-str", {"version": 2, "cases": {"tiny": "x"}}), "case 'tiny': not an"),
        (damaged("empty", stats() | {"cases": {"tiny": {**case, "stats": {}}}}),
         "case 'tiny': 'stats' is missing or empty"),
        (damaged("nan", None, json.dumps(stats(turns={**turns, "mean": float("nan")}))),
         "statistic 'turns': mean must be a finite number"),
        (damaged("inf-sd", None, json.dumps(stats(turns={**turns, "sd": float("inf")}))),
         "statistic 'turns': sd must be a finite number"),
        (damaged("no-n", stats(turns={"mean": 1.0, "sd": 0.5})),
         "statistic 'turns': n must be an integer >= 1"),
        (damaged("no-blocks", stats(turns={k: v for k, v in turns.items() if k != "blocks"})),
         "statistic 'turns': blocks must be a non-empty list of finite per-block sums"),
        (damaged("edited-mean", stats(turns={**turns, "mean": turns["mean"] + 1e-4})),
         "statistic 'turns': mean "),
        (damaged("blocks-count", stats(turns={**turns, "blocks": turns["blocks"][:-1],
                                              "mean": sum(turns["blocks"][:-1]) / 40})),
         "n = 40 over 19 blocks, but the case plays 40 games in 20 blocks"),
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
    stat = {"mean": 0.5, "sd": 0.5, "n": 10, "blocks": [5.0]}
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
        path.write_text(json.dumps({"version": 2, "cases": cases}))
        # A subprocess with a time limit: played, the suite would run for days.
        done = subprocess.run(
            [str(Path(sys.executable).parent / "tourney"), "regress", str(suite), "--baseline",
             str(path), "--out", str(tmp_path / "o"), "--workers", "1"],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 2 and message in done.stderr, (name, done.stderr)


def ti_suite(tmp_path: Path) -> tuple[Path, Path]:
    """A two-player Treasure Island case (300 seed blocks of 2 games) and its baseline."""
    suite = tmp_path / "suite.toml"
    suite.write_text(
        '[[case]]\nname = "ti"\ngame = "treasure-island"\nplayers = ["expected-value", '
        '"stop-at"]\ngames = 600\nseed = 4\ngolden_games = 2\n'
    )
    baseline = tmp_path / "baseline.json"
    assert regress(suite, baseline, tmp_path / "o", "--update-baseline")[0] == 0
    return suite, baseline


def states(out: Path) -> dict[str, dict[str, Any]]:
    report = json.loads((out / "report.json").read_text())
    return {c["check"]: c for c in report["checks"]}


def test_an_unchanged_tree_reproduces_every_check_exactly(tmp_path: Path) -> None:
    suite, baseline = ti_suite(tmp_path)
    code, out, _ = regress(suite, baseline, tmp_path / "o", "--exact")
    assert code == 0, out
    assert (
        "5 checks: 5 reproduced exactly, 0 changed within noise, 0 changed significantly, "
        "golden games changed in 0 of 1 cases"
    ) in out.splitlines()
    assert {c["state"] for c in states(tmp_path / "o").values()} == {EXACT}
    junit = (tmp_path / "o" / "junit.xml").read_text()
    assert 'tests="5" failures="0"' in junit
    assert (
        "<system-out>ti: game length reproduced exactly: 18.70 turns, every figure of its 300 "
        "seed blocks identical to the baseline</system-out>"
    ) in junit


def test_a_baseline_off_in_the_4th_decimal_changed_within_noise(tmp_path: Path) -> None:
    suite, baseline = ti_suite(tmp_path)
    doc = json.loads(baseline.read_text())
    turns = doc["cases"]["ti"]["stats"]["turns"]
    turns["blocks"][0] += 0.06  # one block's sum: the mean moves by 0.0001 turns
    turns["mean"] = sum(turns["blocks"]) / turns["n"]
    baseline.write_text(json.dumps(doc))
    code, out, _ = regress(suite, baseline, tmp_path / "o")
    assert code == 0, out
    assert (
        "5 checks: 4 reproduced exactly, 1 changed within noise, 0 changed significantly, "
        "golden games changed in 0 of 1 cases"
    ) in out.splitlines()
    assert (
        "Bonferroni over 4 statistics, family-wise alpha 0.05: a statistic changed "
        "significantly when its paired p < 0.0125 (0.05 / 4); p shown unadjusted, intervals "
        "95% (Student t over the replayed seed blocks)"
    ) in out.splitlines()
    check = states(tmp_path / "o")["turns"]
    assert check["state"] == NOISE and not check["failed"]
    assert check["estimate"] == pytest.approx(-0.0001)
    # One block of 300 moved: the paired t is exactly 1.
    assert check["p"] == pytest.approx(2 * t_sf(1.0, 299))
    row = next(line for line in out.splitlines() if line.startswith("ti    turns"))
    assert row.split() == ["ti", "turns", "18.6951", "18.6950", "300", "-0.0001", "turns",
                           "[-0.0003,", "+0.0001]", "p", "=", "0.32", "changed", "within",
                           "noise"]  # fmt: skip

    code, out, _ = regress(suite, baseline, tmp_path / "x", "--exact")
    assert code == 1, out
    junit = (tmp_path / "x" / "junit.xml").read_text()
    assert 'tests="5" failures="1"' in junit
    assert (
        'message="ti: game length changed within noise: 18.6951 turns -&gt; 18.6950 turns, a '
        "change of -0.0001 turns [95% -0.0003, +0.0001] paired over 300 replayed seed blocks, "
        "p = 0.32 (cut-off p &lt; 0.0125, Bonferroni over 4 statistics, family-wise alpha "
        '0.05)"'
    ) in junit


def test_a_strategy_made_worse_changed_significantly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    suite, baseline = ti_suite(tmp_path)
    # stop-at plunders one card early on every other turn: the same label, worse play.
    monkeypatch.setattr(
        StopAt, "keep_drawing", lambda self, view: view.area_size < (2 if view.turn % 2 else 3)
    )
    monkeypatch.setattr(referee, "_shortcuts_of", {})
    code, out, _ = regress(suite, baseline, tmp_path / "o")
    assert code == 1, out
    found = states(tmp_path / "o")
    check = found["win:stop-at"]
    assert check["state"] == SIGNIFICANT and check["failed"]
    assert check["estimate"] == pytest.approx(-0.0617, abs=5e-4)
    assert check["p"] < 0.001 < check["threshold"] == 0.0125
    # Two independent samples would have missed it: the paired test is what sees it.
    old = json.loads(baseline.read_text())["cases"]["ti"]["stats"]["win:stop-at"]
    z = check["difference"] / math.sqrt(2 * old["sd"] ** 2 / old["n"])
    assert 2 * (1 - NormalDist().cdf(abs(z))) > 0.0125
    assert found["golden_games"]["state"] == GOLDEN_CHANGED
    assert "golden games changed in 1 of 1 cases" in out
    junit = (tmp_path / "o" / "junit.xml").read_text()
    assert (
        "ti: stop-at's win share changed significantly: 40.4% -&gt; 34.2%, a change of "
        "-6.2 points [95% -9.8, -2.5] paired over 300 replayed seed blocks, p = 0.0009 "
        "(cut-off p &lt; 0.0125, Bonferroni over 4 statistics, family-wise alpha 0.05)"
    ) in junit


def test_an_old_format_baseline_is_refused_in_one_line(tmp_path: Path) -> None:
    suite, baseline = ti_suite(tmp_path)
    doc = json.loads(baseline.read_text())
    for stat in doc["cases"]["ti"]["stats"].values():
        del stat["blocks"]
    baseline.write_text(json.dumps({**doc, "version": 1}))
    code, out, err = regress(suite, baseline, tmp_path / "o")
    assert code == 2, out
    assert err.strip() == (
        f"tourney: error: {baseline}: baseline format version 1 has no per-block sums for the "
        "paired checks (this tourney reads version 2): refresh it with --update-baseline"
    )
    assert regress(suite, baseline, tmp_path / "o", "--update-baseline")[0] == 0
    assert json.loads(baseline.read_text())["version"] == 2


def test_student_t_and_the_paired_change() -> None:
    assert t_quantile(0.975, 9) == pytest.approx(2.262157, abs=1e-6)
    assert t_quantile(0.975, 100000) == pytest.approx(1.959985, abs=1e-5)
    assert t_sf(2.0, 10) == pytest.approx(0.0366940, abs=1e-7)
    assert t_sf(-1.0, 5) == pytest.approx(0.8183913, abs=1e-7)
    # Blocks of 2 games; differences per block 0, -1, -1, 0: mean -0.25 a game.
    estimate, low, high, p = paired_change([2, 1, 1, 0], [2, 0, 0, 0], [2, 2, 2, 2])
    se = math.sqrt(((0.5**2) * 2 + (0.5**2) * 2) / 3 / 4) / 2
    assert estimate == -0.25
    assert (low, high) == pytest.approx((-0.25 - 3.182446 * se, -0.25 + 3.182446 * se))
    assert p == pytest.approx(2 * t_sf(0.25 / se, 3))
    assert paired_change([1.0, 2.0], [1.0, 2.0], [2, 2]) == (0.0, 0.0, 0.0, 1.0)


def test_a_single_block_has_no_interval_and_the_report_stays_json(tmp_path: Path) -> None:
    suite = tmp_path / "suite.toml"
    suite.write_text(
        '[[case]]\nname = "one"\ngame = "treasure-island"\nplayers = ["stop-at", "random"]\n'
        "games = 2\nseed = 3\ngolden_games = 1\n"
    )
    baseline = tmp_path / "baseline.json"
    assert regress(suite, baseline, tmp_path / "o", "--update-baseline")[0] == 0
    doc = json.loads(baseline.read_text())
    turns = doc["cases"]["one"]["stats"]["turns"]
    turns["blocks"][0] += 1.0
    turns["mean"] = turns["blocks"][0] / 2
    baseline.write_text(json.dumps(doc))
    code, out, _ = regress(suite, baseline, tmp_path / "o")
    assert code == 0, out
    row = next(line for line in out.splitlines() if line.startswith("one   turns"))
    assert row.split()[4:] == ["1", "-0.50", "turns", "p", "=", "n/a", "changed", "within",
                               "noise"]  # fmt: skip

    def strict(name: str) -> None:
        raise AssertionError(f"{name} in report.json")

    report = json.loads((tmp_path / "o" / "report.json").read_text(), parse_constant=strict)
    check = next(c for c in report["checks"] if c["check"] == "turns")
    assert (check["low"], check["high"], check["p"]) == (None, None, None)
