"""Paired differences of two runs on the same seeds, by hand on the fixture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipelines.metrics import paired
from pipelines.metrics.source import connect, open_run
from tests.metrics.fixture import seal, write_fixture


def test_paired_differences_by_hand(tmp_path: Path) -> None:
    base = open_run(write_fixture(tmp_path / "base"))
    other = open_run(write_fixture(tmp_path / "other", score_shift=6))
    rows = paired.differences(connect([base, other])).to_pylist()
    score = {r["group"]: r for r in rows if r["metric"] == "score"}
    # C scores 6 more in both of its games in B; nobody else changes. Two seed blocks are
    # too few for an interval: the bounds are null, not a "+6.0 [6.0, 6.0]".
    assert score["C"]["pairs"] == 2 and score["C"]["estimate"] == 6.0
    assert score["C"]["blocks"] == 2
    assert all(r["low"] is None and r["high"] is None for r in rows)
    assert score["A"]["estimate"] == 0.0 and score["A"]["pairs"] == 3
    wins = {r["group"]: r for r in rows if r["metric"] == "win_share"}
    assert all(r["estimate"] == 0.0 for r in wins.values())
    table = {r["metric"]: r for r in rows if r["group"] == "table"}
    assert table["first_seat"]["estimate"] == 0.0 and table["turns"]["pairs"] == 3
    assert paired.unpaired_games(connect([base, other])) == (0, 0)


def test_games_cut_off_in_either_run_are_not_paired(tmp_path: Path) -> None:
    base = open_run(write_fixture(tmp_path / "base"))
    other = open_run(write_fixture(tmp_path / "other", score_shift=6, capped=(1,)))
    con = connect([base, other])
    score = {r["group"]: r for r in paired.differences(con).to_pylist() if r["metric"] == "score"}
    assert score["C"]["pairs"] == 1 and score["A"]["pairs"] == 2
    assert paired.unpaired_games(con) == (1, 0)
    # Counted as left out because B's game did not end naturally (not A's, not both).
    assert paired.left_out_unfinished(con) == (0, 1, 0)
    assert paired.left_out_unfinished(connect([other, other])) == (0, 0, 1)
    assert paired.left_out_unfinished(connect([base, base])) == (0, 0, 0)
    # Reported with the unfinished games, every seed-matched game is paired.
    assert paired.left_out_unfinished(connect([base, other], include_unfinished=True)) == (
        0,
        0,
        0,
    )


def test_a_strategy_swap_pairs_by_player_slot(tmp_path: Path) -> None:
    """The same seats with D's results in B credited to a new strategy E: the slot keeps its
    pairing and is named for both."""
    base = open_run(write_fixture(tmp_path / "base"))
    other_dir = write_fixture(tmp_path / "other")
    import pyarrow as pa
    import pyarrow.parquet as pq

    seats = pq.read_table(other_dir / "seats" / "part-000000.parquet").to_pylist()
    for r in seats:
        if r["strategy"] == "D":
            r["strategy"] = "E"
            r["win_share"] = 1.0 if r["game_id"] == 0 else r["win_share"]
    pq.write_table(pa.Table.from_pylist(seats), other_dir / "seats" / "part-000000.parquet")
    seal(other_dir, json.loads((other_dir / "manifest.json").read_text()))
    rows = paired.differences(connect([base, open_run(other_dir)])).to_pylist()
    swap = next(r for r in rows if r["metric"] == "win_share" and r["player"] == 3)
    assert swap["group"] == "D -> E"
    assert swap["estimate"] == pytest.approx(0.5)  # +1 in game 0, 0 in game 1
