"""A run's ``manifest.json``: reading and writing it, checking its table schema and the code
that played its games, and the environment (library versions, git commit) it records."""

from __future__ import annotations

import json
import platform
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

from sim.errors import InputError
from sim.game_tables import SCHEMA_VERSION
from sim.runner.code_identity import CodeIdentity
from sim.storage.locations import open_store
from sim.storage.store import MANIFEST, RunStore

_LIBRARIES = ("tourney", "ray", "pyarrow", "polars", "duckdb", "numpy")


def library_versions() -> dict[str, str]:
    """The versions of Python and of the libraries that write the tables, for the record."""
    out = {"python": platform.python_version()}
    for lib in _LIBRARIES:
        try:
            out[lib] = metadata.version(lib)
        except metadata.PackageNotFoundError:
            out[lib] = "absent"
    return out


def git_commit() -> str | None:
    """The checkout's commit, when the code runs from one (None otherwise)."""
    here = Path(__file__).resolve().parent
    try:
        done = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def write_manifest(store: RunStore, obj: dict[str, Any]) -> None:
    """Write the manifest (``InputError`` naming it when it cannot be written)."""
    data = (json.dumps(obj, indent=1, sort_keys=True) + "\n").encode()
    try:
        store.write_bytes(MANIFEST, data)
    except OSError as exc:
        raise InputError(
            f"{store.show(MANIFEST)}: cannot write the run's manifest ({exc.strerror})"
        ) from None


def read_manifest(run: Path | str | RunStore) -> dict[str, Any] | None:
    """The run's manifest, or None when the location holds no run."""
    store = open_store(run)
    where = store.show(MANIFEST)
    try:
        data = store.read_bytes(MANIFEST)
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not text"
        raise InputError(f"{where}: not a readable run manifest ({why})") from None
    if data is None:
        return None
    try:
        obj = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise InputError(f"{where}: not a readable run manifest (not JSON)") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("spec"), dict):
        raise InputError(f"{where}: not a run manifest (no 'spec')")
    return obj


def check_schema(run: Path | str | RunStore, manifest: dict[str, Any]) -> None:
    """``InputError`` unless the run was written with this version's table schema."""
    version = manifest.get("schema_version")
    if version != SCHEMA_VERSION:
        raise InputError(
            f"{open_store(run).show(MANIFEST)}: schema_version {version!r} is not supported (this "
            f"tourney writes and reads {SCHEMA_VERSION}); simulate the run again into a new "
            "directory"
        )


def run_code(run: Path | str | RunStore, manifest: dict[str, Any]) -> CodeIdentity | None:
    """The code that played the run's games: the manifest's ``code`` and that of every
    execution that played some; None when nothing records it (a run written before the
    identity was recorded, whose executions were all killed). ``InputError`` when they name
    different code: such a run's tables mix the games of both."""
    found = [manifest["code"]] if isinstance(manifest.get("code"), dict) else []
    found += [
        e["code"]
        for e in manifest.get("executions") or []
        if isinstance(e, dict) and e.get("games_played") and isinstance(e.get("code"), dict)
    ]
    codes = [CodeIdentity.from_json(c) for c in found]
    distinct = sorted({c.short() for c in codes})
    if len(distinct) > 1:
        raise InputError(
            f"{open_store(run).show(MANIFEST)}: its games were played by different code "
            f"({'; '.join(distinct)}), so its tables mix them; simulate the run again into "
            "a new directory"
        )
    return codes[0] if codes else None
