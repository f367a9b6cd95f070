"""The lock that keeps two ``simulate`` commands out of one run directory.

A local run directory (or one on a shared filesystem) is locked here; a run in an object store
has a lease object instead (:mod:`sim.storage.object_lock`). The lock is an exclusive ``flock``
on ``<run>/.lock``, taken without waiting: a second command on the same directory is refused at
once, naming the holder (pid, host, since when) that the file records. The kernel drops the
lock when its holder exits, however it exits, so the lock of a dead process never blocks. On a
filesystem without ``flock`` the recorded holder decides instead: a pid that is no longer alive
on this host is a stale lock and is taken over. The file itself stays (deleting it would let
two commands lock two different files of the same name).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import socket
import time
from pathlib import Path
from types import TracebackType

from sim.errors import InputError

LOCK = ".lock"


def _holder(fd: int) -> dict[str, object]:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        obj = json.loads(os.read(fd, 4096) or b"{}")
    except (OSError, ValueError):
        return {}
    return obj if isinstance(obj, dict) else {}


def pid_alive(pid: object) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, owned by someone else
    return True


def describe_holder(holder: dict[str, object]) -> str:
    if not holder:
        return "another process"
    since = holder.get("since")
    when = (
        time.strftime(" since %Y-%m-%d %H:%M:%S", time.localtime(since))
        if isinstance(since, int | float)
        else ""
    )
    return f"pid {holder.get('pid')} on {holder.get('host')}{when}"


class RunLock:
    """``with RunLock(run_dir):`` holds the run directory (creating it) or raises
    ``InputError`` at once if another command holds it."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.fd: int | None = None

    def __enter__(self) -> RunLock:
        run_dir = self.run_dir
        if run_dir.exists() and not run_dir.is_dir():
            raise InputError(f"{run_dir}: exists and is not a directory; use another --out")
        created = not run_dir.exists()
        try:
            run_dir.mkdir(parents=True, exist_ok=True)
            fd = os.open(run_dir / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise InputError(
                f"{run_dir}: cannot create the run directory ({exc.strerror})"
            ) from None
        try:
            self._take(fd)
            me = {"pid": os.getpid(), "host": socket.gethostname(), "since": round(time.time())}
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(me).encode(), 0)
        except OSError as exc:  # a full disk: one line, like every other write of a run
            os.close(fd)
            if created:  # leave nothing behind: the directory was made for this run
                with contextlib.suppress(OSError):
                    (run_dir / LOCK).unlink()
                    run_dir.rmdir()
            raise InputError(
                f"{run_dir / LOCK}: cannot write the run's lock file ({exc.strerror})"
            ) from None
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd
        return self

    def _take(self, fd: int) -> None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            holder = _holder(fd)
        except OSError as exc:
            if exc.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL):
                raise InputError(f"{self.run_dir}: cannot lock the run ({exc.strerror})") from None
            # No flock here: trust the recorded holder unless it is a dead process of this
            # host (a holder on another host cannot be checked, so it is trusted).
            holder = _holder(fd)
            if not holder or (
                holder.get("host") == socket.gethostname() and not pid_alive(holder.get("pid"))
            ):
                return
        raise InputError(
            f"{self.run_dir}: another simulate is writing this run ({describe_holder(holder)}); "
            "wait for it to finish or use another --out"
        )

    def check(self) -> None:
        """Nothing to check: the kernel holds the lock as long as this process lives."""

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, 0)  # no holder recorded: free even without flock
                fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None


def writer_of(run_dir: Path) -> str | None:
    """Who holds ``run_dir``'s lock right now (``pid N on HOST since ...``), or None. A
    probe for readers: it takes a shared lock for an instant, so it never blocks a writer for
    longer than that."""
    try:
        fd = os.open(run_dir / LOCK, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return describe_holder(_holder(fd))
    except OSError:
        return None
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)
