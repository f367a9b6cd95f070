"""The Python cells of ``docs/strategies.md`` run, in order, as a reader would: the plug-in
examples and the pool study of a plug-in against the scripted styles."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "strategies.md"


def test_the_strategy_guide_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cells = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert any("pool=" in cell for cell in cells)
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    for k, cell in enumerate(cells):
        exec(compile(cell, f"{DOC.name} cell {k}", "exec"), namespace)
    manifest = (tmp_path / "study" / "greedy-pool" / "manifest.json").read_text()
    assert '"pool": [' in manifest
