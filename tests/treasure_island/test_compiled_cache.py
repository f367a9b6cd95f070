"""The compiled engine's numba cache is named by its sources: an edit to any file the
compiled code depends on (another file of the package, the card tables it compiles in)
moves the cache, so stale machine code is never loaded."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.treasure_island import compiled


def test_an_edit_to_any_source_moves_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copies = []
    for source in compiled.SOURCES:
        copy = tmp_path / source.name
        copy.write_bytes(source.read_bytes())
        copies.append(copy)
    monkeypatch.setattr(compiled, "SOURCES", tuple(copies))
    base = str(tmp_path / "cache")
    before = compiled.cache_dir(base)
    assert before.startswith(base) and Path(before).name.startswith("numba-")
    assert compiled.cache_dir(base) == before
    for copy in (copies[0], copies[-2]):  # a file of the package; the card tables
        original = copy.read_bytes()
        copy.write_bytes(original + b"\n# edited\n")
        assert compiled.cache_dir(base) != before
        copy.write_bytes(original)
    assert compiled.cache_dir(base) == before
    # Without numba's own setting the cache is the package's __pycache__.
    assert "__pycache__" in compiled.cache_dir(None)
