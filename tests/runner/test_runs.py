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

from pipelines.cli import app
from pipelines.simulate import resolve
from sim.runner.run import read_manifest, run
from sim.runner.shard import part_path

runner = CliRunner()
TABLES = ("games", "seats", "moves", "treasures")


def small(out: Path, backend: str = "serial", **extra: object) -> dict[str, object]:
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
            order = {"games": "game_id", "seats": "game_id, seat", "moves": "game_id, ply"}.get(
                table, "game_id, distribution"
            )
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
    assert {r[0] for r in fa["games"]} == set(range(48))
    manifest = read_manifest(tmp_path / "a")
    assert manifest is not None and manifest["status"] == "complete"
    assert manifest["spec"]["rules_hash"] == a.rules.hash
    # Worker count and shard size of the execution do not change the data either.
    c = resolve(small(tmp_path / "c", "process", workers=1), {}, "test")
    run(c)
    assert fingerprint(tmp_path / "c") == fa


def test_resume_plays_only_missing_shards(tmp_path: Path) -> None:
    config = resolve(small(tmp_path / "r"), {}, "test")
    run(config)
    before = fingerprint(tmp_path / "r")
    part_path(tmp_path / "r", "games", 2).unlink()
    part_path(tmp_path / "r", "moves", 2).unlink()
    report = run(config)
    assert report.shards_skipped == 3 and report.shards_played == 1
    assert fingerprint(tmp_path / "r") == before


def test_a_different_spec_is_refused(tmp_path: Path) -> None:
    run(resolve(small(tmp_path / "d"), {}, "test"))
    result = runner.invoke(
        app,
        [
            "simulate",
            "--games",
            "60",
            "--shard-size",
            "12",
            "--seed",
            "5",
            "--backend",
            "serial",
            "--islands",
            "abc-1,ABC-2,generated:3",
            "--out",
            str(tmp_path / "d"),
        ],
    )
    assert result.exit_code == 2
    assert "holds a run of a different spec (differs in: games)" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "hunter,ghost"], "unknown strategy 'ghost'"),
        (["--games", "0"], "games = 0 is not allowed (a positive integer)"),
        (["--islands", "atlantis"], "unknown island 'atlantis'"),
        (["--backend", "cloud"], "backend = 'cloud' is not allowed"),
        (["--seating", "alphabetical"], "seating = 'alphabetical' is not allowed"),
        (["--rules", "house"], "unknown rules 'house'"),
        (["--out", "/proc/tourney-run"], "cannot create the run directory"),
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


def test_killed_run_resumes_to_the_uninterrupted_tables(tmp_path: Path) -> None:
    args = [
        "simulate",
        "--backend",
        "process",
        "--workers",
        "2",
        "--games",
        "400",
        "--shard-size",
        "25",
        "--seed",
        "3",
        "--islands",
        "all",
    ]
    script = Path(sys.executable).parent / "tourney"
    killed = tmp_path / "killed"
    proc = subprocess.Popen(
        [str(script), *args, "--out", str(killed)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        parts = list((killed / "games").glob("part-*.parquet")) if killed.exists() else []
        if len(parts) >= 3:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = len(list((killed / "games").glob("part-*.parquet")))
    assert 3 <= done_before < 16, "the kill should land mid-run"
    resumed = runner.invoke(app, [*args, "--out", str(killed)])
    assert resumed.exit_code == 0, resumed.output
    clean = runner.invoke(app, [*args, "--out", str(tmp_path / "clean")])
    assert clean.exit_code == 0
    assert fingerprint(killed) == fingerprint(tmp_path / "clean")
    assert list(killed.rglob("*.tmp")) == []  # stale temporaries of the killed run are gone


def test_ray_backend_matches_serial(tmp_path: Path) -> None:
    """The one Ray test: a real local Ray instance, same tables as the serial backend."""
    ray_config = resolve(small(tmp_path / "ray", "ray", workers=2), {}, "test")
    serial_config = resolve(small(tmp_path / "serial"), {}, "test")
    run(ray_config)
    run(serial_config)
    assert fingerprint(tmp_path / "ray") == fingerprint(tmp_path / "serial")
