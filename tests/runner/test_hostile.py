"""Hostile and broken plug-ins (tests/runner/hostile.py): a cheat never pays, a failure never
takes a run down or exits 0 unseen, a stuck strategy is stopped, Ctrl-C stops at once."""

from __future__ import annotations

import copy
import pickle
import random
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
from sim.errors import InputError
from sim.guard import Guard
from sim.referee import FallbackPlayer
from sim.runner.run import run
from sim.tobago.catalog import resolve_board
from sim.tobago.engine import TobagoGame
from sim.tobago.rules import load_rules as tobago_rules
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.rules import load_rules as ti_rules
from strategies.registry import parse_strategy
from tests.runner.test_runs import fingerprint, small

HOSTILE = "tests.runner.hostile"
TOURNEY = str(Path(sys.executable).parent / "tourney")
#: Runs argv[1:] with SIGINT at its default disposition.
_DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)


def _factory(name: str, game: str = "tobago") -> Any:
    return parse_strategy(name, game).factory()


def tobago_game(first: str, seed: int = 5, guard: Guard | None = None) -> TobagoGame:
    players = [_factory(first), _factory("hunter"), _factory("cautious")]
    return TobagoGame(
        tobago_rules("rulebook"), resolve_board("aBc-3"), players, seed, guard=guard or Guard()
    )


def ti_game(first: str, seed: int = 5, guard: Guard | None = None) -> TreasureIslandGame:
    players = [_factory(first, "treasure-island"), _factory("stop-at", "treasure-island")]
    return TreasureIslandGame(ti_rules("standard"), players, seed, guard=guard or Guard())


def _fallback(rng: random.Random) -> FallbackPlayer:
    return FallbackPlayer()


def fallback_scores(game: str, seed: int = 5) -> tuple[int, ...]:
    """The scores when seat 0 always plays the documented fallback."""
    if game == "tobago":
        g: Any = TobagoGame(
            tobago_rules("rulebook"),
            resolve_board("aBc-3"),
            [_fallback, _factory("hunter"), _factory("cautious")],
            seed,
        )
    else:
        g = TreasureIslandGame(
            ti_rules("standard"), [_fallback, _factory("stop-at", "treasure-island")], seed
        )
    return tuple(g.play().scores)


def _reachable(root: object, depth: int = 4) -> Iterator[object]:
    """Every object a plug-in reaches from ``root`` through ordinary attribute access: names
    in ``dir`` that are not dunders, property values, container items."""
    seen: set[int] = set()
    frontier = [root]
    for _ in range(depth):
        following: list[object] = []
        for obj in frontier:
            if id(obj) in seen or isinstance(obj, int | str | float | bool | type(None)):
                continue
            seen.add(id(obj))
            yield obj
            if isinstance(obj, list | tuple | set | frozenset):
                following.extend(obj)
                continue
            if isinstance(obj, dict):
                following.extend(obj.values())
                continue
            for name in dir(obj):
                if name.startswith("__"):
                    continue
                try:
                    following.append(getattr(obj, name))
                except Exception:
                    continue
        frontier = following


def _mutable_parts(game: Any, state: Any) -> set[int]:
    """The identities of the game's mutable objects: the game, its state, their lists,
    dicts, sets and generators (the rules, boards and decks are immutable)."""
    out = {id(game), id(state)}
    for holder in (game, state):
        for name in getattr(type(holder), "__slots__", ()):
            value = getattr(holder, name, None)
            if isinstance(value, list | dict | set | random.Random) or hasattr(value, "flat"):
                out.add(id(value))
                if isinstance(value, list):
                    out.update(id(v) for v in value if isinstance(v, list))
    return out


@pytest.mark.parametrize("game_name", ["tobago", "treasure-island"])
def test_a_plugin_view_has_no_attribute_leading_to_the_game(game_name: str) -> None:
    first = f"{HOSTILE}:EqualsAll"
    g: Any = tobago_game(first) if game_name == "tobago" else ti_game(first)
    state = g.state if game_name == "tobago" else g
    view = g.views[0]
    for name in ("_s", "_g", "_inner"):
        with pytest.raises(AttributeError):
            getattr(view, name)
    with pytest.raises(TypeError):
        vars(view)
    with pytest.raises(AttributeError):
        view.seat = 1
    with pytest.raises(TypeError):
        pickle.dumps(view)
    with pytest.raises(TypeError):
        copy.copy(view)
    mutable = _mutable_parts(g, state)
    leaks = [type(o).__name__ for o in _reachable(view) if id(o) in mutable]
    assert leaks == []
    # The same view serves the plug-in: its public interface answers as the direct one does.
    assert view.seat == 0 and view.turn == 0
    # A built-in strategy (trusted) gets the direct view; the plug-in did not.
    assert type(g.views[1]).__name__ == "PlayerView"
    assert type(view).__name__ == "SealedPlayerView"


def test_an_island_handed_to_strategies_cannot_be_changed() -> None:
    island = resolve_board("aBc-3").island
    with pytest.raises(AttributeError):
        island.terrain = ()
    with pytest.raises(TypeError):
        island.index[(0, 0)] = 1  # type: ignore[index]
    assert pickle.loads(pickle.dumps(island)).leg_mask == island.leg_mask


@pytest.mark.parametrize("game_name", ["tobago", "treasure-island"])
def test_decisions_are_immutable(game_name: str) -> None:
    from sim.tobago.decisions import END, TURN
    from sim.tobago.decisions import Decision as TobagoDecision
    from sim.treasure_island.decisions import CONTINUE
    from sim.treasure_island.decisions import Decision as TIDecision

    d: Any = (
        TobagoDecision(TURN, 0, (END,))
        if game_name == "tobago"
        else TIDecision(CONTINUE, 0, ("plunder", "draw"))
    )
    for name in ("actions", "options", "seat", "kind"):
        with pytest.raises(AttributeError):
            setattr(d, name, ())


@pytest.mark.parametrize("game_name", ["tobago", "treasure-island"])
@pytest.mark.parametrize(
    "cheat", ["Widener", "EqualsAll", "RaisingEq", "NumpyAnswers", "Exiter", "AttributeCheater"]
)
def test_a_cheat_or_a_failure_gains_nothing_and_is_recorded(game_name: str, cheat: str) -> None:
    """Each hostile answer is illegal (or the cheat finds nothing): the seat plays exactly the
    fallback's game, and every failure is a recorded violation."""
    first = f"{HOSTILE}:{cheat}"
    g: Any = tobago_game(first) if game_name == "tobago" else ti_game(first)
    result = g.play()
    assert tuple(result.scores) == fallback_scores(game_name)
    if cheat == "AttributeCheater":
        assert g.violations == []
    else:
        assert g.violations and all(v.seat == 0 for v in g.violations)
        assert all(len(v.answer) <= 200 and len(v.error) <= 200 for v in g.violations)


@pytest.mark.parametrize("game_name", ["tobago", "treasure-island"])
def test_the_audit_undoes_a_cheat_through_frames_and_changes_nothing_else(game_name: str) -> None:
    first = f"{HOSTILE}:FrameCheater"
    build = tobago_game if game_name == "tobago" else ti_game
    unaudited = build(first).play()
    assert unaudited.scores[0] > 500  # in-process code can reach the game: the cheat works
    g: Any = build(first, guard=Guard(audit=True))
    assert tuple(g.play().scores) == fallback_scores(game_name)
    assert g.violations and all("audit" in v.error for v in g.violations)
    # Honest players play the very same game under audit.
    for seed in range(5):
        plain = build("hunter" if game_name == "tobago" else "expected-value", seed)
        audited = build(
            "hunter" if game_name == "tobago" else "expected-value", seed, Guard(audit=True)
        )
        assert plain.play() == audited.play()
        assert audited.violations == []


@pytest.mark.parametrize("game_name", ["tobago", "treasure-island"])
def test_a_stuck_decision_ends_its_game_with_the_end_reason_timeout(game_name: str) -> None:
    first = f"{HOSTILE}:Stuck"
    build = tobago_game if game_name == "tobago" else ti_game
    g: Any = build(first, guard=Guard(decision_timeout=0.2))
    result = g.play()  # the stuck decision never returns: only the time limit ends the game
    assert result.end_reason == "timeout" and not result.truncated
    assert g.violations[-1].seat == 0 and "time limit" in g.violations[-1].error
    with pytest.raises(InputError):
        Guard(decision_timeout=0)


@pytest.mark.cluster
def test_hostile_plugins_are_recorded_on_every_backend_with_the_same_data(tmp_path: Path) -> None:
    """Under --audit, a table of cheats and failures plays to the end on serial, process and
    Ray, with identical tables; the cheats score what the fallback scores."""
    players = ",".join(f"{HOSTILE}:{c}" for c in ("FrameCheater", "EqualsAll", "Exiter"))
    players += ",hunter"
    base = {"games": 12, "shard_size": 4, "players": players, "audit": True}
    for backend in ("serial", "process", "ray"):
        run(resolve(small(tmp_path / backend, backend, **base), {}, "test"))
    tables = {b: fingerprint(tmp_path / b) for b in ("serial", "process", "ray")}
    assert tables["serial"] == tables["process"] == tables["ray"]
    with duckdb.connect() as con:
        rows = con.execute(
            f"SELECT strategy::VARCHAR, count(*), sum(violations), max(score) FROM "
            f"read_parquet('{tmp_path}/serial/seats/*.parquet') GROUP BY 1 ORDER BY 1"
        ).fetchall()
    by = {r[0].rsplit(":", 1)[-1]: r for r in rows}
    assert all(by[c][1] == 12 for c in by)
    assert by["hunter"][2] == 0
    for cheat in ("FrameCheater", "EqualsAll", "Exiter"):
        assert by[cheat][2] > 0
    assert by["FrameCheater"][3] < 100  # the frames cheat adds 50 coins a decision


def _tourney(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TOURNEY, *args], check=False, capture_output=True, text=True, timeout=timeout
    )


def test_sys_exit_in_a_strategy_is_recorded_and_never_hangs_the_process_backend(
    tmp_path: Path,
) -> None:
    for backend in ("serial", "process"):
        out = tmp_path / backend
        done = _tourney(
            "simulate", "--players", f"{HOSTILE}:Exiter,hunter", "--games", "8",
            "--shard-size", "4", "--backend", backend, "--workers", "2", "--out", str(out),
            timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-500:]
        assert f"{HOSTILE}:Exiter failed" in done.stderr  # said, not hidden
        with duckdb.connect() as con:
            games = con.execute(
                f"SELECT count(*) FROM read_parquet('{out}/games/*.parquet')"
            ).fetchone()
        assert games == (8,)


def test_a_strategy_that_cannot_be_built_fails_the_run_in_one_line(tmp_path: Path) -> None:
    done = _tourney(
        "simulate", "--players", f"{HOSTILE}:BadInit,hunter", "--games", "4",
        "--backend", "serial", "--out", str(tmp_path / "bad"),
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.strip().count("\n") == 0
    assert "cannot be built: RuntimeError('cannot build this strategy')" in done.stderr
    assert not (tmp_path / "bad").exists()


def test_time_limits_end_a_stuck_game_or_stop_an_overrunning_shard(tmp_path: Path) -> None:
    out = tmp_path / "decision"
    done = _tourney(
        "simulate", "--players", f"{HOSTILE}:Stuck,hunter", "--games", "4", "--shard-size",
        "2", "--backend", "process", "--workers", "2", "--decision-timeout", "0.3",
        "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-500:]
    assert "decision time limit" in done.stderr
    with duckdb.connect() as con:
        reasons = con.execute(
            f"SELECT end_reason::VARCHAR, count(*) FROM read_parquet('{out}/games/*.parquet') "
            "GROUP BY 1"
        ).fetchall()
    assert reasons == [("timeout", 4)]
    # Its report and replays play the games again under the run's time limit: they end.
    report = _tourney("report", str(out), "--out", str(tmp_path / "report"), timeout=90)
    assert report.returncode == 0, report.stderr[-500:]
    summary = (tmp_path / "report" / "summary.md").read_text()
    assert "4 of 4 games (100.00%)" in summary and "decision time limit" in summary
    assert "None: these games support no statement" in summary
    page = next((tmp_path / "report" / "games").glob("timeout-2p-game*.html")).read_text()
    assert "ended by a decision past the time limit" in page and "(leading)" in page
    replayed = _tourney("play", "--run", str(out), "--game-id", "1", timeout=60)
    assert replayed.returncode == 0, replayed.stderr[-500:]
    assert "a strategy ran past the decision time limit" in replayed.stdout
    assert "not finished (timeout); leading: " in replayed.stdout
    done = _tourney(
        "simulate", "--players", f"{HOSTILE}:Stuck,hunter", "--games", "4", "--shard-size",
        "2", "--backend", "process", "--workers", "2", "--shard-timeout", "3",
        "--out", str(tmp_path / "shard"),
    )  # fmt: skip
    assert done.returncode == 1
    assert "ran past the shard time limit (3 s)" in done.stderr
    assert not list((tmp_path / "shard").glob("games/*.parquet"))  # no shard got through
    refused = _tourney(
        "simulate",
        "--game",
        "tobago",
        "--backend",
        "serial",
        "--shard-timeout",
        "3",
        "--games",
        "2",
    )
    assert refused.returncode == 2 and "needs --backend process or ray" in refused.stderr


def _mid_shard(out: Path, launch: list[str]) -> tuple[subprocess.Popen[str], list[str]]:
    """A process-backend run of two shards far longer than a test, started through
    ``launch``, once its workers are in the middle of their shards; it and its children."""
    proc = subprocess.Popen(
        [*launch, "simulate", "--players", "hunter,cautious", "--games", "200000",
         "--shard-size", "100000", "--backend", "process", "--workers", "2",
         "--out", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not (out / "manifest.json").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(3)
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    return proc, children


def test_ctrl_c_to_the_driver_stops_the_process_backend_mid_shard(tmp_path: Path) -> None:
    """One shard per worker, each far longer than the test: only killing the workers at once
    ends the run within seconds."""
    out = tmp_path / "long"
    # Through a launcher that restores Ctrl-C's default (a background job may ignore it).
    proc, children = _mid_shard(out, [sys.executable, "-c", _DEFAULT_SIGINT, TOURNEY])
    assert children  # the worker processes
    proc.send_signal(signal.SIGINT)  # the driver only: it must stop the workers itself
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err[-500:]
    assert "interrupted" in err
    # Stopped mid-shard, not after finishing its shards: neither wrote its games.
    assert not list(out.glob("games/*.parquet"))
    # The workers (and multiprocessing's resource tracker) are gone within seconds.
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(Path(f"/proc/{c}").exists() for c in children):
        time.sleep(0.1)
    assert [c for c in children if Path(f"/proc/{c}/status").exists()] == []


def test_workers_end_soon_after_their_driver_is_killed(tmp_path: Path) -> None:
    """kill -9 of the driver mid-shard: its workers notice and exit, so no orphan plays on
    (or keeps multiprocessing's resource tracker alive, or writes parts nobody records)."""
    out = tmp_path / "killed"
    proc, children = _mid_shard(out, [TOURNEY])
    assert len(children) >= 2  # the workers and the resource tracker
    proc.kill()
    proc.wait(timeout=10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{c}/status").exists() for c in children):
        time.sleep(0.1)
    alive = [c for c in children if Path(f"/proc/{c}/status").exists()]
    for c in alive:  # never leave them behind, even when the test fails
        subprocess.run(["kill", "-9", c], check=False)
    assert alive == []
