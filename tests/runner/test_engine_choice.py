"""Which engine plays a run: ``auto`` takes a game's compiled engine when every player
compiles and no guard watches the decisions, keeps a run on the engine it started with, and a
compiled run writes the reference's games and seats rows, says in its manifest which tables
it skipped, replays, reports and is checked against the reference in every shard."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments.simulate import resolve
from sim.errors import InputError, RunError
from sim.runner import engine_choice
from sim.runner.run import read_manifest, run
from sim.runner.shard import ShardSummary

runner = CliRunner()
PLAYERS = ["expected-value", "bust-threshold(threshold=0.3)", "stop-at(n=2)", "random"]


def spec(out: Path, **extra: object) -> dict[str, Any]:
    values: dict[str, Any] = {
        "game": "treasure-island",
        "players": PLAYERS,
        "games": 120,
        "shard_size": 40,
        "seed": 5,
        "backend": "serial",
        "out": str(out),
        "rules": "characters",
    }
    return values | extra


def rows(run_dir: Path, table: str) -> list[tuple[Any, ...]]:
    order = "game_id" if table == "games" else "game_id, seat"
    with duckdb.connect() as con:
        return con.execute(
            f"SELECT * FROM read_parquet('{run_dir}/{table}/*.parquet') ORDER BY {order}"
        ).fetchall()


def test_a_compiled_run_keeps_the_reference_games_and_says_what_it_skipped(
    tmp_path: Path,
) -> None:
    compiled = run(resolve(spec(tmp_path / "c"), {}, "test"))
    reference = run(resolve(spec(tmp_path / "r", engine="reference"), {}, "test"))
    assert (compiled.engine, reference.engine) == ("compiled", "reference")
    for table in ("games", "seats"):
        assert rows(tmp_path / "c", table) == rows(tmp_path / "r", table)
    c, r = read_manifest(tmp_path / "c"), read_manifest(tmp_path / "r")
    assert c is not None and r is not None
    # The same games: the same run id; the engine is in the spec only when compiled.
    assert c["run_id"] == r["run_id"] and "engine" not in r["spec"]
    assert c["spec"]["engine"] == "compiled" and sorted(c["skipped_tables"]) == [
        "draws", "moves", "turns",
    ]  # fmt: skip
    assert "skipped_tables" not in r
    assert c["executions"][-1]["engine"] == "compiled" and "compile_seconds" in c["executions"][-1]
    assert not (tmp_path / "c" / "moves").exists()
    assert set(c["parts"]) == {"failures", "seats", "games"}


def test_auto_plays_the_reference_when_a_player_or_the_guard_needs_it(tmp_path: Path) -> None:
    others = [*PLAYERS[:2], "tests.runner.hostile:Widener"]  # a plug-in: reference only
    assert run(resolve(spec(tmp_path / "a", players=others, games=6), {}, "t")).engine == (
        "reference"
    )
    assert run(resolve(spec(tmp_path / "b", audit=True, games=8), {}, "t")).engine == "reference"
    with pytest.raises(InputError, match=r"--engine compiled: 'tests.runner.hostile:Widener' has"):
        run(resolve(spec(tmp_path / "c", players=others, engine="compiled"), {}, "t"))
    with pytest.raises(InputError, match="does not watch decisions"):
        run(resolve(spec(tmp_path / "d", audit=True, engine="compiled"), {}, "t"))
    assert not (tmp_path / "c").exists() and not (tmp_path / "d").exists()
    with pytest.raises(InputError, match=r"engine = 'fast' is not allowed \(auto, reference"):
        resolve(spec(tmp_path / "e", engine="fast"), {}, "t")


def test_a_run_resumes_and_grows_on_the_engine_it_started_with(tmp_path: Path) -> None:
    out = tmp_path / "run"
    config = resolve(spec(out), {}, "test")
    done: list[ShardSummary] = []

    def stop_after_one(summary: ShardSummary) -> None:
        done.append(summary)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(config, stop_after_one)
    resumed = run(config)
    assert resumed.engine == "compiled" and resumed.shards_skipped == 1
    grown = run(resolve(spec(out, games=200), {}, "test"))
    assert grown.engine == "compiled" and grown.games_played == 80
    with pytest.raises(InputError, match=r"played by the compiled engine.*compiled or auto"):
        run(resolve(spec(out, games=240, engine="reference"), {}, "test"))
    whole = resolve(spec(tmp_path / "whole", games=200, engine="reference"), {}, "test")
    run(whole)
    for table in ("games", "seats"):
        assert rows(out, table) == rows(tmp_path / "whole", table)
    # A run started on the reference engine stays there under auto.
    assert run(resolve(spec(tmp_path / "whole", games=240), {}, "test")).engine == "reference"


def test_a_compiled_engine_that_drifts_from_its_reference_stops_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = engine_choice.compiled_engine("treasure-island")
    assert engine is not None

    def drifting(*args: Any) -> dict[str, pa.Table]:
        out = dict(engine.play(*args))
        seats = out["seats"]
        score = pc.add(seats.column("score"), pa.scalar(1, seats.schema.field("score").type))
        out["seats"] = seats.set_column(seats.schema.get_field_index("score"), "score", score)
        return out

    monkeypatch.setattr(
        engine_choice, "compiled_engine", lambda game: dataclasses.replace(engine, play=drifting)
    )
    with pytest.raises(RunError, match=r"fails the 'replay' check: table seats: game 0 has score"):
        run(resolve(spec(tmp_path / "x"), {}, "test"))
    assert not list((tmp_path / "x").glob("*/*.parquet"))


def test_the_command_line_reports_and_replays_a_compiled_run(tmp_path: Path) -> None:
    out = tmp_path / "cli"
    args = ["simulate", "--game", "treasure-island", "--games", "40", "--backend", "serial"]
    result = runner.invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "progress: loading the compiled engine" in result.stderr
    assert "on the compiled engine" in result.stdout
    verified = runner.invoke(app, ["verify", str(out)])
    assert verified.exit_code == 0, verified.output
    assert "sound (complete): 40 games in" in verified.stdout and "of 3 tables" in verified.stdout
    replay = runner.invoke(app, ["play", "--run", str(out), "--game-id", "7"])
    assert replay.exit_code == 0, replay.output
    assert "its games and seats rows match the run's (the run kept no move log)" in replay.stdout
    report = runner.invoke(app, ["report", str(out), "--out", str(tmp_path / "rep")])
    assert report.exit_code == 0, report.output
    page = (tmp_path / "rep" / "summary.md").read_text()
    assert "Push your luck: no move log" in page and "--engine reference" in page
    assert "Bust rate against the exact chance" not in page


def test_compare_and_sweep_give_the_same_answers_on_either_engine(tmp_path: Path) -> None:
    compare = ["compare", "--game", "treasure-island", "--a-strategy", "expected-value",
               "--b-strategy", "stop-at(n=1)", "--max-games", "600", "--bounds", "0,-5",
               "--workers", "1", "--json"]  # fmt: skip
    sweep = ["sweep", "--game", "treasure-island", "--param", "rum_cards=1,2", "--games", "120",
             "--workers", "1", "--json"]  # fmt: skip
    for args in (compare, sweep):
        out = {}
        for engine in ("reference", "compiled"):
            extra = ["--out", str(tmp_path / engine)] if args is sweep else []
            result = runner.invoke(app, [*args, *extra, "--engine", engine])
            assert result.exit_code == 0, result.output
            out[engine] = json.loads(result.stdout)
        if args is compare:
            engines = {e: out[e]["field"].pop("engine") for e in out}
            assert engines == {"reference": "reference", "compiled": "compiled"}
        assert out["compiled"] == out["reference"]
    bad = runner.invoke(app, [*compare[:-3], "--players", "pimc", "--engine", "compiled"])
    assert bad.exit_code == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "--engine compiled: 'pimc' has no compiled player" in bad.stderr


def test_tune_plays_its_rounds_on_the_engine_asked(tmp_path: Path) -> None:
    out = tmp_path / "tune"
    args = ["tune", "stop-at", "--game", "treasure-island", "--param", "n=1..3",
            "--points", "3", "--field", "expected-value", "--games", "60", "--confirm-games",
            "60", "--backend", "serial", "--out", str(out), "--json"]  # fmt: skip
    result = runner.invoke(app, [*args, "--engine", "compiled"])
    assert result.exit_code == 0, result.output
    engines = {json.loads(p.read_text())["spec"].get("engine") for p in out.rglob("manifest.json")}
    assert engines == {"compiled"}
