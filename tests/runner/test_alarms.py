"""Time limits and alarms: a limit too short for the interval timer is refused in one line, a
short one that fires while the timer is being set still ends only its decision, and a
strategy that sends itself SIGALRM neither ends the process nor escapes a time limit."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from sim.errors import InputError
from sim.guard import DecisionTimeout, Guard, guarded, stray_alarms_ignored

TOURNEY = Path(sys.executable).parent / "tourney"
ALARMS = '''
import os, signal


class SelfAlarm:
    """Sends its own process SIGALRM at every decision, then answers the fallback."""

    def __init__(self, rng):
        pass

    def decide(self, view, decision):
        os.kill(os.getpid(), signal.SIGALRM)
        return decision.fallback()
'''


def _simulate(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "alarms.py").write_text(ALARMS)
    out = tmp_path / "run"
    return subprocess.run(
        [str(TOURNEY), "simulate", "--players", "alarms:SelfAlarm,hunter",
         "--games", "8", "--backend", "serial", "--out", str(out), *args],
        capture_output=True, text=True, check=False, timeout=120, cwd=tmp_path,
    )  # fmt: skip


@pytest.mark.parametrize("seconds", ["0.00001", "0", "100000"])
def test_a_time_limit_out_of_range_is_one_line_exit_2(tmp_path: Path, seconds: str) -> None:
    done = subprocess.run(
        [str(TOURNEY), "simulate", "--players", "hunter,cautious", "--games", "4",
         "--backend", "serial", "--decision-timeout", seconds, "--out", str(tmp_path / "r")],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "decision_timeout" in lines[0] and "from 0.001 to 86400" in lines[0]
    assert not (tmp_path / "r").exists()


def test_a_timeout_raised_as_the_timer_is_armed_names_the_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The alarm can land before the decision's code runs (inside setitimer itself): the
    timeout still names the seat and kind, and no timer or handler is left behind."""
    calls: list[float] = []
    real = signal.setitimer

    def arm(which: int, seconds: float, interval: float = 0.0) -> Any:
        calls.append(seconds)
        if seconds and len(calls) == 1:
            signal.raise_signal(signal.SIGALRM)  # the alarm, at once
        return real(which, seconds, interval)

    monkeypatch.setattr(signal, "setitimer", arm)
    before = signal.getsignal(signal.SIGALRM)
    run = guarded(lambda view, decision: "never", Guard(decision_timeout=0.001), None)

    class Decision:
        seat, kind = 2, "turn"

    with pytest.raises(DecisionTimeout) as caught:
        run(None, Decision())
    assert (caught.value.seat, caught.value.kind) == (2, "turn")
    assert signal.getsignal(signal.SIGALRM) is before
    assert real(signal.ITIMER_REAL, 0) == (0.0, 0.0)  # nothing left armed


def test_the_shortest_time_limit_plays_and_records_timeouts(tmp_path: Path) -> None:
    out = tmp_path / "r"
    done = subprocess.run(
        [str(TOURNEY), "simulate", "--players", "hunter,cautious", "--games", "8",
         "--backend", "serial", "--decision-timeout", "0.001", "--out", str(out)],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-800:]
    games = pq.ParquetDataset(out / "games").read().to_pylist()
    assert len(games) == 8
    assert {g["end_reason"] for g in games} <= {"deck_exhausted", "timeout"}


def test_a_strategy_sending_itself_sigalrm_does_not_end_the_run(tmp_path: Path) -> None:
    done = _simulate(tmp_path)
    assert done.returncode == 0, done.stderr[-800:]
    games = pq.ParquetDataset(tmp_path / "run" / "games").read().to_pylist()
    assert [g["end_reason"] for g in games] == ["deck_exhausted"] * 8
    assert all(g["violations"] == 0 for g in games)


def test_under_a_time_limit_its_own_alarm_ends_its_decision_as_over_time(tmp_path: Path) -> None:
    done = _simulate(tmp_path, "--decision-timeout", "30")
    assert done.returncode == 0, done.stderr[-800:]
    games = pq.ParquetDataset(tmp_path / "run" / "games").read().to_pylist()
    assert [g["end_reason"] for g in games] == ["timeout"] * 8


def test_stray_alarms_are_ignored_only_while_games_play() -> None:
    before = signal.getsignal(signal.SIGALRM)
    with stray_alarms_ignored():
        signal.raise_signal(signal.SIGALRM)  # would end the process with the default action
        assert signal.getsignal(signal.SIGALRM) is signal.SIG_IGN
    assert signal.getsignal(signal.SIGALRM) is before


def test_a_guard_refuses_a_limit_below_a_millisecond() -> None:
    with pytest.raises(InputError, match=r"from 0\.001 to 86400"):
        Guard(decision_timeout=0.0005)
    assert Guard(decision_timeout=0.001).decision_timeout == 0.001
