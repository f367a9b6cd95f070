"""``tourney compare``: paired rule variants on common seeds with the SPRT."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from pipelines.cli import app

runner = CliRunner()
BASE = ["compare", "--islands", "abc-1,ABC-2", "--seed", "3", "--json"]


def run_json(args: list[str]) -> dict[str, Any]:
    result = runner.invoke(app, [*BASE, *args])
    assert result.exit_code == 0, result.output
    parsed: dict[str, Any] = json.loads(result.stdout)
    return parsed


def test_identical_variants_differ_by_exactly_nothing() -> None:
    out = run_json(["--b-rules", "rulebook", "--max-games", "160", "--workers", "1"])
    assert out["difference"] == 0.0 and out["sd_per_block"] == 0.0
    assert out["blocks"] == 20 and out["games"] == 160
    assert out["decision"] == "undecided"


def test_a_large_effect_is_decided_early(tmp_path: Path) -> None:
    short = tmp_path / "short.toml"
    short.write_text("max_turns = 5\n")  # every B game is cut after 5 turns
    out = run_json(
        ["--b-rules", str(short), "--metric", "turns", "--bounds", "0,-5",
         "--max-games", "4000", "--batch-blocks", "10", "--workers", "1"]
    )  # fmt: skip
    assert out["decision"] == "H1"
    assert out["blocks"] == 10  # the first look already decides
    assert out["difference"] < -15
    low, high = out["interval"]
    assert low <= out["difference"] <= high


def test_workers_do_not_change_the_result(tmp_path: Path) -> None:
    five = tmp_path / "five.toml"
    five.write_text("hand_size = 5\n")
    args = ["--b-rules", str(five), "--max-games", "240", "--batch-blocks", "10"]
    assert run_json([*args, "--workers", "1"]) == run_json([*args, "--workers", "2"])


def test_plan_estimates_the_fixed_test() -> None:
    out = run_json(["--b-rules", "bga", "--plan", "0.05", "--pilot-blocks", "12", "--workers", "1"])
    assert out["pilot_blocks"] == 12 and out["sd_per_block"] > 0
    assert out["games"] == out["blocks"] * 8 and out["blocks"] > 0


def test_bad_arguments() -> None:
    for args, message in (
        (["--b-rules", "bga", "--metric", "speed"], "--metric 'speed' is not allowed"),
        (["--b-rules", "bga", "--metric", "win:wizard"], "--metric 'win:wizard' is not allowed"),
        (["--b-rules", "bga", "--bounds", "0.1,0.1"], "H0 and H1 must differ"),
        (["--b-rules", "bga", "--bounds", "x"], "give two numbers"),
        (["--b-rules", "house"], "unknown rules 'house'"),
    ):
        result = runner.invoke(app, ["compare", *args])
        assert result.exit_code == 2, args
        assert message in result.stderr


def test_ablation_is_the_same_rules_without_curses(tmp_path: Path) -> None:
    no_curses = tmp_path / "nc.toml"
    no_curses.write_text("curse_count = 0\n")
    args = ["--max-games", "160", "--workers", "1", "--metric", "turns"]
    assert run_json(["--ablate", "curses", *args]) == run_json(["--b-rules", str(no_curses), *args])


def test_strategy_comparison_against_a_field() -> None:
    same = run_json(
        ["--a-strategy", "hunter", "--b-strategy", "hunter", "--players", "cautious,collector",
         "--max-games", "120", "--workers", "1"]
    )  # fmt: skip
    assert same["metric"] == "candidate" and same["difference"] == 0.0
    assert same["games"] == 120 and same["blocks"] == 20  # 3 rotations x 2 candidates a block
    better = run_json(
        ["--a-strategy", "random", "--b-strategy", "cautious", "--players", "hunter,collector",
         "--bounds", "0,0.1", "--max-games", "3000", "--batch-blocks", "20", "--workers", "1"]
    )  # fmt: skip
    assert better["decision"] == "H1" and better["difference"] > 0.1


def test_exactly_one_b_is_required() -> None:
    for args in ([], ["--b-rules", "bga", "--ablate", "curses"], ["--a-strategy", "hunter"]):
        result = runner.invoke(app, ["compare", *args])
        assert result.exit_code == 2
    result = runner.invoke(app, ["compare", "--ablate", "luck"])
    assert "--ablate 'luck' is not allowed (curses or amulets)" in result.stderr


def test_paired_design_has_lower_variance_than_unpaired() -> None:
    """The same games, differenced by seed block (paired) or across blocks (unpaired)."""
    from statistics import variance

    from pipelines.compare import CompareSpec, _value
    from sim.tobago.modular import island_names
    from sim.tobago.rules import preset, with_overrides
    from strategies.registry import parse_strategy

    specs = [parse_strategy(x) for x in ("hunter", "cartographer", "collector", "cautious")]
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
    a = [_value(spec, rules_a, spec.factories, b) for b in range(40)]
    b = [_value(spec, rules_b, spec.factories, b) for b in range(40)]
    paired = [y - x for x, y in zip(a, b, strict=True)]
    unpaired = [y - x for x, y in zip(a, b[1:] + b[:1], strict=True)]
    assert variance(paired) < 0.8 * variance(unpaired)
