"""What a game declares once (its facts) is what generic code says of it: the words for its
notable games and the move-log event their replay links open at."""

from __future__ import annotations

from pipelines.report_games import WORDS, moment_event, words


def test_a_game_s_notable_games_are_in_its_own_words() -> None:
    assert words("tobago", "curse_winner") == "A curse changed the winner"
    assert moment_event("tobago", "curse_winner") == "curse_hit"
    # Another game knows nothing of curses; the generic kinds have generic words.
    assert "curse_winner" not in WORDS
    assert words("treasure-island", "curse_winner") == "curse_winner"
    assert moment_event("treasure-island", "curse_winner") is None
    assert words("treasure-island", "longest") == words("tobago", "longest") == WORDS["longest"]
