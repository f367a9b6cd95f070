"""Where a run lives: a local directory, or a prefix in an S3-compatible object store.

A run's location is what ``--out`` names: a path (a directory on this machine, or on a
filesystem every node of a cluster mounts at the same path), a ``file://`` URI, or
``s3://BUCKET/PREFIX``. :func:`sim.storage.locations.open_store` turns it into a
:class:`RunStore`, the one thing the runner and the readers use to touch a run's files, named
relative to the run (``manifest.json``, ``games/part-000000.parquet``).

Every write is atomic. Locally a file is written under a temporary dot name and renamed. An
object store has no rename, but it needs none: an object is created whole by one request (a
PUT, or a multipart upload that becomes visible only when it completes), so a reader sees the
old object, the new one or none, never a part of one. Stores are small frozen values that
pickle: shard tasks carry theirs to the workers, which open the same store (an object store's
endpoint and region travel with it; its credentials never do: each process takes them from
its own environment, see :mod:`sim.storage.s3`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, BinaryIO

import pyarrow as pa

MANIFEST = "manifest.json"
#: Bytes read or written at a time when a file is streamed (hashing, copying).
BLOCK = 1 << 20


class HashingWriter:
    """A binary sink that hashes and counts what goes through it to ``inner``: a part's
    record costs no second read."""

    def __init__(self, inner: IO[bytes] | pa.NativeFile) -> None:
        self.inner = inner
        self.digest = hashlib.sha256()
        self.size = 0
        self.closed = False

    def write(self, data: Any) -> int:
        view = memoryview(data)
        self.digest.update(view)
        self.size += view.nbytes
        self.inner.write(view)
        return view.nbytes

    def flush(self) -> None:
        self.inner.flush()

    def tell(self) -> int:
        return self.size

    def close(self) -> None:
        self.closed = True  # the store closes ``inner`` (or abandons it) itself


class RunStore(ABC):
    """A run's location and every operation the runner needs on it. Names are relative to
    the run (``games/part-000000.parquet``); a missing file is never an error of
    :meth:`read_bytes`, :meth:`delete` or :meth:`list_files`."""

    #: Whether the files are on a filesystem of this machine (readable by path).
    local: bool = True

    @property
    @abstractmethod
    def uri(self) -> str:
        """The location as people name it: a path as given, or ``s3://bucket/prefix``."""

    def __str__(self) -> str:
        return self.uri

    @abstractmethod
    def show(self, rel: str) -> str:
        """How messages name the file ``rel`` of the run."""

    @property
    @abstractmethod
    def name(self) -> str:
        """The run's last name component (``demo`` for ``s3://b/runs/demo``)."""

    @abstractmethod
    def sibling(self, name: str) -> RunStore:
        """The location ``name`` next to this one (a twin run's)."""

    @abstractmethod
    def read_bytes(self, rel: str) -> bytes | None:
        """The file's bytes, or None when there is no such file."""

    @abstractmethod
    def write_bytes(self, rel: str, data: bytes | memoryview | pa.Buffer) -> None:
        """Create or replace the file with ``data``, atomically."""

    @abstractmethod
    def exists(self, rel: str) -> bool:
        """Whether the file exists."""

    @abstractmethod
    def list_files(self, folder: str) -> dict[str, int]:
        """The files directly in ``folder`` (dot files left out: temporaries, the lock), by
        name, with their sizes; empty when there is no such folder."""

    @abstractmethod
    def top_entries(self) -> list[str]:
        """The names at the top of the run (dot names left out); empty when it is new."""

    @abstractmethod
    def delete(self, rel: str) -> None:
        """Delete the file if it exists."""

    def delete_many(self, rels: list[str]) -> None:
        """Delete every file of ``rels`` that exists."""
        for rel in rels:
            self.delete(rel)

    @abstractmethod
    def open_input(self, rel: str) -> pa.NativeFile:
        """The file opened for random-access reading (Parquet footers); in an object store,
        the whole object read in one request (parts are read whole)."""

    @abstractmethod
    def fetch(self, rel: str, dest: Path) -> tuple[int, str]:
        """Copy the file to the local path ``dest``; return its size and sha256, taken from
        the bytes written there."""

    @abstractmethod
    def sha256(self, rel: str) -> str:
        """The sha256 of the file's bytes."""

    @abstractmethod
    def staging(self, rel: str) -> Path:
        """A local temporary path to write ``rel`` at before :meth:`upload` puts it in place
        (a dot name beside it locally, so that the move is a rename)."""

    @abstractmethod
    def upload(self, source: Path, rel: str) -> None:
        """Put the complete local file ``source`` (from :meth:`staging`) at ``rel``,
        atomically; ``source`` is gone afterwards."""

    @abstractmethod
    def make_folders(self, folders: tuple[str, ...]) -> None:
        """Create the run and its table folders (a no-op where folders are implicit)."""

    @abstractmethod
    def lock(self) -> contextlib.AbstractContextManager[Any]:
        """The exclusive hold of one ``simulate`` on the run (see :mod:`sim.storage.lock`)."""

    @abstractmethod
    def writer(self) -> str | None:
        """Who holds the run's lock right now (``pid N on HOST since ...``), or None."""

    def check_reachable(self) -> None:  # noqa: B027 (a local path is always reachable)
        """``InputError`` within seconds when the store cannot be used at all (an endpoint
        that does not answer, a missing bucket, credentials it refuses)."""

    def replica(self) -> Path | None:
        """The local directory a reader should read the parts from: the run itself when it is
        local, else None (the caller copies the parts out, checked, see
        :func:`sim.storage.parts.check_parts`)."""
        return None


@dataclass(frozen=True)
class LocalStore(RunStore):
    """A run directory on a filesystem of this machine (or one mounted on every node)."""

    root: Path

    @property
    def uri(self) -> str:
        return str(self.root)

    def show(self, rel: str) -> str:
        return str(self.root / rel)

    @property
    def name(self) -> str:
        return self.root.name

    def sibling(self, name: str) -> LocalStore:
        return LocalStore(self.root.with_name(name))

    def path(self, rel: str) -> Path:
        """The local path of ``rel``."""
        return self.root / rel

    def read_bytes(self, rel: str) -> bytes | None:
        try:
            return (self.root / rel).read_bytes()
        except FileNotFoundError:
            return None

    def write_bytes(self, rel: str, data: bytes | memoryview | pa.Buffer) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as f:
                f.write(memoryview(data))
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)
            raise

    def exists(self, rel: str) -> bool:
        return (self.root / rel).exists()

    def list_files(self, folder: str) -> dict[str, int]:
        try:
            with os.scandir(self.root / folder) as entries:
                return {
                    e.name: e.stat().st_size
                    for e in entries
                    if not e.name.startswith(".") and e.is_file()
                }
        except (FileNotFoundError, NotADirectoryError):
            return {}

    def top_entries(self) -> list[str]:
        try:
            return sorted(p.name for p in self.root.iterdir() if not p.name.startswith("."))
        except FileNotFoundError:
            return []

    def delete(self, rel: str) -> None:
        (self.root / rel).unlink(missing_ok=True)

    def open_input(self, rel: str) -> pa.NativeFile:
        return pa.OSFile(str(self.root / rel), "rb")

    def fetch(self, rel: str, dest: Path) -> tuple[int, str]:
        with open(self.root / rel, "rb") as src, open(dest, "wb") as out:
            sink = HashingWriter(out)
            while block := src.read(BLOCK):
                sink.write(block)
        return sink.size, sink.digest.hexdigest()

    def sha256(self, rel: str) -> str:
        # hashlib reads in large blocks, without the GIL: hashes of many files run side by side
        with open(self.root / rel, "rb") as f:
            return hashlib.file_digest(f, "sha256").hexdigest()

    def upload(self, source: Path, rel: str) -> None:
        os.replace(source, self.root / rel)

    def make_folders(self, folders: tuple[str, ...]) -> None:
        for folder in folders:
            (self.root / folder).mkdir(parents=True, exist_ok=True)

    def lock(self) -> contextlib.AbstractContextManager[Any]:
        from sim.storage.lock import RunLock

        return RunLock(self.root)

    def writer(self) -> str | None:
        from sim.storage.lock import writer_of

        return writer_of(self.root)

    def replica(self) -> Path:
        return self.root

    def staging(self, rel: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def copy_stream(src: BinaryIO | pa.NativeFile, sink: HashingWriter) -> None:
    """Copy everything from ``src`` into ``sink``, a block at a time."""
    while block := src.read(BLOCK):
        sink.write(block)
