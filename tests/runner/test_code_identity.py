"""A run's code identity covers everything that plays: an installed game plug-in's package
(its entry points, wherever it is installed), a helper a strategy imports by name in the
middle of a game, the data files a module declares and the versions of the libraries that
can change games. A growth by other code is refused in one line naming what differs (exit
2), and so is a worker or a shard that runs other code (exit 1). Commands run as a user runs
them: the console script, with the plug-ins where an install or ``PYTHONPATH`` puts them."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sim.errors import RunError
from sim.runner.code_identity import (
    check_code,
    code_identity,
    describe,
    differences,
    pin_loaded,
    run_entry_points,
)

PLUGIN = Path(__file__).parents[1] / "plugins" / "dice_race"
TOURNEY = Path(sys.executable).parent / "tourney"


def tourney(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(TOURNEY), *args], capture_output=True, text=True, check=False, env=env
    )


def plain_env(*paths: Path) -> dict[str, str]:
    """The environment with ``paths`` first on the import path."""
    extra = [str(p) for p in paths] + [os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, extra))}


def installed(root: Path, *more: Path) -> tuple[dict[str, str], Path]:
    """Dice Race installed in a user site-packages folder under ``root`` (outside the
    project, where an install puts it), and the environment that sees it."""
    user = root / "user"
    site = user / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    shutil.copytree(PLUGIN, site, ignore=shutil.ignore_patterns("__pycache__"))
    env = plain_env(site, *more)
    env["PYTHONUSERBASE"] = str(user)
    return env, site


def simulate(out: Path, games: int, players: str = "hold-at,random") -> list[str]:
    return ["simulate", "--game", "dice-race", "--players", players, "--games", str(games),
            "--shard-size", "20", "--seed", "4", "--backend", "serial",
            "--out", str(out)]  # fmt: skip


def one_line(done: subprocess.CompletedProcess[str], code: int) -> str:
    assert done.returncode == code, done.stderr
    (line,) = [t for t in done.stderr.strip().splitlines() if not t.startswith("progress:")]
    return line


def test_an_installed_plug_in_s_edited_engine_never_grows_its_run(tmp_path: Path) -> None:
    env, site = installed(tmp_path)
    out = tmp_path / "run"
    assert tourney(env, *simulate(out, 40)).returncode == 0
    manifest = json.loads((out / "manifest.json").read_text())
    parts = manifest["code"]["parts"]
    assert parts["entry point tourney.games:dice-race"] == "tourney_dice_race.kind:KIND"
    assert parts["dist tourney-dice-race"] == "1.0"
    engine = site / "tourney_dice_race" / "game.py"
    digest = hashlib.sha256(engine.read_bytes()).hexdigest()
    assert parts["file tourney_dice_race/game.py"] == digest
    # The engine edited in place: a roll of 1 or 2 busts.
    engine.write_text(engine.read_text().replace("if face == 1 and", "if face <= 2 and"))
    before = (out / "manifest.json").read_bytes()
    line = one_line(tourney(env, *simulate(out, 80)), 2)
    assert "which differ in file tourney_dice_race/game.py;" in line
    assert "only that code resumes or grows it" in line
    assert (out / "manifest.json").read_bytes() == before  # nothing touched
    assert "sound (complete): 40 games" in tourney(env, "verify", str(out)).stdout


def test_every_part_a_kind_names_is_in_the_identity(tmp_path: Path) -> None:
    """A plug-in whose kind names its players and its report part in modules of their own
    (outside its package): editing either changes the run's identity, and a growth by the
    edited code is refused, naming the file."""
    env, site = installed(tmp_path)
    kind = site / "tourney_dice_race" / "kind.py"
    named = 'strategies="tourney_dice_race.players:CATALOG"'
    assert named in kind.read_text()
    kind.write_text(kind.read_text().replace(
        named, 'strategies="dice_players:CATALOG",\n    report="dice_report:REPORT"'))  # fmt: skip
    shutil.copy(site / "tourney_dice_race" / "players.py", site / "dice_players.py")
    report = site / "dice_report.py"
    report.write_text("REPORT = None  # the report part, never loaded by a simulation\n")
    out = tmp_path / "run"
    assert tourney(env, *simulate(out, 40)).returncode == 0
    parts = json.loads((out / "manifest.json").read_text())["code"]["parts"]
    assert parts["game dice-race:strategies"] == "dice_players:CATALOG"
    assert parts["game dice-race:report"] == "dice_report:REPORT"
    assert parts["file dice_report.py"] == hashlib.sha256(report.read_bytes()).hexdigest()
    assert "file dice_players.py" in parts
    for edited in (report, site / "dice_players.py"):
        before = edited.read_text()
        edited.write_text(before + "\n# edited\n")
        line = one_line(tourney(env, *simulate(out, 80)), 2)
        assert f"which differ in file {edited.name}" in line
        edited.write_text(before)
    assert tourney(env, *simulate(out, 80)).returncode == 0


def test_a_built_in_game_s_parts_are_named_and_its_analysis_is_not_hashed() -> None:
    """Tobago's kind names its players, report part, commands and replay script; the
    players are hashed with the packages that play, the analysis (``pipelines``) is not: it
    plays no game, and a report's edit must not split its cohorts."""
    parts = code_identity((), run_entry_points("tobago")).parts
    assert run_entry_points("tobago") == ("tourney.games:tobago",)
    assert parts["game tobago:strategies"] == "strategies.tobago.catalog:CATALOG"
    assert parts["game tobago:report"] == "pipelines.tobago.report:REPORT"
    assert parts["game tobago:commands"] == "pipelines.tobago.cli_board"
    assert parts["game tobago:replay"] == "pipelines.tobago/replay.js"
    assert "file strategies/tobago/catalog.py" in parts
    assert not any(k.startswith("file pipelines/") for k in parts)


def test_a_helper_imported_by_name_during_play_is_pinned(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "lazy.py").write_text(
        "import importlib\n\n\n"
        "class Lazy:\n"
        "    def __init__(self, rng: object) -> None:\n        self.rng = rng\n\n"
        "    def decide(self, view: object, decision: object) -> bool:\n"
        "        return bool(importlib.import_module('lazy_helper').roll(view))\n"
    )
    helper = mine / "lazy_helper.py"
    helper.write_text("def roll(view):\n    return view.turn_total < 20\n")
    env = plain_env(PLUGIN, mine)
    out = tmp_path / "run"
    done = tourney(env, *simulate(out, 40, "lazy:Lazy,random"))
    assert done.returncode == 0, done.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    # Not in the static identity (nothing imports it by a statement), but pinned by the shards.
    assert not any("lazy_helper" in k for k in manifest["code"]["parts"])
    digest = hashlib.sha256(helper.read_bytes()).hexdigest()
    assert manifest["code"]["loaded"]["lazy_helper"] == digest
    assert "json" not in manifest["code"]["loaded"]  # the standard library is not listed
    # Nor what the process had loaded before the shard (its libraries' versions are parts).
    assert "typer" not in manifest["code"]["loaded"]
    helper.write_text("def roll(view):\n    return view.turn_total < 25\n")
    line = one_line(tourney(env, *simulate(out, 80, "lazy:Lazy,random")), 2)
    assert "which differ in loaded lazy_helper;" in line
    helper.write_text("def roll(view):\n    return view.turn_total < 20\n")
    assert tourney(env, *simulate(out, 80, "lazy:Lazy,random")).returncode == 0


def test_a_shard_that_loaded_another_version_of_a_helper_stops_the_run(tmp_path: Path) -> None:
    """A helper changed between two shards of one run (here by the strategy itself, at the
    middle of the second shard): that shard is not recorded and the run stops in one line."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "swap.py").write_text(
        "import importlib\nimport sys\nfrom pathlib import Path\n\n\n"
        "class Swapper:\n"
        "    built = 0\n\n"
        "    def __init__(self, rng: object) -> None:\n"
        "        Swapper.built += 1\n"
        "        if Swapper.built == 31:  # a game of the second shard\n"
        "            helper = Path(__file__).parent / 'swap_helper.py'\n"
        "            helper.write_text('def roll(view):\\n    return view.turn_total < 125\\n')\n"
        "            sys.modules.pop('swap_helper', None)\n"
        "            importlib.invalidate_caches()\n\n"
        "    def decide(self, view: object, decision: object) -> bool:\n"
        "        return bool(importlib.import_module('swap_helper').roll(view))\n"
    )
    (mine / "swap_helper.py").write_text("def roll(view):\n    return view.turn_total < 20\n")
    env = plain_env(PLUGIN, mine)
    out = tmp_path / "run"
    line = one_line(tourney(env, *simulate(out, 60, "swap:Swapper,random")), 1)
    # The shard's games were played by two versions: its replayed sample, or else the module
    # it reports, gives it away.
    assert line.startswith(
        (
            "tourney: error: shard 1 loaded swap_helper with other content",
            "tourney: error: dice-race shard 1 (games 20-39) fails the 'replay' check",
        )
    ), line
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "partial"
    assert [(p["first"], p["last"]) for p in manifest["parts"]["games"]] == [(0, 0)]
    # The file is now the other version: resuming is refused before anything is played.
    line = one_line(tourney(env, *simulate(out, 60, "swap:Swapper,random")), 2)
    assert "which differ in loaded swap_helper;" in line


def test_a_declared_data_file_is_part_of_the_code(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "weighted.py").write_text(
        "from pathlib import Path\n\n"
        'DATA_FILES = ("hold.txt",)\n\n\n'
        "class Weighted:\n"
        "    def __init__(self, rng: object) -> None:\n"
        "        self.n = int((Path(__file__).parent / 'hold.txt').read_text())\n\n"
        "    def decide(self, view: object, decision: object) -> bool:\n"
        "        return bool(view.turn_total < self.n)\n"
    )
    (mine / "hold.txt").write_text("20\n")
    env = plain_env(PLUGIN, mine)
    out = tmp_path / "run"
    assert tourney(env, *simulate(out, 40, "weighted:Weighted,random")).returncode == 0
    (mine / "hold.txt").write_text("12\n")
    line = one_line(tourney(env, *simulate(out, 80, "weighted:Weighted,random")), 2)
    assert "which differ in data weighted:hold.txt;" in line


def test_a_library_version_is_compared(tmp_path: Path) -> None:
    env = plain_env(PLUGIN)
    out = tmp_path / "run"
    assert tourney(env, *simulate(out, 40)).returncode == 0
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    numpy = manifest["code"]["parts"]["version numpy"]
    assert numpy == __import__("numpy").__version__
    manifest["code"]["parts"]["version numpy"] = "0.0.0"
    path.write_text(json.dumps(manifest))
    line = one_line(tourney(env, *simulate(out, 80)), 2)
    assert f"which differ in version numpy (0.0.0 recorded, {numpy} here);" in line


def test_a_worker_names_what_differs() -> None:
    mine = code_identity((), run_entry_points("tobago"))
    check_code(mine)
    parts = {**mine.parts, "version numpy": "0.0.0", "file sim/game.py": "0" * 64}
    driver = dataclasses.replace(mine, parts=parts)
    with pytest.raises(RunError) as err:
        check_code(driver)
    message = str(err.value)
    assert "file sim/game.py, version numpy (" in message and "0.0.0 in the driver)" in message
    assert "no game of its shard was played" in message and "\n" not in message
    found = differences(mine, driver)
    assert [k for k, _, _ in found] == ["file sim/game.py", "version numpy"]
    assert describe(found, "a", "b", limit=1) == "file sim/game.py and 1 more"


def test_a_shard_that_loaded_another_version_of_a_pinned_module_is_refused() -> None:
    record: dict[str, str] = {}
    pin_loaded(record, [("helper", "a" * 64)], 0)
    pin_loaded(record, [("helper", "a" * 64), ("other", "b" * 64)], 1)
    assert record == {"helper": "a" * 64, "other": "b" * 64}
    with pytest.raises(RunError, match=r"^shard 2 loaded helper with other content") as err:
        pin_loaded(record, [("new", "c" * 64), ("helper", "d" * 64)], 2)
    assert "\n" not in str(err.value)
    assert record == {"helper": "a" * 64, "other": "b" * 64}  # nothing of it is added


def _two_versions(tmp_path: Path) -> tuple[dict[str, str], Path, Path]:
    """Two runs of one lineup on different seeds, by two versions of a plug-in player that
    holds at 10 points, then at 25."""
    mine = tmp_path / "mine"
    mine.mkdir()
    player = mine / "holder.py"
    source = (
        "class Holder:\n"
        "    N = {n}\n\n"
        "    def __init__(self, rng: object) -> None:\n        pass\n\n"
        "    def decide(self, view: object, decision: object) -> bool:\n"
        "        return bool(view.turn_total < self.N)\n"
    )
    env = plain_env(PLUGIN, mine)
    runs = []
    for n, seed in ((10, "1"), (25, "2")):
        player.write_text(source.format(n=n))
        out = tmp_path / f"holds-{n}"
        args = simulate(out, 300, "holder:Holder,random,hold-at")
        args[args.index("--seed") + 1] = seed
        done = tourney(env, *args)
        assert done.returncode == 0, done.stderr
        runs.append(out)
    return env, runs[0], runs[1]


def test_a_report_never_pools_two_codes(tmp_path: Path) -> None:
    env, a, b = _two_versions(tmp_path)
    refused = tourney(env, "report", str(a), str(b), "--out", str(tmp_path / "rep"))
    line = one_line(refused, 2)
    assert f"{a} and {b} were played by different code (they differ in module holder)" in line
    assert "--allow-mixed-code" in line
    assert not (tmp_path / "rep").exists()  # nothing written
    done = tourney(env, "report", str(a), str(b), "--allow-mixed-code", "--format", "json",
                   "--out", str(tmp_path / "rep"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    doc = json.loads((tmp_path / "rep" / "report.json").read_text())
    cohorts = doc["cohorts"]
    assert len(cohorts) == 2 and doc["games"] == 600
    labels = [c["label"] for c in cohorts]
    assert labels[0] != labels[1] and all("[code: tourney " in label for label in labels)
    shares = [
        {r["strategy"]: r["win_share"] for r in c["sections"]["win_rate"]["win_rate_by_strategy"]}
        for c in cohorts
    ]
    # Each version on its own games: 300 games each, not one pooled strategy.
    assert [round(sum(s.values()), 9) for s in shares] == [1.0, 1.0]
    assert shares[0]["holder:Holder"] != shares[1]["holder:Holder"]
    assert not any(w["kind"] == "pooled_runs" for w in doc["warnings"])


def test_a_module_a_process_loaded_before_a_run_is_not_part_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long-lived process (a test session, a notebook) holds modules of earlier, unrelated
    work: a run records only what its shards loaded, so such a module changing on disk does
    not refuse the run's resume."""
    from pipelines.experiments.simulate import resolve
    from sim.runner.run import run
    from tests.runner.test_runs import small

    (tmp_path / "earlier_work.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("earlier_work")
    out = tmp_path / "r"
    run(resolve(small(out), {}, "test"))
    assert "earlier_work" not in json.loads((out / "manifest.json").read_text())["code"]["loaded"]
    (tmp_path / "earlier_work.py").write_text("X = 2\n")
    run(resolve(small(out), {}, "test"))  # the same spec again: a resume, not refused
    monkeypatch.delitem(sys.modules, "earlier_work")


def test_a_game_s_declared_data_files_are_part_of_the_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The data files a game declares (here a third game's) enter the identity; an edit to
    one changes it."""
    from sim.game import GameFacts
    from sim.runner import code_identity as ci
    from sim.runner.games import GAMES

    tobago = GAMES["tobago"]
    third = dataclasses.replace(
        tobago, name="third", facts=GameFacts(players=(2, 2), data_files=("third/*.cards",))
    )
    monkeypatch.setitem(GAMES, "third", third)
    (tmp_path / "third").mkdir()
    deck = tmp_path / "third" / "deck.cards"
    deck.write_text("a\n")
    monkeypatch.setenv("TOURNEY_DATA", str(tmp_path))
    before = ci.code_identity.__wrapped__()
    assert "data data/third/deck.cards" in before.parts
    deck.write_text("b\n")
    after = ci.code_identity.__wrapped__()
    assert [k for k, _, _ in ci.differences(before, after)] == ["data data/third/deck.cards"]
