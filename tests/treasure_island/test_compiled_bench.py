"""``tourney bench --engine compiled``: the compiled engine's figures, and one-line errors
for what it cannot play."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.play.game import parse_players
from pipelines.treasure_island.compiled_bench import compiled_players

runner = CliRunner()
BENCH = ["bench", "--game", "treasure-island", "--chess-seconds", "0"]


def test_the_compiled_bench_reports_the_figures_of_its_games() -> None:
    result = runner.invoke(app, [*BENCH, "--engine", "compiled", "--games", "300", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["engine"] == "compiled" and figures["games"] == 300
    assert figures["end_reasons"]["deck_exhausted"] == 300
    assert sum(row["games"] for row in figures["rounds"]) == 300
    assert figures["games_per_s"] > 0 and figures["decisions_per_s"] > 0


def test_the_lineup_is_handed_over_with_its_parameters() -> None:
    specs = parse_players("stop-at(n=4),expected-value(k=2),random", "treasure-island")
    assert compiled_players(specs, "treasure-island") == [
        ("stop-at", {"n": 4}),
        ("expected-value", {"k": 2}),
        ("random", {}),
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--engine", "fast"], "--engine: 'fast' is not allowed (reference or compiled)"),
        (
            ["--engine", "compiled", "--players", "ismcts,random"],
            "'ismcts' has no compiled player",
        ),
    ],
)
def test_what_the_compiled_engine_cannot_play_is_one_line_and_exit_2(
    args: list[str], message: str
) -> None:
    result = runner.invoke(app, [*BENCH, "--games", "2", *args])
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.splitlines()) == 1


def test_only_treasure_island_has_a_compiled_engine() -> None:
    result = runner.invoke(app, ["bench", "--game", "tobago", "--engine", "compiled"])
    assert result.exit_code == 2
    assert "--engine compiled: 'tobago' has no compiled engine" in result.stderr
