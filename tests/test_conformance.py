"""The conformance kit (``tourney check-game``) over every discovered game, the test plug-in
game included, and on games broken on purpose: each is caught by the check it breaks."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pipelines.experiments.check_game import CHECKS, ContractError, check_game, rules_toml
from sim.runner.games import GAMES

TOURNEY = Path(sys.executable).parent / "tourney"
PLUGINS = Path(__file__).parent / "plugins"


def _check_game(*args: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(PLUGINS / "dice_race"), str(PLUGINS / "broken_dice")])
    env = {**os.environ, "PYTHONPATH": path}
    return subprocess.run(
        [str(TOURNEY), "check-game", *args],
        capture_output=True, text=True, check=False, env=env, timeout=300,
    )  # fmt: skip


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_of_the_product_meets_the_contract(name: str) -> None:
    passed = check_game(name, games=12)
    assert passed.game == name and passed.games == 12
    assert passed.summary().startswith(f"{name} meets the contract: {len(CHECKS)} checks passed")


def test_the_plugin_game_meets_the_contract_on_the_command_line() -> None:
    done = _check_game("dice-race")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("dice-race meets the contract: 7 checks passed"), done.stdout
    assert done.stdout.count("\n") == 1


@pytest.mark.parametrize(
    ("game", "check", "detail"),
    [
        ("dice-race-random", "determinism", "game 0 played twice from its plan differs"),
        ("dice-race-duplicate", "tables", "games rows"),
        ("dice-race-drop", "tables", "games rows"),
        ("dice-race-shift", "tables", "games rows"),
        ("dice-race-type", "tables", "schema"),
        ("dice-race-seat", "tables", "seat rows"),
        ("dice-race-foreign", "tables", "game ids"),
    ],
)
def test_a_broken_game_fails_the_check_it_breaks(game: str, check: str, detail: str) -> None:
    # The broken tables are those of the games around game 150.
    done = _check_game(game, "--games", "160")
    assert done.returncode == 1, done.stdout + done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"tourney: {game} fails the '{check}' check: "), line
    assert detail in line


def test_an_unknown_game_is_one_line_exit_2() -> None:
    done = _check_game("chess")
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert "chess" in line


class _Crash:
    def __init__(self, rng: random.Random) -> None:
        raise RuntimeError("never built")


def test_a_failure_names_its_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose failing seat is not recorded (here: the crashing player is caught before
    the referee sees it, by a strategy module that swallows it) fails that check by name."""
    import pipelines.experiments.check_game as kit

    class Honest:
        def __init__(self, rng: random.Random) -> None:
            self.inner: object = None

        def decide(self, view: object, decision: object) -> object:
            return decision.fallback()  # type: ignore[attr-defined]

    monkeypatch.setattr(kit, "Crashing", Honest)
    with pytest.raises(ContractError) as caught:
        check_game("treasure-island", games=4)
    assert caught.value.check == "crashing player"
    assert "violations recorded for seats []" in caught.value.detail


def test_rules_are_written_as_a_file_the_game_reads() -> None:
    text = rules_toml({"preset": "standard", "a": True, "b": [1, 2], "c": 0.5, "d": 'x"y'})
    assert text == 'preset = "standard"\na = true\nb = [1, 2]\nc = 0.5\nd = "x\\"y"\n'
    with pytest.raises(TypeError, match="no file form"):
        rules_toml({"bad": object()})


def test_a_game_whose_games_are_not_as_it_declares_fails_the_facts_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import dataclasses

    kind = GAMES["treasure-island"]
    for facts, detail in (
        (dataclasses.replace(kind.facts, end_reasons=("turn_cap",)), "a game ended by"),
        (dataclasses.replace(kind.facts, players=(2, 3)), "does not hold its 4-player lineup"),
    ):
        monkeypatch.setitem(GAMES, "treasure-island", dataclasses.replace(kind, facts=facts))
        with pytest.raises(ContractError) as caught:
            check_game("treasure-island", games=4)
        assert caught.value.check == "facts" and detail in caught.value.detail
