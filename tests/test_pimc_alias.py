"""The search player is ``pimc`` (determinized flat Monte Carlo); its former name ``ismcts``
still names it, so a spec or a stored run naming ``ismcts`` plays exactly the games ``pimc``
plays, and both spellings are one strategy (one canonical name, one pool member)."""

from __future__ import annotations

from typing import Any

import pytest

from sim.tobago.catalog import resolve_board
from sim.tobago.engine import TobagoGame
from sim.tobago.rules import preset as tobago_preset
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.rules import preset as treasure_island_preset
from strategies.registry import REGISTRIES, parse_strategy

BOARD = "abc-1"


@pytest.mark.parametrize("game", ["tobago", "treasure-island"])
def test_ismcts_names_the_pimc_player(game: str) -> None:
    old = parse_strategy("ismcts(iterations=4)", game)
    new = parse_strategy("pimc(iterations=4)", game)
    assert old.cls is new.cls is REGISTRIES[game]["pimc"]
    assert old.cls.__name__ == "Pimc"
    assert old.canonical == new.canonical == "pimc(iterations=4)"
    assert old.label == "ismcts(iterations=4)"


def _tobago(spec: str, seed: int) -> tuple[Any, list[int]]:
    players = [
        parse_strategy(spec, "tobago").factory(),
        parse_strategy("hunter", "tobago").factory(),
    ]
    board = resolve_board(BOARD)
    game = TobagoGame(tobago_preset("rulebook"), board, players, seed, strict=True)
    return game.play(), list(game.state.log.flat)


def _treasure_island(spec: str, seed: int) -> tuple[Any, list[int]]:
    players = [
        parse_strategy(spec, "treasure-island").factory(),
        parse_strategy("expected-value", "treasure-island").factory(),
    ]
    game = TreasureIslandGame(treasure_island_preset("standard"), players, seed, strict=True)
    return game.play(), list(game.log)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_spec_naming_ismcts_plays_the_games_pimc_plays(seed: int) -> None:
    assert _treasure_island("ismcts(iterations=8)", seed) == _treasure_island(
        "pimc(iterations=8)", seed
    )
    assert _tobago("ismcts(iterations=4, width=1)", seed) == _tobago(
        "pimc(iterations=4, width=1)", seed
    )
