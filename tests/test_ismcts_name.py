"""``ismcts`` names the information-set tree search and ``pimc`` the flat determinized
search: two strategies in both games (two canonical names, two pool members). ``ismcts``
was once another name of ``pimc``; a stored run that named it then was played by other
code, and the run's code identity (every source file of ``strategies/``) refuses to resume
or grow it with the games of the new player."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from strategies.registry import REGISTRIES, parse_strategy

runner = CliRunner()


@pytest.mark.parametrize("game", ["tobago", "treasure-island"])
def test_ismcts_and_pimc_are_two_players(game: str) -> None:
    tree = parse_strategy("ismcts(iterations=4)", game)
    flat = parse_strategy("pimc(iterations=4)", game)
    assert tree.cls is REGISTRIES[game]["ismcts"] and flat.cls is REGISTRIES[game]["pimc"]
    assert tree.cls is not flat.cls
    assert (tree.cls.__name__, flat.cls.__name__) == ("Ismcts", "Pimc")
    assert tree.canonical == "ismcts(iterations=4)" and flat.canonical == "pimc(iterations=4)"


def _simulate(out: Path, games: int) -> list[str]:
    return ["simulate", "--players", "ismcts(iterations=2),hunter", "--games", str(games),
            "--shard-size", "2", "--seed", "3", "--islands", "abc-1", "--backend", "serial",
            "--out", str(out)]  # fmt: skip


def test_a_run_that_named_ismcts_before_it_was_a_tree_search_is_not_grown(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    made = runner.invoke(app, _simulate(out, 4))
    assert made.exit_code == 0, made.output
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    assert manifest["spec"]["players"] == ["ismcts(iterations=2)", "hunter"]
    # The code of a run made when ``ismcts`` was ``pimc``: no tree modules, the old catalog.
    parts = manifest["code"]["parts"]
    for name in ("strategies/ismcts_tree.py", "strategies/tobago/ismcts.py"):
        del parts[f"file {name}"]
    parts["file strategies/tobago/catalog.py"] = "0" * 64
    path.write_text(json.dumps(manifest))
    grown = runner.invoke(app, _simulate(out, 8))
    assert grown.exit_code == 2
    (line,) = grown.stderr.strip().splitlines()
    assert "which differ in file strategies/ismcts_tree.py, file strategies/tobago/catalog.py" in (
        line
    )
    assert "only that code resumes or grows it" in line
    assert json.loads(path.read_text())["counts"] == {"games": 4}  # nothing was added
