"""``--address``: a real two-node Ray cluster started with ``ray start`` on this machine, each
node from its own working directory with its own temporary directories, and a real
S3-compatible server (moto's server mode). The head runs no shards (no CPUs, as on clusters
whose head only coordinates), so every shard is played on the second node, whose directories
are neither the driver's nor the head's: a run written to ``s3://`` from there, and one
written to a directory both nodes share, hold tables identical to the serial backend's;
``verify`` and ``report`` read the ``s3://`` run from the driver."""

from __future__ import annotations

import json
import subprocess
from contextlib import ExitStack
from pathlib import Path

import pytest

from pipelines.experiments.simulate import resolve
from pipelines.metrics.source import open_run
from sim.runner.run import read_manifest, run
from tests.runner.raycluster import BIN, Node, RayCluster, ray_cluster
from tests.runner.s3server import BUCKET, S3Server, s3_server
from tests.runner.test_runs import fingerprint, small

pytestmark = pytest.mark.cluster

#: Seconds one ``tourney`` command may take here (it takes 10 to 30 s on a busy 2-core
#: machine): a hung cluster fails the test instead of the whole CI run.
COMMAND_TIMEOUT = 240


@pytest.fixture(scope="module")
def s3(request: pytest.FixtureRequest) -> S3Server:
    stack = ExitStack()
    request.addfinalizer(stack.close)
    return stack.enter_context(s3_server())


@pytest.fixture(scope="module")
def cluster(s3: S3Server, request: pytest.FixtureRequest) -> RayCluster:
    """A head node with no CPUs and a second node with two, both given the object store's
    endpoint and credentials in their environment, as a cluster's nodes would have them;
    stopped by the finalizer however the tests end (also when a node failed to start)."""
    stack = ExitStack()
    request.addfinalizer(stack.close)
    return stack.enter_context(ray_cluster(cpus=(0, 2), env=s3.env))


def tourney(cluster: RayCluster, cwd: Path, *args: str) -> str:
    """Run ``tourney ARGS`` as a driver of the cluster from ``cwd``; its standard output."""
    done = subprocess.run(
        [str(BIN / "tourney"), *args],
        env=cluster.env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def simulate(cluster: RayCluster, out: str, cwd: Path, *extra: str) -> None:
    tourney(cluster, cwd, "simulate", "--games", "48", "--shard-size", "12", "--seed", "5",
            "--islands", "abc-1,ABC-2,generated:3", "--address", cluster.address, "--out", out,
            *extra)  # fmt: skip


def shard_task_marks(node: Node) -> int:
    """How often the output logs of ``node``'s workers mark a shard task (Ray marks each task
    there, more than once: zero means the node played none)."""
    logs = node.ray_dir.glob("session_*/logs/worker-*.out")
    return sum(p.read_text().count(":task_name:run_packed") for p in logs)


@pytest.fixture(scope="module")
def serial(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[object, ...]]]:
    out = tmp_path_factory.mktemp("serial") / "run"
    run(resolve(small(out), {}, "test"))
    return fingerprint(out)


def test_two_nodes_write_a_run_to_an_object_store(
    cluster: RayCluster, s3: S3Server, serial: dict[str, list[tuple[object, ...]]], tmp_path: Path
) -> None:
    driver = tmp_path / "driver"  # a third working directory: no sim/ on anyone's path
    driver.mkdir()
    location = f"s3://{BUCKET}/cluster/run"
    simulate(cluster, location, driver)
    head, other = cluster.nodes
    assert shard_task_marks(head) == 0 and shard_task_marks(other) > 0
    manifest = read_manifest(location)
    assert manifest is not None and manifest["status"] == "complete"
    assert manifest["executions"][-1]["address"] == cluster.address
    assert fingerprint(open_run(location).path) == serial
    verified = tourney(cluster, driver, "verify", location)
    assert verified.startswith(f"{location}: sound (complete): 48 games in 20 part files")
    tourney(cluster, driver, "report", location, "--format", "json")
    report = json.loads((driver / "data" / "reports" / "run" / "report.json").read_text())
    assert report["games"] == 48 and report["runs"][0]["path"] == location
    # Nothing of the run was left on a node's disk: every part went to the store.
    for node in cluster.nodes:
        assert not list((node.root / "cwd").iterdir())
        assert not list((node.root / "tmp").glob("**/*.parquet"))


def test_two_nodes_write_a_run_to_a_shared_directory(
    cluster: RayCluster, serial: dict[str, list[tuple[object, ...]]], tmp_path: Path
) -> None:
    out = tmp_path / "shared"
    simulate(cluster, str(out), tmp_path, "--shared-out")  # both nodes see this machine's disk
    assert fingerprint(out) == serial
