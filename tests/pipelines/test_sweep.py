"""``tourney sweep``: a grid on common seeds, its outputs, and bad parameters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app

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
    # Against the base rules' point (2 curses), paired on the same seeds, in words that
    # claim no more than the intervals.
    none, base = rows
    assert base["verdict"] == "the base rules' point (curse_count=2)"
    assert base["turns_vs_base"] == 0.0 and base["first_seat_vs_base"] == 0.0
    assert none["turns_vs_base"] == pytest.approx(none["mean_turns"] - base["mean_turns"])
    assert none["first_seat_vs_base"] == pytest.approx(
        none["first_seat_share"] - base["first_seat_share"]
    )
    assert none["verdict"].startswith("against curse_count=2 (the base rules), on the same seeds: ")
    for key, what in (("first_seat_vs_base", "the first seat's win share"),
                      ("turns_vs_base", "game length")):  # fmt: skip
        low, high = none[f"{key}_low"], none[f"{key}_high"]
        assert low <= none[key] <= high
        unclear = f"no clear change in {what}: " in none["verdict"]
        assert unclear == (low <= 0 <= high)
    if "no clear change" in none["verdict"]:
        assert (
            "the smallest difference this run could detect with 80% power is" in (none["verdict"])
        )


def test_a_sweep_says_how_far_each_point_is_from_the_base_rules(tmp_path: Path) -> None:
    args = ["sweep", "--param", "legs_per_move=2,3,4", "--games", "400", "--islands", "abc-1",
            "--workers", "1", "--out", str(tmp_path / "s")]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    two = next(line for line in lines if line.startswith("legs_per_move=2: "))
    four = next(line for line in lines if line.startswith("legs_per_move=4: "))
    # Two legs a move lengthen games by 8 turns and four shorten them by 3; the first seat's
    # share moves by less than the run can see, and it says what it could have seen. The
    # intervals are the reports' paired ones: Student's t over the 100 blocks.
    assert "; lengthens games: +8.28 turns [+7.70, +8.85]" in two
    assert "; shortens games: -2.96 turns [-3.33, -2.60]" in four
    assert (
        "no clear change in the first seat's win share: +0.5 points [-5.9, +7.0] (the "
        "smallest difference this run could detect with 80% power is 9.2 points; 4.6 points "
        "would need about 1,600 games)" in two
    )
    assert not any(line.startswith("legs_per_move=3: ") for line in lines)
    assert (
        "paired differences are B - A: each point minus the base rules' point "
        "(legs_per_move=3) on the same seed blocks" in result.stdout
    )
    # No base point in the grid: nothing to compare with, and the table says so.
    other = runner.invoke(app, [*args[:2], "legs_per_move=2,4", *args[3:], "--json"])
    assert other.exit_code == 0, other.output
    assert all("verdict" not in r for r in json.loads(other.stdout))
    other = runner.invoke(app, [*args[:2], "legs_per_move=2,4", *args[3:]])
    assert (
        "no paired differences: the grid does not hold the base rules' point (legs_per_move=3)"
        in other.stdout
    )


def test_too_few_blocks_give_a_paired_difference_no_interval(tmp_path: Path) -> None:
    args = ["sweep", "--param", "legs_per_move=3,4", "--games", "8", "--islands", "abc-1",
            "--workers", "1", "--out", str(tmp_path / "f")]  # fmt: skip
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    _, four = json.loads(result.stdout)
    # Two seed blocks: a mean, no interval (as the reports' paired differences).
    assert four["turns_vs_base_low"] is None and four["first_seat_vs_base_high"] is None
    assert (
        "game length: " in four["verdict"]
        and "(too few blocks for an interval)" in (four["verdict"])
    )
    assert (tmp_path / "f" / "turns.png").read_bytes()[:4] == b"\x89PNG"


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
        result = runner.invoke(app, ["sweep", "--game", "tobago", *args])
        assert result.exit_code == 2, args
        assert message in result.stderr


def test_printed_table_is_for_people_and_progress_goes_to_stderr(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["sweep", "--param", "legs_per_move=3,4", "--games", "60", "--islands", "abc-1",
         "--workers", "1", "--out", str(tmp_path / "t")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    # The headline on top (as in summary.md), a blank line, then the table.
    said = result.stdout.split("\n\n", 1)[0].splitlines()
    assert said[0].startswith("Over 2 rule settings (60 games each, the same seeds), the first")
    summary = (tmp_path / "t" / "summary.md").read_text().split("\n\n")
    assert summary[0] == "# tourney sweep: legs_per_move"
    assert summary[1 : 1 + len(said)] == [f"**{s}**" for s in said]
    lines = result.stdout.split("\n\n", 1)[1].splitlines()
    assert lines[0].split() == [
        "legs_per_move", "first", "seat", "wins", "advantage,", "points", "turns", "per",
        "game", "curse", "hits/game", "coins", "lost/game", "spread,", "points",
    ]  # fmt: skip
    row = lines[1].split()
    assert row[0] == "3" and row[1].endswith("%") and len(row[1].split(".")[1]) == 2  # 1 decimal
    assert row[2][0] in "+-" and row[3].startswith("[") and row[4].endswith("]")
    assert "60 games per point on the same seeds" in lines[3]
    progress = [line for line in result.stderr.splitlines() if line.startswith("progress: ")]
    assert progress[0].startswith("progress: sweep: 60/120 games, point 1 of 2 (legs_per_move=3)")
    assert progress[-1].startswith("progress: sweep: 120/120 games, point 2 of 2")


def test_treasure_island_sweep_has_no_curse_figures(tmp_path: Path) -> None:
    args = ["sweep", "--game", "treasure-island", "--param", "rum_cards=0,3",
            "--param", "first_player=seat0,random", "--games", "300", "--workers", "2",
            "--out", str(tmp_path / "ti")]  # fmt: skip
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [(r["rum_cards"], r["first_player"]) for r in rows] == [
        (0, "seat0"), (0, "random"), (3, "seat0"), (3, "random"),
    ]  # fmt: skip
    for r in rows:
        assert "curse_hits_per_game" not in r and "coins_lost_per_game" not in r
        assert r["first_seat_low"] <= r["first_seat_advantage"] <= r["first_seat_high"]
        assert 10 < r["mean_turns"] < 40
    # More cards after a Rum bottle before a plunder: a different game length on the same seeds.
    assert rows[0]["mean_turns"] != rows[2]["mean_turns"]
    text = runner.invoke(app, args)
    assert text.exit_code == 0 and "curse" not in text.stdout
    assert "first seat wins" in text.stdout and "progress: sweep:" in text.stderr


def test_bad_parameters_for_treasure_island() -> None:
    for args, message in (
        (["--param", "curse_count=0,2"], "a Treasure Island rules key that takes a number"),
        (["--param", "character_pool=a"], "rum_cards"),
        (["--param", "rum_cards=1,9"], "rum_cards = 9 is not allowed"),
        (["--param", "first_player=last"], "first_player = 'last' is not allowed"),
        (["--param", "rum_cards=1", "--islands", "abc-1"], "not played on islands"),
        (["--param", "rum_cards=1", "--param", "rum_cards=2"], "two different keys"),
    ):
        result = runner.invoke(app, ["sweep", "--game", "treasure-island", *args])
        assert result.exit_code == 2, args
        assert message in result.stderr, (args, result.stderr)


def test_intervals_treat_a_seed_block_as_the_unit_and_cut_off_games_are_said(
    tmp_path: Path,
) -> None:
    """By hand from the same games: per block sums, the cluster-robust standard error; a
    turn cap that stops games is counted and warned about."""
    import math

    from pipelines.stats.core import Z95, ratio_se
    from sim.runner.games import play_planned
    from sim.runner.schedule import plan_game
    from sim.tobago.rules import preset, with_overrides
    from strategies.registry import parse_strategy

    args = ["sweep", "--param", "max_turns=24,1000", "--games", "40", "--islands", "abc-1",
            "--seed", "3", "--workers", "1", "--out", str(tmp_path / "c"), "--json"]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    capped, full = json.loads(result.stdout)
    lineup = ("hunter", "cartographer", "collector", "cautious")
    factories = [parse_strategy(x, "tobago").factory() for x in lineup]
    rules = with_overrides(preset("rulebook"), {"max_turns": 24}, "test")
    per_block: dict[int, list[float]] = {}
    cut = 0
    for game_id in range(40):
        plan = plan_game(game_id, 3, 4, "rotate", ("abc-1",))
        game = play_planned(plan, rules, factories).result
        assert game is not None
        per_block.setdefault(plan.block, []).append(game.turns)
        cut += game.end_reason == "turn_cap"
    ys = [sum(v) for v in per_block.values()]
    ns = [float(len(v)) for v in per_block.values()]
    yn = sum(y * n for y, n in zip(ys, ns, strict=True))
    se = ratio_se(sum(ys), 40, sum(y * y for y in ys), yn, sum(n * n for n in ns), len(ys))
    assert capped["blocks"] == 10 and capped["mean_turns"] == sum(ys) / 40
    assert math.isclose(capped["turns_high"] - capped["mean_turns"], Z95 * se)
    assert capped["turn_cap"] == cut > 0 and full["turn_cap"] == 0
    assert capped["spread_low"] <= capped["strategy_spread"] <= capped["spread_high"]
    table = runner.invoke(app, args[:-1])
    # The first line after the headline.
    assert table.stdout.split("\n\n", 1)[1].splitlines()[0] == (
        f"warning: at max_turns=24: {cut} of 40 games stopped at the turn cap (counted with "
        "their length and the leader's win)"
    )
