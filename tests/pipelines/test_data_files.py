"""User-named data files (islands, specs, rules, decks) are read bounded and as text: an
oversized island file is refused while it is read, before anything is built, and a file that
is no island (``/proc/self/environ``, a FIFO, binary data, a secret) is refused in one line
that quotes nothing from it."""

from __future__ import annotations

import os
from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli.main import app

runner = CliRunner()
BASE = ["simulate", "--backend", "serial", "--games", "8", "--shard-size", "4"]


def one_line_exit_2(args: list[str]) -> str:
    """Run ``tourney ARGS``; assert exit 2 with one stderr line; return the line."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2, (args, result.output)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, (args, result.stderr)
    return lines[0]


def test_a_huge_island_file_is_refused_while_reading(tmp_path: Path) -> None:
    row = " ".join("J" * 2000)
    big = tmp_path / "big.island"
    big.write_text("[map]\n" + "\n".join(row if k % 2 == 0 else " " + row for k in range(2000)))
    assert big.stat().st_size > 7_000_000
    line = one_line_exit_2([*BASE, "--islands", str(big), "--out", str(tmp_path / "r")])
    assert line.endswith("big.island: island file is larger than 1 MiB (allowed: at most 1 MiB)")
    # Under the size limit but far over the cell limit: refused before the island is built.
    many = tmp_path / "many.island"
    many.write_text("[map]\n" + "\n".join(row[:3000] if k % 2 == 0 else " " + row[:3000]
                                          for k in range(300)))  # fmt: skip
    line = one_line_exit_2(["board", "show", str(many)])
    assert "many.island: [map]: the island has 450000 cells (at most 400 allowed)" in line


def test_files_that_are_not_islands_are_refused_without_quoting_them(tmp_path: Path) -> None:
    line = one_line_exit_2(["board", "show", "/proc/self/environ"])
    assert line.startswith(
        "tourney: error: /proc/self/environ: not a text file (a NUL byte at offset "
    )
    for name in os.environ:  # today's message quoted the first variable's name
        assert len(name) < 4 or name not in line
    secret = tmp_path / "secret.island"
    secret.write_text("API_TOKEN = hunter2\n")
    line = one_line_exit_2(["board", "show", str(secret)])
    assert "API_TOKEN" not in line and "hunter2" not in line and "line 1: unknown key" in line
    fifo = tmp_path / "pipe.island"
    os.mkfifo(fifo)
    line = one_line_exit_2(["board", "show", str(fifo)])  # never waits for a writer
    assert "pipe.island: not a regular file" in line
    binary = tmp_path / "b.island"
    binary.write_bytes(b"[map]\n\xff\xfe J\n")
    assert "not UTF-8 text (invalid byte at offset 6)" in one_line_exit_2(
        ["board", "show", str(binary)]
    )


def test_a_generated_seed_is_bounded() -> None:
    line = one_line_exit_2(["board", "show", "generated:" + "9" * 5000])
    assert line.endswith("generated:99999999999999999999... (5000 digits): SEED must be at most "
                         "2**64 - 1")  # fmt: skip
