"""A command that names no game plays the one its input fits, or is refused in one line
(exit 2) when several games are installed and nothing says which; stored specs that name
no game are Tobago's."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments.game_choice import choose_game
from pipelines.experiments.simulate import resolve
from sim.errors import InputError
from sim.runner.games import GAMES

runner = CliRunner()
AMBIGUOUS = (
    "--game is needed: 2 games are installed (tobago, treasure-island) and nothing in the "
    "command says which"
)


def test_a_command_with_nothing_to_say_which_game_is_refused_in_one_line() -> None:
    for args in (["play", "--seed", "3"], ["replay", "--seed", "3"], ["bench", "--games", "2"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert result.stderr.strip() == f"tourney: error: {AMBIGUOUS}", args


def test_the_game_is_the_one_the_command_fits() -> None:
    assert choose_game(None, players="hunter,cautious") == "tobago"
    assert choose_game(None, players="expected-value,random") == "treasure-island"
    assert choose_game("x") == "x"
    assert choose_game(None, boards=True) == "tobago"
    assert choose_game(None, rules=["characters"]) == "treasure-island"
    assert choose_game(None, keys=["legs_per_move"]) == "tobago"
    assert choose_game(None, ablation="curses") == "tobago"
    # A strategy no game knows is left for the game the rest fits to refuse by name.
    assert choose_game(None, players="hunter,wizard") == "tobago"
    with pytest.raises(InputError, match=r"^--game is needed"):
        choose_game(None, players="random,random")  # both games have a random player
    result = runner.invoke(app, ["play", "--players", "expected-value,random", "--seed", "3"])
    assert result.exit_code == 0 and result.stdout.startswith("Treasure Island, seed 3")


def test_a_single_installed_game_needs_no_naming(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(GAMES, "tobago")
    assert choose_game(None) == "treasure-island"


def test_a_spec_file_naming_no_game_is_tobago_s_and_the_command_line_must_say() -> None:
    assert resolve({"games": 8}, {"out": "unused"}, "old.toml").game == "tobago"
    with pytest.raises(InputError, match=r"^--game is needed"):
        resolve({}, {"games": 8, "out": "unused"}, "command line")
    assert resolve({}, {"pool": "expected-value,random", "out": "unused"}, "c").game == (
        "treasure-island"
    )
