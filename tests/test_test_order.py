"""The parallel run starts the longest files first (``tests/conftest.py``'s ``heavy_first``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest

from tests.conftest import heavy_first


@dataclass
class FakeItem:
    nodeid: str
    marker: str = ""

    def get_closest_marker(self, name: str) -> Any:
        return name if name == self.marker else None


def test_files_with_slow_then_cluster_tests_come_first_each_file_kept_together() -> None:
    items = [
        FakeItem("tests/a.py::one"),
        FakeItem("tests/b.py::one"),
        FakeItem("tests/b.py::two", "cluster"),
        FakeItem("tests/c.py::one"),
        FakeItem("tests/c.py::two", "slow"),
        FakeItem("tests/d.py::one"),
    ]
    ordered = heavy_first(cast(list[pytest.Item], items))
    assert [cast(FakeItem, i).nodeid for i in ordered] == [
        "tests/c.py::one",
        "tests/c.py::two",
        "tests/b.py::one",
        "tests/b.py::two",
        "tests/a.py::one",
        "tests/d.py::one",
    ]


def test_the_parallel_run_keeps_that_order() -> None:
    # xdist hands out files by their number of tests unless told not to: the few long files
    # (two optimal games, a two-node cluster) would then start last and set the tail.
    makefile = (Path(__file__).resolve().parents[1] / "Makefile").read_text()
    runs = [line for line in makefile.splitlines() if "pytest" in line and "--dist" in line]
    assert runs and all("--no-loadscope-reorder" in line for line in runs)
