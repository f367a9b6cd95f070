"""A real multi-node Ray cluster for tests, started with ``ray start`` on this machine and
always stopped again, by process group, whatever happened in between.

Each node is started from its own working directory with its own temporary directories (Ray's
``--temp-dir`` and the processes' ``TMPDIR``), as nodes of a real cluster share no disk. Every
port a node listens on is chosen free beforehand (Ray's fixed defaults, such as the dashboard
agent's 52365, would clash with any other Ray on the machine),
and every node and client authenticates with a token of this cluster only (nothing is read
from or written to ``~/.ray``).

Stopping never uses ``ray stop``, which stops every Ray process of the user on the machine:
each ``ray start`` runs in a session of its own, so the node's processes (GCS, raylet,
agents, workers) share its process group, and stopping the node signals that group; a
process that left the group is found by the node's root directory in its command line.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

BIN = Path(sys.executable).parent
#: Seconds a ``ray start`` may take (a busy 2-core machine starts a node in 5 to 15 s), and
#: how often a node's start is tried.
START_TIMEOUT = 90.0
START_ATTEMPTS = 2
#: Seconds a stopped node's processes get to exit on SIGTERM before SIGKILL (the workers and
#: agents exit at once; the head's raylet and GCS wait for each other for longer, and a test
#: cluster has nothing to save).
STOP_GRACE = 3.0


def free_ports(count: int) -> list[int]:
    """``count`` distinct loopback ports that nothing listens on right now (all held open at
    once while they are chosen, so none is handed out twice)."""
    held = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            held.append(s)
        return [int(s.getsockname()[1]) for s in held]
    finally:
        for s in held:
            s.close()


@dataclass
class Node:
    """A node: its root directory (``cwd/``, ``tmp/`` and Ray's ``ray/`` inside) and the
    process group of its ``ray start``."""

    root: Path
    group: int | None = None

    @property
    def ray_dir(self) -> Path:
        return self.root / "ray"


@dataclass
class RayCluster:
    """A running cluster: the head's address, the environment its clients need, its nodes."""

    address: str
    env: dict[str, str]
    nodes: list[Node] = field(default_factory=list)


def _node_ports() -> list[str]:
    names = (
        "node-manager-port",
        "object-manager-port",
        "dashboard-agent-listen-port",
        "dashboard-agent-grpc-port",
        "runtime-env-agent-port",
        "metrics-export-port",
    )
    return [f"--{name}={port}" for name, port in zip(names, free_ports(len(names)), strict=True)]


def _start(node: Node, args: list[str], env: dict[str, str]) -> None:
    """Run ``ray start`` for ``node`` in a session of its own and wait for it to return
    (the node is up); its process group is recorded before anything can fail."""
    proc = subprocess.Popen(
        args,
        env={**env, "TMPDIR": str(node.root / "tmp")},
        cwd=node.root / "cwd",
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    node.group = proc.pid
    try:
        output, _ = proc.communicate(timeout=START_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        output, _ = proc.communicate()
        raise RuntimeError(
            f"ray start took over {START_TIMEOUT:g} s: {' '.join(args)}\n{output[-2000:]}"
            f"{_log_tails(node)}"
        ) from None
    if proc.returncode != 0:
        raise RuntimeError(f"ray start failed ({proc.returncode}): {output[-3000:]}")


def _log_tails(node: Node) -> str:
    """The last lines of the node's raylet and GCS logs (why a start hung)."""
    tails = []
    for log in sorted(node.ray_dir.glob("session_*/logs/*")):
        if log.name.startswith(("raylet.", "gcs_server.")) and log.is_file():
            lines = log.read_text(errors="replace").splitlines()[-15:]
            tails.append(f"\n--- {log.name}\n" + "\n".join(lines))
    return "".join(tails)


def _pids_of(node: Node) -> set[int]:
    """This node's live processes: those of its process group, and any whose command line
    names its root directory."""
    found = set()
    marker = str(node.root).encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        pid = int(entry.name)
        try:
            # A zombie has exited already (it waits for init to reap it).
            if (entry / "stat").read_text().rpartition(")")[2].split()[0] == "Z":
                continue
            in_group = node.group is not None and os.getpgid(pid) == node.group
            if in_group or marker in (entry / "cmdline").read_bytes():
                found.add(pid)
        except (ProcessLookupError, FileNotFoundError, PermissionError, IndexError):
            continue
    return found


def _signal(pids: set[int], sig: signal.Signals) -> None:
    for pid in pids:
        with suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def stop(node: Node) -> None:
    """Stop every process of ``node``: SIGTERM, then SIGKILL after :data:`STOP_GRACE` s."""
    pids = _pids_of(node)
    _signal(pids, signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE
    while pids and time.monotonic() < deadline:
        time.sleep(0.2)
        pids = _pids_of(node)
    _signal(pids, signal.SIGKILL)
    shutil.rmtree(node.root, ignore_errors=True)


@contextmanager
def ray_cluster(
    cpus: Sequence[int] = (1, 1), env: dict[str, str] | None = None
) -> Iterator[RayCluster]:
    """Start a head node with ``cpus[0]`` CPUs and one more node per further entry, with
    ``env`` added to every node's environment (an object store's settings, say); stop them
    all on leaving, also when starting one failed."""
    cluster_env = {
        **os.environ,
        **(env or {}),
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": secrets.token_hex(32),
        "RAY_USAGE_STATS_ENABLED": "0",
    }
    cluster_env.pop("RAY_ADDRESS", None)
    with ExitStack() as stack:
        cluster = RayCluster("", cluster_env)
        for k, n in enumerate(cpus):
            cluster.nodes.append(_start_node(stack, cluster, k, n))
        yield cluster


def _start_node(stack: ExitStack, cluster: RayCluster, k: int, cpus: int) -> Node:
    """Start node ``k`` (0: the head, which sets the cluster's address) and register its stop
    with ``stack`` before it starts. A start that fails or hangs is stopped and tried once
    more with fresh ports (a port chosen free can be taken by another program meanwhile)."""
    failure = RuntimeError("no attempt")
    for _ in range(START_ATTEMPTS):
        # Short paths: Ray's unix sockets live under the temporary directory (at most 107
        # bytes).
        node = Node(Path(tempfile.mkdtemp(prefix=f"tn{k}-", dir="/tmp")))
        stack.callback(stop, node)
        for sub in ("cwd", "tmp"):
            (node.root / sub).mkdir()
        common = [
            f"--num-cpus={cpus}",
            "--node-ip-address=127.0.0.1",
            f"--temp-dir={node.ray_dir}",
            "--disable-usage-stats",
            *_node_ports(),
        ]
        ray = str(BIN / "ray")
        if k == 0:
            (port,) = free_ports(1)
            cluster.address = f"127.0.0.1:{port}"
            args = [ray, "start", "--head", f"--port={port}", "--include-dashboard=false",
                    *common]  # fmt: skip
        else:
            args = [ray, "start", f"--address={cluster.address}", *common]
        try:
            _start(node, args, cluster.env)
        except RuntimeError as exc:
            failure = exc
            stop(node)
            continue
        return node
    raise failure
