"""``tourney balance`` on a strategy pool: the pool checked as ``simulate`` checks one, each
objective measured at each table size apart (never pooled over unlike tables), a member's win
share over the games it sat in, every candidate on the same whole cycles of combinations,
a tiny pool study end to end, and a killed pool study resuming to the same answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments import balance, balance_play
from pipelines.experiments.balance_objectives import Blocks, Sums
from pipelines.experiments.balance_spec import load_spec
from pipelines.experiments.balance_study import run_study, sweep_spec
from pipelines.play.outcomes import outcomes
from sim.errors import InputError
from tests.pipelines.balance_kill import killed_then_resumed

runner = CliRunner()

POOL = """
game = "tobago"
pool = ["hunter", "cautious", "collector"]
table_sizes = [2, 3]
islands = "abc-1"
trials = 8
games = 12
rungs = 2
eta = 2
confirm_games = 60
confirm_top = 2
workers = 1
[space.legs_per_move]
choices = [2, 3, 4]
[space.curse_count]
low = 0
high = 3
[[objective]]
metric = "first_seat_advantage"
[[objective]]
metric = "strategy_spread"
"""
NAMES = [
    "first_seat_advantage at 2 players",
    "first_seat_advantage at 3 players",
    "strategy_spread at 2 players",
    "strategy_spread at 3 players",
]


def _study(tmp_path: Path, text: str = POOL, name: str = "study.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            ("game = ", 'players = ["hunter", "cautious"]\ngame = '),
            "study.toml: players and pool cannot both be given",
        ),
        (
            ('pool = ["hunter", "cautious", "collector"]', 'players = ["hunter", "cautious"]'),
            "study.toml: table_sizes = [2, 3] is for a pool",
        ),
        (("table_sizes = [2, 3]", "table_sizes = [2, 5]"), "study.toml: table_sizes = [2, 5] is"),
        (("table_sizes = [2, 3]", "table_sizes = [2, 2]"), "study.toml: table_sizes = [2, 2] is"),
        (('"cautious", "collector"]', '"hunter"]'), "study.toml: pool names 'hunter' twice"),
        (('"cautious", "collector"]', '"nobody"]'), "study.toml: pool: unknown strategy"),
        (('["hunter", "cautious", "collector"]', '["hunter"]'), "study.toml: pool = ['hunter']"),
        (('["hunter", "cautious", "collector"]', "3"), "study.toml: pool = 3 is not allowed"),
    ],
)
def test_a_bad_pool_is_one_line_naming_the_file_and_key(
    tmp_path: Path, change: tuple[str, str], said: str
) -> None:
    assert change[0] in POOL
    path = _study(tmp_path, POOL.replace(*change))
    result = runner.invoke(app, ["balance", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and said in lines[0], lines
    assert not (tmp_path / "out").exists()


def test_each_objective_is_its_own_at_each_table_size(tmp_path: Path) -> None:
    spec = load_spec(_study(tmp_path))
    assert spec.pool == ("hunter", "cautious", "collector") and spec.table_sizes == (2, 3)
    assert [o.name for o in spec.objectives] == NAMES
    assert spec.objectives[1].label == "the first seat's advantage at 3 players"
    # games = 12 per table size is two cycles of 6 (3 pairs x 2 seats; 1 trio x 3 seats x 2)
    assert [spec.rung_games(r, 3) for r in range(2)] == [24, 48]
    assert spec.whole(60, 3) == 120
    # A lineup study's journal is resumed as before pools: its fingerprint is unchanged.
    lineup = load_spec(_study(tmp_path, POOL.replace("pool =", "players =").replace(
        "table_sizes = [2, 3]\n", ""), "lineup.toml"))  # fmt: skip
    held = balance.fingerprint(lineup)
    assert "pool" not in held and "table_sizes" not in held and '"size"' not in held


def _block(size: int, games: int, first: float, wins: list[float], seated: list[int]) -> Any:
    return {"size": size, "games": games, "first": first, "turns": 10.0 * games, "cut_off": 0,
            "totals": {}, "by_player": wins, "seated": seated}  # fmt: skip


def test_a_pools_figures_are_per_table_size_and_per_games_sat_in(tmp_path: Path) -> None:
    spec = load_spec(_study(tmp_path))
    first2, first3, spread2, spread3 = spec.objectives
    # Three pairs of two games each (the first seat won 4 of the 6), one trio's three games
    # (won once by its first seat, all by member 2).
    blocks = Blocks.of_pool(
        {
            0: _block(2, 2, 2.0, [1.5, 0.5, 0.0], [2, 2, 0]),
            1: _block(2, 2, 1.0, [1.0, 0.0, 1.0], [2, 0, 2]),
            2: _block(2, 2, 1.0, [0.0, 2.0, 0.0], [0, 2, 2]),
            3: _block(3, 3, 1.0, [0.0, 0.0, 3.0], [3, 3, 3]),
        },
        [],
        3,
    )
    whole = Sums(blocks.columns, blocks.matrix.sum(axis=0))
    assert first2.value(whole)[0] == pytest.approx(100 * (4 / 6 - 1 / 2))
    assert first3.value(whole)[0] == pytest.approx(0.0)
    # Shares over the games each sat in at 2 players: 2.5/4, 2.5/4, 1/4.
    assert spread2.value(whole)[0] == pytest.approx(37.5)
    assert spread3.value(whole)[0] == pytest.approx(100.0)
    assert blocks.games == 9
    # The bootstrap resamples within each table size: every replicate keeps 3 pairs, 1 trio.
    weights = blocks.weights(np.random.default_rng(1), 50)
    assert (weights[:, :3].sum(axis=1) == 3).all() and (weights[:, 3] == 1).all()


def test_a_pools_games_are_whole_cycles_and_measured_apart(tmp_path: Path) -> None:
    spec = load_spec(_study(tmp_path))
    play = balance_play.Player(sweep_spec(spec), map)
    parts = play.play({}, 0, spec.rung_games(1, 3), "")
    played = outcomes("reference", [play.sweep.schedule.plan(g) for g in range(48)],
                      play.sweep.base, play.sweep.lineup)  # fmt: skip
    blocks = play.blocks(parts, [])
    whole = Sums(blocks.columns, blocks.matrix.sum(axis=0))
    for size in (2, 3):
        games = [o for o in played if len(o.plan.order) == size]
        assert len(games) == 24
        seated = [sum(m in o.plan.order for o in games) for m in range(3)]
        assert len(set(seated)) == 1  # every member as often at each size
        first = sum(o.win_shares[o.first_player] for o in games) / len(games)
        figure = spec.objectives[size - 2].value(whole)[0]
        assert figure == pytest.approx(100 * abs(first - 1 / size))
        wins = [0.0] * 3
        for o in games:
            for seat, share in enumerate(o.win_shares):
                wins[o.plan.order[seat]] += share
        shares = [w / s for w, s in zip(wins, seated, strict=True)]
        spread = spec.objectives[2 + size - 2].value(whole)[0]
        assert spread == pytest.approx(100 * (max(shares) - min(shares)))


def test_a_tiny_pool_study_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["balance", str(_study(tmp_path)), "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["pool"] == ["hunter", "cautious", "collector"] and data["table_sizes"] == [2, 3]
    assert [o["name"] for o in data["objectives"]] == NAMES
    assert data["rung_games"] == [24, 48]
    assert {t["games"] for t in data["trials"]} <= {24, 48}
    for t in data["trials"]:
        assert len(t["values"]) == 4
        for value, low, high in zip(t["values"], t["low"], t["high"], strict=True):
            assert low <= value <= high
    conf = data["confirmation"]
    assert conf is not None and conf["games"] == 120
    assert conf["tests"] == 4 * len(conf["candidates"])
    for c in conf["candidates"]:
        assert [p["objective"] for p in c["objectives"]] == NAMES
    assert "on 120 fresh games a setting (60 at each table size)" in data["headline"][0]
    header = (out / "trials.csv").read_text().splitlines()[0]
    assert "first_seat_advantage at 3 players_low" in header
    page = (out / "balance.html").read_text()
    assert "pool of 3 (hunter, cautious, collector) at 2, 3 players" in page


def test_a_killed_pool_study_resumes_to_the_same_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = load_spec(_study(tmp_path))
    whole = run_study(spec, tmp_path / "whole", sweep_spec(spec))
    again = killed_then_resumed(spec, tmp_path / "again", monkeypatch)
    assert again["trials"] == whole["trials"]
    assert again["confirmation"] == whole["confirmation"]
    assert again["headline"] == whole["headline"]
    other = load_spec(_study(tmp_path, POOL.replace("table_sizes = [2, 3]", "table_sizes = [3]")))
    with pytest.raises(InputError, match="holds a study of another spec"):
        run_study(other, tmp_path / "again", sweep_spec(other))


def test_only_the_rulebook_through_every_rung_leaves_nothing_to_confirm(tmp_path: Path) -> None:
    spec = load_spec(_study(tmp_path))
    rulebook = {"params": {"legs_per_move": 3, "curse_count": 2}, "rung": 1, "values": [0] * 4}
    others = [{"params": {"legs_per_move": 2, "curse_count": k}, "rung": 0, "values": [1] * 4}
              for k in range(3)]  # fmt: skip
    assert balance.candidates(spec, others) == []
    assert balance.candidates(spec, [rulebook, *others]) == [rulebook]


def test_the_docs_pool_study_loads() -> None:
    spec = load_spec(Path(__file__).resolve().parents[2] / "data/studies/tobago-pool-balance.toml")
    assert spec.table_sizes == (2, 3, 4) and len(spec.pool) == 4
    assert [o.name for o in spec.objectives] == [
        f"{metric} at {size} players"
        for metric in ("first_seat_advantage", "strategy_spread")
        for size in (2, 3, 4)
    ]
    assert [spec.rung_games(r, 4) for r in range(3)] == [360, 1080, 3240]
