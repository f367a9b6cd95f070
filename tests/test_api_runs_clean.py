"""A long-lived process stays clean: a plug-in that monkeypatches a built-in player as it is
imported changes nothing of a later run of built-in players through ``tourney.api`` (each
run plays in a fresh process), and an in-process run after it is refused, naming the
change."""

from __future__ import annotations

import sys
from pathlib import Path
from types import FunctionType
from typing import Any

import polars as pl
import pytest

from sim.errors import RunError
from strategies.tobago.styles import Cautious
from tourney import api, calls, code_check

GAMES: dict[str, Any] = {"games": 24, "seed": 3, "islands": "abc-1", "backend": "serial"}


@pytest.fixture(autouse=True)
def _imported_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """The in-process check's baseline as if ``tourney.api`` were imported now (other tests
    in this process may have left their own changes)."""
    monkeypatch.setattr(api, "_BUILT_IN", code_check.Baseline())


def _seats(sim: api.Simulation) -> pl.DataFrame:
    return sim.run.frame("seats").sort("game_id", "seat").collect()


def test_a_plug_ins_patch_does_not_reach_a_later_run(tmp_path: Path) -> None:
    alone = api.simulate(players="hunter,cautious", out=str(tmp_path / "alone"), **GAMES)
    patched = api.simulate(
        players="tests.api_patcher:Patcher,cautious", out=str(tmp_path / "plug-in"), **GAMES
    )
    assert patched.games_played == 24
    after = api.simulate(players="hunter,cautious", out=str(tmp_path / "after"), **GAMES)
    assert _seats(after).equals(_seats(alone))
    assert after.win_table == alone.win_table
    assert (
        api.play(seed=4, players="cautious,hunter", island="abc-1").rows
        == api.play(seed=4, players="cautious,hunter", island="abc-1", fresh_process=False).rows
    )


def test_a_plug_ins_own_error_reaches_the_caller_without_its_module(tmp_path: Path) -> None:
    sys.modules.pop("tests.api_patcher", None)
    with pytest.raises(RuntimeError, match=r"^tests\.api_patcher\.PatchError: no"):
        api.simulate(players="tests.api_patcher:Raiser,hunter", out=str(tmp_path / "r"), **GAMES)
    assert "tests.api_patcher" not in sys.modules and "decide" not in vars(Cautious)


def test_the_patch_changes_games_and_in_process_runs_refuse_after_it(tmp_path: Path) -> None:
    """The same sequence in this process: the patch would change the games (so the test
    above can tell), and a run after it is refused."""
    here = {**GAMES, "fresh_process": False}
    alone = api.simulate(players="hunter,cautious", out=str(tmp_path / "alone"), **here)
    twice = api.simulate(players="hunter,cautious", out=str(tmp_path / "twice"), **here)
    assert _seats(twice).equals(_seats(alone))  # runs alone leave nothing behind
    try:
        api.simulate(
            players="tests.api_patcher:Patcher,cautious", out=str(tmp_path / "plug-in"), **here
        )
        with pytest.raises(RunError) as refused:
            api.simulate(players="hunter,cautious", out=str(tmp_path / "after"), **here)
        message = str(refused.value)
        assert message.startswith("api.simulate: built-in code changed since tourney.api")
        assert "(strategies.tobago.styles.Cautious.decide)" in message
        assert not (tmp_path / "after").exists()
        with pytest.raises(RunError, match=r"api\.play: built-in code changed"):
            api.play(seed=4, players="cautious,hunter", island="abc-1", fresh_process=False)
        # What the refused run would have played: other games under the same names.
        options = {**GAMES, "players": "hunter,cautious", "out": str(tmp_path / "unchecked")}
        unchecked = api.open_run(calls.simulate(None, options).where)
        seats = unchecked.frame("seats").sort("game_id", "seat").collect()
        assert not seats.equals(_seats(alone))
    finally:
        if "decide" in vars(Cautious):
            del Cautious.decide
        sys.modules.pop("tests.api_patcher", None)
    again = api.simulate(players="hunter,cautious", out=str(tmp_path / "again"), **here)
    assert _seats(again).equals(_seats(alone))


def test_the_check_names_an_engine_function_replaced_or_its_code_swapped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sim.tobago import deal as engine_module

    baseline = code_check.Baseline()
    assert baseline.changes() == []
    name, func = next(
        (n, f)
        for n, f in vars(engine_module).items()
        if isinstance(f, FunctionType)
        and f.__module__ == engine_module.__name__
        and not f.__closure__
    )
    with monkeypatch.context() as m:
        m.setattr(engine_module, name, lambda *a, **k: None)
        assert baseline.changes() == [f"sim.tobago.deal.{name}"]
    assert baseline.changes() == []

    def other(*args: object, **kwargs: object) -> None:
        return None

    with monkeypatch.context() as m:
        m.setattr(func, "__code__", other.__code__)  # seen wherever the function is imported
        assert f"sim.tobago.deal.{name}" in baseline.changes()
    assert baseline.changes() == []
