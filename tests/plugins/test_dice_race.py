"""A third game in its own package (``tests/plugins/dice_race``, registered through the one
entry point of its dist-info) runs through every command that takes a game, with no change
outside its own files: ``play``, ``simulate`` on every backend (identical data), ``verify``,
``report``, ``compare`` and ``regress``. Each command runs as a user runs it: the console
script, with the plug-in on ``PYTHONPATH`` (the test process itself never sees the game)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

PLUGIN = Path(__file__).parent / "dice_race"
TOURNEY = Path(sys.executable).parent / "tourney"
PLAYERS = "hold-at,random,hold-at(n=25)"


def tourney(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(PLUGIN),
           os.environ.get("PYTHONPATH")]))}  # fmt: skip
    return subprocess.run(
        [str(TOURNEY), *args], capture_output=True, text=True, check=False, env=env, cwd=cwd
    )


def ok(*args: str) -> str:
    done = tourney(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _table(run: Path, name: str) -> list[dict[str, object]]:
    table = pq.ParquetDataset(run / name).read().drop(["run_id"])
    return sorted(table.to_pylist(), key=lambda r: tuple(str(v) for v in r.values()))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same 1,200-game spec on each backend."""
    root = tmp_path_factory.mktemp("dice")
    out = {}
    for backend in ("serial", "process", "ray"):
        out[backend] = root / backend
        ok("simulate", "--game", "dice-race", "--players", PLAYERS, "--games", "1200",
           "--seed", "4", "--shard-size", "300", "--backend", backend, "--workers", "2",
           "--out", str(out[backend]))  # fmt: skip
    return out


def test_the_main_process_does_not_see_the_plugin() -> None:
    from sim.runner.games import GAMES

    assert "dice-race" not in GAMES  # so that the proof below goes through the entry points


def test_play_shows_a_whole_game() -> None:
    text = ok("play", "--game", "dice-race", "--seed", "3").splitlines()
    assert text[0].startswith("Dice Race, seed 3, rules standard")
    assert text[-1] in ("winner: seat 1 hold-at", "winner: seat 2 random")
    score = [int(s.split()[-1]) for s in text[-2].removeprefix("scores: ").split(", ")]
    assert max(score) >= 30 > min(score)


@pytest.mark.cluster
def test_simulate_gives_identical_data_on_every_backend(runs: dict[str, Path]) -> None:
    for name in ("games", "seats", "moves", "failures"):
        serial = _table(runs["serial"], name)
        assert serial == _table(runs["process"], name) == _table(runs["ray"], name), name
    assert len(_table(runs["serial"], "games")) == 1200
    assert "sound (complete): 1,200 games" in ok("verify", str(runs["ray"]))


@pytest.mark.cluster
def test_the_tables_hold_the_game(runs: dict[str, Path]) -> None:
    """The move log adds up to every seat's score; each game has one winner at the target."""
    con = duckdb.connect()
    run = runs["ray"]
    off = con.execute(f"""
        WITH banked AS (
            SELECT game_id, seat, sum(a) AS points FROM '{run}/moves/*.parquet'
            WHERE event::VARCHAR IN ('bank', 'win') GROUP BY 1, 2)
        SELECT count(*) FROM '{run}/seats/*.parquet' s
        LEFT JOIN banked b USING (game_id, seat)
        WHERE s.score <> coalesce(b.points, 0)""").fetchone()
    assert off == (0,)
    ends = con.execute(f"""
        SELECT end_reason::VARCHAR, count(*), min(winners), max(winners)
        FROM '{run}/games/*.parquet' GROUP BY 1""").fetchall()
    assert ends == [("deck_exhausted", 1200, 1, 1)]


@pytest.mark.cluster
def test_report_shows_the_common_part(runs: dict[str, Path], tmp_path: Path) -> None:
    ok("report", str(runs["ray"]), "--out", str(tmp_path / "rep"))
    doc = json.loads((tmp_path / "rep" / "report.json").read_text())
    assert doc["game"] == "dice-race" and doc["games"] == 1200
    rows = doc["cohorts"][0]["sections"]["win_rate"]["win_rate_by_strategy"]
    shares = {r["strategy"]: r["win_share"] for r in rows}
    assert set(shares) == set(PLAYERS.split(","))
    assert sum(shares.values()) == pytest.approx(1.0)
    # Coin-flip rolling loses to holding at a total, clearly, at this sample size.
    random_row = next(r for r in rows if r["strategy"] == "random")
    assert random_row["high"] < 1 / 3 < min(r["low"] for r in rows if r["strategy"] != "random")
    html = (tmp_path / "rep" / "index.html").read_text()
    assert "Dice Race" in html and "Win rate" in html


def test_its_ablation_is_named_in_the_findings_as_it_declares(tmp_path: Path) -> None:
    """A twin without the plug-in's own ablation (``busts``) is paired as an ablation: the
    findings state the effect of removing busts, with and without them, as for Tobago's
    curses."""
    ok("simulate", "--game", "dice-race", "--players", "hold-at,random", "--games", "400",
       "--seed", "2", "--backend", "serial", "--twin", "busts",
       "--out", str(tmp_path / "run"))  # fmt: skip
    twin = tmp_path / "run-without-busts"
    assert twin.is_dir()
    ok("report", str(tmp_path / "run"), str(twin), "--out", str(tmp_path / "rep"),
       "--format", "json")  # fmt: skip
    doc = json.loads((tmp_path / "rep" / "report.json").read_text())
    paired = [f["text"] for f in doc["findings"] if f["scope"] == "pairing:0"]
    assert paired and all("with and without busts" in t or "(paired," in t for t in paired)
    starts = ("Removing busts ", "No clear effect of removing busts ")
    assert all(t.startswith(starts) for t in paired), paired


def test_compare_finds_the_better_player() -> None:
    doc = json.loads(ok("compare", "--game", "dice-race", "--a-strategy", "random",
                        "--b-strategy", "hold-at", "--players", "hold-at,random",
                        "--max-games", "4000", "--json"))  # fmt: skip
    assert doc["game"] == "dice-race"
    assert doc["decision"] == "H1" and doc["estimate"] > 10


def test_regress_passes_unchanged_and_fails_changed(tmp_path: Path) -> None:
    suite = tmp_path / "suite.toml"
    case = '[[case]]\nname = "dice"\ngame = "dice-race"\nplayers = ["hold-at", "random"]\n'
    suite.write_text(case + "games = 600\nseed = 5\ngolden_games = 3\n")
    baseline = tmp_path / "baseline.json"
    ok("regress", str(suite), "--baseline", str(baseline), "--update-baseline")
    same = tourney("regress", str(suite), "--baseline", str(baseline), "--out", str(tmp_path / "a"))
    assert same.returncode == 0, same.stdout + same.stderr
    suite.write_text(case.replace('"random"', '"hold-at(n=10)"') + "games = 600\nseed = 5\n"
                     "golden_games = 3\n")  # fmt: skip
    changed = tourney(
        "regress", str(suite), "--baseline", str(baseline), "--out", str(tmp_path / "b")
    )
    assert changed.returncode != 0


def test_its_bad_input_is_one_line_exit_2(tmp_path: Path) -> None:
    rules = tmp_path / "r.toml"
    rules.write_text("target = 1\n")
    for args, message in (
        (["play", "--game", "dice-race", "--rules", str(rules)],
         "target = 1 is not allowed (an integer from 2 to 1000)"),
        (["play", "--game", "dice-race", "--players", "hold-at(n=0)"], "n = 0 is not allowed"),
        (["simulate", "--game", "dice-race", "--islands", "all", "--out", str(tmp_path / "x")],
         "Dice Race is not played on islands"),
        (["simulate", "--game", "dice-race", "--twin", "curses", "--out", str(tmp_path / "y")],
         "twin = 'curses' is not allowed (busts)"),
    ):  # fmt: skip
        done = tourney(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


#: A Dice Race under another name whose kind names a report part and commands that fail to
#: import (its rules name its game: a scheduled game is played by the game its rules name).
BROKEN_PARTS = """
import dataclasses
from typing import ClassVar

from tourney_dice_race.game import DiceRaceRules
from tourney_dice_race.kind import KIND as DICE


@dataclasses.dataclass(frozen=True)
class PartsRules(DiceRaceRules):
    game: ClassVar[str] = "dice-parts"


def load_rules(spec):
    return PartsRules(**dataclasses.asdict(DICE.load_rules(spec)))


KIND = dataclasses.replace(DICE, name="dice-parts", title="Dice Parts", load_rules=load_rules,
                           report="tourney_broken:REPORT", commands="tourney_broken")
"""


def test_a_broken_plugin_is_named_and_the_other_games_work(tmp_path: Path) -> None:
    """A package whose game fails to import, and one whose kind names a report part and
    commands that fail to import: each is refused in one line naming the game, the part and
    the error, and the built-in games and the plug-in that loads go on working."""
    info = tmp_path / "tourney_broken-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tourney-broken\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[tourney.games]\nbroken = tourney_broken:KIND\ndice-parts = tourney_broken_parts:KIND\n"
    )
    (tmp_path / "tourney_broken.py").write_text("raise RuntimeError('half-installed')\n")
    (tmp_path / "tourney_broken_parts.py").write_text(BROKEN_PARTS)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLUGIN), str(tmp_path)])}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(TOURNEY), *args], capture_output=True, text=True,
                              check=False, env=env, cwd=tmp_path)  # fmt: skip

    warning = (
        "warning: game 'dice-parts': its commands (tourney_broken) cannot be loaded "
        "(RuntimeError: half-installed); its commands are missing"
    )
    bad = run("play", "--game", "broken", "--seed", "1")
    assert bad.returncode == 2, bad.stderr
    lines = bad.stderr.strip().splitlines()
    assert lines[0] == warning and len(lines) == 2
    assert "broken" in lines[1] and "tourney_broken:KIND cannot be loaded" in lines[1]
    assert "RuntimeError: half-installed" in lines[1]
    for game in ("tobago", "treasure-island", "dice-race", "dice-parts"):
        good = run("play", "--game", game, "--seed", "1")
        assert good.returncode == 0, good.stderr
        assert good.stderr.strip() == warning
    # A report part that cannot be loaded: refused by name, nothing written.
    assert run("simulate", "--game", "dice-parts", "--games", "20", "--backend", "serial",
               "--out", "dice").returncode == 0  # fmt: skip
    report = run("report", "dice")
    assert report.returncode == 2
    assert report.stderr.strip().splitlines()[1:] == [
        "tourney: error: game 'dice-parts': its report (tourney_broken:REPORT) cannot be "
        "loaded (RuntimeError: half-installed)"
    ]
    assert not (tmp_path / "dice" / "report").exists()
