"""Shared fixtures: real runs of each game, made once per test session."""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from pipelines.experiments.simulate import resolve
from sim.runner.run import run
from tests.runner.test_runs import small


def made_once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], object]) -> Path:
    """The directory ``name`` that ``make`` fills, made once for the whole test session:
    the parallel run's workers (pytest-xdist) share their base temporary directory's parent,
    and the first worker to need it makes it under a lock while the others wait, then all
    read it. Read only: a test that changes a run works on a copy."""
    base = factory.getbasetemp()
    root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "made-once"
    root.mkdir(exist_ok=True)
    out, done = root / name, root / f"{name}.done"
    with (root / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)  # a half-made one of a failed attempt
            make(out)
            done.touch()
    return out


@pytest.fixture(scope="session", autouse=True)
def compiled_engine_built(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The compiled engine compiled once, before any test: in a fresh checkout it takes
    half a minute of CPU, which each parallel worker (and every process a test starts) would
    otherwise spend at once; the first worker compiles it under the lock, the others and
    every later process load numba's cache."""
    from sim.treasure_island.compiled.kind import ENGINE

    def make(out: Path) -> None:
        ENGINE.load()
        out.mkdir()

    made_once(tmp_path_factory, "compiled-engine", make)


@pytest.fixture(scope="session")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real 48-game run (serial backend), made once per test session."""
    return made_once(tmp_path_factory, "r", lambda out: run(resolve(small(out), {}, "test")))


@pytest.fixture(scope="session")
def ti_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real 2,000-game Treasure Island run (serial backend, on the reference engine: its
    move log is what the game's report parts read), made once per test session."""
    values = {"game": "treasure-island", "games": 2000, "seed": 5, "backend": "serial"}
    values["engine"] = "reference"

    def make(out: Path) -> None:
        run(resolve({**values, "shard_size": 500, "out": str(out)}, {}, "test"))

    return made_once(tmp_path_factory, "ti", make)


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
