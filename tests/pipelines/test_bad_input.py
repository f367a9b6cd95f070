"""Bad input to ``simulate`` and ``report``: out-of-range numbers, oversized or non-text island
files, spec values of the wrong type, an unusable ``--out``, a closed or malformed
``--address``, a read-only or full disk. Each is one line on stderr with exit code 2, within
seconds, and quotes nothing from a file it read."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipelines.experiments.simulate import resolve
from sim.runner.run import run
from tests.pipelines.test_data_files import one_line_exit_2
from tests.runner.test_runs import small

runner = CliRunner()
TOURNEY = str(Path(sys.executable).parent / "tourney")
BASE = ["simulate", "--backend", "serial", "--games", "8", "--shard-size", "4",
        "--islands", "abc-1"]  # fmt: skip


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--games", str(10**18)],
         "games = 1000000000000000000 is not allowed (an integer from 1 to 100,000,000)"),
        (["--games", "100000000", "--shard-size", "1"],
         "makes 100,000,000 shards (at most 100,000 allowed: raise shard_size)"),
        (["--shard-size", "1000000"], "shard_size = 1000000 is not allowed (an integer from 1"),
        (["--workers", "100000"], "workers = 100000 is not allowed (an integer from 1 to 256)"),
        (["--workers", "0"], "workers = 0 is not allowed"),
        (["--seed", str(2**64)], "seed = 18446744073709551616 is not allowed (an integer from 0"),
        (["--islands", "generated:100000000"],
         "islands = 'generated:100000000' is not allowed (generated:N with N from 1 to 256)"),
        (["--islands", "generated:" + "9" * 5000], "generated:N with N from 1 to 256"),
        (["--players", ""], "players = '' is not allowed (2 to 4 strategy names, none empty)"),
        (["--players", "hunter,,cautious"], "players = 'hunter,,cautious' is not allowed"),
        (["--address", "not an address", "--backend", "ray"],
         "--address 'not an address' is not allowed (host:port with a port from 1 to 65535"),
        (["--address", "127.0.0.1:99999", "--backend", "ray"], "--address '127.0.0.1:99999'"),
    ],
)  # fmt: skip
def test_numbers_and_names_out_of_range(tmp_path: Path, flags: list[str], message: str) -> None:
    line = one_line_exit_2([*BASE, "--out", str(tmp_path / "r"), *flags])
    assert message in line
    assert not (tmp_path / "r").exists()


def test_turn_caps_out_of_range(tmp_path: Path) -> None:
    for value, allowed in (("0", "from 1 to"), ("2000000", "from 1 to 10000")):
        rules = tmp_path / f"cap{value}.toml"
        rules.write_text(f"max_turns = {value}\n")
        line = one_line_exit_2([*BASE, "--rules", str(rules), "--out", str(tmp_path / "r")])
        assert f"max_turns = {value} is not allowed (an integer {allowed}" in line


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('game = ["tobago"]', "game = ['tobago'] is not allowed (a string)"),
        ("out = 5", "out = 5 is not allowed (a string)"),
        ("address = 5", "address = 5 is not allowed (a string)"),
        ("players = 5", "players = 5 is not allowed (a string or a list of strings)"),
        ("players = []", "players = [] is not allowed (2 to 4 strategy names, none empty)"),
        ('players = ["hunter", 3]', "is not allowed (a string or a list of strings)"),
        ("islands = 5", "islands = 5 is not allowed (a string or a list of strings)"),
        ("rules = 5", "rules = 5 is not allowed (a string)"),
        ("seating = 2", "seating = 2 is not allowed (a string)"),
        ("backend = true", "backend = True is not allowed (a string)"),
        ("ablate = []", "ablate = [] is not allowed (a string)"),
        ("games = '10'", "games = '10' is not allowed (an integer from 1 to 100,000,000)"),
        ("workers = 1.5", "workers = 1.5 is not allowed (an integer from 1 to 256)"),
    ],
)
def test_spec_values_of_the_wrong_type(tmp_path: Path, line: str, message: str) -> None:
    spec = tmp_path / "spec.toml"
    spec.write_text(("" if line.startswith("backend") else 'backend = "serial"\n') + line + "\n")
    out = [] if line.startswith("out") else ["--out", str(tmp_path / "r")]
    assert message in one_line_exit_2(["simulate", str(spec), *out])


def test_an_out_that_is_a_file(tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    line = one_line_exit_2([*BASE, "--out", str(afile)])
    assert line.endswith("afile: exists and is not a directory; use another --out")
    line = one_line_exit_2([*BASE, "--out", str(afile / "run")])
    assert "afile/run: cannot create the run directory (Not a directory)" in line
    assert afile.read_text() == "mine\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_address_where_no_cluster_listens_is_one_line_and_exit_2(tmp_path: Path) -> None:
    address = f"127.0.0.1:{free_port()}"
    line = one_line_exit_2(
        ["simulate", "--games", "8", "--shard-size", "4", "--islands", "abc-1",
         "--address", address, "--out", str(tmp_path / "r"), "--shared-out"],
    )  # fmt: skip
    assert f"--address {address}: no Ray cluster answers there (Connection refused" in line
    assert not (tmp_path / "r").exists()


def mounted(options: str, folder: Path, *command: str) -> subprocess.CompletedProcess[str]:
    """Run ``command`` in a private mount namespace with a tmpfs (``options``) at ``folder``:
    a real read-only or full filesystem, gone when the command ends. Skips where this
    process may not mount (root in a container usually may; chmod does not stop root)."""
    if shutil.which("unshare") is None:
        pytest.skip("no unshare(1) to make a private mount")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip("not allowed to make a private mount namespace (needs root)")
    folder.mkdir(parents=True, exist_ok=True)
    script = 'mount -t tmpfs -o "$1" tmpfs "$2" && shift 2 && exec "$@"'
    return subprocess.run(
        ["unshare", "-m", "sh", "-c", script, "sh", options, str(folder), *command],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


@pytest.fixture(scope="module")
def a_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "r"
    run(resolve(small(out), {}, "test"))
    return out


@pytest.mark.parametrize(
    ("options", "why"), [("ro", "Read-only file system"), ("size=64k", "No space left on device")]
)
def test_report_on_a_read_only_or_full_disk(
    a_run: Path, tmp_path: Path, options: str, why: str
) -> None:
    disk = tmp_path / "disk"
    command = [TOURNEY, "report", str(a_run), "--out", str(disk / "rep"), "--format", "json"]
    done = mounted(options, disk, *command)
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot write the report" in lines[0] and why in lines[0]


@pytest.mark.parametrize(
    ("options", "why"), [("ro", "Read-only file system"), ("size=16k", "No space left on device")]
)
def test_simulate_on_a_read_only_or_full_disk(tmp_path: Path, options: str, why: str) -> None:
    disk = tmp_path / "disk"
    done = mounted(options, disk, TOURNEY, *BASE, "--out", str(disk / "run"))
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and why in lines[0], done.stderr


def test_simulate_on_a_disk_already_full(tmp_path: Path) -> None:
    """No room even for the run's lock file: still one line (the disk is filled first)."""
    disk = tmp_path / "disk"
    # Fill the disk, run the command, then list what the disk holds.
    fill = 'head -c 1048576 /dev/zero > "$0/fill" 2>/dev/null; "$@"; rc=$?; ls -A "$0"; exit $rc'
    command = ["sh", "-c", fill, str(disk), TOURNEY, *BASE, "--out", str(disk / "run")]
    done = mounted("size=16k", disk, *command)
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "No space left on device" in lines[0], done.stderr
    assert "lock file" in lines[0] or "run directory" in lines[0], lines[0]
    assert done.stdout.split() == ["fill"]  # nothing half-written: no run directory, no lock


def test_report_to_a_path_under_a_file(a_run: Path, tmp_path: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("")
    line = one_line_exit_2(["report", str(a_run), "--out", str(afile / "rep"), "--format", "json"])
    assert "cannot write the report (Not a directory)" in line
