"""A balance study killed in the middle of a candidate's games, then run again: shared by the
lineup and the pool studies' resume tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pipelines.experiments import balance_play, sweep
from pipelines.experiments.balance_spec import BalanceSpec
from pipelines.experiments.balance_study import run_study, sweep_spec


class KilledError(Exception):
    """Stands for a kill in the middle of a candidate's games."""


def killed_then_resumed(
    spec: BalanceSpec,
    out: Path,
    monkeypatch: pytest.MonkeyPatch,
    say: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Run ``spec`` into ``out`` until its fifth chunk of games dies, then again to the end
    (``say`` hears the second run's progress lines); the second run's result."""
    real = sweep.play_chunk
    calls = 0

    def dies(args: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 5:
            raise KilledError
        return real(args)

    monkeypatch.setattr(balance_play, "play_chunk", dies)
    with pytest.raises(KilledError):
        run_study(spec, out, sweep_spec(spec))
    monkeypatch.setattr(balance_play, "play_chunk", real)
    return run_study(spec, out, sweep_spec(spec), say=say)
