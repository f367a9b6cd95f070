"""Reading a user-named data file (island, deck, spec, rules, baseline) safely.

A path on the command line may name anything: a FIFO that blocks forever, ``/dev/zero``,
an 8 MB drawing that would exhaust memory once built, or ``/proc/self/environ``. Every data
file is therefore read here: only regular files, at most ``max_bytes`` (checked while
reading, so a file that grows or lies about its size cannot get past), text only (no NUL
byte, valid UTF-8). Messages name the file and the rule, never the file's contents.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from sim.errors import InputError

#: The default limit: far above any real island, deck, spec or rules file.
MAX_TEXT_BYTES = 1 << 20


def _limit(n: int) -> str:
    return f"{n // 1024:,} KiB" if n % (1 << 20) else f"{n >> 20:,} MiB"


def read_bytes(path: Path, what: str, max_bytes: int = MAX_TEXT_BYTES) -> bytes:
    """The bytes of the regular file ``path``; ``InputError`` for anything else or more than
    ``max_bytes``. ``what`` names the kind of file in messages ("island file", ...)."""
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(f"{path}: {what} not found") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read {what} ({exc.strerror})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError(f"{path}: not a regular file ({what}s must be regular files)")
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, min(1 << 16, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > max_bytes:
                limit = _limit(max_bytes)
                raise InputError(
                    f"{path}: {what} is larger than {limit} (allowed: at most {limit})"
                )
    except OSError as exc:
        raise InputError(f"{path}: cannot read {what} ({exc.strerror})") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def read_text(path: Path, what: str, max_bytes: int = MAX_TEXT_BYTES) -> str:
    """The UTF-8 text of ``path`` (see :func:`read_bytes`); binary files are refused."""
    return decode_text(read_bytes(path, what, max_bytes), path, what)


def decode_text(data: bytes, path: Path, what: str) -> str:
    """``data`` as UTF-8 text; ``InputError`` naming only the offset for binary data."""
    if b"\0" in data:
        raise InputError(f"{path}: not a text file (a NUL byte at offset {data.index(0)})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (invalid byte at offset {exc.start})") from None
