"""The examples of ``data/README.md`` (joining runs in DuckDB and in Polars) run, cell by cell,
as a reader would."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "data" / "README.md"


def test_the_join_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cells = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert len(cells) == 3
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    for k, cell in enumerate(cells):
        exec(compile(cell, f"{DOC.name} cell {k}", "exec"), namespace)
    paired = namespace["paired"]
    assert isinstance(paired, list) and [row[0] for row in paired] == ["cautious", "hunter"]
