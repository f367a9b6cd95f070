"""The lock of a run in an object store: a lease object ``<run>/.lock`` naming its holder.

An object store has no ``flock``, so the lock is an object created with a conditional PUT
(``If-None-Match: *``): of two commands that try at once exactly one creates it, and the other
is refused at once, naming the holder (pid, host, since when). The holder renews the lease
every :data:`RENEW_SECONDS` (a PUT with ``If-Match`` on its own ETag) and deletes the object
when it ends, however it ends short of being killed. A killed holder leaves its lock behind;
the lock is then stale, and taken over (a PUT with ``If-Match`` on the stale ETag, so that of
two commands taking it over one wins), once

- its holder ran on this host and its pid is no longer alive (a resume on the same machine
  goes ahead at once), or
- it has not been renewed for :data:`LEASE_SECONDS`, measured on the store's clock (the
  object's Last-Modified against the Date of the response), so clocks of different machines
  never matter.

A holder whose renewal fails because another command took the lock over (it had been cut off
from the store for longer than the lease) stops before it writes the manifest again
(:meth:`ObjectLock.check`).

pyarrow cannot send conditional headers, so the lock uses boto3 with the same endpoint,
region and credentials. A store that ignores ``If-None-Match`` (older S3-compatible servers)
is detected when the lock is taken: a second conditional PUT that should fail succeeds. There
the lock is only as good as "look, then write": a second ``simulate`` started while the first
runs is still refused, but two started within the same second may both go ahead. AWS S3 has
honoured conditional writes since 2024, MinIO and Ceph too in their current releases.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
import uuid
from datetime import datetime
from email.utils import parsedate_to_datetime
from types import TracebackType
from typing import Any, Protocol

from sim.errors import InputError, RunError
from sim.storage.lock import describe_holder, pid_alive


class StoreAddress(Protocol):
    """What the lock needs of a run in an object store (:class:`sim.storage.s3.S3Store`); a
    protocol, so that the store module, which takes its lock from here, is not imported back."""

    @property
    def bucket(self) -> str: ...

    @property
    def endpoint(self) -> str | None: ...

    @property
    def region(self) -> str: ...

    @property
    def uri(self) -> str: ...

    def show(self, rel: str) -> str: ...

    def key(self, rel: str) -> str: ...


#: How a refusal for want of rights is explained, for the lock and for the store's requests.
CREDENTIALS_HINT = (
    "access denied: check the credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or "
    "the profile) and that they may use this bucket"
)

LOCK = ".lock"
#: A lock not renewed for this long (on the store's clock) belongs to a dead holder.
LEASE_SECONDS = 60.0
RENEW_SECONDS = 15.0
_HELD = ("PreconditionFailed", "ConditionalRequestConflict")
_UNSUPPORTED = ("NotImplemented", "InvalidArgument", "InvalidRequest")
_DENIED = (
    "AccessDenied",
    "InvalidAccessKeyId",
    "SignatureDoesNotMatch",
    "InvalidToken",
    "ExpiredToken",
    "AuthorizationHeaderMalformed",
)


_CLIENTS: dict[tuple[str | None, str], Any] = {}


def client(store: StoreAddress) -> Any:
    """A boto3 S3 client for the store's endpoint and region, credentials from the
    environment, with short timeouts (a dead endpoint is an error within seconds); one per
    process and store (making one costs a third of a second)."""
    key = (store.endpoint, store.region)
    if key not in _CLIENTS:
        _CLIENTS[key] = _new_client(store)
    return _CLIENTS[key]


def _new_client(store: StoreAddress) -> Any:
    import boto3
    from botocore.config import Config

    config = Config(
        connect_timeout=5,
        read_timeout=30,
        retries={"max_attempts": 2, "mode": "standard"},
        # Path-style requests, as pyarrow makes them: S3-compatible servers need them.
        s3={"addressing_style": "path"} if store.endpoint else {},
    )
    return boto3.session.Session().client(
        "s3", endpoint_url=store.endpoint, region_name=store.region, config=config
    )


def _code(exc: BaseException) -> str:
    response = getattr(exc, "response", None)
    if isinstance(response, dict):
        return str(response.get("Error", {}).get("Code", ""))
    return ""


def _one_line(store: StoreAddress, exc: BaseException) -> InputError:
    """The lock's failure to talk to the store, in a few words."""
    code = _code(exc)
    where = store.show(LOCK)
    if code in _DENIED or code == "403":
        return InputError(f"{where}: cannot take the run's lock ({CREDENTIALS_HINT})")
    if code == "NoSuchBucket":
        return InputError(
            f"{where}: cannot take the run's lock (no bucket {store.bucket!r} at "
            f"{store.endpoint or 'AWS S3'})"
        )
    if type(exc).__name__ in ("NoCredentialsError", "PartialCredentialsError"):
        return InputError(
            f"{where}: no credentials for the store (set AWS_ACCESS_KEY_ID and "
            "AWS_SECRET_ACCESS_KEY, or AWS_PROFILE)"
        )
    if code:
        return InputError(f"{where}: cannot take the run's lock ({code})")
    text = " ".join(str(exc).split())[:160]
    return InputError(f"{where}: cannot take the run's lock ({text})")


def _client_errors() -> tuple[type[BaseException], ...]:
    from botocore.exceptions import BotoCoreError, ClientError

    return (ClientError, BotoCoreError)


class _Lease:
    """What a GET of the lock object found."""

    def __init__(self, holder: dict[str, Any], etag: str, age: float) -> None:
        self.holder = holder
        self.etag = etag
        #: Seconds since the object was last written, on the store's clock.
        self.age = age

    def stale(self) -> bool:
        host, pid = self.holder.get("host"), self.holder.get("pid")
        if host == socket.gethostname() and not pid_alive(pid):
            return True
        lease = self.holder.get("lease_seconds", LEASE_SECONDS)
        return self.age > (lease if isinstance(lease, int | float) else LEASE_SECONDS)


def _read(s3: Any, store: StoreAddress) -> _Lease | None:
    """The lock object, or None when there is none."""
    try:
        got = s3.get_object(Bucket=store.bucket, Key=store.key(LOCK))
    except _client_errors() as exc:
        if _code(exc) in ("NoSuchKey", "404"):
            return None
        raise
    body = got["Body"].read(65536)
    try:
        holder = json.loads(body)
    except ValueError:
        holder = {}
    date = got["ResponseMetadata"].get("HTTPHeaders", {}).get("date")
    modified: datetime = got["LastModified"]
    now = parsedate_to_datetime(date) if date else datetime.now(modified.tzinfo)
    age = (now - modified).total_seconds()
    return _Lease(holder if isinstance(holder, dict) else {}, got["ETag"], age)


def holder_of(store: StoreAddress) -> str | None:
    """Who holds the run's lock right now, or None (no lock, or a stale one)."""
    s3 = client(store)
    try:
        lease = _read(s3, store)
    except _client_errors() as exc:
        raise _one_line(store, exc) from None
    if lease is None or lease.stale():
        return None
    return describe_holder(lease.holder)


class ObjectLock:
    """``with ObjectLock(store):`` holds the run (a lease, renewed in a thread) or raises
    ``InputError`` at once if another command holds it."""

    def __init__(self, store: StoreAddress) -> None:
        self.store = store
        self.s3: Any = None
        self.etag: str | None = None
        self.body = b""
        #: Why the lease was lost, once it was.
        self.lost: str | None = None
        #: False on a store that ignores conditional writes (see the module's docstring).
        self.conditional = True
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _put(self, **condition: str) -> str:
        done = self.s3.put_object(
            Bucket=self.store.bucket, Key=self.store.key(LOCK), Body=self.body, **condition
        )
        return str(done["ETag"])

    def __enter__(self) -> ObjectLock:
        self.s3 = client(self.store)
        me = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "since": round(time.time()),
            "token": uuid.uuid4().hex,
            "lease_seconds": LEASE_SECONDS,
        }
        self.body = json.dumps(me).encode()
        try:
            self._take()
        except _client_errors() as exc:
            raise _one_line(self.store, exc) from None
        self._thread = threading.Thread(target=self._renew, name="tourney-lease", daemon=True)
        self._thread.start()
        return self

    def _take(self) -> None:
        # Look first: on a store that ignores If-None-Match this is all that keeps a second
        # command out.
        found = _read(self.s3, self.store)
        if found is not None:
            self._take_over(found)
            return
        try:
            self.etag = self._put(IfNoneMatch="*")
        except _client_errors() as exc:
            code = _code(exc)
            if code in _HELD:
                again = _read(self.s3, self.store)
                if again is None:
                    raise self._refused({}) from None
                self._take_over(again)
                return
            if code not in _UNSUPPORTED:
                raise
            self.conditional = False
            self.etag = self._put()
            return
        # A store that honours If-None-Match refuses this second create.
        try:
            self.etag = self._put(IfNoneMatch="*")
            self.conditional = False
        except _client_errors() as exc:
            if _code(exc) not in _HELD:
                raise

    def _take_over(self, found: _Lease) -> None:
        if not found.stale():
            raise self._refused(found.holder)
        try:
            self.etag = self._put(IfMatch=found.etag)
        except _client_errors() as exc:
            if _code(exc) in (*_HELD, "NoSuchKey", "404"):
                again = _read(self.s3, self.store)
                raise self._refused(again.holder if again else {}) from None
            if _code(exc) not in _UNSUPPORTED:
                raise
            self.conditional = False
            self.etag = self._put()

    def _refused(self, holder: dict[str, Any]) -> InputError:
        return InputError(
            f"{self.store.uri}: another simulate is writing this run "
            f"({describe_holder(holder)}); wait for it to finish or use another --out (a lock "
            f"not renewed for {LEASE_SECONDS:g} s is taken over)"
        )

    def _renew(self) -> None:
        while not self._stop.wait(RENEW_SECONDS):
            try:
                condition = {"IfMatch": self.etag} if self.conditional and self.etag else {}
                self.etag = self._put(**condition)
            except _client_errors() as exc:
                if _code(exc) in (*_HELD, "NoSuchKey", "404"):
                    self.lost = "another command took over the run's lock"
                    return
                # A passing network fault: the next renewal tries again, well within the lease.

    def check(self) -> None:
        """``RunError`` once the lease was lost: nothing more may be written."""
        if self.lost is not None:
            raise RunError(
                f"{self.store.uri}: {self.lost} (this simulate could not renew it for "
                f"{LEASE_SECONDS:g} s); it stops here: run the same command again once the "
                "other has finished"
            )

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.lost is None and self.etag is not None:
            with contextlib.suppress(*_client_errors()):
                condition = {"IfMatch": self.etag} if self.conditional else {}
                try:
                    self.s3.delete_object(
                        Bucket=self.store.bucket, Key=self.store.key(LOCK), **condition
                    )
                except _client_errors() as exc:
                    if _code(exc) in _UNSUPPORTED:
                        self.s3.delete_object(Bucket=self.store.bucket, Key=self.store.key(LOCK))
        self.etag = None
