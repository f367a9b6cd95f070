"""Gaps between adjacent strategies of the ranking, against numbers computed by hand on a
small hand-made table; and in a real report (report.json, the page, summary.md)."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.metrics import gaps, win_rate
from pipelines.report.findings import gap_sentence

#: One seed block: its players and each one's wins in its games.
Block = tuple[tuple[str, ...], tuple[int, ...]]
# Three strategies at 3 players, six seed blocks of three games (the rotations): the wins of
# X, Y and Z in each block (one winner a game).
WINS = [(2, 1, 0), (1, 2, 0), (2, 1, 0), (1, 1, 1), (1, 2, 0), (2, 1, 0)]
T975_5 = 2.5705818356363146  # Student t, 5 degrees of freedom, 97.5%
T_BONF_5 = 3.53411070405837  # ... at 1 - 0.05 / (2 x 3 pairs)
T80_5 = 0.9195437802408271


def _con(blocks: list[Block], n: int) -> duckdb.DuckDBPyConnection:
    """``seat_games`` of blocks given as (the players, each one's wins in the block's ``n``
    games)."""
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE seat_games (run INT, block INT, game_id INT, n_players TINYINT, "
        "seat TINYINT, strategy VARCHAR, win_share DOUBLE, score DOUBLE)"
    )
    game = 0
    for b, (players, wins) in enumerate(blocks):
        winners = [p for p, w in zip(players, wins, strict=True) for _ in range(w)]
        assert len(winners) == n
        for g, winner in enumerate(winners):
            for seat in range(n):
                who = players[(seat + g) % n]
                share = 1.0 if who == winner else 0.0
                con.execute(
                    "INSERT INTO seat_games VALUES (0, ?, ?, ?, ?, ?, ?, ?)",
                    [b, game, n, seat, who, share, 10 * share],
                )
            game += 1
    return con


def _gaps(con: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = gaps.adjacent_gaps(con, win_rate.by_strategy(con)).to_pylist()
    return rows


def test_adjacent_gaps_by_hand() -> None:
    con = _con([(("X", "Y", "Z"), w) for w in WINS], 3)
    # Shares: X 9/18, Y 8/18, Z 1/18: the ranking is X, Y, Z.
    xy, yz = _gaps(con)
    assert (xy["rank"], xy["better"], xy["worse"]) == (1, "X", "Y")
    assert (yz["rank"], yz["better"], yz["worse"]) == (2, "Y", "Z")
    # X - Y per block, in thirds: 1, -1, 1, 0, -1, 1 -> mean 1/6 third = 1/18; squared
    # deviations from 1/6: 3 x 25/36 + 2 x 49/36 + 1/36 = 174/36, var 174/180 (thirds^2).
    sd = math.sqrt(174 / 180) / 3
    half = T975_5 * sd / math.sqrt(6)
    assert xy["estimate"] == pytest.approx(1 / 18)
    assert (xy["low"], xy["high"]) == pytest.approx((1 / 18 - half, 1 / 18 + half))
    assert xy["blocks"] == 6 and xy["separated"] is False  # [-28.8, +39.9] points holds 0
    assert xy["detectable"] == pytest.approx((T975_5 + T80_5) * sd / math.sqrt(6))
    # Y - Z: 1, 2, 1, 0, 2, 1 -> mean 7/6 thirds = 7/18; deviations' squares 102/36.
    sd = math.sqrt(102 / 180) / 3
    half = T975_5 * sd / math.sqrt(6)
    assert yz["estimate"] == pytest.approx(7 / 18)
    assert (yz["low"], yz["high"]) == pytest.approx((7 / 18 - half, 7 / 18 + half))
    assert yz["separated"] is True and yz["low"] > 0.12  # [+12.6, +65.2] points
    # Selection-adjusted: simultaneous over the 3 pairs of 3 strategies.
    wide = T_BONF_5 * sd / math.sqrt(6)
    assert (yz["adjusted_low"], yz["adjusted_high"]) == pytest.approx(
        (7 / 18 - wide, 7 / 18 + wide)
    )
    assert yz["pairs_compared"] == 3
    assert gap_sentence(xy) == (
        "X and Y are not separated at 3 players: +5.6 points [-28.8, +39.9] (paired over 6 "
        "seed blocks; a gap of 46.7 points would have been found 80% of the time)."
    )
    assert gap_sentence(yz) == (
        "Y is ahead of Z at 3 players: +38.9 points [+12.6, +65.2] (paired over 6 seed blocks)."
    )
    # At the top of the ranking the sentence adds the selection-adjusted interval:
    # 7/18 -/+ 3.5341 x 0.10244 = [+2.7, +75.1].
    top = {**yz, "rank": 1}
    assert gap_sentence(top).endswith(
        "(paired over 6 seed blocks). The lead is picked on these games, so it is optimistic; "
        "allowing for the choice among 3 pairs it is [+2.7, +75.1]."
    )
    top["adjusted_low"] = -0.01
    assert gap_sentence(top).endswith(
        "it is [-1.0, +75.1], which holds 0: once the choice is allowed for, the lead is not shown."
    )


def test_fewer_than_five_blocks_give_no_interval() -> None:
    con = _con([(("X", "Y", "Z"), w) for w in WINS[:4]], 3)
    xy = _gaps(con)[0]
    assert xy["blocks"] == 4 and xy["estimate"] == pytest.approx(0.25 / 3)
    assert xy["low"] is None and xy["high"] is None and xy["separated"] is False
    assert gap_sentence(xy) == (
        "X and Y at 3 players: +8.3 points over 4 seed blocks, too few blocks for an interval."
    )


def test_a_pool_pairs_only_the_blocks_both_played() -> None:
    # A pool of A, B, C at 2 players: a block is one pair's two rotations.
    ab: Block = (("A", "B"), (2, 0))
    ab_tie: Block = (("A", "B"), (1, 1))
    ac: Block = (("A", "C"), (1, 1))
    bc: Block = (("B", "C"), (2, 0))
    blocks = [ab] * 3 + [ab_tie] * 2 + [ac] * 5 + [bc] * 5
    con = _con(blocks, 2)
    # Shares: A (8 + 5) / 20 = 0.65, B (2 + 10) / 20 = 0.6, C 5 / 20 = 0.25.
    first, second = _gaps(con)
    assert (first["better"], first["worse"], first["blocks"]) == ("A", "B", 5)
    # A - B in its 5 blocks: 1, 1, 1, 0, 0 -> 0.6, sd sqrt(0.3).
    half = 2.7764451051977934 * math.sqrt(0.3 / 5)
    assert first["estimate"] == pytest.approx(0.6)
    assert (first["low"], first["high"]) == pytest.approx((0.6 - half, 0.6 + half))
    assert (second["better"], second["worse"], second["blocks"]) == ("B", "C", 5)
    assert second["estimate"] == 1.0


def test_the_report_holds_the_gaps(small_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "rep"
    result = CliRunner().invoke(app, ["report", str(small_run), "--out", str(out)])
    assert result.exit_code == 0, result.output
    obj = json.loads((out / "report.json").read_text())
    cohort = obj["cohorts"][0]
    shares = {
        r["strategy"]: r["win_share"]
        for r in cohort["sections"]["win_rate"]["win_rate_by_strategy"]
    }
    ranked = sorted(shares, key=lambda s: (-shares[s], s))
    got = obj["gaps"]
    assert [(g["better"], g["worse"]) for g in got] == list(itertools.pairwise(ranked))
    assert [g["rank"] for g in got] == [1, 2, 3] and {g["n_players"] for g in got} == {4}
    for g in got:
        assert {"n_players", "better", "worse", "estimate", "low", "high", "separated",
                "blocks"} <= set(g)  # fmt: skip
        # A fixed lineup plays every block whole: the paired gap is the gap of the shares.
        assert g["estimate"] == pytest.approx(shares[g["better"]] - shares[g["worse"]])
        assert g["blocks"] == 12 and g["low"] <= g["estimate"] <= g["high"]
        assert g["separated"] == (g["low"] > 0 or g["high"] < 0)
        assert g["adjusted_low"] < g["low"] and g["pairs_compared"] == 6
    (best,) = [f for f in obj["findings"] if f["metric"] == "strategy_gap"]
    assert best["text"] == gap_sentence(got[0]) and best["n"] == 12
    page = (out / "index.html").read_text()
    summary = (out / "summary.md").read_text()
    first = f"{got[0]['better']} - {got[0]['worse']}"
    assert "Gaps in the ranking" in page and first in page
    assert f"| {first} | 12 |" in summary
