"""Curse-impact metrics against hand-computed values on the fixture run."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.metrics.source import connect, open_run
from pipelines.stats.core import wilson
from pipelines.tobago import curses
from tests.metrics.fixture import SEATS, write_fixture


def test_frequency_and_positions(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    rows = {r["n_players"]: r for r in curses.frequency(con).to_pylist()}
    # 4 players: games 0 and 1, three distributions, two curses; C lost 6 coins in game 0.
    four = rows[4]
    assert four["games"] == 2 and four["distributions"] == 3 and four["curses"] == 2
    assert four["rate"] == pytest.approx(2 / 3) and four["low"] < four["rate"] < four["high"]
    assert four["hits_per_game"] == 1.5 and four["coins_lost_per_game"] == 3.0
    two = rows[2]
    assert two["curses"] == 0 and two["rate"] == 0.0 and two["high"] > 0
    assert (two["low"], two["high"]) == pytest.approx(wilson(0, 1))
    assert curses.positions(con).to_pylist() == [
        {"position": 0, "curses": 1},
        {"position": 2, "curses": 1},
    ]


def test_victims_and_hit_groups(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    v = {r["strategy"]: r for r in curses.victims(con).to_pylist() if r["n_players"] == 4}
    assert v["C"]["hits"] == 2 and v["C"]["coins_lost"] == 6
    assert v["C"]["hits_per_game"] == 1.0 and v["C"]["coins_lost_per_game"] == 3.0
    assert v["D"]["hits"] == 1 and v["A"]["hits"] == 0
    groups = {
        (r["n_players"], r["strategy"], r["hit"]): r for r in curses.hit_vs_not_hit(con).to_pylist()
    }
    assert groups[(4, "C", True)]["seats"] == 2 and (4, "C", False) not in groups
    assert groups[(4, "D", True)]["seats"] == 1 and groups[(4, "D", False)]["seats"] == 1
    assert groups[(4, "A", False)]["win_share"] == 0.75 and groups[(2, "A", False)]["seats"] == 1


def test_amulet_value(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    paid = {r["paid_with"]: r for r in curses.amulet_value(con).to_pylist()}
    assert paid["card"]["hits"] == 1 and paid["card"]["mean_coins_lost"] == 6.0
    assert paid["amulet"]["hits"] == 1 and paid["amulet"]["mean_coins_lost"] == 0.0
    assert paid["nothing"]["hits"] == 1


def test_curses_by_island(tmp_path: Path) -> None:
    con = connect([open_run(write_fixture(tmp_path))])
    rows = {r["island"]: r for r in curses.by_island(con).to_pylist()}
    one = rows["isle-1"]
    # isle-1: games 0 and 1, three distributions, two curses, hits C, D, C, 6 coins lost.
    assert one["games"] == 2 and one["distributions"] == 3 and one["curses"] == 2
    assert one["curse_rate"] == 2 / 3 and one["hits_per_game"] == 1.5
    assert one["coins_lost_per_game"] == 3.0
    two = rows["isle-2"]
    assert two["curses"] == 0 and two["hits_per_game"] == 0.0


def test_a_curse_that_changed_the_winner_is_found_by_hand(tmp_path: Path) -> None:
    with_curses = open_run(write_fixture(tmp_path / "a"))
    # Without curses C, hit in game 0 (a 6-coin card lost), wins that deal alone; game 1 is
    # still shared and game 2 still B's.
    changed = [
        (0, 0, "A", 25, 2, 0.0, 0, 0) if r[:3] == (0, 0, "A") else
        (0, 2, "C", 31, 1, 1.0, 0, 0) if r[:3] == (0, 2, "C") else r
        for r in SEATS
    ]  # fmt: skip
    without = open_run(write_fixture(tmp_path / "b", seats_rows=changed))
    rows = curses.winner_changed(connect([with_curses, without])).to_pylist()
    assert rows == [
        {
            "kind": "curse_winner",
            "n_players": 4,
            "run": 0,
            "game_id": 0,
            "detail": "C (seat 3) wins this deal without curses; with them a curse hit it "
            "(6 coins lost) and A (seat 1) won",
            "seat": 2,
        }
    ]
    # The same outcome with and without: nothing changed.
    assert curses.winner_changed(connect([with_curses, with_curses])).num_rows == 0


def test_every_rate_and_mean_has_its_interval(tmp_path: Path) -> None:
    from pipelines.tobago import cells

    con = connect([open_run(write_fixture(tmp_path))])
    checks = (
        (curses.by_island(con), ("curse_rate", "rate"), ("hits_per_game", "hits"),
         ("coins_lost_per_game", "lost")),
        (curses.victims(con), ("hits_per_game", "hits"), ("coins_lost_per_game", "lost")),
        (curses.amulet_value(con), ("mean_coins_lost", "")),
        (cells.start_cells(con), ("win_share", "")),
    )  # fmt: skip
    for table, *columns in checks:
        rows = table.to_pylist()
        assert rows
        for r in rows:
            for value, prefix in columns:
                low, high = (f"{prefix}_low", f"{prefix}_high") if prefix else ("low", "high")
                if r[value] is not None:
                    assert r[low] <= r[value] <= r[high], (value, r)
