"""The report's findings say a direction only when the interval excludes 0, and beside "no
clear difference" the smallest effect the run could have detected (hand-computed figures)."""

from __future__ import annotations

import pyarrow as pa
import pytest

from pipelines.report.data import CohortResult, ReportData
from pipelines.report.findings import (
    _effect,
    first_seat_findings,
    left_out_caveat,
    power_note,
    strategy_findings,
)
from pipelines.report.run_groups import Cohort, Groups
from pipelines.treasure_island.report import findings as ti_findings

# 2.801585 standard errors: a two-sided 5% test's effect at 80% power.
Z = 2.801585


def cohort(tables: dict[str, pa.Table]) -> CohortResult:
    return CohortResult(Cohort(0, ()), tables)


def test_power_note_by_hand() -> None:
    # se from the interval's width: 0.05 / (2 * 1.959964) = 0.012755.
    text, seen = power_note(-0.02, 0.03, 1000, lambda x: f"{100 * x:.1f} points")
    assert seen["detectable_effect"] == pytest.approx(Z * 0.05 / (2 * 1.959964), rel=1e-6)
    assert seen["games_for_effect"] == 4000 and seen["effect_for_games"] == pytest.approx(
        seen["detectable_effect"] / 2
    )
    assert text == (
        "the smallest difference this run could detect with 80% power is 3.6 points; "
        "1.8 points would need about 4,000 games"
    )
    assert power_note(0.0, 0.0, 10, str) == ("", {})


def test_first_seat_direction_or_no_clear_advantage_with_power() -> None:
    rows = {
        "n_players": [3, 4],
        "seat": [0, 0],
        "games": [900, 1200],
        "win_share": [0.40, 0.255],
        "advantage": [0.40 - 1 / 3, 0.005],
        "advantage_low": [0.03, -0.02],
        "advantage_high": [0.10, 0.03],
    }
    three, four = first_seat_findings(cohort({"win_rate_by_seat": pa.table(rows)}))
    assert three.text.startswith("The first seat wins 6.7 points more often than its fair share")
    assert three.detectable_effect is None
    assert four.text == (
        "No clear first-seat advantage in 4-player games: +0.5 points [-2.0, 3.0] (1,200 games; "
        "the smallest difference this run could detect with 80% power is 3.6 points; 1.8 points "
        "would need about 4,800 games)."
    )
    assert four.detectable_effect == pytest.approx(0.035735, abs=1e-6)
    assert four.games_for_effect == 4800
    assert four.record()["detectable_effect"] == four.detectable_effect


def test_a_strategy_at_its_fair_share_gets_the_power_of_the_run() -> None:
    rows = {
        "n_players": [2],
        "strategy": ["hunter"],
        "seats": [2000],
        "win_share": [0.51],
        "low": [0.48],
        "high": [0.54],
        "fair_share": [0.5],
    }
    (f,) = strategy_findings(cohort({"win_rate_by_strategy": pa.table(rows)}))
    # se = 0.06 / 3.919928 = 0.015306; MDE = 2.801585 * se = 4.29 points.
    assert "(fair share 50%: no clear difference from it; the smallest difference" in f.text
    assert "is 4.3 points; 2.1 points would need about 8,000 games; 2,000 games)." in f.text


def test_paired_effects_by_their_interval() -> None:
    r = {"se": 0.01, "pairs": 1000}
    text, seen = _effect(
        "removing curses", "hunter's win share", r, (-0.03, -0.05, -0.01), "points"
    )
    assert text == "removing curses lowers hunter's win share by 3.0 points [1.0, 5.0]"
    assert seen == {}
    text, seen = _effect(
        "removing curses", "hunter's win share", r, (0.005, -0.015, 0.025), "points"
    )
    # The pairing's own se: 2.801585 * 0.01 = 2.8 points.
    assert text == (
        "no clear effect of removing curses on hunter's win share: +0.5 points [-1.5, 2.5]; the "
        "smallest difference this run could detect with 80% power is 2.8 points; 1.4 points "
        "would need about 4,000 games"
    )
    assert seen["detectable_effect"] == pytest.approx(Z * 0.01, rel=1e-6)
    text, _ = _effect("the rules bga (instead of rulebook)", "game length",
                      {"se": 0.1, "pairs": 400}, (-0.5, -0.7, -0.3), "turns")  # fmt: skip
    assert text == "the rules bga (instead of rulebook) shortens games by 0.50 turns [0.30, 0.70]"


def test_a_gap_to_optimal_states_its_size_with_the_size_s_interval() -> None:
    gap = {"strategy": ["stop-at"], "gap": [-0.5], "low": [-0.7], "high": [-0.3], "blocks": [50]}
    data = ReportData(
        "treasure-island",
        Groups((), (), ()),
        [cohort({"optimal_gap": pa.table(gap)})],
        [],
        200,
        True,
        False,
    )
    (f,) = ti_findings(data)
    # The gap is stop-at minus optimal (-0.50 [-0.70, -0.30]); in words, its size.
    assert (f.estimate, f.low, f.high) == (-0.5, -0.7, -0.3)
    assert f.text.startswith("stop-at scores 0.50 points per turn fewer than optimal [0.30, 0.70]")


def test_the_left_out_caveat_agrees_in_number() -> None:
    assert left_out_caveat(0) == ""
    assert left_out_caveat(1).startswith(" 1 seed-matched game that did not end naturally")
    assert " is left out" in left_out_caveat(1)
    assert left_out_caveat(3).startswith(" 3 seed-matched games that") and " are left" in (
        left_out_caveat(3)
    )
