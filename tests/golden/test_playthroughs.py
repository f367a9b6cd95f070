"""Every game's golden playthrough is played again the same way (``make goldens`` writes
them on purpose)."""

from __future__ import annotations

import pytest

from tests.golden.playthroughs import PLAYTHROUGHS, Playthrough, play_text, text_diff


@pytest.mark.parametrize("case", PLAYTHROUGHS, ids=lambda c: c.name)
def test_the_game_plays_as_its_golden_playthrough(case: Playthrough) -> None:
    want = case.path.read_text()
    got = play_text(case)
    assert got == want, (
        f"{case.name} plays differently (regenerate on purpose with `make goldens`):\n"
        + text_diff(want, got, case.name)
    )


def test_every_installed_game_and_the_plugin_game_have_a_playthrough() -> None:
    from sim.runner.games import GAMES

    games = {c.game for c in PLAYTHROUGHS}
    assert games == {*GAMES, "dice-race"}


def test_a_changed_game_shows_as_a_diff_of_its_lines() -> None:
    want = "head\nt1 seat 1 draws 5\nt2 seat 2 draws 6\nscores: 5, 6\n"
    got = "head\nt1 seat 1 draws 5\nt2 seat 2 draws 7\nscores: 5, 7\n"
    diff = text_diff(want, got, "g").splitlines()
    assert diff[:2] == ["--- g (golden)", "+++ g (now)"]
    assert "-t2 seat 2 draws 6" in diff and "+t2 seat 2 draws 7" in diff
    assert "-scores: 5, 6" in diff and "+scores: 5, 7" in diff
    long = text_diff("a\n" * 200, "b\n" * 200, "g", most=10).splitlines()
    assert len(long) == 11 and long[-1].startswith("... ")
