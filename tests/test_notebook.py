"""The notebook example of ``docs/notebook.md`` runs, cell by cell, as a reader would."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "notebook.md"


def test_the_notebook_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cells = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert len(cells) >= 4
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    for k, cell in enumerate(cells):
        exec(compile(cell, f"{DOC.name} cell {k}", "exec"), namespace)
    assert (tmp_path / "study" / "two" / "manifest.json").exists()
