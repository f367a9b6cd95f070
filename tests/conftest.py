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
    """A real 2,000-game Treasure Island run (serial backend, on the reference engine: its
    move log is what the game's report parts read), made once per test session."""
    out = tmp_path_factory.mktemp("runs") / "ti"
    values = {"game": "treasure-island", "games": 2000, "seed": 5, "backend": "serial"}
    values["engine"] = "reference"
    run(resolve({**values, "shard_size": 500, "out": str(out)}, {}, "test"))
    return out


def heavy_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """``items`` with the files holding a ``slow`` test first, then those holding a
    ``cluster`` test, then the rest, each file's tests together and in their order: the
    parallel run (``--dist loadfile``) hands out files in this order, so the longest files
    start first instead of setting the tail while the other worker waits."""
    rank: dict[str, int] = {}
    for item in items:
        here = (
            0 if item.get_closest_marker("slow") else 1 if item.get_closest_marker("cluster") else 2
        )
        rank[item.nodeid.split("::")[0]] = min(here, rank.get(item.nodeid.split("::")[0], 2))
    return sorted(items, key=lambda item: rank[item.nodeid.split("::")[0]])


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items[:] = heavy_first(items)
