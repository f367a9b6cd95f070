"""The meta-game's solvers on hand-made games with known answers (the Nash equilibrium of
zero-sum games, alpha-Rank on a cycle and with a dominant strategy), its bootstrap over seed
blocks on hand-made blocks, and the words of its headline."""

from __future__ import annotations

import duckdb
import numpy as np
import pytest

from pipelines.metrics.meta_game import GROUPS, Blocks, _groups, meta_game_tables, solver
from pipelines.report.meta_game import headline
from pipelines.stats import equilibrium as eq

RPS = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)


def test_rock_paper_scissors_is_one_third_each() -> None:
    mix, value = eq.nash(RPS)
    assert mix == pytest.approx([1 / 3] * 3) and value == pytest.approx(0.0, abs=1e-12)


def test_a_dominated_strategy_gets_nothing_and_rates_below_the_mix() -> None:
    a = np.zeros((4, 4))
    a[:3, :3] = RPS
    a[:3, 3], a[3, :3] = 0.2, -0.2  # the fourth loses to everyone
    mix, _ = eq.nash(a)
    assert mix == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0.0])
    assert eq.nash_averaged(a, mix) == pytest.approx([0, 0, 0, -0.2])


def test_a_two_strategy_game_has_its_known_mixed_equilibrium() -> None:
    # Row mixes p: 3p - 2(1 - p) = -p + (1 - p) at p = 3/7, value 1/7.
    mix, value = eq.nash(np.array([[3.0, -1.0], [-2.0, 1.0]]))
    assert mix == pytest.approx([3 / 7, 4 / 7]) and value == pytest.approx(1 / 7)


def test_a_copy_of_a_strategy_splits_its_share_maximum_entropy() -> None:
    # Rock twice: every split of rock's third is an equilibrium; maximum entropy halves it.
    a = np.array([[0, -1, 1, 0], [1, 0, -1, 1], [-1, 1, 0, -1], [0, -1, 1, 0]], dtype=float)
    mix, _ = eq.nash(a)
    assert mix == pytest.approx([1 / 6, 1 / 3, 1 / 3, 1 / 6], abs=1e-6)


def _symmetric_two_player(m: np.ndarray) -> tuple[list[eq.Profile], np.ndarray]:
    """Every profile of 2 seats with the win share of each strategy (0.5 + m[s, t] / 2)."""
    profiles = eq.all_profiles(len(m), 2, repeats=True)
    payoff = np.zeros((len(profiles), len(m)))
    for k, (s, t) in enumerate(profiles):
        payoff[k, s] = 0.5 + m[s, t] / 2
        payoff[k, t] = 0.5 + m[t, s] / 2
    return profiles, payoff


def test_alpharank_on_a_cycle_is_uniform() -> None:
    profiles, payoff = _symmetric_two_player(RPS * 0.4)
    moves = eq.profile_moves(profiles)
    assert eq.connected(len(profiles), moves)
    pi = eq.alpharank(payoff, moves, alpha=10.0, m=50)
    assert pi.sum() == pytest.approx(1.0)
    assert eq.strategy_mix(pi, profiles, 3) == pytest.approx([1 / 3] * 3)


def test_alpharank_puts_a_dominant_strategy_on_top() -> None:
    m = np.array([[0, 0.3, 0.3], [-0.3, 0, 0.1], [-0.3, -0.1, 0]])
    profiles, payoff = _symmetric_two_player(m)
    pi = eq.alpharank(payoff, eq.profile_moves(profiles), alpha=10.0, m=50)
    assert profiles[int(np.argmax(pi))] == (0, 0)
    assert eq.strategy_mix(pi, profiles, 3)[0] > 0.999


def test_alpharank_over_a_pool_of_distinct_members_leaves_the_weakest_out() -> None:
    # Three seats from four members, no member twice: the fourth wins nothing anywhere.
    profiles = eq.all_profiles(4, 3, repeats=False)
    payoff = np.zeros((len(profiles), 4))
    for k, p in enumerate(profiles):
        strong = [s for s in p if s != 3]
        for s in strong:
            payoff[k, s] = 1 / len(strong)
    pi = eq.alpharank(payoff, eq.profile_moves(profiles), alpha=10.0, m=50)
    mix = eq.strategy_mix(pi, profiles, 4)
    assert mix.sum() == pytest.approx(1.0)
    assert mix == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0.0], abs=1e-6)


def test_fixation_is_neutral_at_no_difference_and_finite_far_from_it() -> None:
    rho = eq.fixation(np.array([-1.0, -0.01, 0.0, 0.01, 1.0]), alpha=1000.0, m=50)
    assert rho[2] == pytest.approx(1 / 50)
    assert np.all(np.isfinite(rho)) and np.all(np.diff(rho) > 0) and rho[0] >= 0


def _pool_blocks(beats: dict[tuple[str, str], int], blocks: int) -> duckdb.DuckDBPyConnection:
    """A connection holding a 2-player pool: per pair, ``blocks`` seed blocks of two games
    (one per seating); in each block the first named wins ``beats[pair]`` of the 2 games."""
    con = duckdb.connect()
    rows, games = [], []
    block = game = 0
    for (a, b), wins in beats.items():
        for _ in range(blocks):
            for g in range(2):
                won = a if g < wins else b
                rows += [(0, game, block, 2, s, float(s == won)) for s in (a, b)]
                games.append((0, game, block))
                game += 1
            block += 1
    con.execute("CREATE TABLE seat_games (run INT, game_id INT, block INT, n_players INT, "
                "strategy VARCHAR, win_share DOUBLE)")  # fmt: skip
    con.executemany("INSERT INTO seat_games VALUES (?, ?, ?, ?, ?, ?)", rows)
    con.execute("CREATE TABLE games (run INT, game_id INT, block INT)")
    con.executemany("INSERT INTO games VALUES (?, ?, ?)", games)
    return con


def test_the_bootstrap_gives_the_mix_with_intervals_and_leaves_a_loser_outside() -> None:
    # Paper beats rock, rock scissors, scissors paper, and everyone beats loser in every
    # game.
    cycle = {("paper", "rock"): 2, ("rock", "scissors"): 2, ("paper", "scissors"): 0}
    beats = {**cycle, **{(s, "loser"): 2 for s in ("paper", "rock", "scissors")}}
    con = _pool_blocks(beats, blocks=30)
    # Half the cycle's blocks end 1-1: the cycle's edges stay at 75% but vary by block.
    con.execute("UPDATE seat_games SET win_share = 0.5 WHERE block % 2 = 0 AND block < 90")
    tables = meta_game_tables(con)
    (row,) = tables["meta_game"].to_pylist()
    assert row["method"] == "nash" and row["blocks"] == 180 and row["games"] == 360
    mix = {r["strategy"]: r for r in tables["meta_game_mix"].to_pylist()}
    assert sum(r["p"] for r in mix.values()) == pytest.approx(1.0)
    for r in mix.values():
        assert r["low"] <= r["p"] <= r["high"]
    for s in ("paper", "rock", "scissors"):
        assert mix[s]["p"] == pytest.approx(1 / 3) and mix[s]["in_mix"]
    assert mix["loser"]["outside"] and mix["loser"]["high"] == 0.0
    assert mix["loser"]["rating_high"] < 0
    again = meta_game_tables(con)  # a seeded bootstrap: the same tables again
    assert again["meta_game_mix"].equals(tables["meta_game_mix"])


def _row(separated: bool) -> dict[str, object]:
    return {"n_players": 2, "separated": separated, "support_changes": 0.3 if not separated
            else 0.01, "method": "nash"}  # fmt: skip


def _mix(name: str, p: float, low: float, high: float) -> dict[str, object]:
    return {"strategy": name, "p": p, "low": low, "high": high, "in_mix": p >= 0.01,
            "outside": high < 0.01 and p < 0.01}  # fmt: skip


def test_the_headline_names_a_mix_only_when_separated_and_outside_only_below_one_percent() -> None:
    mix = [_mix("cautious", 0.7, 0.55, 0.85), _mix("hunter", 0.3, 0.15, 0.45),
           _mix("collector", 0.0, 0.0, 0.0), _mix("cartographer", 0.0, 0.0, 0.04)]  # fmt: skip
    text = headline(_row(True), mix)
    assert text.startswith("At 2 players the stable mix is 70% cautious [55, 85] and 30% hunter")
    assert "collector is outside it" in text
    assert "cartographer (0% [0, 4]) is not separated from it" in text
    unsure = headline(_row(False), mix)
    assert "the stable mix is uncertain" in unsure and "the stable mix is 70%" not in unsure
    assert "It may hold cautious 70% [55, 85], hunter 30% [15, 45] and cartographer" in unsure


def test_too_many_tables_get_no_alpharank() -> None:
    # A pool of 11 at 4 players (330 tables) is solved; one of 12 (495) is not.
    for k, solved in ((11, True), (12, False)):
        profiles = eq.all_profiles(k, 4, repeats=False)
        empty = np.zeros((len(profiles), k))
        blocks = Blocks(4, [f"s{i}" for i in range(k)], profiles,
                        np.arange(len(profiles)), empty, empty)  # fmt: skip
        assert (solver(blocks) is not None) is solved
    with pytest.raises(ValueError, match="at most 330 profiles"):
        eq.alpharank(np.zeros((495, 12)), eq.profile_moves(profiles), alpha=10.0, m=50)


def test_a_support_tried_first_gives_the_same_equilibrium_right_or_wrong() -> None:
    rng = np.random.default_rng(11)
    for _ in range(200):
        upper = np.triu(rng.normal(0, 0.1, (5, 5)), 1)
        a = upper - upper.T
        mix, _ = eq.nash(a)
        right = np.flatnonzero(mix > 0)
        wrong = np.setdiff1d(np.arange(5), right)[:1]
        for hint in (right, wrong, np.arange(5)):
            assert eq.nash(a, hint)[0] == pytest.approx(mix, abs=1e-7)


def test_many_blocks_are_resampled_in_groups_of_whole_blocks() -> None:
    # 1,000 blocks of one pair and 10 of another: 256 groups and 10 (each block its own).
    rng = np.random.default_rng(2)
    profile = np.array([0] * 1000 + [1] * 10)
    wins = rng.random((1010, 3))
    blocks = Blocks(2, ["a", "b", "c"], [(0, 1), (0, 2)], profile, wins, np.ones((1010, 3)))
    stratum, summed, seats = _groups(blocks)
    assert np.bincount(stratum).tolist() == [GROUPS, 10]
    assert summed[:GROUPS].sum(axis=0) == pytest.approx(wins[:1000].sum(axis=0))
    assert summed[GROUPS:] == pytest.approx(wins[1000:])
    assert sorted(set(seats[:GROUPS, 0])) == [3.0, 4.0]  # 1,000 = 256 x 3 + 232
