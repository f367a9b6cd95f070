"""Treasure Island through the command line: play, bench, simulate (backends, resume), compare,
regress, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments.simulate import read_spec, resolve
from sim.paths import data_dir
from sim.runner.games import GAMES
from sim.runner.run import read_manifest, run
from sim.runner.shard import ShardSummary

runner = CliRunner()
TI = ["--game", "treasure-island"]


def test_play_prints_the_game_and_the_winner() -> None:
    result = runner.invoke(app, ["play", *TI, "--seed", "3"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Treasure Island, seed 3, rules standard")
    assert lines[-1].startswith(("winner: ", "shared win: "))
    again = runner.invoke(app, ["play", *TI, "--seed", "3"])
    assert again.stdout == result.stdout
    rows = [json.loads(x) for x in runner.invoke(app, ["play", *TI, "--json"]).stdout.split()]
    assert rows[-1]["event"] == "result" and rows[-1]["game"] == "treasure-island"
    assert {r["event"] for r in rows[:-1]} >= {"draw_forced", "end_turn", "score"}


def test_play_with_characters_names_them() -> None:
    result = runner.invoke(
        app, ["play", *TI, "--rules", "characters", "--players", "expected-value,random"]
    )
    assert result.exit_code == 0, result.output
    assert "characters: seat 1 " in result.stdout


def test_bench_reports_the_figures() -> None:
    result = runner.invoke(app, ["bench", *TI, "--games", "200", "--chess-seconds", "0", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["game"] == "treasure-island" and figures["games"] == 200
    assert figures["games_per_s"] > 0 and figures["decisions_per_s"] > 0


def spec(out: Path, backend: str = "serial", **extra: object) -> dict[str, object]:
    values: dict[str, object] = {
        "game": "treasure-island",
        "players": ["expected-value", "bust-threshold(threshold=0.3)", "random"],
        "games": 60,
        "shard_size": 15,
        "seed": 3,
        "backend": backend,
        "workers": 2,
        "out": str(out),
    }
    values.update(extra)
    return values


def tables(run_dir: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table the run keeps, ordered (as in a run on the reference engine)."""
    order = {"games": "game_id", "seats": "game_id, seat", "moves": "game_id, ply",
             "turns": "game_id, turn", "draws": "game_id, turn, pile_size DESC",
             "failures": "game_id, seat, turn, decision, answer, error"}  # fmt: skip
    with duckdb.connect() as con:
        return {
            t: con.execute(
                f"SELECT * FROM read_parquet('{run_dir}/{t}/*.parquet') ORDER BY {order[t]}"
            ).fetchall()
            for t in GAMES["treasure-island"].tables
            if (run_dir / t).is_dir()
        }


@pytest.mark.cluster
@pytest.mark.parametrize("engine", ["reference", "compiled"])
def test_backends_and_a_resume_write_identical_tables(tmp_path: Path, engine: str) -> None:
    run(resolve(spec(tmp_path / "serial", engine=engine), {}, "test"))
    run(resolve(spec(tmp_path / "process", "process", engine=engine), {}, "test"))
    run(resolve(spec(tmp_path / "ray", "ray", engine=engine), {}, "test"))
    serial = tables(tmp_path / "serial")
    assert tables(tmp_path / "process") == serial
    assert tables(tmp_path / "ray") == serial
    assert len(serial["games"]) == 60 and len(serial["seats"]) == 180
    log = {"moves", "turns", "draws"} if engine == "reference" else set()
    assert set(serial) == {"failures", "seats", "games"} | log
    manifest = read_manifest(tmp_path / "serial")
    assert manifest is not None and manifest["spec"]["game"] == "treasure-island"
    # A run stopped after two of its four shards resumes to the same tables.
    config = resolve(spec(tmp_path / "resumed", engine=engine), {}, "test")
    done: list[ShardSummary] = []

    def stop_after_two(summary: ShardSummary) -> None:
        done.append(summary)
        if len(done) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(config, stop_after_two)
    report = run(config)
    assert report.shards_skipped == 2 and report.shards_played == 2
    assert tables(tmp_path / "resumed") == serial


def test_simulate_command_line_and_its_errors(tmp_path: Path) -> None:
    out = tmp_path / "cli"
    args = ["simulate", *TI, "--games", "20", "--backend", "serial", "--out", str(out)]
    # The default players all compile: the compiled engine plays them, keeping no move log.
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "failures,games,seats}" in result.stdout and "on the compiled engine" in result.stdout
    reference = runner.invoke(app, [*args[:-1], str(tmp_path / "ref"), "--engine", "reference"])
    assert reference.exit_code == 0, reference.output
    assert "draws,failures,games,moves,seats,turns" in reference.stdout
    # The game has no islands: its start line names none ("on 1 islands" before).
    assert "island" not in result.stdout.splitlines()[0] and ", backend serial" in result.stdout
    for extra, message in (
        (["--islands", "all"], "Treasure Island is not played on islands"),
        (["--players", "hunter,random"], "unknown strategy 'hunter'"),
        (["--players", "stop-at(n=0),random"], "n = 0 is not allowed"),
        (["--rules", "bga"], "unknown rules 'bga'"),
        (["--ablate", "curses"], "Treasure Island has no ablations"),
    ):
        bad = runner.invoke(app, [*args[:-1], str(tmp_path / "bad"), *extra])
        assert bad.exit_code == 2, (extra, bad.output)
        assert message in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "bad").exists()
    rules = tmp_path / "rules.toml"
    rules.write_text('preset = "standard"\nrum_cards = 9\n')
    bad = runner.invoke(app, ["play", *TI, "--rules", str(rules)])
    assert bad.exit_code == 2 and "rum_cards = 9 is not allowed (an integer from 0 to 5)" in (
        bad.stderr
    )


def test_compare_and_regress(tmp_path: Path) -> None:
    result = runner.invoke(app, ["compare", *TI, "--a-strategy", "expected-value", "--b-strategy",
                                 "stop-at(n=1)", "--max-games", "1200", "--bounds", "0,-5",
                                 "--workers", "1", "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.stdout)
    assert verdict["decision"] == "H1" and verdict["estimate"] < 0  # points of win share
    assert verdict["accepted"] == (
        "B wins a smaller share than A against the field by at least 5 points"
    )
    high = verdict["interval"][1]
    assert ("at least 5 points" in verdict["verdict"]) == (high <= -5)
    suite = tmp_path / "suite.toml"
    suite.write_text(
        '[[case]]\nname = "ti"\ngame = "treasure-island"\n'
        'players = ["expected-value", "stop-at"]\ngames = 300\nseed = 4\n'
    )
    base = tmp_path / "base.json"
    args = ["regress", str(suite), "--baseline", str(base), "--workers", "1"]
    assert runner.invoke(app, [*args, "--update-baseline"]).exit_code == 0
    same = runner.invoke(app, [*args, "--out", str(tmp_path / "o")])
    assert same.exit_code == 0, same.output
    suite.write_text(suite.read_text() + 'rules = "characters"\n')
    changed = runner.invoke(app, [*args, "--out", str(tmp_path / "o2")])
    assert changed.exit_code == 2 and "differs from the baseline's definition" in changed.stderr


def test_shipped_specs_resolve() -> None:
    for path in sorted((data_dir() / "specs").glob("*.toml")):
        config = resolve(read_spec(path), {}, str(path))
        assert config.games >= 1000 and config.backend == "ray", path
