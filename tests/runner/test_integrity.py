"""Run integrity on real Parquet: resume repairs lost parts and half-done compactions without
doubling a row, a run directory has one writer at a time, every part is checked against the
manifest's record (``tourney verify``, report, resume), and workers refuse other code."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments.simulate import resolve
from sim.errors import InputError, RunError
from sim.runner.backends import run_process
from sim.runner.code_identity import CodeIdentity, check_code, code_identity, plugin_modules
from sim.runner.run import MANIFEST, read_manifest, run
from sim.runner.shard import ShardTask
from sim.storage.compaction import compact
from sim.storage.lock import LOCK, RunLock
from sim.storage.parts import PartRecord, records_from_manifest, records_to_manifest
from sim.storage.store import LocalStore
from tests.runner.test_runs import TABLES, fingerprint, small

runner = CliRunner()


def parts_of(run_dir: Path) -> dict[str, list[PartRecord]]:
    manifest = read_manifest(run_dir)
    assert manifest is not None
    return records_from_manifest(manifest, TABLES, run_dir)


def rows_per_game(run_dir: Path) -> dict[str, tuple[int, int]]:
    """Per table: (rows, distinct games); seats must hold 4 rows per game, games 1."""
    with duckdb.connect() as con:
        return {
            t: con.execute(
                f"SELECT count(*), count(DISTINCT game_id) "
                f"FROM read_parquet('{run_dir}/{t}/*.parquet')"
            ).fetchone()  # type: ignore[misc]
            for t in ("games", "seats")
        }


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[object, ...]]]:
    """The tables of an uninterrupted 96-game run (24 shards, compacted into pairs)."""
    out = tmp_path_factory.mktemp("ref") / "run"
    run(resolve(small(out, games=96, shard_size=4), {}, "test"))
    return fingerprint(out)


def test_a_lost_games_part_is_played_again_without_doubling_the_others(
    tmp_path: Path, reference: dict[str, list[tuple[object, ...]]]
) -> None:
    config = resolve(small(tmp_path / "r", games=96, shard_size=4), {}, "test")
    run(config)
    (tmp_path / "r" / "games" / "part-000004-000005.parquet").unlink()
    report = run(config)
    assert report.shards_played == 2
    assert any("games/part-000004-000005.parquet: missing" in n for n in report.notes)
    assert rows_per_game(tmp_path / "r") == {"games": (96, 96), "seats": (384, 96)}
    assert fingerprint(tmp_path / "r") == reference
    assert runner.invoke(app, ["verify", str(tmp_path / "r")]).exit_code == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_any_subset_of_lost_parts_resumes_to_the_same_tables(
    tmp_path: Path, seed: int, reference: dict[str, list[tuple[object, ...]]]
) -> None:
    config = resolve(small(tmp_path / "r", games=96, shard_size=4), {}, "test")
    run(config)
    files = sorted((tmp_path / "r").glob("*/part-*.parquet"))
    lost = random.Random(seed).sample(files, 1 + seed * 3)
    for path in lost:
        path.unlink()
    run(config)
    assert fingerprint(tmp_path / "r") == reference


def test_partial_compaction_states_resume_without_doubling(
    tmp_path: Path, reference: dict[str, list[tuple[object, ...]]]
) -> None:
    """A crash after the merged files are written but before the manifest records them, and a
    crash after it records them but before the merged parts are deleted."""

    class CrashError(Exception):
        """A crash at the point of the compaction where it is raised."""

    def crash(records: dict[str, list[PartRecord]]) -> None:
        raise CrashError

    for label in ("before-commit", "after-commit"):
        run_dir = tmp_path / label
        # 12 shards, at most 16 files: the run keeps its 12 single-shard parts per table.
        config = resolve(small(run_dir, games=96, shard_size=8), {}, "test")
        run(config)
        manifest = read_manifest(run_dir)
        assert manifest is not None
        records = parts_of(run_dir)
        assert all(len(rs) == 12 for rs in records.values())

        def commit_then_crash(
            new: dict[str, list[PartRecord]],
            manifest: dict[str, object] = manifest,
            path: Path = run_dir / MANIFEST,
        ) -> None:
            manifest["parts"] = records_to_manifest(new)
            path.write_text(json.dumps(manifest))
            raise CrashError

        with pytest.raises(CrashError):
            compact(run_dir, records, crash if label == "before-commit" else commit_then_crash, 4)
        on_disk = len(list(run_dir.glob("*/part-*.parquet")))
        assert on_disk > 12 * len(TABLES)  # merged files and the parts they hold, side by side
        report = run(config)
        assert report.shards_played == 0
        assert rows_per_game(run_dir) == {"games": (96, 96), "seats": (384, 96)}
        assert runner.invoke(app, ["verify", str(run_dir)]).exit_code == 0
    ref = tmp_path / "ref"
    run(resolve(small(ref, games=96, shard_size=8), {}, "test"))
    assert fingerprint(tmp_path / "before-commit") == fingerprint(ref)
    assert fingerprint(tmp_path / "after-commit") == fingerprint(ref)


def test_a_half_written_shard_is_played_again(tmp_path: Path) -> None:
    """A worker killed between its parts: seats written, games not (and nothing recorded)."""
    config = resolve(small(tmp_path / "r"), {}, "test")
    run(config)
    clean = fingerprint(tmp_path / "r")
    manifest = read_manifest(tmp_path / "r")
    assert manifest is not None
    # Forget shard 2 in the record, as a crash before the driver heard of it would.
    for table in TABLES:
        manifest["parts"][table] = [e for e in manifest["parts"][table] if e["first"] != 2]
    (tmp_path / "r" / "games" / "part-000002.parquet").unlink()
    (tmp_path / "r" / MANIFEST).write_text(json.dumps(manifest))
    report = run(config)
    assert report.shards_played == 1
    assert fingerprint(tmp_path / "r") == clean


def test_an_interrupted_run_is_read_without_the_parts_it_left_unrecorded(
    tmp_path: Path,
) -> None:
    """An interrupted simulate can leave parts of a shard it never recorded (it writes the
    tables one by one): verify and report read the run without them and say so; any other
    unrecorded file is still refused; the next simulate deletes them."""
    out = tmp_path / "r"
    values = small(out, games=48, shard_size=6)
    done: list[int] = []

    def stop(summary: object) -> None:
        done.append(1)
        if len(done) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(resolve(values, {}, "test"), stop)
    assert (out / "seats" / "part-000000.parquet").exists()
    shutil.copy(out / "seats" / "part-000000.parquet", out / "seats" / "part-000007.parquet")
    verified = runner.invoke(app, ["verify", str(out)])
    assert verified.exit_code == 0, verified.output
    assert "sound (partial)" in verified.stdout
    assert "1 unrecorded part file of unplayed shards left by the interrupted simulate " in (
        verified.stdout
    )
    reported = runner.invoke(app, ["report", str(out), "--format", "json"])
    assert reported.exit_code == 0, reported.output
    text = (out / "report" / "report.json").read_text()
    assert "Not read: 1 part file of unplayed shards" in text  # in the run's warning
    assert "reported for the 12 of 48 games it has" in text  # the two recorded shards
    # A file that is not a part of an unplayed shard is refused as before.
    for stray in (
        "games/part-000000-000001.parquet",  # shards the run holds
        "games/part-000008.parquet",  # a shard the run does not have (8 shards: 0 to 7)
        "games/notes.txt",
    ):
        shutil.copy(out / "games" / "part-000000.parquet", out / stray)
        refused = runner.invoke(app, ["verify", str(out)])
        assert refused.exit_code == 2 and "extra file, not recorded" in refused.stderr
        (out / stray).unlink()
    # The next simulate deletes the leftover and plays its shard; a complete run holds no
    # unrecorded file at all (verify would refuse it).
    assert run(resolve(values, {}, "test")).complete
    assert runner.invoke(app, ["verify", str(out)]).exit_code == 0


def test_a_second_simulate_on_the_same_directory_is_refused_at_once(tmp_path: Path) -> None:
    out = tmp_path / "r"
    args = ["simulate", "--backend", "serial", "--games", "48", "--shard-size", "12",
            "--islands", "abc-1", "--out", str(out)]  # fmt: skip
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; "
         "from sim.storage.lock import RunLock\n"
         "with RunLock(Path(sys.argv[1])):\n    print('held', flush=True); time.sleep(60)",
         str(out)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        second = runner.invoke(app, args)
        assert second.exit_code == 2, second.output
        # Refused at once, not after waiting for the lock: its holder still holds it.
        assert holder.poll() is None
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1
        assert "another simulate is writing this run (pid" in lines[0]
        assert str(holder.pid) in lines[0]
        assert not (out / "games").exists()
    finally:
        holder.kill()
        holder.wait()
    # The holder died without a word: its lock does not block.
    assert json.loads((out / LOCK).read_text())["pid"] == holder.pid
    assert runner.invoke(app, args).exit_code == 0


def test_a_run_being_written_is_not_read(tmp_path: Path) -> None:
    out = tmp_path / "r"
    run(resolve(small(out), {}, "test"))
    with RunLock(out):  # as a resumed simulate would hold it
        result = runner.invoke(app, ["verify", str(out)])
        assert result.exit_code == 2
        assert f"{out}: a simulate is writing this run (pid {os.getpid()}" in result.stderr
    assert runner.invoke(app, ["verify", str(out)]).exit_code == 0


def test_the_lock_is_exclusive_within_one_process_too(tmp_path: Path) -> None:
    with (
        RunLock(tmp_path / "r"),
        pytest.raises(InputError, match="another simulate is writing this run"),
    ):
        run(resolve(small(tmp_path / "r"), {}, "test"))
    run(resolve(small(tmp_path / "r"), {}, "test"))  # released: the run goes ahead


def test_verify_and_report_refuse_missing_extra_and_corrupt_parts(tmp_path: Path) -> None:
    good = tmp_path / "good"
    run(resolve(small(good), {}, "test"))
    ok = runner.invoke(app, ["verify", str(good), str(good)])
    assert ok.exit_code == 0, ok.output
    lines = ok.stdout.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"{good}: sound (complete): 48 games")
    assert "sha256 checked" in lines[0]
    manifest = read_manifest(good)
    assert manifest is not None and set(manifest["parts"]) == set(TABLES)

    def broken(name: str) -> Path:
        copy = tmp_path / name
        shutil.copytree(good, copy)
        return copy

    missing = broken("missing")
    (missing / "seats" / "part-000001.parquet").unlink()
    extra = broken("extra")
    (extra / "moves" / "part-000009.parquet").write_bytes(
        (extra / "moves" / "part-000001.parquet").read_bytes()
    )
    corrupt = broken("corrupt")
    part = corrupt / "moves" / "part-000002.parquet"
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 0xFF  # same size, same footer: only the hash can tell
    part.write_bytes(bytes(data))
    cases = [
        (missing, "seats/part-000001.parquet: missing part file"),
        (extra, "moves/part-000009.parquet: extra file, not recorded in the run's manifest"),
        (corrupt, "moves/part-000002.parquet: corrupt part file (its sha256 differs"),
    ]
    for run_dir, message in cases:
        for command in (["verify", str(run_dir)], ["report", str(run_dir), "--format", "json"]):
            result = runner.invoke(app, command)
            assert result.exit_code == 2, (command, result.output)
            assert message in result.stderr, (command, result.stderr)
            assert len(result.stderr.strip().splitlines()) == 1


def test_resume_refuses_a_corrupt_part_and_repairs_once_it_is_deleted(tmp_path: Path) -> None:
    config = resolve(small(tmp_path / "r"), {}, "test")
    run(config)
    clean = fingerprint(tmp_path / "r")
    part = tmp_path / "r" / "seats" / "part-000003.parquet"
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])  # a half-written file
    args = ["simulate", "--backend", "serial", "--games", "48", "--shard-size", "12", "--seed",
            "5", "--islands", "abc-1,ABC-2,generated:3", "--out", str(tmp_path / "r")]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "seats/part-000003.parquet: corrupt part file" in result.stderr
    assert "delete it and run the same command again" in result.stderr
    part.unlink()
    assert runner.invoke(app, args).exit_code == 0
    assert fingerprint(tmp_path / "r") == clean


def test_a_worker_refuses_other_code() -> None:
    mine = code_identity(())
    check_code(mine)  # the same code: nothing to say
    tampered = CodeIdentity(mine.version, "0" * 64, (), "/elsewhere/sim")
    with pytest.raises(RunError) as err:
        check_code(tampered)
    message = str(err.value)
    assert mine.digest[:12] in message and "000000000000" in message
    assert "/elsewhere/sim" in message and "no game of its shard was played" in message
    assert "\n" not in message
    other_version = CodeIdentity("9.9.9", mine.digest)
    with pytest.raises(RunError, match=r"tourney 9\.9\.9"):
        check_code(other_version)


def test_a_plug_in_s_identity_covers_its_bases_and_its_own_helpers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plug-in that subclasses another user module and reads a constant from a helper
    package: editing either changes the identity (only the class's module was hashed)."""
    (tmp_path / "basegreedy.py").write_text(
        "from strategies.tobago.scripted import ScriptedPlayer\n\n"
        "class Base(ScriptedPlayer):\n    pass\n"
    )
    (tmp_path / "helperpkg").mkdir()
    (tmp_path / "helperpkg" / "__init__.py").write_text("from .values import TAKE_AT\n")
    (tmp_path / "helperpkg" / "values.py").write_text("TAKE_AT = 4\n")
    (tmp_path / "wrapped.py").write_text(
        "import json\nimport numpy\nfrom basegreedy import Base\nfrom helperpkg import TAKE_AT\n\n"
        "class Wrapped(Base):\n    take = TAKE_AT\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    wrapped = importlib.import_module("wrapped")
    modules = plugin_modules([wrapped.Wrapped])
    # Its own modules, not the standard library's, numpy's or the hashed packages'.
    assert modules == ("basegreedy", "helperpkg", "helperpkg.values", "wrapped")
    before = code_identity(modules).digest
    (tmp_path / "helperpkg" / "values.py").write_text("TAKE_AT = 2\n")
    code_identity.cache_clear()
    assert code_identity(modules).digest != before
    (tmp_path / "helperpkg" / "values.py").write_text("TAKE_AT = 4\n")
    code_identity.cache_clear()
    assert code_identity(modules).digest == before


def test_a_process_worker_with_other_code_writes_nothing(tmp_path: Path) -> None:
    config = resolve(small(tmp_path / "r", "process"), {}, "test")
    task = ShardTask(LocalStore(tmp_path / "r"), 0, 0, 12, 5, "rotate", config.islands,
                     config.labels, config.factories, config.rules)  # fmt: skip
    tampered = CodeIdentity(code_identity(()).version, "f" * 64)
    with pytest.raises(RunError, match="runs other code"):
        run_process([task], lambda s: None, 1, tampered)
    assert not (tmp_path / "r").exists()  # not a single part of the shard


@pytest.mark.cluster
def test_a_ray_worker_importing_another_checkout_refuses_its_shards(tmp_path: Path) -> None:
    """Ray puts the driver's working directory first on its workers' path: run from a copy of
    the sources with one strategy file edited, every shard is refused (exit 1, one line)."""
    root = Path(__file__).parents[2]
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for name in ("sim", "strategies", "data"):
        shutil.copytree(root / name, checkout / name, ignore=shutil.ignore_patterns("runs"))
    with open(checkout / "strategies" / "tobago" / "scripted.py", "a") as f:
        f.write("\n# an edit in another checkout\n")
    out = tmp_path / "run"
    done = subprocess.run(
        [str(Path(sys.executable).parent / "tourney"), "simulate", "--backend", "ray",
         "--workers", "1", "--games", "8", "--shard-size", "4", "--islands", "abc-1",
         "--out", str(out)],
        cwd=checkout, capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"},
    )  # fmt: skip
    assert done.returncode == 1, done.stderr[-2000:]
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("tourney: error: a worker on ")
    assert f"sim in {checkout / 'sim'}" in line and f"sim in {root / 'sim'}" in line
    assert "Traceback" not in done.stderr
    assert list(out.glob("*/part-*.parquet")) == []
