"""The game-shape measures on hand-made score logs whose answers are worked out by hand (ties
for the lead, a curse that takes a lead away, a shared win, running scores corrected by the
final ones), and their intervals per table size."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import duckdb
import pytest

from pipelines.metrics import game_shape as gs

# Game 0, 2 players, 6 turns, seat 1 wins 8-7. After each turn: t0 3-0 (seat 0 leads),
# t1 3-5 (1), t2 7-5 (0), t3 7-7 (a tie), t4 7-8 (1), the end 7-8 (1): three changes of
# leader (the tie is skipped); after 4 turns (two thirds) a tie; the winner leads alone for
# good after turn t4, i.e. after 5 of 6 turns.
# Game 1, 3 players, 9 turns, seat 0 wins 6-5-0. t0 5-0-0 (0), t1 5-5-0 (tie), t2 5-5-6 (2),
# t6 6-5-6 (tie), t7 a curse takes seat 2's 6: 6-5-0 (0): two changes (0 to 2, 2 to 0); after
# 6 turns seat 2 leads and loses (a comeback); the winner leads for good after 8 of 9 turns.
# Game 2, 2 players, 4 turns, a shared win 2-2: t0 2-0 (0), t1 2-2 (tie): no change, a tie
# after 2 turns, no sole winner (decided at 1, no trajectory).
# Game 3 is unfinished (no games row): its rows are left out.
GAMES = [(0, 0, 2, 6), (1, 1, 3, 9), (2, 2, 2, 4)]  # game_id, block, n_players, turns
SEATS = [(0, 0, 7, 0.0), (0, 1, 8, 1.0), (1, 0, 6, 1.0), (1, 1, 5, 0.0), (1, 2, 0, 0.0),
         (2, 0, 2, 0.5), (2, 1, 2, 0.5)]  # fmt: skip
CHANGES = [(0, 0, 0, 3), (0, 1, 1, 5), (0, 2, 0, 4), (0, 3, 1, 2), (0, 4, 1, 1),
           (1, 0, 0, 5), (1, 1, 1, 5), (1, 2, 2, 6), (1, 6, 0, 1), (1, 7, 2, -6),
           (2, 0, 0, 2), (2, 1, 1, 2), (3, 0, 0, 9)]  # fmt: skip


def _connect(
    games: Sequence[tuple[int, ...]],
    seats: Sequence[tuple[Any, ...]],
    rows: Sequence[tuple[int, ...]],
    value: str,
) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute("CREATE TABLE games (run INT, game_id BIGINT, block BIGINT, n_players TINYINT, "
                "turns INT)")  # fmt: skip
    con.executemany("INSERT INTO games VALUES (0, ?, ?, ?, ?)", games)
    con.execute("CREATE TABLE seats (run INT, game_id BIGINT, seat TINYINT, score SMALLINT, "
                "win_share DOUBLE)")  # fmt: skip
    con.executemany("INSERT INTO seats VALUES (0, ?, ?, ?, ?)", seats)
    con.execute(f"CREATE TABLE ev (run INT, game_id BIGINT, turn INT, seat TINYINT, {value} INT)")
    con.executemany("INSERT INTO ev VALUES (0, ?, ?, ?, ?)", rows)
    return con


def _per_game(con: duckdb.DuckDBPyConnection) -> dict[int, dict[str, Any]]:
    table = gs.per_game(con, "SELECT * FROM ev")
    return {r["game_id"]: r for r in table.to_pylist()}


def test_hand_made_games_give_their_hand_counted_shape() -> None:
    got = _per_game(_connect(GAMES, SEATS, CHANGES, "change"))
    assert set(got) == {0, 1, 2}  # the unfinished game 3 is left out
    g0, g1, g2 = got[0], got[1], got[2]
    assert (g0["lead_changes"], g1["lead_changes"], g2["lead_changes"]) == (3, 2, 0)
    assert g0["leader_at_two_thirds"] is None and g0["leader_lost"] is None  # a tie
    assert g1["leader_at_two_thirds"] == 2 and g1["leader_lost"] is True
    assert g2["leader_at_two_thirds"] is None
    assert g0["decided_at"] == pytest.approx(5 / 6) and g1["decided_at"] == pytest.approx(8 / 9)
    assert g2["decided_at"] == 1.0 and g2["winner"] is None
    assert (g0["winner"], g1["winner"]) == (1, 0)


def test_trajectories_read_each_tenth_of_the_game() -> None:
    g0 = _per_game(_connect(GAMES, SEATS, CHANGES, "change"))[0]
    # After ceil(6 j / 10) turns: j = 1 -> 1 turn (3-0), j = 5 -> 3 turns (7-5), j = 10 -> the end.
    assert (g0["winner_at_1"], g0["others_at_1"]) == (0.0, 3.0)
    assert (g0["winner_at_5"], g0["others_at_5"]) == (5.0, 7.0)
    assert (g0["winner_at_10"], g0["others_at_10"]) == (8.0, 7.0)
    g1 = _per_game(_connect(GAMES, SEATS, CHANGES, "change"))[1]
    # After 9 turns: 6, and the others' mean (5 + 0) / 2; after 7 turns (j = 7): 6-5-6.
    assert (g1["winner_at_10"], g1["others_at_10"]) == (6.0, 2.5)
    assert (g1["winner_at_7"], g1["others_at_7"]) == (6.0, 5.5)
    g2 = _per_game(_connect(GAMES, SEATS, CHANGES, "change"))[2]
    assert g2["winner_at_10"] is None and g2["others_at_10"] is None


def test_running_scores_hold_until_their_seat_next_reports_and_the_final_scores_close() -> None:
    # Seat 0 reports 4 after t0 and 6 after t2, seat 1 reports 5 after t1 but loses 3 in
    # another seat's turn: the final scores (6-2) correct it after the last turn. Leaders:
    # t0 4-0 (0), t1 4-5 (1), t2 6-5 (0), the end 6-2 (0): two changes; after 2 turns seat 1
    # leads and loses; the winner leads for good after 3 of 3 turns.
    games = [(0, 0, 2, 3)]
    seats = [(0, 0, 6, 1.0), (0, 1, 2, 0.0)]
    rows = [(0, 0, 0, 4), (0, 1, 1, 5), (0, 2, 0, 6)]
    g = _per_game(_connect(games, seats, rows, "score"))[0]
    assert g["lead_changes"] == 2 and g["leader_at_two_thirds"] == 1 and g["leader_lost"]
    assert g["decided_at"] == 1.0
    assert (g["winner_at_4"], g["others_at_4"]) == (4.0, 5.0)  # after ceil(1.2) = 2 turns


def test_a_winner_ahead_from_the_first_score_is_known_after_that_turn() -> None:
    games = [(0, 0, 2, 3)]
    seats = [(0, 0, 6, 1.0), (0, 1, 2, 0.0)]
    rows = [(0, 0, 0, 4), (0, 1, 1, 2), (0, 2, 0, 6)]
    g = _per_game(_connect(games, seats, rows, "score"))[0]
    assert g["lead_changes"] == 0 and g["leader_at_two_thirds"] == 0 and not g["leader_lost"]
    assert g["decided_at"] == pytest.approx(1 / 3)


def test_measures_are_per_table_size_with_intervals_over_blocks() -> None:
    con = _connect(GAMES, SEATS, CHANGES, "change")
    rows = {(r["n_players"], r["measure"]): r
            for r in gs.shape_by_size(con, "SELECT * FROM ev").to_pylist()}  # fmt: skip
    two, three = rows[2, "lead_changes"], rows[3, "lead_changes"]
    assert (two["games"], two["estimate"]) == (2, 1.5) and (three["games"], three["estimate"]) == (
        1,
        2,
    )
    # The comeback rate is over the games with a sole leader at two thirds only.
    assert rows[3, "comeback"]["games"] == 1 and rows[3, "comeback"]["estimate"] == 1.0
    assert (2, "comeback") not in rows
    assert rows[2, "tied_at_two_thirds"]["estimate"] == 1.0
    assert rows[2, "decided_at"]["estimate"] == pytest.approx((5 / 6 + 1) / 2)
    assert all(r["low"] <= r["estimate"] <= r["high"] for r in rows.values())


def test_a_source_without_scores_is_refused_by_name() -> None:
    con = _connect(GAMES, SEATS, CHANGES, "change")
    from sim.errors import InputError

    with pytest.raises(InputError, match="no column change or score"):
        gs.per_game(con, "SELECT run, game_id, turn, seat, change AS points FROM ev")
