"""A report directory's own files: an edited list of written files deletes nothing of the
user's, and a report is never written into a run's own files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.report.files import WRITTEN

runner = CliRunner()


def _files(where: Path) -> dict[str, bytes]:
    return {
        p.relative_to(where).as_posix(): p.read_bytes() for p in where.rglob("*") if p.is_file()
    }


def test_an_edited_list_deletes_only_files_the_report_wrote(
    small_run: Path, tmp_path: Path
) -> None:
    out = tmp_path / "rep"
    first = runner.invoke(app, ["report", str(small_run), "--out", str(out)])
    assert first.exit_code == 0, first.output
    (out / "notes.md").write_text("mine")
    outside = tmp_path / "outside.txt"
    outside.write_text("mine too")
    (out / "summary.md").write_text("my edits")  # a file the report wrote, edited since
    marker = json.loads((out / WRITTEN).read_text())
    listed = marker["files"]
    assert "index.html" in listed
    # An edited list names the user's files, inside and outside the report directory.
    for rel in ("notes.md", "../outside.txt", str(outside), "tables/../notes.md"):
        if isinstance(listed, dict):
            listed[rel] = listed["index.html"]
        else:  # the list as earlier versions wrote it
            listed.append(rel)
    (out / WRITTEN).write_text(json.dumps(marker))
    again = runner.invoke(app, ["report", str(small_run), "--out", str(out), "--format", "json"])
    assert again.exit_code == 0, again.output
    assert (out / "notes.md").read_text() == "mine" and outside.read_text() == "mine too"
    assert (out / "summary.md").read_text() == "my edits"
    assert not (out / "index.html").exists()  # the report's own stale page is gone
    assert "note: kept notes.md, summary.md: listed by the last report but changed" in (
        again.stderr
    )
    # The list an old version wrote (names without hashes) deletes nothing.
    (out / WRITTEN).write_text(json.dumps({"files": ["notes.md", "report.json"]}))
    md = runner.invoke(app, ["report", str(small_run), "--out", str(out), "--format", "md"])
    assert md.exit_code == 0, md.output
    assert (out / "notes.md").read_text() == "mine" and (out / "report.json").is_file()


def test_a_report_into_a_run_is_refused(small_run: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(small_run, run)
    before = _files(run)
    other = tmp_path / "other"
    shutil.copytree(small_run, other)
    for out in (run, run / "games", run / "seats" / "deeper", other):
        result = runner.invoke(app, ["report", str(run), "--out", str(out)])
        assert result.exit_code == 2, (out, result.output)
        assert result.stderr.startswith(f"tourney: error: --out {out}: is ")
        assert len(result.stderr.strip().splitlines()) == 1
    assert _files(run) == before and not (other / "index.html").exists()
    assert runner.invoke(app, ["verify", str(run)]).exit_code == 0
    # The run's own report folder (the default) and other new folders in it are fine.
    ok = runner.invoke(app, ["report", str(run), "--out", str(run / "study"), "--format", "md"])
    assert ok.exit_code == 0, ok.output
    assert (run / "study" / "summary.md").is_file()
