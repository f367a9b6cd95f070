"""The smallest detectable effect and the games an effect needs, against hand-computed values."""

from __future__ import annotations

import math
import random

import pytest

from pipelines.stats import power


def test_normal_detectable_effect() -> None:
    # (1.959964 + 0.841621) = 2.801585 standard errors, two-sided 5%, 80% power.
    assert power.z_sum() == pytest.approx(2.801585, abs=1e-6)
    # One-sided 5%: 1.644854 + 0.841621 = 2.486475.
    assert power.z_sum(sides=1) == pytest.approx(2.486475, abs=1e-6)
    assert power.detectable_effect(0.5) == pytest.approx(1.400792, abs=1e-6)
    assert power.detectable_effect(0.0) is None
    assert power.detectable_effect(math.nan) is None
    # A run of 1,000 games with se 0.5 detects 1.4008; half of that needs four times the
    # games, and 2.8016 a quarter of them.
    mde = power.z_sum() * 0.5  # 1.400793
    assert power.games_for_effect(mde / 2, 0.5, 1000) == 4000
    assert power.games_for_effect(2 * mde, 0.5, 1000) == 250
    # In whole blocks of 8 games: 1000 * (1.400792 / 1)^2 = 1962.2 -> 246 blocks.
    assert power.games_for_effect(1.0, 0.5, 1000, step=8) == 1968
    assert power.games_for_effect(0.0, 0.5, 1000) is None
    assert power.se_from_interval(-1.959964, 1.959964) == pytest.approx(1.0, abs=1e-6)


def test_noncentral_chi_square_against_cohens_table() -> None:
    # The chi-square critical values at 5% and Cohen's (1988, table 7.4.6) noncentralities
    # for 80% power.
    table = ((1, 3.841, 7.85), (2, 5.991, 9.64), (3, 7.815, 10.90), (4, 9.488, 11.94),
             (5, 11.070, 12.83), (10, 18.307, 16.24))  # fmt: skip
    for df, critical, lam in table:
        assert power.chi2_critical(df) == pytest.approx(critical, abs=1e-3)
        assert power.noncentrality_for_power(df) == pytest.approx(lam, abs=0.01)
    # At one degree of freedom the chi-square test is the two-sided z test: lambda = 2.8016^2
    # up to the far tail's 1e-4 share of the power.
    assert power.noncentrality_for_power(1) == pytest.approx(power.z_sum() ** 2, abs=2e-3)
    assert power.ncx2_sf(3.841459, 1, 0.0) == pytest.approx(0.05, abs=1e-6)
    # With two degrees of freedom the survival is Marcum's Q_1(sqrt(nc), sqrt(x)):
    # Q_1(2, sqrt(5.991465)) = 0.415427 (its integral, evaluated numerically).
    assert power.ncx2_sf(5.991465, 2, 4.0) == pytest.approx(0.415427, abs=1e-6)


def test_detectable_spread_and_games() -> None:
    # 5 islands (df 4), 20,000 games, one game's variance 0.25 * 0.75 (a first-seat share of
    # 25%, design effect 1): sqrt(11.935 * 0.1875 / 20000) = 0.010578.
    unit = 0.25 * 0.75
    assert power.detectable_spread(4, 20_000, unit) == pytest.approx(0.010578, abs=1e-5)
    assert power.games_for_spread(0.010578, 4, unit) == pytest.approx(20_000, rel=1e-3)
    assert power.games_for_spread(0.005289, 4, unit) == pytest.approx(80_000, rel=1e-3)
    assert power.detectable_spread(0, 20_000, unit) is None


def _detected(effect: float, blocks: int, sd: float, rng: random.Random) -> bool:
    xs = [rng.gauss(effect, sd) for _ in range(blocks)]
    mean = sum(xs) / blocks
    se = math.sqrt(sum((x - mean) ** 2 for x in xs) / (blocks - 1) / blocks)
    return abs(mean) > 1.959964 * se


def _spread_detected(spread: float, games: list[int], rng: random.Random) -> bool:
    # Islands' true first-seat shares 0.25 +- spread (games-weighted sd = spread).
    shares = [0.25 + spread * (1 if k % 2 else -1) for k in range(len(games))]
    wins = [sum(rng.random() < p for _ in range(n)) for p, n in zip(shares, games, strict=True)]
    total = sum(games)
    pooled = sum(wins) / total
    q = sum(n * (w / n - pooled) ** 2 for w, n in zip(wins, games, strict=True))
    q /= pooled * (1 - pooled)
    return bool(q > power.chi2_critical(len(games) - 1))


def _rates(reps: int, seed: int) -> tuple[float, float]:
    """How often a run detects the effect it says it could: a mean difference over 200
    blocks of sd 3, and a spread of 4 islands of 500 games each."""
    rng = random.Random(seed)
    blocks, sd = 200, 3.0
    mde = power.detectable_effect(sd / math.sqrt(blocks))
    assert mde is not None
    normal = sum(_detected(mde, blocks, sd, rng) for _ in range(reps)) / reps
    games = [500] * 4
    spread = power.detectable_spread(3, sum(games), 0.25 * 0.75)
    assert spread is not None
    chi = sum(_spread_detected(spread, games, rng) for _ in range(reps // 4)) / (reps // 4)
    return normal, chi


def test_the_stated_effect_is_detected_about_80_percent_of_the_time() -> None:
    normal, chi = _rates(800, 11)
    # 800 runs: the rate's sd is 1.4 points; 200 islands runs: 2.8 points.
    assert 0.75 <= normal <= 0.85, normal
    assert 0.71 <= chi <= 0.89, chi


@pytest.mark.replication
def test_the_stated_effect_is_detected_about_80_percent_of_the_time_full() -> None:
    normal, chi = _rates(20_000, 12)
    assert 0.79 <= normal <= 0.81, normal
    assert 0.78 <= chi <= 0.82, chi
