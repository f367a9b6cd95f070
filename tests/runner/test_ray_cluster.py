"""``--address``: a real two-node Ray cluster started with ``ray start`` on this machine (a head
node and a second node, one CPU each, each started from its own working directory with its
own temporary directory), and a real S3-compatible server (moto's server mode). A run written
to ``s3://`` by both nodes, and one written to a directory both nodes share, hold tables
identical to the serial backend's; ``verify`` and ``report`` read the ``s3://`` run."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipelines.metrics.source import open_run
from pipelines.simulate import resolve
from sim.runner.run import read_manifest, run
from tests.runner.s3server import BUCKET, S3Server, s3_server
from tests.runner.test_runs import fingerprint, small

BIN = Path(sys.executable).parent
#: The address, the environment of its clients, and each node's own root directory.
Cluster = tuple[str, dict[str, str], list[Path]]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    with s3_server() as server:
        yield server


@pytest.fixture(scope="module")
def cluster(s3: S3Server) -> Iterator[Cluster]:
    """A head node and a second node, each from its own working directory and with its own
    temporary directories (Ray's and the processes' TMPDIR), both given the object store's
    credentials in their environment, as a cluster's nodes would have them."""
    # Token authentication on every node and client, as Ray's security guide recommends.
    env = dict(os.environ, RAY_AUTH_MODE="token", RAY_USAGE_STATS_ENABLED="0", **s3.env)
    ray = str(BIN / "ray")
    port = free_port()
    address = f"127.0.0.1:{port}"
    # Short paths: Ray's unix sockets live under the temporary directory (108 bytes at most).
    roots = [Path(tempfile.mkdtemp(prefix=f"tn{k}-", dir="/tmp")) for k in range(2)]
    for root in roots:
        (root / "cwd").mkdir()
        (root / "tmp").mkdir()
    head = [ray, "start", "--head", f"--port={port}", "--num-cpus=1", "--include-dashboard=false",
            f"--temp-dir={roots[0] / 'ray'}"]  # fmt: skip
    node = [ray, "start", f"--address={address}", "--num-cpus=1", f"--temp-dir={roots[1] / 'ray'}"]
    try:
        for args, root in ((head, roots[0]), (node, roots[1])):
            subprocess.run(
                args,
                env={**env, "TMPDIR": str(root / "tmp")},
                cwd=root / "cwd",
                check=True,
                capture_output=True,
                timeout=120,
            )
        yield address, env, roots
    finally:
        subprocess.run(
            [ray, "stop", "--force"], env=env, capture_output=True, timeout=120, check=False
        )
        for root in roots:
            shutil.rmtree(root, ignore_errors=True)


def simulate(cluster: Cluster, out: str, cwd: Path, *extra: str) -> None:
    address, env, _ = cluster
    args = [str(BIN / "tourney"), "simulate", "--games", "48", "--shard-size", "12", "--seed",
            "5", "--islands", "abc-1,ABC-2,generated:3", "--address", address, "--out", out,
            *extra]  # fmt: skip
    done = subprocess.run(
        args, env=env, cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]


def shards_played_on(root: Path) -> int:
    """How many shard tasks the workers of the node with this root directory ran (Ray marks
    each task in its worker's output log)."""
    logs = (root / "ray").glob("session_*/logs/worker-*.out")
    return sum(p.read_text().count(":task_name:run_packed") for p in logs)


@pytest.fixture(scope="module")
def serial(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[object, ...]]]:
    out = tmp_path_factory.mktemp("serial") / "run"
    run(resolve(small(out), {}, "test"))
    return fingerprint(out)


def test_two_nodes_write_a_run_to_an_object_store(
    cluster: Cluster, s3: S3Server, serial: dict[str, list[tuple[object, ...]]], tmp_path: Path
) -> None:
    driver = tmp_path / "driver"  # a third working directory: no sim/ on anyone's path
    driver.mkdir()
    location = f"s3://{BUCKET}/cluster/run"
    simulate(cluster, location, driver)
    assert all(shards_played_on(root) > 0 for root in cluster[2])  # both nodes played
    manifest = read_manifest(location)
    assert manifest is not None and manifest["status"] == "complete"
    assert manifest["executions"][-1]["address"] == cluster[0]
    assert fingerprint(open_run(location).path) == serial
    env = cluster[1]
    outputs = []
    for command in (["verify", location], ["report", location, "--format", "json"]):
        done = subprocess.run(
            [str(BIN / "tourney"), *command],
            env=env,
            cwd=driver,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        outputs.append(done.stdout)
    assert outputs[0].startswith(f"{location}: sound (complete): 48 games in 20 part files")
    report = json.loads((driver / "data" / "reports" / "run" / "report.json").read_text())
    assert report["games"] == 48 and report["runs"][0]["path"] == location


def test_two_nodes_write_a_run_to_a_shared_directory(
    cluster: Cluster, serial: dict[str, list[tuple[object, ...]]], tmp_path: Path
) -> None:
    out = tmp_path / "shared"
    simulate(cluster, str(out), tmp_path, "--shared-out")  # both nodes see this machine's disk
    assert fingerprint(out) == serial
