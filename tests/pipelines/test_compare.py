"""``tourney compare``: paired rule variants on common seeds with the SPRT."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app

runner = CliRunner()
BASE = ["compare", "--seed", "3", "--json"]
ISLANDS = ["--islands", "abc-1,ABC-2"]


def run_json(args: list[str]) -> dict[str, Any]:
    islands = [] if "--game" in args else ISLANDS  # Treasure Island has none
    result = runner.invoke(app, [*BASE, *islands, *args])
    assert result.exit_code == 0, result.output
    parsed: dict[str, Any] = json.loads(result.stdout)
    return parsed


def test_identical_variants_differ_by_exactly_nothing() -> None:
    out = run_json(["--b-rules", "rulebook", "--max-games", "160", "--workers", "1"])
    assert out["estimate"] == 0.0 and out["sd_per_block"] == 0.0
    assert out["blocks"] == 20 and out["games"] == 160
    assert out["decision"] == "undecided" and out["accepted"] is None
    assert "every block gave the same difference (+0.0 points)" in out["verdict"]
    assert out["field"]["rules_b"]["changes"] == {}
    # Nothing to weigh, nothing selected by the stop: the plain figures.
    assert out["estimate_method"].startswith("Student's t")
    assert out["naive_interval"] == out["interval"] == [0.0, 0.0]


def test_a_large_effect_is_decided_early(tmp_path: Path) -> None:
    short = tmp_path / "short.toml"
    short.write_text("max_turns = 5\n")  # every B game is cut after 5 turns
    out = run_json(
        ["--b-rules", str(short), "--metric", "turns", "--bounds", "0,-5",
         "--max-games", "4000", "--batch-blocks", "10", "--workers", "1"]
    )  # fmt: skip
    assert out["decision"] == "H1" and out["unit"] == "turns"
    assert out["accepted"] == "B shortens games by at least 5 turns"
    assert out["blocks"] == 10  # the first look already decides
    assert out["estimate"] < -15
    low, high = out["interval"]
    assert low <= out["estimate"] <= high and [out["low"], out["high"]] == [low, high]
    # A stop at the first look could have come later: the figures are those valid under the
    # stopping rule, the naive ones kept beside them.
    assert out["estimate_method"].startswith("bias-adjusted, valid under the stopping rule")
    assert out["naive_estimate"] < -15 and len(out["naive_interval"]) == 2


def test_workers_do_not_change_the_result(tmp_path: Path) -> None:
    five = tmp_path / "five.toml"
    five.write_text("hand_size = 5\n")
    args = ["--b-rules", str(five), "--max-games", "240", "--batch-blocks", "10"]
    assert run_json([*args, "--workers", "1"]) == run_json([*args, "--workers", "2"])


def test_plan_estimates_the_fixed_test() -> None:
    out = run_json(["--b-rules", "bga", "--plan", "5", "--pilot-blocks", "12", "--workers", "1"])
    assert out["pilot_blocks"] == 12 and out["sd_per_block"] > 1  # points, not shares
    assert out["unit"] == "points" and out["effect"] == 5
    assert out["games"] == out["blocks"] * 8 and out["blocks"] > 0
    text = runner.invoke(
        app, ["compare", "--islands", "abc-1", "--b-rules", "bga", "--plan", "5",
              "--pilot-blocks", "4", "--metric", "turns"]
    )  # fmt: skip
    assert text.exit_code == 0, text.output
    assert "to detect a difference of 5 turns in game length (B - A)" in text.stdout
    assert "sd of B - A per block" in text.stdout and "turns" in text.stdout.splitlines()[1]


def test_bad_arguments() -> None:
    for args, message in (
        (["--b-rules", "bga", "--metric", "speed"], "--metric 'speed' is not allowed"),
        (["--b-rules", "bga", "--metric", "win:wizard"], "--metric 'win:wizard' is not allowed"),
        (["--b-rules", "bga", "--bounds", "0.1,0.1"], "H0 and H1 must differ"),
        (["--b-rules", "bga", "--bounds", "x"], "give two numbers H0,H1 in points"),
        (["--b-rules", "bga", "--bounds", "0,inf"], "give two numbers H0,H1 in points"),
        (["--b-rules", "bga", "--bounds", "0,0.02"], "0,2 means 2 percentage points"),
        (["--b-rules", "bga", "--bounds", "0,150"], "each between -100 and 100"),
        (["--b-rules", "bga", "--metric", "turns", "--bounds", "0,1,2"], "H0,H1 in turns"),
        (["--b-rules", "bga", "--two-sided", "--bounds", "0,2"], "--bounds is for a one-sided"),
        (["--b-rules", "bga", "--delta", "2"], "--delta is for --two-sided"),
        (["--b-rules", "bga", "--two-sided", "--delta", "0"], "--delta 0 is not allowed"),
        (["--b-rules", "bga", "--plan", "0"], "--plan 0 is not allowed"),
        (["--b-rules", "bga", "--plan", "2", "--two-sided"], "--plan estimates a fixed-size"),
        (["--b-rules", "bga", "--metric", "candidate"], "is for strategy comparisons"),
        (["--game", "tobago", "--b-rules", "house"], "unknown rules 'house'"),
    ):
        result = runner.invoke(app, ["compare", *args])
        assert result.exit_code == 2, args
        assert message in result.stderr, (args, result.stderr)
        assert result.stderr.startswith("tourney: error: ") and result.stderr.count("\n") == 1


def test_ablation_is_the_same_rules_without_curses(tmp_path: Path) -> None:
    no_curses = tmp_path / "nc.toml"
    no_curses.write_text("curse_count = 0\n")
    args = ["--max-games", "160", "--workers", "1", "--metric", "turns"]
    ablated = run_json(["--ablate", "curses", *args])
    by_file = run_json(["--b-rules", str(no_curses), *args])
    assert ablated["field"]["rules_b"]["name"] == "rulebook without curses"
    assert by_file["field"]["rules_b"]["name"] == "nc.toml"
    for out in (ablated, by_file):
        assert out["field"]["rules_b"]["changes"] == {"curse_count": [2, 0]}
        del out["field"]["rules_b"]["name"]
    assert ablated == by_file


def test_strategy_comparison_against_a_field() -> None:
    same = run_json(
        ["--a-strategy", "hunter", "--b-strategy", "hunter", "--players", "cautious,collector",
         "--max-games", "120", "--workers", "1"]
    )  # fmt: skip
    assert same["metric"] == "candidate" and same["estimate"] == 0.0
    assert same["games"] == 120 and same["blocks"] == 20  # 3 rotations x 2 candidates a block
    assert same["field"]["a"] == same["field"]["b"] == "hunter"
    assert same["field"]["opponents"] == ["cautious", "collector"]
    better = run_json(
        ["--a-strategy", "random", "--b-strategy", "cautious", "--players", "hunter,collector",
         "--bounds", "0,10", "--max-games", "3000", "--batch-blocks", "20", "--workers", "1"]
    )  # fmt: skip
    assert better["decision"] == "H1" and better["estimate"] > 10
    assert better["accepted"] == (
        "B wins a larger share than A against the field by at least 10 points"
    )


def test_exactly_one_b_is_required() -> None:
    for args in ([], ["--b-rules", "bga", "--ablate", "curses"], ["--a-strategy", "hunter"]):
        result = runner.invoke(app, ["compare", *args])
        assert result.exit_code == 2
    result = runner.invoke(app, ["compare", "--game", "tobago", "--ablate", "luck"])
    assert "--ablate 'luck' is not allowed (curses or amulets)" in result.stderr


def test_paired_design_has_lower_variance_than_unpaired() -> None:
    """The same games, differenced by seed block (paired) or across blocks (unpaired)."""
    from statistics import variance

    from pipelines.experiments.compare import CompareSpec, _values
    from sim.tobago.modular import island_names
    from sim.tobago.rules import preset, with_overrides
    from strategies.registry import parse_strategy

    specs = [
        parse_strategy(x, "tobago") for x in ("hunter", "cartographer", "collector", "cautious")
    ]
    rules_a = preset("rulebook")
    rules_b = with_overrides(rules_a, {"hand_size": 5}, "test")
    spec = CompareSpec(
        labels=tuple(s.label for s in specs),
        factories=tuple(s.factory() for s in specs),
        rules_a=rules_a,
        rules_b=rules_b,
        factories_b=None,
        metric="turns",
        theta0=0.0,
        theta1=1.0,
        seed=5,
        islands=tuple(island_names()),
        max_games=0,
    )
    lineup = spec.lineup(b_side=False)
    a = [value for value, _ in _values(spec, rules_a, lineup, range(40))]
    b = [value for value, _ in _values(spec, rules_b, lineup, range(40))]
    paired = [y - x for x, y in zip(a, b, strict=True)]
    unpaired = [y - x for x, y in zip(a, b[1:] + b[:1], strict=True)]
    assert variance(paired) < 0.8 * variance(unpaired)


def write_rules(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_rule_that_shortens_games_is_reported_in_words(tmp_path: Path) -> None:
    """Four legs per move instead of three shortens Tobago games by about 3 turns."""
    faster = write_rules(tmp_path, "legs4.toml", "legs_per_move = 4\n")
    args = ["compare", "--islands", "abc-1,ABC-2", "--b-rules", faster, "--metric", "turns",
            "--max-games", "1600", "--batch-blocks", "10", "--workers", "1"]  # fmt: skip
    result = runner.invoke(app, [*args, "--bounds", "0,-1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("B shortens games by at least 1 turn: -")
    assert lines[0].endswith("(B - A, 80 games); the test prefers H1 (-1 turn) to H0 (0 turns)")
    assert "    H0: no decrease of 1 turn or more in game length (B - A = 0 turns)" in lines
    assert "    H1: B shortens games by at least 1 turn (B - A = -1 turn)" in lines
    assert "  B: legs4.toml (legs_per_move 3 -> 4)" in lines
    assert "  players: hunter, cartographer, collector, cautious, in every seat rotation" in (
        result.stdout
    )
    # The default one-sided test asks whether B lengthens games: it accepts H0 and says what
    # the interval shows, so the verdict and the interval cannot be read as contradicting.
    default = runner.invoke(app, args)
    assert default.exit_code == 0, default.output
    first = default.stdout.splitlines()[0]
    assert first.startswith("B shortens games: -"), first
    assert "the test prefers H0 (0 turns) to H1 (+1 turn); the smallest difference" in first


def test_two_sided_sees_both_directions(tmp_path: Path) -> None:
    slower = write_rules(tmp_path, "legs2.toml", "legs_per_move = 2\n")
    faster = write_rules(tmp_path, "legs4.toml", "legs_per_move = 4\n")
    args = ["--metric", "turns", "--two-sided", "--max-games", "1600", "--batch-blocks", "10",
            "--workers", "1"]  # fmt: skip
    up = run_json(["--b-rules", slower, *args])
    down = run_json(["--b-rules", faster, *args])
    assert up["test"] == "two-sided" and up["decision"] == "H1+" and up["direction"] == "increase"
    assert up["accepted"] == "B lengthens games by at least 1 turn"
    assert down["decision"] == "H1-" and down["accepted"] == "B shortens games by at least 1 turn"
    assert [h["difference"] for h in down["hypotheses"]] == [0.0, 1.0, -1.0]
    assert set(down["llr"]) == {"H1+", "H1-"}
    low, high = down["llr_bounds"]
    assert low < -2.9 and high > 3.6  # each side at alpha / 2
    # "No difference" needs both sides to accept: bga moves the first seat's win share by
    # far less than 5 points either way.
    same = run_json(["--b-rules", "bga", "--two-sided", "--delta", "5", "--max-games", "2400",
                     "--batch-blocks", "20", "--workers", "1"])  # fmt: skip
    assert same["decision"] == "H0"
    assert same["accepted"] == "no difference of 5 points or more in the first seat's win share"


def test_progress_lines_go_to_stderr(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["compare", "--islands", "abc-1", "--b-rules", "bga", "--max-games", "160",
              "--batch-blocks", "5", "--workers", "1"]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    progress = [line for line in result.stderr.splitlines() if line.startswith("progress: ")]
    assert progress, result.stderr
    assert progress[0].startswith("progress: compare: 40/160 games, 5/20 blocks; LLR ")
    assert " in [-2.94, +2.94]; B - A " in progress[0]
    assert progress[0].endswith(", measuring the speed")  # the first look: no speed yet
    # The test may stop early: the time left is an upper bound.
    assert all(line.endswith(" left") for line in progress[1:]), progress
    assert all(", at most " in line for line in progress[1:-1]), progress
    assert progress[-1].startswith("progress: compare: 160/160 games, 20/20 blocks")
    assert "progress" not in result.stdout


def test_treasure_island_rules_in_units() -> None:
    out = run_json(
        ["--game", "treasure-island", "--b-rules", "characters", "--metric", "turns",
         "--two-sided", "--delta", "0.5", "--max-games", "800"]
    )  # fmt: skip
    assert out["game"] == "treasure-island" and "islands" not in out["field"]
    assert out["field"]["rules_b"]["changes"] == {"characters": [False, True]}
    assert out["decision"] in ("H0", "H1+", "H1-", "undecided")


def test_another_lineup_on_the_same_seats() -> None:
    # The same lineup as B differs by exactly nothing; a lineup that only plunders at once
    # (stop-at n=1) plays far longer games than expected-value.
    same = run_json(
        [
            "--game",
            "treasure-island",
            "--players",
            "expected-value,stop-at",
            "--b-players",
            "expected-value,stop-at",
            "--max-games",
            "80",
            "--workers",
            "1",
        ]
    )
    assert same["estimate"] == 0.0 and same["sd_per_block"] == 0.0
    assert same["field"]["players_b"] == ["expected-value", "stop-at"]
    longer = run_json(
        [
            "--game",
            "treasure-island",
            "--players",
            "expected-value,expected-value",
            "--b-players",
            "stop-at(n=1),stop-at(n=1)",
            "--metric",
            "turns",
            "--max-games",
            "400",
            "--workers",
            "1",
        ]
    )
    assert longer["decision"] == "H1" and longer["estimate"] > 5
    for args, message in [
        (["--b-players", "hunter"], "1 strategies for a table of 4"),
        (
            ["--b-players", "hunter,hunter,hunter,hunter", "--metric", "win:hunter"],
            "first-seat or turns",
        ),
    ]:
        result = runner.invoke(app, [*BASE, *args])
        assert result.exit_code == 2 and message in result.output, result.output


def test_capped_games_and_strategy_failures_are_said_before_the_verdict(tmp_path: Path) -> None:
    """A turn cap that cuts games short is counted in B (and the games count, with their
    length, so the metric sees the cap); a crashing plug-in's failures are counted per side."""
    capped = write_rules(tmp_path, "cap.toml", "max_turns = 20\n")
    args = ["--b-rules", capped, "--metric", "turns", "--max-games", "160", "--workers", "1"]
    result = run_json(args)
    assert result["issues"]["a"]["turn_cap"] == 0
    cut = result["issues"]["b"]["turn_cap"]
    assert cut > 0 and result["estimate"] < -5  # capped games are shorter, and counted
    assert result["warnings"] == [
        f"{cut:,} of {result['games'] // 2:,} games of B stopped at the turn cap (counted with "
        "their length and the leader's win)"
    ]
    text = runner.invoke(app, [*BASE[:-1], *ISLANDS, *args])
    assert text.exit_code == 0, text.output
    assert text.stdout.splitlines()[0].startswith(f"warning: {cut:,} of ")
    crashy = run_json(
        ["--a-strategy", "hunter", "--b-strategy", "tests.runner.crashy:Crashy", "--players",
         "cautious,collector", "--max-games", "60", "--workers", "1"]
    )  # fmt: skip
    assert crashy["issues"]["a"]["strategy_failures"] == 0
    failures = crashy["issues"]["b"]["strategy_failures"]
    assert failures > 0
    assert crashy["warnings"] == [
        f"{failures:,} decisions in B's games were strategy failures (a strategy crashed or "
        "answered illegally, and the fallback played instead): the figures measure the "
        "fallback too"
    ]


def test_an_undecided_compare_claims_no_direction_and_stays_in_range() -> None:
    tiny = run_json(["--ablate", "curses", "--metric", "win:cautious", "--two-sided",
                     "--max-games", "3", "--workers", "1"])  # fmt: skip
    assert tiny["decision"] == "undecided" and tiny["direction"] == "none"
    # Two blocks: no verdict from a variance of two values, and it says why.
    assert tiny["blocks"] == 2
    assert tiny["warnings"][-1].startswith("only 2 blocks: the test decides after 10 blocks")
    low, high = tiny["interval"]
    assert -100 <= low <= tiny["estimate"] <= high <= 100
    assert tiny["verdict"].startswith("no clear direction: ")
    assert "the test prefers neither H0 (0 points) nor H1+ (+2 points)" in tiny["verdict"]
    assert " raises " not in tiny["verdict"] and " lowers " not in tiny["verdict"]


def test_no_verdict_before_ten_blocks() -> None:
    """Two blocks whose difference happened to agree once decided H0 after 16 games."""
    few = run_json(["--ablate", "curses", "--max-games", "16", "--seed", "6", "--metric", "turns",
                    "--two-sided", "--workers", "1"])  # fmt: skip
    assert few["blocks"] == 2 and few["decision"] == "undecided"


ONECURSE = ["--metric", "turns", "--max-games", "4000", "--batch-blocks", "10", "--workers", "1"]


def _figures(out: dict[str, Any]) -> str:
    """The estimate and interval as the verdict writes them (turns, two decimals)."""
    from pipelines.report.verdicts import metric_info

    turns = metric_info("turns")
    return f"{turns.difference(out['estimate'])} {turns.interval(*out['interval'])}"


def test_a_preferred_h1_claims_only_what_its_interval_shows(tmp_path: Path) -> None:
    """One curse instead of two: the test prefers H1 (-1.5 turns), but the interval does not
    reach 1.5 turns, so the verdict says only that B shortens games (issue 32's case)."""
    one = write_rules(tmp_path, "onecurse.toml", "curse_count = 1\n")
    args = ["--b-rules", one, *ONECURSE, "--seed", "1"]
    out = run_json([*args, "--bounds", "0,-1.5"])
    low, high = out["interval"]
    assert out["decision"] == "H1" and low < high and -1.5 < high < 0
    assert out["verdict"] == (
        f"B shortens games: {_figures(out)} (B - A, {out['games']:,} games); the test prefers "
        "H1 (-1.5 turns) to H0 (0 turns)"
    )
    assert out["preference"] == "the test prefers H1 (-1.5 turns) to H0 (0 turns)"
    assert out["direction"] == "decrease"
    text = runner.invoke(app, ["compare", *ISLANDS, *args, "--bounds", "0,-1.5"])
    assert text.exit_code == 0, text.output
    assert text.stdout.splitlines()[0] == out["verdict"]
    # Two-sided: H1- (-1 turn) preferred, the interval straddles 1 turn (seed 2: on seed 1's
    # early stop the valid interval reaches past 0).
    two = run_json(["--b-rules", one, *ONECURSE, "--seed", "2", "--two-sided"])
    low, high = two["interval"]
    assert two["decision"] == "H1-" and low < high and -1 < high < 0
    assert two["verdict"] == (
        f"B shortens games: {_figures(two)} (B - A, {two['games']:,} games); the test prefers "
        "H1- (-1 turn) to H0 (0 turns) and H1+ (+1 turn)"
    )
    assert "at least" not in two["verdict"]


def test_an_accepted_h0_states_what_the_run_could_have_detected(tmp_path: Path) -> None:
    one = write_rules(tmp_path, "onecurse.toml", "curse_count = 1\n")
    out = run_json(["--b-rules", one, *ONECURSE, "--seed", "4", "--bounds", "0,-1.5"])
    low, high = out["interval"]
    assert out["decision"] == "H0" and low < 0 < high and out["direction"] == "none"
    # One-sided 5%, 80% power: (1.644854 + 0.841621) * sd / sqrt(blocks).
    se = out["sd_per_block"] / out["blocks"] ** 0.5
    assert out["detectable_effect"] == pytest.approx(2.486475 * se, rel=1e-5)
    assert (out["power"], out["power_alpha"], out["sides"]) == (0.8, 0.05, 1)
    blocks = math.ceil(out["blocks"] * (out["detectable_effect"] / 1.5) ** 2)
    assert out["games_for_effect"] == {"effect": 1.5, "games": blocks * 8}
    assert out["verdict"] == (
        f"no clear direction: {_figures(out)} (B - A, {out['games']:,} games); the test "
        "prefers H0 (0 turns) to H1 (-1.5 turns); the smallest difference this run could "
        f"detect with 80% power is {out['detectable_effect']:.2f} turns (one-sided 5% test); "
        f"1.5 turns needs about {blocks * 8:,} games"
    )


def test_a_sequential_stop_is_estimated_under_its_rule() -> None:
    """H0 accepted at a look after 2,000 games: the naive mean sits lower than the
    bias-adjusted estimate, and the text names both."""
    args = ["--b-rules", "bga", "--max-games", "4000", "--workers", "1"]
    out = run_json(args)
    assert out["decision"] == "H0" and out["games"] < 4000
    assert out["naive_estimate"] < out["estimate"]
    assert out["low"] <= out["estimate"] <= out["high"]
    text = runner.invoke(app, ["compare", "--seed", "3", *ISLANDS, *args])
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert "estimate and 95% interval: bias-adjusted, valid under the stopping rule" in lines[1]
    assert lines[2].startswith(
        "  naive mean and Student's t interval, not valid after a sequential stop: "
    )
