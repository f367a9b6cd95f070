"""A balance study finds a known answer with a third of the grid's games: the space is small
enough for ``sweep`` to play every setting on the same seeds (the exhaustive answer), the
objective is planted (game length's distance from 20 turns, shorter than any setting plays,
so the best setting is the one with the shortest games), and the search must pick a setting
whose exhaustive figure lies inside the exhaustive best's 95% interval, having played at most
a third of the games the grid needed. The full-size version is
``scripts/balance_known_answer.py``."""

from __future__ import annotations

from pathlib import Path

from pipelines.experiments import balance
from pipelines.experiments.balance_spec import load_spec
from pipelines.experiments.balance_study import grid_sweep, run_study, sweep_spec
from pipelines.experiments.sweep import sweep

STUDY = """
game = "tobago"
players = ["hunter", "cautious"]
islands = "abc-1"
seed = 3
trials = 10
games = 12
rungs = 3
eta = 3
confirm_games = 0
workers = 1
[space.legs_per_move]
low = 2
high = 4
[space.curse_count]
low = 0
high = 3
[[objective]]
metric = "game_length"
target = 20
"""


def test_the_search_lands_in_the_exhaustive_best_interval_with_a_third_of_the_games(
    tmp_path: Path,
) -> None:
    path = tmp_path / "study.toml"
    path.write_text(STUDY)
    spec = load_spec(path)
    games = spec.rung_games(spec.rungs - 1, 2)
    # The exhaustive answer: every setting of the space on the same seeds as the search's
    # last rung (the games 0 to 108 of seed 3).
    grid = grid_sweep(spec, games)
    rows = sweep(grid)
    objective = spec.objectives[0]
    exhaustive = {(r["legs_per_move"], r["curse_count"]): objective.from_row(r) for r in rows}
    best = min(exhaustive.values())
    result = run_study(spec, tmp_path / "out", sweep_spec(spec))
    found = balance.candidates(spec, result["trials"])[0]
    pick = exhaustive[(found["params"]["legs_per_move"], found["params"]["curse_count"])]
    assert best[1] <= pick[0] <= best[2], (found["params"], pick, best)
    # The search's figures of a setting that played every rung are the sweep's: the same
    # games on the same seeds, through the same machinery.
    assert (found["values"][0], found["low"][0], found["high"][0]) == pick
    assert result["grid_games"] == len(rows) * games == 12 * 108
    assert result["search_games"] * 3 <= result["grid_games"], result["search_games"]
