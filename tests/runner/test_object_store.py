"""Runs in an S3-compatible object store (moto's server, real HTTP, real Parquet): the same
tables as a local run from any backend, compaction, resume, the lease lock, verify, report,
``play --run`` and the notebook API reading ``s3://``, the rules for ``--out`` with
``--address``, and one-line errors for an endpoint that does not answer, a missing bucket and
refused credentials."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments.simulate import resolve
from pipelines.metrics.source import open_run
from pipelines.report.assemble import default_out
from sim.errors import InputError, RunError
from sim.runner.run import read_manifest, run
from sim.runner.shard import ShardTask, run_shard
from sim.storage import object_lock
from sim.storage.locations import open_store
from sim.storage.object_lock import LOCK, ObjectLock
from sim.storage.s3 import S3Store
from sim.storage.store import LocalStore
from tests.runner.s3server import BUCKET, S3Server, s3_server
from tests.runner.test_runs import TABLES, fingerprint, small
from tourney import api

pytestmark = pytest.mark.cluster

runner = CliRunner()
Rows = dict[str, list[tuple[object, ...]]]


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    with s3_server() as server:
        yield server


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Rows:
    """The tables of a local serial run of 96 games in 24 shards (compacted into pairs)."""
    out = tmp_path_factory.mktemp("ref") / "run"
    run(resolve(small(out, games=96, shard_size=4), {}, "test"))
    return fingerprint(out)


def uri(name: str) -> str:
    return f"s3://{BUCKET}/{name}"


def s3_fingerprint(location: str) -> Rows:
    """Every table's rows, read from the run's checked local copy."""
    return fingerprint(open_run(location).path)


def one_line_exit_2(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_runs_in_an_object_store_equal_a_local_run(
    s3: S3Server, reference: Rows, tmp_path: Path
) -> None:
    for backend in ("serial", "process"):
        location = uri(f"same/{backend}")
        report = run(resolve(small(location, backend, games=96, shard_size=4), {}, "test"))
        assert report.complete and report.shards_played == 24
        assert s3_fingerprint(location) == reference
        manifest = read_manifest(location)
        assert manifest is not None and manifest["status"] == "complete"
        # Compacted in the store: 12 files of two shards per table, nothing else left.
        assert manifest["files"] == dict.fromkeys(TABLES, 12)
        recorded = {f"same/{backend}/{t}/{e['file']}" for t in TABLES for e in manifest["parts"][t]}
        # (pyarrow leaves empty "folder/" marker objects where it deleted files: not parts)
        objects = {k for k in s3.keys(f"same/{backend}/") if not k.endswith("/")}
        assert objects == recorded | {f"same/{backend}/manifest.json"}
    verified = runner.invoke(app, ["verify", uri("same/serial"), uri("same/process")])
    assert verified.exit_code == 0, verified.output
    lines = verified.stdout.strip().splitlines()
    assert lines[0].startswith(f"{uri('same/serial')}: sound (complete): 96 games in 60 part")
    reported = runner.invoke(
        app, ["report", uri("same/serial"), "--out", str(tmp_path / "rep"), "--format", "json"]
    )
    assert reported.exit_code == 0, reported.output
    doc = json.loads((tmp_path / "rep" / "report.json").read_text())
    assert doc["games"] == 96
    assert [r["path"] for r in doc["runs"]] == [uri("same/serial")]
    assert default_out(open_run(uri("same/serial"))) == Path("data/reports/serial")


def test_a_resume_in_the_object_store_repairs_and_refuses_like_a_local_one(
    s3: S3Server, reference: Rows
) -> None:
    location = uri("resume/r")
    config = resolve(small(location, games=96, shard_size=4), {}, "test")
    run(config)
    client = s3.client()
    client.delete_object(Bucket=BUCKET, Key="resume/r/games/part-000004-000005.parquet")
    # An object nobody recorded, as a worker whose shard the driver never heard of leaves.
    body = client.get_object(Bucket=BUCKET, Key="resume/r/moves/part-000006-000007.parquet")
    client.put_object(
        Bucket=BUCKET, Key="resume/r/moves/part-000007.parquet", Body=body["Body"].read()
    )
    report = run(config)
    assert report.shards_played == 2  # 4 and 5; the unrecorded object is deleted
    assert any("games/part-000004-000005.parquet: missing" in n for n in report.notes)
    assert any(n.startswith(uri("resume/r/moves/part-000007.parquet")) for n in report.notes)
    assert s3_fingerprint(location) == reference

    key = "resume/r/seats/part-000002-000003.parquet"
    data = bytearray(client.get_object(Bucket=BUCKET, Key=key)["Body"].read())
    # A byte of the column data, before the footer (its length is in the last 8 bytes): same
    # size, same footer, so only the hash can tell.
    footer = int.from_bytes(data[-8:-4], "little")
    data[(len(data) - 8 - footer) // 2] ^= 0xFF
    client.put_object(Bucket=BUCKET, Key=key, Body=bytes(data))
    with pytest.raises(InputError, match="corrupt part file \\(its sha256 differs"):
        run(config)
    line = one_line_exit_2(["verify", location])
    assert f"{uri(key)}: corrupt part file (its sha256 differs" in line
    client.delete_object(Bucket=BUCKET, Key=key)
    assert run(config).shards_played == 2
    assert s3_fingerprint(location) == reference


def test_a_run_in_the_store_replays_its_games_and_opens_in_a_notebook(
    s3: S3Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    location = uri("replay/r")
    run(resolve(small(location), {}, "test"))
    played = runner.invoke(app, ["play", "--run", location, "--game-id", "30"])
    assert played.exit_code == 0, played.output
    assert f"replayed game 30 of {location}: its " in played.stdout
    monkeypatch.chdir(tmp_path)
    paged = runner.invoke(app, ["replay", "--run", location, "--game-id", "30"])
    assert paged.exit_code == 0, paged.output
    assert (tmp_path / "r-game30.html").is_file()  # named after the run, as for a directory
    opened = api.open_run(location)
    assert opened.where == location and opened.path.is_dir()  # the checked local copy
    assert opened.frame("games").collect().height == 48
    assert opened.sql("SELECT count(*) FROM seats_all").fetchall() == [(48 * 4,)]
    assert api.replay(opened, 7).result == api.replay(location, 7).result


def lock_body(pid: int, host: str, lease: float = 60.0) -> bytes:
    since = round(time.time())
    return json.dumps({"pid": pid, "host": host, "since": since, "lease_seconds": lease}).encode()


def dead_pid() -> int:
    pid = 4_000_000
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            pass
        pid -= 1


def test_the_lease_lock_keeps_one_writer_and_frees_a_dead_ones_run(s3: S3Server) -> None:
    location = uri("lock/r")
    config = resolve(small(location), {}, "test")
    store = open_store(location)
    assert isinstance(store, S3Store)
    assert run(config).complete
    with ObjectLock(store) as held:
        assert held.conditional  # moto honours If-None-Match, as AWS S3 does
        with pytest.raises(
            InputError, match=f"another simulate is writing this run \\(pid {os.getpid()} on "
        ):
            run(config)
        with pytest.raises(InputError, match="another simulate is writing this run"):
            ObjectLock(store).__enter__()
        line = one_line_exit_2(["verify", location])
        assert "a simulate is writing this run (pid" in line
    assert f"lock/r/{LOCK}" not in s3.keys("lock/r/")
    client = s3.client()
    # A holder of this host that died without a word: its lock is taken over at once.
    client.put_object(
        Bucket=BUCKET, Key=f"lock/r/{LOCK}", Body=lock_body(dead_pid(), socket.gethostname())
    )
    assert run(config).shards_played == 0
    # A holder elsewhere: refused while its lease runs, taken over once it has lapsed.
    client.put_object(Bucket=BUCKET, Key=f"lock/r/{LOCK}", Body=lock_body(1, "elsewhere", 1.0))
    line = one_line_exit_2(["simulate", *cli_args(location)])
    assert "another simulate is writing this run (pid 1 on elsewhere since" in line
    time.sleep(2.5)
    assert run(config).shards_played == 0
    assert f"lock/r/{LOCK}" not in s3.keys("lock/r/")


def test_a_holder_whose_lease_was_taken_over_stops_writing(
    s3: S3Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(object_lock, "RENEW_SECONDS", 0.2)
    store = open_store(uri("lost/r"))
    assert isinstance(store, S3Store)
    with ObjectLock(store) as held:
        s3.client().put_object(Bucket=BUCKET, Key=f"lost/r/{LOCK}", Body=lock_body(1, "elsewhere"))
        deadline = time.monotonic() + 10
        while held.lost is None and time.monotonic() < deadline:
            time.sleep(0.1)
        with pytest.raises(RunError, match="another command took over the run's lock"):
            held.check()
    # The lock is the other holder's: leaving does not delete it.
    assert f"lost/r/{LOCK}" in s3.keys("lost/r/")


def cli_args(out: str) -> list[str]:
    return ["--backend", "serial", "--games", "8", "--shard-size", "4", "--islands", "abc-1",
            "--out", out]  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_store_that_cannot_be_used_is_one_line_without_retrying_for_minutes(
    s3: S3Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    line = one_line_exit_2(["simulate", *cli_args("s3://no-such-bucket/r")])
    assert "s3://no-such-bucket/r: no bucket 'no-such-bucket' at http://127.0.0.1:" in line
    run(resolve(small(uri("creds/r")), {}, "test"))
    with s3.checking_credentials():
        for args in (["simulate", *cli_args(uri("creds/other"))], ["verify", uri("creds/r")]):
            line = one_line_exit_2(args)
            assert "access denied: check the credentials (AWS_ACCESS_KEY_ID" in line, line
    closed = f"http://127.0.0.1:{free_port()}"
    monkeypatch.setenv("AWS_ENDPOINT_URL", closed)
    for args in (
        ["simulate", *cli_args(uri("x/r"))],
        ["verify", uri("creds/r")],
        ["report", uri("creds/r")],
    ):
        line = one_line_exit_2(args)
        assert f"the endpoint {closed} does not answer (Connection refused)" in line, line
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        monkeypatch.setenv("AWS_ENDPOINT_URL", f"http://127.0.0.1:{silent.getsockname()[1]}")
        line = one_line_exit_2(["verify", uri("creds/r")])
        assert "does not answer (no answer within 5 s); check AWS_ENDPOINT_URL" in line
        # It gave up, rather than retrying a silent endpoint: the connections it opened.
        silent.setblocking(False)
        attempts = 0
        with contextlib.suppress(BlockingIOError):
            while True:
                silent.accept()[0].close()
                attempts += 1
        assert 1 <= attempts <= 3, attempts
    monkeypatch.setenv("AWS_ENDPOINT_URL", "127.0.0.1:9000")
    line = one_line_exit_2(["verify", uri("creds/r")])
    assert "AWS_ENDPOINT_URL = '127.0.0.1:9000' is not allowed (http://HOST[:PORT]" in line


@pytest.mark.parametrize(
    ("out", "message"),
    [
        ("s3://Bad_Bucket/r", "'Bad_Bucket' is not a bucket name"),
        ("s3://tourney-runs", "a run needs a prefix of plain names inside the bucket"),
        ("s3://tourney-runs/a//b", "a run needs a prefix of plain names"),
        ("s3://key:secret@tourney-runs/r", "no query or user part"),
        ("s3://tourney-runs/r?endpoint_override=x", "no query or user part"),
        ("gs://bucket/r", "the scheme gs:// is not supported"),
        ("file://relative/r", "a file:// URI names an absolute path"),
    ],
)
def test_malformed_locations_are_refused(out: str, message: str) -> None:
    line = one_line_exit_2(["simulate", *cli_args(out)])
    assert message in line
    assert "secret" not in line  # keys in a URI are never echoed


def test_joining_a_cluster_needs_an_output_every_node_reaches(s3: S3Server, tmp_path: Path) -> None:
    address = f"127.0.0.1:{free_port()}"  # nothing listens: reached only once out is fine
    base = ["simulate", "--games", "8", "--shard-size", "4", "--islands", "abc-1",
            "--address", address]  # fmt: skip
    line = one_line_exit_2([*base, "--out", "runs/x"])
    assert (
        "out = 'runs/x' is a relative path, but with --address the workers on other nodes" in line
    )
    line = one_line_exit_2([*base])  # the default, data/runs/<id>, is relative too
    assert "is a relative path, but with --address" in line
    line = one_line_exit_2([*base, "--out", str(tmp_path / "r")])
    assert "is a path on this machine, but with --address" in line and "--shared-out" in line
    for out in ([str(tmp_path / "r"), "--shared-out"], [uri("cluster/r")]):
        line = one_line_exit_2([*base, "--out", *out])
        assert f"--address {address}: no Ray cluster answers there" in line
    assert not (tmp_path / "r").exists()


def test_shared_out_is_a_boolean() -> None:
    with pytest.raises(InputError, match=r"spec\.toml: shared_out = 'yes' is not allowed"):
        resolve({"shared_out": "yes"}, {}, "spec.toml")


def test_a_worker_that_does_not_see_the_run_refuses_its_shard(tmp_path: Path) -> None:
    config = resolve(small(tmp_path / "r"), {}, "test")
    task = ShardTask(LocalStore(tmp_path / "elsewhere"), 0, 0, 12, 5, "rotate", config.islands,
                     config.labels, config.factories, config.rules)  # fmt: skip
    with pytest.raises(InputError, match=r"not found by a worker on .*every node must reach"):
        run_shard(task)
    assert not (tmp_path / "elsewhere").exists()


def test_a_run_in_the_store_grows_without_touching_its_parts(s3: S3Server, reference: Rows) -> None:
    location = uri("grown")
    run(resolve(small(location, games=68, shard_size=4), {}, "test"))  # 17 shards, compacted
    before = read_manifest(location)
    assert before is not None
    grown = run(resolve(small(location, games=96, shard_size=4), {}, "test"))
    assert grown.games_played == 28 and grown.complete
    after = read_manifest(location)
    assert after is not None and after["extents"] == [68, 96]
    for table in TABLES:
        assert all(part in after["parts"][table] for part in before["parts"][table])
    assert s3_fingerprint(location) == reference
