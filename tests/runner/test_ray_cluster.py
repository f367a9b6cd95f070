"""``--address``: a real two-node Ray cluster started with ``ray start`` on this machine (a head
node and a second node, one CPU each) plays a run identical to the serial backend's."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipelines.simulate import resolve
from sim.runner.run import run
from tests.runner.test_runs import fingerprint, small

BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    # Token authentication on every node and client, as Ray's security guide recommends.
    env = dict(os.environ, RAY_AUTH_MODE="token", RAY_USAGE_STATS_ENABLED="0")
    ray = str(BIN / "ray")
    port = free_port()
    address = f"127.0.0.1:{port}"
    head = [ray, "start", "--head", f"--port={port}", "--num-cpus=1", "--include-dashboard=false"]
    subprocess.run(head, env=env, check=True, capture_output=True, timeout=120)
    try:
        node = [ray, "start", f"--address={address}", "--num-cpus=1"]
        subprocess.run(node, env=env, check=True, capture_output=True, timeout=120)
        yield address, env
    finally:
        subprocess.run(
            [ray, "stop", "--force"], env=env, capture_output=True, timeout=120, check=False
        )


def test_two_node_cluster_by_address(cluster: tuple[str, dict[str, str]], tmp_path: Path) -> None:
    address, env = cluster
    out = tmp_path / "cluster"
    args = [
        str(BIN / "tourney"),
        "simulate",
        "--games",
        "48",
        "--shard-size",
        "12",
        "--seed",
        "5",
        "--islands",
        "abc-1,ABC-2,generated:3",
        "--address",
        address,
        "--out",
        str(out),
    ]
    done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    probe = f"import ray; ray.init(address={address!r}); print(len(ray.nodes()))"
    check = subprocess.run(
        [str(BIN / "python"), "-c", probe],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert check.stdout.strip().endswith("2"), check.stderr[-1000:]
    run(resolve(small(tmp_path / "serial"), {}, "test"))
    assert fingerprint(out) == fingerprint(tmp_path / "serial")
