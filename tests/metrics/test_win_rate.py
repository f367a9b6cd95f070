"""Win-rate metrics against hand-computed values on the fixture run; DuckDB vs Polars."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from pipelines.metrics import win_rate
from pipelines.metrics.source import connect, open_run
from pipelines.stats import wilson
from sim.errors import InputError
from tests.metrics.fixture import write_fixture


def rows(table: object) -> list[dict[str, object]]:
    return table.to_pylist()  # type: ignore[attr-defined, no-any-return]


def test_by_strategy_by_hand(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    got = {r["strategy"]: r for r in rows(win_rate.by_strategy(con))}
    assert got["A"]["seats"] == 3 and got["A"]["wins"] == 1.5 and got["A"]["win_share"] == 0.5
    assert got["A"]["mean_score"] == 20.0
    assert got["B"]["wins"] == 1.5 and got["B"]["mean_score"] == pytest.approx(52 / 3)
    assert got["C"]["seats"] == 2 and got["C"]["wins"] == 0.0 and got["C"]["mean_score"] == 7.5
    assert got["D"]["mean_score"] == 12.5
    assert (got["A"]["low"], got["A"]["high"]) == pytest.approx(wilson(1.5, 3))
    assert got["C"]["low"] == 0.0 and 0 < float(str(got["C"]["high"])) < 1


def test_wilson_by_hand() -> None:
    # p = 0.5, n = 100: centre 0.5, half = 1.96 * sqrt(0.0025 + 1.96^2 / 40000) / (1 + 1.96^2/100)
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_by_seat_and_by_players(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    seats = {(r["strategy"], r["seat"]): r for r in rows(win_rate.by_seat(con))}
    assert seats[("A", 0)]["seats"] == 2 and seats[("A", 0)]["wins"] == 1.0
    assert seats[("A", 3)]["wins"] == 0.5
    players = {(r["strategy"], r["n_players"]): r for r in rows(win_rate.by_players(con))}
    assert players[("A", 4)]["wins"] == 1.5 and players[("A", 2)]["wins"] == 0.0
    assert players[("B", 2)]["win_share"] == 1.0


def test_head_to_head_by_hand(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    h2h = {(r["strategy"], r["opponent"]): r for r in rows(win_rate.head_to_head(con))}
    assert h2h[("A", "B")]["games"] == 3 and h2h[("A", "B")]["ahead"] == 0.5
    assert h2h[("B", "A")]["ahead"] == 0.5
    assert h2h[("A", "C")]["ahead"] == 1.0 and h2h[("C", "D")]["ahead"] == 0.0
    assert ("A", "A") not in h2h


def test_duckdb_and_polars_agree(tmp_path: Path) -> None:
    run = open_run(write_fixture(tmp_path))
    duck = pl.from_arrow(win_rate.by_strategy(connect([run])))
    assert isinstance(duck, pl.DataFrame)
    polar = win_rate.by_strategy_polars([pl.scan_parquet(run.path / "seats" / "*.parquet")])
    cols = ["strategy", "seats", "wins", "win_share", "mean_score"]
    assert duck.select(cols).to_dicts() == polar.select(cols).to_dicts()


def test_two_runs_are_pooled_and_tagged(tmp_path: Path) -> None:
    a = open_run(write_fixture(tmp_path / "a"))
    b = open_run(write_fixture(tmp_path / "b"))
    got = {r["strategy"]: r for r in rows(win_rate.by_strategy(connect([a, b])))}
    assert got["A"]["seats"] == 6 and got["A"]["wins"] == 3.0


def test_bad_input_is_one_line(tmp_path: Path, ti_run: Path) -> None:
    with pytest.raises(InputError, match="not a run directory"):
        open_run(tmp_path)
    run = write_fixture(tmp_path / "r")
    (run / "seats" / "part-000001.parquet").write_bytes(b"not parquet")
    with pytest.raises(InputError, match=r"part-000001.parquet: corrupt or unreadable Parquet"):
        open_run(run)
    other = open_run(ti_run)
    mine = open_run(write_fixture(tmp_path / "to"))
    with pytest.raises(InputError, match="runs of different games"):
        connect([mine, other])


def test_by_opponent_mix(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    mix = {(r["strategy"], r["opponents"]): r for r in rows(win_rate.by_opponents(con))}
    assert mix[("A", "B+C+D")]["seats"] == 2 and mix[("A", "B+C+D")]["wins"] == 1.5
    assert mix[("A", "B")]["seats"] == 1 and mix[("A", "B")]["wins"] == 0.0
    assert mix[("C", "A+B+D")]["wins"] == 0.0
