"""A report directory's own files: where a report may be written, and the list
(``.tourney-report.json``) of what the last report wrote there, with each file's SHA-256.

A report replaces what the previous one wrote and this one does not (a table of a pairing no
longer reported, a replay page, the HTML after a Markdown-only report), but it deletes a
listed file only while it still holds the bytes the report wrote: a file the user edited, or
any file the list names but no report wrote, stays. The list is read as untrusted data, since
anyone can edit it: an entry that leaves the report directory is never followed.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from sim.errors import InputError
from sim.runner.games import GAMES
from sim.storage.store import MANIFEST

#: The file in a report directory listing what the last report wrote there.
WRITTEN = ".tourney-report.json"


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _run_entries(run: Path) -> set[str]:
    """The names in a run directory that belong to the run: its manifest and its tables'
    folders (the game's tables; for a game not installed here, every folder)."""
    try:
        game = json.loads((run / MANIFEST).read_text())["spec"]["game"]
        tables = set(GAMES[game].tables)
    except (OSError, ValueError, KeyError, TypeError):
        tables = {p.name for p in run.iterdir() if p.is_dir()} if run.is_dir() else set()
    return tables | {MANIFEST}


def check_out_dir(out_dir: Path) -> None:
    """``InputError`` for a report directory that is a run directory (it holds a
    ``manifest.json``) or lies in one of a run's tables: the report's ``games/`` pages and
    ``tables/`` would become files the run does not record, and the run would no longer
    verify. A run's ``report/`` (the default) and any other new folder in it are fine."""
    where = out_dir.resolve()
    if (where / MANIFEST).exists():
        raise InputError(
            f"--out {out_dir}: is a run directory (it holds {MANIFEST}); a report there would "
            "mix its files with the run's tables (allowed: a new or report directory, like "
            f"{out_dir / 'report'})"
        )
    for run in where.parents:
        if (run / MANIFEST).is_file():
            first = where.relative_to(run).parts[0]
            if first in _run_entries(run):
                raise InputError(
                    f"--out {out_dir}: is inside the run {run}'s {first!r}, which holds the "
                    f"run's own files (allowed: a directory outside its tables, like "
                    f"{run / 'report'})"
                )
            return


def _listed(marker: Path) -> dict[str, str]:
    """What the last report recorded: relative path -> SHA-256 (nothing for a list without
    hashes, or one that is not a report's)."""
    try:
        files = json.loads(marker.read_text()).get("files", {})
    except (OSError, ValueError, AttributeError):
        return {}
    if not isinstance(files, dict):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)}


def _inside(rel: str) -> bool:
    """Whether a listed name stays in the report directory: relative, no ``..``, no
    drive or backslash tricks."""
    if not rel or "\\" in rel or "\0" in rel:
        return False
    path = PurePosixPath(rel)
    return not path.is_absolute() and ".." not in path.parts and path.parts[:1] != (".",)


def replace_previous(out_dir: Path, written: Iterable[Path]) -> list[str]:
    """Delete what the previous report in ``out_dir`` wrote and this one did not, each file
    only if it still has the SHA-256 recorded when it was written; then record what this one
    wrote. Returns the listed files that were kept because they changed since (or were never
    a report's), by name."""
    marker = out_dir / WRITTEN
    now = {p.relative_to(out_dir).as_posix(): _digest(p) for p in written}
    root = out_dir.resolve()
    kept: list[str] = []
    for rel, digest in sorted(_listed(marker).items()):
        if rel in now or not _inside(rel):
            continue
        path = out_dir / rel
        if path.is_symlink() or not path.resolve().is_relative_to(root) or not path.is_file():
            continue
        if _digest(path) == digest:
            path.unlink()
        else:
            kept.append(rel)
    tmp = marker.with_name(f"{WRITTEN}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"files": dict(sorted(now.items()))}, indent=1) + "\n")
    os.replace(tmp, marker)
    return kept
