"""Shared fixtures: real runs of each game, made once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.experiments.simulate import resolve
from sim.runner.run import run
from tests.runner.test_runs import small


@pytest.fixture(scope="session")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real 48-game run (serial backend), made once per test session."""
    out = tmp_path_factory.mktemp("runs") / "r"
    run(resolve(small(out), {}, "test"))
    return out


@pytest.fixture(scope="session")
def ti_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real 2,000-game Treasure Island run (serial backend), made once per test session."""
    out = tmp_path_factory.mktemp("runs") / "ti"
    values = {"game": "treasure-island", "games": 2000, "seed": 5, "backend": "serial"}
    run(resolve({**values, "shard_size": 500, "out": str(out)}, {}, "test"))
    return out
