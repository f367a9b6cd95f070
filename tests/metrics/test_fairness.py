"""Board-fairness metrics against hand-computed values on the fixture run and on hand-made
blocks, and the tests they rest on (chi-square, Holm) by hand."""

from __future__ import annotations

import math
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from pipelines.metrics.source import connect, open_run
from pipelines.stats.core import chi2_sf, chi_square_uniform, holm, normal_p
from pipelines.tobago import fairness
from tests.metrics.fixture import write_fixture


def test_chi_square_by_hand() -> None:
    assert chi2_sf(3.841459, 1) == pytest.approx(0.05, abs=1e-6)
    assert chi2_sf(5.991465, 2) == pytest.approx(0.05, abs=1e-6)
    assert chi2_sf(7.814728, 3) == pytest.approx(0.05, abs=1e-6)
    assert chi2_sf(0.5, 3) == pytest.approx(0.918891, abs=1e-6)
    assert chi2_sf(43.77, 31) == pytest.approx(0.0641, abs=1e-3)  # a table value
    assert chi_square_uniform([10, 10, 10, 10]) == (0.0, 1.0)
    stat, p = chi_square_uniform([30, 10])  # expected 20 each: 100/20 * 2 = 10
    assert stat == 10.0 and p == pytest.approx(0.0015654, abs=1e-6)


def test_holm_by_hand() -> None:
    # Sorted 0.01 * 3, 0.03 * 2, then max(0.06, 0.04 * 1).
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_seat_shares_and_island_summary(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    seats = {(r["island"], r["seat"]): r for r in fairness.seat_win_shares(con).to_pylist()}
    # isle-1, 4 players: seat 0 won 1 + 0.5 of 2 games, seat 3 won 0.5.
    assert seats[("isle-1", 0)]["win_share"] == 0.75 and seats[("isle-1", 0)]["games"] == 2
    assert seats[("isle-1", 3)]["win_share"] == 0.25
    assert seats[("isle-1", 0)]["deviation"] == 0.5
    summary = {r["island"]: r for r in fairness.island_summary(con).to_pylist()}
    one = summary["isle-1"]
    assert one["games"] == 2 and one["mean_turns"] == 35.0
    assert one["first_seat_advantage"] == 0.5 and one["low"] <= 0.5 <= one["high"]
    # Wins per seat 1.5, 0, 0, 0.5 against 0.5 each: 2 + 0.5 + 0.5 + 0 = 3, 3 dof.
    assert one["chi_square"] == 3.0
    assert one["seat_p_value"] == pytest.approx(0.391625, abs=1e-6)
    two = summary["isle-2"]
    assert two["first_seat_advantage"] == -0.5 and two["chi_square"] == 1.0
    assert two["seat_p_value"] == pytest.approx(0.317311, abs=1e-6) and two["mean_turns"] == 20.0
    # Each player count has one island: nothing to compare, no p-value made up.
    assert one["holm_p"] is None and two["holm_p"] is None
    assert not one["tested"] and not two["tested"]
    het = fairness.heterogeneity(con).to_pylist()
    assert [h["dof"] for h in het] == [0, 0] and not any(h["islands_differ"] for h in het)


def _two_islands(first_wins: dict[str, int], blocks: int) -> duckdb.DuckDBPyConnection:
    """2-player games, one per block: on each island the first seat wins the first
    ``first_wins[island]`` of its ``blocks`` games, the second seat the rest."""
    return _blocks({k: [[b < w] for b in range(blocks)] for k, w in first_wins.items()})


def _blocks(islands: dict[str, list[list[bool]]]) -> duckdb.DuckDBPyConnection:
    """2-player games by island and seed block: each block a list of its games, True where
    the first seat won."""
    games: dict[str, list[object]] = {k: [] for k in ("run", "game_id", "block", "island",
                                                      "n_players", "turns")}  # fmt: skip
    seats: dict[str, list[object]] = {k: [] for k in ("run", "game_id", "seat", "win_share")}
    gid = block = 0
    for island, blocks in islands.items():
        for outcomes in blocks:
            for first_won in outcomes:
                for key, value in zip(games, (0, gid, block, island, 2, 30), strict=True):
                    games[key].append(value)
                for seat in (0, 1):
                    won = first_won == (seat == 0)
                    row = (0, gid, seat, 1.0 if won else 0.0)
                    for key, value in zip(seats, row, strict=True):
                        seats[key].append(value)
                gid += 1
            block += 1
    con = duckdb.connect()
    con.register("games", pa.table(games))
    con.register("seats", pa.table(seats))
    # As pipelines.metrics.source.connect prepares it.
    con.execute(
        """CREATE TABLE seat_games AS SELECT s.run, s.game_id, g.block, g.n_players,
                  g.island, s.seat, s.win_share FROM seats s JOIN games g USING (run, game_id)"""
    )
    return con


def test_islands_that_differ_are_found_and_ranked() -> None:
    con = _two_islands({"east": 30, "west": 10, "north": 20}, 40)
    het = fairness.heterogeneity(con).to_pylist()[0]
    assert het["islands"] == 3 and het["dof"] == 2 and het["islands_differ"]
    assert het["p_value"] < 1e-4
    summary = {r["island"]: r for r in fairness.island_summary(con).to_pylist()}
    assert summary["east"]["first_seat_advantage"] == pytest.approx(0.25)
    assert summary["west"]["first_seat_advantage"] == pytest.approx(-0.25)
    assert summary["east"]["holm_p"] < 0.05 and summary["west"]["holm_p"] < 0.05
    assert summary["north"]["holm_p"] == pytest.approx(1.0)  # exactly the pooled value


def test_islands_alike_are_not_told_apart() -> None:
    con = _two_islands({"east": 21, "west": 19}, 40)
    het = fairness.heterogeneity(con).to_pylist()[0]
    assert not het["islands_differ"] and het["p_value"] > 0.5


def test_the_island_test_by_hand() -> None:
    # One game per block: the design effect is C / (C - I) = 80 / 78 (binary results around
    # each island's own share vary exactly as independent games do). Pooled share 40/80.
    con = _two_islands({"east": 30, "west": 10}, 40)
    het = fairness.heterogeneity(con).to_pylist()[0]
    deff = 80 / 78
    assert het["design_effect"] == pytest.approx(deff)
    # Q = (40 * 0.25² + 40 * 0.25²) / (0.5 * 0.5 * deff) on 1 df.
    assert het["q"] == pytest.approx(5 / (0.25 * deff)) and het["dof"] == 1
    assert het["p_value"] == pytest.approx(chi2_sf(5 / (0.25 * deff), 1))
    # The pooled advantage is the share over all games (the headline figure), not a mean
    # weighted by each island's own standard error.
    assert het["pooled"] == pytest.approx(0.0)
    assert het["pooled_se"] == pytest.approx(math.sqrt(0.25 * deff / 80))
    # What the test could have seen: at 1 df, 5% and 80% power the noncentrality is 7.849
    # (Cohen), so the detectable spread is sqrt(7.849 * 0.25 * deff / 80) = 0.1587 and half
    # of it needs four times the 80 games.
    assert het["detectable_spread"] == pytest.approx(math.sqrt(7.849 * 0.25 * deff / 80), 1e-3)
    assert het["games_for_half_spread"] in (320, 321)
    east = next(r for r in fairness.island_summary(con).to_pylist() if r["island"] == "east")
    z = 0.25 / math.sqrt(0.25 * deff * (1 / 40 - 1 / 80))
    assert east["deviation_p"] == pytest.approx(normal_p(z))
    assert east["holm_p"] == pytest.approx(min(1.0, 2 * normal_p(z)))


def test_an_island_of_few_steady_blocks_does_not_decide_the_test() -> None:
    # "steady": six blocks of two games, the first seat winning exactly one game in each: its
    # clustered standard error is 0, which as a 1/se² weight would decide the test (and was
    # left out before). Its share is the pooled one: it must neither be dropped nor make the
    # islands differ. The other islands: 20 blocks of 2 games whose first seat wins both or
    # neither (a deal that favours a seat favours it from both seats' turns), half and half.
    mixed = [[True, True], [False, False]] * 10
    con = _blocks({"steady": [[True, False]] * 6, "north": mixed, "south": mixed[::-1]})
    het = fairness.heterogeneity(con).to_pylist()[0]
    assert het["islands_tested"] == 3 and het["dof"] == 2
    assert not het["islands_differ"] and het["q"] == pytest.approx(0.0)
    # Those blocks vary more than independent games: spread 40 (x 46 / 43 for the three
    # island means) against 92 games x 0.25.
    assert het["design_effect"] == pytest.approx(40 * 46 / 43 / 23)
    summary = {r["island"]: r for r in fairness.island_summary(con).to_pylist()}
    assert summary["steady"]["se"] == 0.0 and summary["steady"]["tested"]
    # The islands are alike: no island is tested against the pool (closed testing).
    assert all(r["holm_p"] is None and r["deviation_p"] is None for r in summary.values())


def test_an_island_with_too_few_games_is_left_out_and_said_so() -> None:
    # "tiny": 4 games, all first-seat wins: 4 x 0.5 expected wins is below 5, so the
    # chi-square approximation does not hold there; it is not tested and has no p-value.
    con = _blocks(
        {
            "tiny": [[True]] * 4,
            "east": [[b < 20] for b in range(40)],
            "west": [[b < 20] for b in range(40)],
        }
    )
    het = fairness.heterogeneity(con).to_pylist()[0]
    assert het["islands"] == 3 and het["islands_tested"] == 2 and het["dof"] == 1
    assert not het["islands_differ"]
    tiny = next(r for r in fairness.island_summary(con).to_pylist() if r["island"] == "tiny")
    assert not tiny["tested"] and tiny["holm_p"] is None and tiny["deviation_p"] is None


def test_no_island_test_when_fewer_than_two_islands_have_games_enough() -> None:
    con = _blocks(
        {"tiny": [[True]] * 4, "small": [[False]] * 4, "east": [[b < 20] for b in range(40)]}
    )
    het = fairness.heterogeneity(con).to_pylist()[0]
    assert het["islands"] == 3 and het["islands_tested"] == 0 and het["dof"] == 0
    assert not het["islands_differ"] and het["p_value"] == 1.0
    assert not any(r["tested"] for r in fairness.island_summary(con).to_pylist())


def test_the_most_unfair_island_is_called_optimistic() -> None:
    from pipelines.tobago.report import _mapped_islands

    summary = pa.table(
        {
            "n_players": [4, 4, 4],
            "island": ["a", "b", "c"],
            "games": [400, 400, 400],
            "tested": [True, True, True],
            "first_seat_advantage": [0.02, 0.09, 0.03],
            "holm_p": [0.5, 0.003, 0.5],
        }
    )
    het = pa.table({"n_players": [4], "islands_differ": [True], "pooled": [0.04]})
    (pick,) = _mapped_islands(duckdb.connect(), summary, het).to_pylist()
    assert pick["island"] == "b"
    assert "picked as the most extreme of 3 islands on the same games" in pick["reason"]
    assert "optimistic" in pick["reason"]
