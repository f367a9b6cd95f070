"""Win-rate metrics against hand-computed values on the fixture run (per player count, with
intervals over seed blocks); DuckDB against Polars."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from pipelines.metrics import win_rate
from pipelines.metrics.source import connect, open_run
from pipelines.stats.core import wilson
from sim.errors import InputError
from tests.metrics.fixture import write_fixture


def rows(table: object) -> list[dict[str, object]]:
    return table.to_pylist()  # type: ignore[attr-defined, no-any-return]


def test_by_strategy_is_per_player_count(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    got = {(r["n_players"], r["strategy"]): r for r in rows(win_rate.by_strategy(con))}
    # 4 players (games 0 and 1): A won 1 and shared 1/2; the 2-player game is apart.
    a4 = got[(4, "A")]
    assert a4["seats"] == 2 and a4["wins"] == 1.5 and a4["win_share"] == 0.75
    assert a4["mean_score"] == 25.0 and a4["fair_share"] == 0.25 and a4["blocks"] == 2
    # Block win shares 1 and 1/2: se = sqrt((1/16 + 1/16) * 2) / 2 = 1/4, so the effective
    # size p(1-p)/se² = 3 is capped at the 2 seats: Wilson(1.5, 2).
    assert (a4["low"], a4["high"]) == pytest.approx(wilson(1.5, 2))
    assert got[(4, "B")]["win_share"] == 0.25 and got[(4, "D")]["mean_score"] == 12.5
    # 0% and 100% get valid intervals, sized by the blocks (2 for C, 1 for the 2-player game).
    c4 = got[(4, "C")]
    assert c4["win_share"] == 0.0 and (c4["low"], c4["high"]) == pytest.approx(wilson(0, 2))
    assert got[(2, "A")]["win_share"] == 0.0 and got[(2, "B")]["win_share"] == 1.0
    assert got[(2, "B")]["low"] == pytest.approx(wilson(1, 1)[0]) and got[(2, "B")]["high"] == 1.0
    assert got[(2, "B")]["fair_share"] == 0.5


def test_wilson_by_hand() -> None:
    # p = 0.5, n = 100: centre 0.5, half = 1.96 * sqrt(0.0025 + 1.96^2 / 40000) / (1 + 1.96^2/100)
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_by_seat_gives_the_first_seat_advantage(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    seats = {(r["n_players"], r["seat"]): r for r in rows(win_rate.by_seat(con))}
    first = seats[(4, 0)]  # A won game 0 from seat 0, B shared game 1 from seat 0
    assert first["games"] == 2 and first["win_share"] == 0.75 and first["advantage"] == 0.5
    assert first["advantage_low"] == pytest.approx(float(str(first["low"])) - 0.25)
    assert seats[(4, 3)]["win_share"] == 0.25
    assert seats[(2, 0)]["advantage"] == -0.5 and seats[(2, 1)]["advantage"] == 0.5
    by = {
        (r["n_players"], r["strategy"], r["seat"]): r for r in rows(win_rate.by_strategy_seat(con))
    }
    assert by[(4, "A", 0)]["win_share"] == 1.0 and by[(4, "A", 3)]["win_share"] == 0.5


def test_head_to_head_by_hand(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    h2h = {
        (r["n_players"], r["strategy"], r["opponent"]): r for r in rows(win_rate.head_to_head(con))
    }
    assert h2h[(4, "A", "B")]["meetings"] == 2 and h2h[(4, "A", "B")]["ahead"] == 0.75
    assert h2h[(2, "A", "B")]["ahead"] == 0.0 and h2h[(2, "B", "A")]["ahead"] == 1.0
    assert h2h[(4, "A", "C")]["ahead"] == 1.0 and h2h[(4, "C", "D")]["ahead"] == 0.0
    assert (4, "A", "A") not in h2h


def test_game_length_counts_every_end_reason(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    length = {r["n_players"]: r for r in rows(win_rate.game_length(con))}
    assert length[4]["mean_turns"] == 35.0 and length[4]["finished"] == 2
    assert length[2]["mean_turns"] == 20.0 and length[2]["turn_cap"] == 0


def test_duckdb_and_polars_agree(tmp_path: Path) -> None:
    run = open_run(write_fixture(tmp_path))
    con = connect([run])
    duck = con.sql(
        """SELECT strategy::VARCHAR AS strategy, count(*)::BIGINT AS seats,
                  sum(win_share) AS wins, avg(win_share) AS win_share,
                  avg(score)::DOUBLE AS mean_score
           FROM seats GROUP BY 1 ORDER BY 1"""
    ).pl()
    polar = win_rate.by_strategy_polars([pl.scan_parquet(run.path / "seats" / "*.parquet")])
    cols = ["strategy", "seats", "wins", "win_share", "mean_score"]
    assert duck.select(cols).to_dicts() == polar.select(cols).to_dicts()


def test_two_runs_are_pooled_and_tagged(tmp_path: Path) -> None:
    a = open_run(write_fixture(tmp_path / "a"))
    b = open_run(write_fixture(tmp_path / "b"))
    got = {(r["n_players"], r["strategy"]): r for r in rows(win_rate.by_strategy(connect([a, b])))}
    assert got[(4, "A")]["seats"] == 4 and got[(4, "A")]["wins"] == 3.0
    assert got[(4, "A")]["blocks"] == 4  # a block of each run is its own cluster


def test_bad_input_is_one_line(tmp_path: Path, ti_run: Path) -> None:
    with pytest.raises(InputError, match="not a run directory"):
        open_run(tmp_path)
    run = write_fixture(tmp_path / "r")
    (run / "seats" / "part-000001.parquet").write_bytes(b"not parquet")
    with pytest.raises(InputError, match=r"part-000001.parquet: extra file, not recorded"):
        open_run(run)
    (run / "seats" / "part-000001.parquet").unlink()
    part = run / "seats" / "part-000000.parquet"
    part.write_bytes(b"x" * part.stat().st_size)
    with pytest.raises(
        InputError, match=r"part-000000.parquet: corrupt part file \(not a readable"
    ):
        open_run(run)
    other = open_run(ti_run)
    mine = open_run(write_fixture(tmp_path / "to"))
    with pytest.raises(InputError, match="runs of different games"):
        connect([mine, other])


def test_by_opponent_mix(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    mix = {(r["strategy"], r["opponents"]): r for r in rows(win_rate.by_opponents(con))}
    assert mix[("A", "B+C+D")]["seats"] == 2 and mix[("A", "B+C+D")]["win_share"] == 0.75
    assert mix[("A", "B")]["seats"] == 1 and mix[("A", "B")]["win_share"] == 0.0
    assert mix[("C", "A+B+D")]["win_share"] == 0.0


def test_games_cut_off_are_left_out_unless_asked(tmp_path: Path) -> None:
    run = open_run(write_fixture(tmp_path, capped=(0,)))
    got = {(r["n_players"], r["strategy"]): r for r in rows(win_rate.by_strategy(connect([run])))}
    assert got[(4, "A")]["seats"] == 1 and got[(4, "A")]["win_share"] == 0.5  # game 1 only
    length = {r["n_players"]: r for r in rows(win_rate.game_length(connect([run])))}
    assert length[4]["games"] == 2 and length[4]["finished"] == 1 and length[4]["turn_cap"] == 1
    assert length[4]["reported"] == 1
    every = connect([run], include_unfinished=True)
    got = {(r["n_players"], r["strategy"]): r for r in rows(win_rate.by_strategy(every))}
    assert got[(4, "A")]["seats"] == 2 and got[(4, "A")]["win_share"] == 0.75
    # With the unfinished games in the figures, the capped game is reported but not called
    # finished, and it is never the longest game or an upset.
    length = {r["n_players"]: r for r in rows(win_rate.game_length(every))}
    assert length[4]["finished"] == 1 and length[4]["reported"] == 2
    notable = [r for r in rows(win_rate.notable_games(every)) if r["n_players"] == 4]
    assert {r["kind"]: r["game_id"] for r in notable} == {"longest": 1, "turn_cap": 0}


def test_notable_games_by_hand(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    got = {(r["kind"], r["n_players"]): r for r in rows(win_rate.notable_games(con))}
    assert got[("longest", 4)]["game_id"] == 1 and got[("longest", 4)]["detail"] == "40 turns"
    # 4 players: A won game 0 alone (A wins 75% of them); game 1 was shared, so no upset there.
    upset = got[("upset", 4)]
    detail = str(upset["detail"])
    assert upset["game_id"] == 0 and detail.startswith("A won (it wins 75.0%")
    assert detail.endswith("by 10")  # 30 against B's 20
    assert got[("upset", 2)]["game_id"] == 2
    assert not {kind for kind, _ in got} - {"longest", "upset"}


def test_notable_games_include_the_first_game_cut_off(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path, capped=(0,)))])
    got = {(r["kind"], r["n_players"]): r for r in rows(win_rate.notable_games(con))}
    assert got[("turn_cap", 4)]["game_id"] == 0 and got[("longest", 4)]["game_id"] == 1
