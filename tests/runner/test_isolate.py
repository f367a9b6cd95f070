"""Isolated plug-ins (``--isolate``, sim/isolate.py) and the audit's watch over code
(sim/codewatch.py): honest plug-ins play the same games, cheats by frames or by rewriting other
players' code gain nothing, a child that crashes, hangs or sends garbage is a violation."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from pipelines.experiments.simulate import resolve
from sim import isolate, referee
from sim.codewatch import CodeWatch
from sim.guard import Guard
from sim.runner.run import run
from sim.sealed import TRUSTED
from sim.tobago.catalog import resolve_board
from sim.tobago.engine import TobagoGame
from sim.tobago.rules import load_rules as tobago_rules
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.rules import load_rules as ti_rules
from tests.runner.test_hostile import (
    HOSTILE,
    TOURNEY,
    _factory,
    fallback_scores,
    ti_game,
    tobago_game,
)

HONEST = {
    "tobago": "strategies.examples.greedy:Greedy(take_at=5)",
    "treasure-island": "strategies.examples.push_until:PushUntil",
}
BUILD: dict[str, Any] = {"tobago": tobago_game, "treasure-island": ti_game}
GAMES = ("tobago", "treasure-island")
AUDIT = Guard(audit=True)


@pytest.fixture
def restored_players() -> Iterator[None]:
    """The built-in players' code and shortcuts as they were, whatever a test's cheat did."""
    saved = {cls: dict(vars(cls)) for cls in TRUSTED}
    shortcuts = dict(referee._shortcuts_of)
    yield
    for cls, names in saved.items():
        for name in set(vars(cls)) - set(names):
            delattr(cls, name)
        for name, value in names.items():
            if vars(cls).get(name) is not value and name not in ("__dict__", "__weakref__"):
                setattr(cls, name, value)
    referee._shortcuts_of.clear()
    referee._shortcuts_of.update(shortcuts)
    isolate.shutdown()


@pytest.mark.parametrize("game", GAMES)
def test_an_honest_plugin_plays_the_same_games_isolated(game: str) -> None:
    build = BUILD[game]
    for seed in range(6):
        plain = build(HONEST[game], seed)
        isolated: Any = build(HONEST[game], seed, Guard(isolate=True))
        assert type(isolated.strategies[0]).__name__ == "IsolatedStrategy"
        assert plain.play() == isolated.play()
        assert _moves(plain) == _moves(isolated)
        assert isolated.violations == []
    isolate.shutdown()


def _moves(game: Any) -> list[Any]:
    log = getattr(game, "state", game).log
    return list(log.rows()) if hasattr(log, "rows") else list(log)


def _tables(run_dir: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table's rows but the run id, in order."""
    out = {}
    with duckdb.connect() as con:
        for table in sorted(p.name for p in run_dir.iterdir() if list(p.glob("*.parquet"))):
            out[table] = con.execute(
                f"SELECT * EXCLUDE (run_id) FROM read_parquet('{run_dir}/{table}/*.parquet') "
                "ORDER BY ALL"
            ).fetchall()
    return out


@pytest.mark.parametrize("game", GAMES)
def test_a_run_with_an_honest_plugin_writes_the_same_tables_isolated(
    game: str, tmp_path: Path
) -> None:
    other = "hunter" if game == "tobago" else "stop-at"
    base = {
        "game": game, "games": 16, "shard_size": 8, "seed": 3, "backend": "serial",
        "players": f"{HONEST[game]},{other}",
    }  # fmt: skip
    run(resolve({**base, "out": str(tmp_path / "plain")}, {}, "test"))
    config = resolve({**base, "out": str(tmp_path / "isolated"), "isolate": True}, {}, "test")
    assert config.guard.isolate and config.spec()["guard"] == {"isolate": True}
    run(config)
    plain, isolated = _tables(tmp_path / "plain"), _tables(tmp_path / "isolated")
    assert plain == isolated and len(plain["games"]) == 16
    assert isolate._children == {}  # the shard's children ended with it


@pytest.mark.usefixtures("restored_players")
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("cheat", ["FrameCheater", "Saboteur"])
def test_cheats_by_frames_or_by_rewriting_other_players_gain_nothing_isolated(
    game: str, cheat: str
) -> None:
    """In-process, each cheat changes games (the frame cheat its own, the saboteur every
    later game's opponents); isolated, every game is the fallback player's."""
    build = BUILD[game]
    for seed in range(4):
        g: Any = build(f"{HOSTILE}:{cheat}", seed, Guard(isolate=True))
        assert tuple(g.play().scores) == fallback_scores(game, seed)
        assert g.violations == []
    isolate.shutdown()
    in_process = [tuple(build(f"{HOSTILE}:{cheat}", s).play().scores) for s in range(4)]
    assert in_process != [fallback_scores(game, s) for s in range(4)]


@pytest.mark.parametrize("game", GAMES)
def test_a_crashing_or_garbling_child_is_a_recorded_violation(game: str) -> None:
    build = BUILD[game]
    for cheat, error in (
        ("Crasher", "its process ended"),
        ("Garbler", "is not a plain value"),
    ):
        for seed in (5, 6):  # the second game has a fresh child
            g: Any = build(f"{HOSTILE}:{cheat}", seed, Guard(isolate=True))
            assert tuple(g.play().scores) == fallback_scores(game, seed)
            assert g.violations and all(v.seat == 0 for v in g.violations)
            assert error in g.violations[0].error
    isolate.shutdown()


@pytest.mark.parametrize("game", GAMES)
def test_a_hanging_child_is_stopped_by_the_decision_time_limit(game: str) -> None:
    g: Any = BUILD[game](f"{HOSTILE}:Stuck", 5, Guard(isolate=True, decision_timeout=0.2))
    result = g.play()
    assert result.end_reason == "timeout"
    assert g.violations[-1].seat == 0 and "time limit" in g.violations[-1].error
    child = isolate._children[0]
    assert not child.alive and child.process.poll() is not None
    isolate.shutdown()


def test_a_child_ends_when_its_parent_is_killed(tmp_path: Path) -> None:
    code = (
        "import sys, time; from sim import isolate; "
        "print(isolate.child_for(0).process.pid, flush=True); time.sleep(600)"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=os.getcwd()
    )
    assert parent.stdout is not None
    pid = int(parent.stdout.readline())
    assert Path(f"/proc/{pid}/status").exists()
    parent.send_signal(signal.SIGKILL)
    parent.wait(timeout=10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and "State:\tZ" not in _status(pid):
        time.sleep(0.05)
    alive = "State:\tZ" not in _status(pid)
    if alive:
        os.kill(pid, signal.SIGKILL)
    assert not alive


def _status(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return "State:\tZ (gone)"


@pytest.mark.usefixtures("restored_players")
@pytest.mark.parametrize("game", GAMES)
def test_the_audit_catches_and_undoes_a_change_to_other_players_code(game: str) -> None:
    build = BUILD[game]
    for seed in range(3):
        g: Any = build(f"{HOSTILE}:Saboteur", seed, Guard(audit=True))
        assert tuple(g.play().scores) == fallback_scores(game, seed)
        assert g.violations and all(v.seat == 0 for v in g.violations)
        assert "changed the code of strategies." in g.violations[0].error
        opponent = type(g.strategies[1])
        assert opponent.decide is not vars(sys.modules[HOSTILE])["_dull"]


@pytest.mark.usefixtures("restored_players")
@pytest.mark.parametrize("game", GAMES)
def test_the_audit_catches_a_constructor_that_rewrites_other_players(game: str) -> None:
    # The class itself, not through the registry (which builds it once to check it).
    from tests.runner import hostile

    g: Any
    if game == "tobago":
        players = [hostile.EarlySaboteur, _factory("hunter"), _factory("cautious")]
        g = TobagoGame(tobago_rules("rulebook"), resolve_board("aBc-3"), players, 4, guard=AUDIT)
    else:
        players = [hostile.EarlySaboteur, _factory("stop-at", "treasure-island")]
        g = TreasureIslandGame(ti_rules("standard"), players, 4, guard=AUDIT)
    assert tuple(g.play().scores) == fallback_scores(game, 4)
    first = g.violations[0]
    assert (first.seat, first.kind) == (0, "create")
    assert first.error.startswith("changed the code of strategies.")


def test_the_audit_catches_code_replaced_in_place_and_keeps_a_seats_own_changes() -> None:
    from sim.tobago import engine

    g: Any = tobago_game(f"{HOSTILE}:EqualsAll")
    watch = CodeWatch("sim.tobago", [type(x) for x in g.strategies])
    function = engine.TobagoGame.ask
    original = function.__code__
    function.__code__ = FallbackCode.__code__
    try:
        assert watch.changed_by(0) == "sim.tobago.engine.TobagoGame.ask"
    finally:
        changed = function.__code__ is not original
        function.__code__ = original
    assert not changed  # put back by the watch
    own = type(g.strategies[0])
    own.decide = FallbackCode  # a seat's own class is its own business
    try:
        assert watch.changed_by(0) is None
        assert own.decide is FallbackCode
    finally:
        del own.decide
    watch.baseline()
    setattr(engine, "helper_added_by_a_plugin", FallbackCode)  # noqa: B010
    assert watch.changed_by(0) == "sim.tobago.engine.helper_added_by_a_plugin"
    assert not hasattr(engine, "helper_added_by_a_plugin")


def FallbackCode(self: Any, decision: Any) -> object:  # noqa: N802
    return decision.fallback()


def test_the_spec_key_and_the_flag(tmp_path: Path) -> None:
    spec = tmp_path / "spec.toml"
    spec.write_text('isolate = "yes"\n')
    done = subprocess.run(
        [TOURNEY, "simulate", str(spec), "--backend", "serial", "--games", "2"],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        == f"tourney: error: {spec}: isolate = 'yes' is not allowed (true or false)"
    )
    out = tmp_path / "run"
    args = [
        TOURNEY, "simulate", "--players", f"{HOSTILE}:FrameCheater,hunter", "--games", "4",
        "--shard-size", "2", "--backend", "serial", "--out", str(out),
    ]  # fmt: skip
    done = _run([*args, "--isolate"])
    assert done.returncode == 0, done.stderr[-500:]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["spec"]["guard"] == {"isolate": True}
    with duckdb.connect() as con:
        best = con.execute(
            f"SELECT max(score) FROM read_parquet('{out}/seats/*.parquet') "
            "WHERE strategy::VARCHAR LIKE '%FrameCheater'"
        ).fetchone()
    assert best is not None and best[0] < 100  # the frames cheat found nothing
    # The setting is part of the run: the same run without it is not resumed.
    again = _run([*args, "--games", "8"])
    assert again.returncode == 2, again.stderr[-500:]
    assert "guard" in again.stderr and again.stderr.strip().count("\n") == 0


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, check=False, capture_output=True, text=True, timeout=120)
