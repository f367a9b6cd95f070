"""Runs end to end on real Parquet: backend equality, resume, kill-and-resume, refusals."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments.simulate import resolve
from sim.runner.games import GAMES
from sim.runner.run import read_manifest, run
from sim.runner.shard import ShardSummary, part_path
from sim.storage.parts import records_from_manifest

TABLES = GAMES["tobago"].tables

runner = CliRunner()


def shards_written(run_dir: Path) -> set[int]:
    """The shards whose games rows the run's manifest records."""
    manifest = read_manifest(run_dir)
    assert manifest is not None
    return {
        k for r in records_from_manifest(manifest, ["games"], run_dir)["games"] for k in r.shards()
    }


def small(out: Path | str, backend: str = "serial", **extra: object) -> dict[str, object]:
    values: dict[str, object] = {
        "games": 48,
        "shard_size": 12,
        "seed": 5,
        "islands": "abc-1,ABC-2,generated:3",
        "backend": backend,
        "workers": 2,
        "out": str(out),
    }
    values.update(extra)
    return values


def fingerprint(run_dir: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table's rows in game order, as plain tuples."""
    out = {}
    with duckdb.connect() as con:
        for table in TABLES:
            order = {
                "games": "game_id",
                "seats": "game_id, seat",
                "moves": "game_id, ply",
                "failures": "game_id, seat, turn, decision, answer, error",
            }.get(table, "game_id, distribution")
            rows = con.execute(
                f"SELECT * FROM read_parquet('{run_dir}/{table}/*.parquet') ORDER BY {order}"
            ).fetchall()
            out[table] = rows
    return out


def test_serial_and_process_backends_write_identical_tables(tmp_path: Path) -> None:
    a = resolve(small(tmp_path / "a"), {}, "test")
    b = resolve(small(tmp_path / "b", "process", workers=2), {}, "test")
    run(a)
    run(b)
    fa, fb = fingerprint(tmp_path / "a"), fingerprint(tmp_path / "b")
    assert fa == fb
    assert len(fa["games"]) == 48 and len(fa["seats"]) == 48 * 4
    assert {r[1] for r in fa["games"]} == set(range(48))  # game_id, after run_id
    manifest = read_manifest(tmp_path / "a")
    assert manifest is not None and manifest["status"] == "complete"
    assert manifest["spec"]["rules_hash"] == a.rules.hash
    # Worker count and shard size of the execution do not change the data either.
    c = resolve(small(tmp_path / "c", "process", workers=1), {}, "test")
    run(c)
    assert fingerprint(tmp_path / "c") == fa


def test_interrupted_run_resumes_to_the_same_tables(tmp_path: Path) -> None:
    full = resolve(small(tmp_path / "full"), {}, "test")
    run(full)
    config = resolve(small(tmp_path / "r"), {}, "test")
    seen: list[int] = []

    def stop_after_two(summary: ShardSummary) -> None:
        seen.append(summary.shard)
        if len(seen) == 2:
            raise KeyboardInterrupt  # as Ctrl-C would, between shards

    with pytest.raises(KeyboardInterrupt):
        run(config, stop_after_two)
    manifest = read_manifest(tmp_path / "r")
    assert manifest is not None and manifest["status"] == "partial"
    assert manifest["executions"][-1]["interrupted"] is True
    assert shards_written(tmp_path / "r") == {0, 1}
    report = run(config)
    assert report.shards_skipped == 2 and report.shards_played == 2
    assert fingerprint(tmp_path / "r") == fingerprint(tmp_path / "full")


def test_finished_runs_are_compacted(tmp_path: Path) -> None:
    config = resolve(small(tmp_path / "c", games=96, shard_size=4), {}, "test")
    run(config)
    for table in TABLES:
        files = sorted(p.name for p in (tmp_path / "c" / table).glob("*.parquet"))
        assert len(files) == 12, (table, files)  # 24 shards, at most 16 files: pairs
        assert files[0] == "part-000000-000001.parquet"
        assert files[-1] == "part-000022-000023.parquet"
    assert shards_written(tmp_path / "c") == set(range(24))
    assert len(fingerprint(tmp_path / "c")["games"]) == 96


def test_a_crash_during_compaction_never_doubles_rows(tmp_path: Path) -> None:
    config = resolve(small(tmp_path / "x", games=96, shard_size=4), {}, "test")
    run(config)
    rows = fingerprint(tmp_path / "x")
    merged = tmp_path / "x" / "seats" / "part-000000-000001.parquet"
    # Put back a single-shard part that the merged file already holds, as a crash between
    # writing the merged file and deleting its parts would leave it.
    import pyarrow.parquet as pq

    table = pq.read_table(merged)
    pq.write_table(
        table.filter(table["game_id"].to_numpy() < 4), part_path(tmp_path / "x", "seats", 0)
    )
    assert len(fingerprint(tmp_path / "x")["seats"]) == len(rows["seats"]) + 16
    report = run(config)
    assert report.shards_played == 0
    assert fingerprint(tmp_path / "x") == rows


def test_a_different_spec_is_refused(tmp_path: Path) -> None:
    run(resolve(small(tmp_path / "d"), {}, "test"))
    result = runner.invoke(
        app,
        [
            "simulate",
            "--games",
            "48",
            "--shard-size",
            "12",
            "--seed",
            "6",
            "--backend",
            "serial",
            "--islands",
            "abc-1,ABC-2,generated:3",
            "--out",
            str(tmp_path / "d"),
        ],
    )
    assert result.exit_code == 2
    assert "holds a run of a different spec (differs in: seed)" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "hunter,ghost"], "unknown strategy 'ghost'"),
        (
            ["--game", "tobago", "--games", "0"],
            "games = 0 is not allowed (an integer from 1 to 100,000,000)",
        ),
        (["--islands", "atlantis"], "unknown island 'atlantis'"),
        (["--game", "tobago", "--backend", "cloud"], "backend = 'cloud' is not allowed"),
        (
            ["--game", "tobago", "--seating", "alphabetical"],
            "seating = 'alphabetical' is not allowed",
        ),
        (["--game", "tobago", "--rules", "house"], "unknown rules 'house'"),
        (["--game", "tobago", "--out", "/proc/tourney-run"], "cannot create the run directory"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    tmp_path: Path, args: list[str], message: str
) -> None:
    out = ["--out", str(tmp_path / "x")] if "--out" not in args else []
    result = runner.invoke(app, ["simulate", "--backend", "serial", *out, *args])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_bad_spec_file(tmp_path: Path) -> None:
    spec = tmp_path / "s.toml"
    spec.write_text('games = 10\ncolour = "red"\n')
    result = runner.invoke(app, ["simulate", str(spec)])
    assert result.exit_code == 2
    assert "unknown key 'colour'" in result.stderr


def process_run_args() -> list[str]:
    """A 16-shard run on the process backend: long enough to interrupt in the middle."""
    return [
        "simulate", "--backend", "process", "--workers", "2", "--games", "400",
        "--shard-size", "25", "--seed", "4", "--islands", "all",
    ]  # fmt: skip


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[object, ...]]]:
    """The tables of :func:`process_run_args` played without interruption (read only)."""
    out = tmp_path_factory.mktemp("uninterrupted") / "clean"
    clean = runner.invoke(app, [*process_run_args(), "--out", str(out)])
    assert clean.exit_code == 0, clean.output
    return fingerprint(out)


def start_run(args: list[str], out: Path, shards: int) -> subprocess.Popen[str]:
    """Start ``tourney`` in its own process group; return once ``shards`` shards are written."""
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "tourney"), *args, "--out", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if out.exists() and len(list((out / "games").glob("part-*.parquet"))) >= shards:
            break
        time.sleep(0.05)
    return proc


def test_killed_run_resumes_to_the_uninterrupted_tables(
    tmp_path: Path, uninterrupted: dict[str, list[tuple[object, ...]]]
) -> None:
    args = process_run_args()
    killed = tmp_path / "killed"
    proc = start_run(args, killed, 3)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = len(list((killed / "games").glob("part-*.parquet")))
    assert 3 <= done_before < 16, "the kill should land mid-run"
    resumed = runner.invoke(app, [*args, "--out", str(killed)])
    assert resumed.exit_code == 0, resumed.output
    assert fingerprint(killed) == uninterrupted
    assert list(killed.rglob("*.tmp")) == []  # stale temporaries of the killed run are gone


@pytest.mark.cluster
def test_ray_backend_matches_serial(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The one Ray test: a real local Ray instance, same tables as the serial backend. A
    cluster named by RAY_ADDRESS (nothing listens there) is not joined without --address."""
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")
    ray_config = resolve(small(tmp_path / "ray", "ray", workers=2), {}, "test")
    serial_config = resolve(small(tmp_path / "serial"), {}, "test")
    run(ray_config)
    run(serial_config)
    assert fingerprint(tmp_path / "ray") == fingerprint(tmp_path / "serial")


def test_crashing_strategies_are_recorded_and_the_run_goes_on(tmp_path: Path) -> None:
    players = "tests.runner.crashy:Crashy,hunter,tests.runner.crashy:Flaky,cautious"
    config = resolve(small(tmp_path / "crash", "process", players=players), {}, "test")
    report = run(config)
    assert report.complete and report.games_played == 48
    with duckdb.connect() as con:
        per_strategy = dict(
            con.execute(
                f"SELECT strategy::VARCHAR, sum(violations) FROM "
                f"read_parquet('{tmp_path}/crash/seats/*.parquet') GROUP BY 1"
            ).fetchall()
        )
        pattern = f"{tmp_path}/crash/games/*.parquet"
        games = con.execute(
            "SELECT count(*), sum(violations) FROM read_parquet(?)", [pattern]
        ).fetchone()
    assert per_strategy["hunter"] == 0 and per_strategy["cautious"] == 0
    assert per_strategy["tests.runner.crashy:Crashy"] > 48
    assert 5 < per_strategy["tests.runner.crashy:Flaky"] < 43  # once per game it failed to build
    assert games is not None and games[0] == 48 and games[1] == sum(per_strategy.values())


def test_ctrl_c_stops_cleanly_and_the_run_resumes(
    tmp_path: Path, uninterrupted: dict[str, list[tuple[object, ...]]]
) -> None:
    args = process_run_args()
    out = tmp_path / "int"
    proc = start_run(args, out, 2)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C sends to the whole foreground group
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err[-2000:]
    assert "finished shards are kept" in err
    manifest = read_manifest(out)
    assert manifest is not None and manifest["status"] == "partial"
    # Shards whose parts reached disk but whose report had not reached the driver are not
    # recorded: the resume plays them again.
    assert len(shards_written(out)) < 16
    # The interrupted run is read as it is: what it has, sound; any part files of shards it
    # did not record are named and left unread.
    verified = runner.invoke(app, ["verify", str(out)])
    assert verified.exit_code == 0 and "sound (partial)" in verified.stdout, verified.output
    rep = str(tmp_path / "rep")
    reported = runner.invoke(app, ["report", str(out), "--format", "json", "--out", rep])
    assert reported.exit_code == 0 and "unfinished run" in reported.stderr, reported.output
    assert runner.invoke(app, [*args, "--out", str(out)]).exit_code == 0
    assert fingerprint(out) == uninterrupted


def test_runs_of_an_older_schema_are_refused_in_one_line(tmp_path: Path) -> None:
    import json

    out = tmp_path / "old"
    run(resolve(small(out, games=8, shard_size=4), {}, "test"))
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["schema_version"] = 3  # a run written before run_id and the pools
    (out / "manifest.json").write_text(json.dumps(manifest))
    for args in (
        ["report", str(out)],
        ["verify", str(out)],
        ["play", "--run", str(out), "--game-id", "0"],
        [
            "simulate",
            "--game",
            "tobago",
            "--games",
            "8",
            "--shard-size",
            "4",
            "--backend",
            "serial",
            "--out",
            str(out),
        ],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        (line,) = result.stderr.strip().splitlines()
        assert "schema_version 3 is not supported (this tourney writes and reads 4)" in line
        assert "simulate the run again into a new directory" in line
