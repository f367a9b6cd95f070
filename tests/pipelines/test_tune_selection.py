"""``tourney tune``'s claims about the setting it picks, measured by replication on a
simulated field whose true win shares are known: the plausible set keeps every truly best
setting at least 90% of the time; the best is named only when the confirmation on fresh
seeds finds it better than the default and the runner-up; shares have Wilson intervals."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from pipelines.experiments.tune import ParamGrid, TuneSpec, tune
from pipelines.experiments.tune_output import format_summary

STRATEGY = "tests.pipelines.planted:Planted"
XS = tuple(round(0.1 * k, 1) for k in range(11))


def plateau(x: float) -> float:
    """The true win share of setting ``x``: 30% on a plateau 0.1..0.7 (seven settings and the
    default truly as good as the best), 24% off it."""
    return 0.30 if abs(x - 0.4) < 0.35 else 0.24


def peak(x: float) -> float:
    """One truly best setting, x = 0.3 (30%), 6 points less per step of 0.1 away from it."""
    return 0.30 - 0.06 * round(abs(x - 0.3) / 0.1)


def flat(x: float) -> float:
    """Every setting truly the same: 30%."""
    return 0.30


def fake_play(truth: dict[str, float]):  # type: ignore[no-untyped-def]
    """A ``play`` for :func:`tune` that plays no game: in each seed block (two games, seats
    rotated) the tuned seat wins each game with its true share plus the block's deal luck,
    common to every setting on that seed (so pairing pays, as with real games)."""

    def play(players: list[str], games: int, seed: int, out: Path) -> tuple[dict[int, float], int]:
        mu = truth[players[0]]
        blocks = {}
        for b in range(games // 2):
            luck = random.Random(f"deal:{seed}:{b}").uniform(-0.2, 0.2)
            rng = random.Random(f"games:{seed}:{b}:{players[0]}")
            blocks[b] = sum(rng.random() < mu + luck for _ in range(2)) / 2
        return blocks, 0

    return play


def _spec(seed: int, games: int = 200) -> TuneSpec:
    return TuneSpec(
        game="treasure-island",
        strategy=STRATEGY,
        grids=(ParamGrid("x", XS),),
        field=("expected-value",),
        rules=None,
        games=games,
        seed=seed,
        out=Path("unused"),
        backend="serial",
        workers=1,
    )


def _x(label: str) -> float:
    """A setting's x (the untuned default's is 0.5)."""
    found = re.search(r"x=([\d.]+)", label)
    return float(found.group(1)) if found else 0.5


def _truth(curve) -> dict[str, float]:  # type: ignore[no-untyped-def]
    out = {f"{STRATEGY}(x={x:g})": curve(x) for x in XS}
    out[STRATEGY] = curve(0.5)  # the untuned default, x = 0.5
    return out


def plausible_coverage(tunes: int) -> float:
    """The share of (tune, truly best setting) pairs in which the setting stays in the
    plausible set."""
    truth = _truth(plateau)
    kept = total = 0
    for seed in range(tunes):
        result = tune(_spec(10_000 * seed + 7), fake_play(truth))
        played = {row["setting"] for row in result["rounds"][0]["settings"]}
        best = {label for label in played if truth[label] == 0.30}
        kept += len(best & set(result["plausible"]))
        total += len(best)
    return kept / total


def test_the_plausible_set_keeps_the_truly_best_settings() -> None:
    # 40 tunes x 7 truly best settings; the one-at-a-time set of before kept 85% here.
    assert plausible_coverage(40) >= 0.90


@pytest.mark.replication
def test_the_plausible_set_keeps_the_truly_best_settings_500_tunes() -> None:
    assert plausible_coverage(500) >= 0.90


def test_no_best_is_named_when_the_confirmation_finds_none() -> None:
    # Every setting truly the same: whatever leads the search is luck.
    named = 0
    for seed in range(20):
        result = tune(_spec(seed), fake_play(_truth(flat)))
        confirmation = result["confirmation"]
        if confirmation is None:  # the default won the search: nothing to confirm
            continue
        # The runner-up is confirmed against too, unless it is the default itself.
        if confirmation["runner_up"] is None:
            assert result["runner_up"] == result["default"]["setting"]
        lines = format_summary(result)
        if confirmation["confirmed"]:
            named += 1
            assert lines[0].startswith("best setting:")
        else:
            assert lines[0].startswith("no best setting confirmed")
            assert "not shown better than the" in lines[1]
    assert named <= 2  # a false "best" needs two errors on fresh seeds


def test_a_real_best_is_named_with_its_confirmed_share() -> None:
    truth = _truth(peak)
    result = tune(_spec(3, games=400), fake_play(truth))
    confirmation = result["confirmation"]
    assert confirmation["confirmed"] is True and confirmation["significant"] is True
    assert truth[result["best"]["setting"]] == 0.30
    lines = format_summary(result)
    assert lines[0].startswith("best setting:")
    low, high = confirmation["best"]["interval"]
    assert f"[{100 * low:.1f}, {100 * high:.1f}] on fresh seeds" in lines[1]
    assert "optimistic" in lines[1]


def test_shares_have_wilson_intervals_inside_0_100() -> None:
    truth = dict.fromkeys(_truth(flat), 0.0)
    truth[f"{STRATEGY}(x=0.3)"] = 0.02
    assert set(truth) >= {f"{STRATEGY}(x=0)", f"{STRATEGY}(x=1)"}
    result = tune(_spec(1, games=40), fake_play(truth))
    text = "\n".join(format_summary(result))
    for low, high in re.findall(r"% \[(-?[\d.]+), (-?[\d.]+)\]", text):
        assert 0.0 <= float(low) <= float(high) <= 100.0
        assert (low, high) != ("0.0", "0.0")
