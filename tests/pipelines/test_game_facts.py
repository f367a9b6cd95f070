"""What a game declares once (its facts) is what generic code says and checks of it: the
words for its notable games, the move-log event their replay links open at, the player
counts it seats, its board's noun."""

from __future__ import annotations

import dataclasses

import pytest

from pipelines.experiments.pools import lineup
from pipelines.play.game import parse_players
from pipelines.report.games import WORDS, moment_event, words
from sim.errors import InputError
from sim.runner.games import GAMES


def test_a_game_s_notable_games_are_in_its_own_words() -> None:
    assert words("tobago", "curse_winner") == "A curse changed the winner"
    assert moment_event("tobago", "curse_winner") == "curse_hit"
    # Another game knows nothing of curses; the generic kinds have generic words.
    assert "curse_winner" not in WORDS
    assert words("treasure-island", "curse_winner") == "curse_winner"
    assert moment_event("treasure-island", "curse_winner") is None
    assert words("treasure-island", "longest") == words("tobago", "longest") == WORDS["longest"]


def test_the_player_counts_are_the_game_s_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lineup and a pool's table sizes are checked against the player counts the game
    declares (here Tobago declared for three players only)."""
    tobago = GAMES["tobago"]
    three = dataclasses.replace(tobago.facts, players=(3, 3))
    monkeypatch.setitem(GAMES, "tobago", dataclasses.replace(tobago, facts=three))
    with pytest.raises(InputError, match=r"^--players: Tobago takes 3 to 3 players, got 2$"):
        parse_players("hunter,cautious", "tobago")
    assert len(parse_players("hunter,cautious,random", "tobago")) == 3
    pool = {"pool": "hunter,cautious,random,collector"}
    assert lineup({}, pool, "tobago", 12, "rotate", "spec").table_sizes == (3,)
    with pytest.raises(InputError, match=r"table_sizes = '2,3' is not allowed .*from 3 to 3"):
        lineup({}, {**pool, "table_sizes": "2,3"}, "tobago", 12, "rotate", "spec")


def test_boards_are_counted_in_the_game_s_words() -> None:
    assert GAMES["tobago"].boards_counted(32) == "32 islands"
    assert GAMES["tobago"].boards_counted(1) == "1 island"
    assert GAMES["treasure-island"].boards_counted(1) == ""
