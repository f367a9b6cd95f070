"""Runs in an S3-compatible object store: ``s3://BUCKET/PREFIX``, through pyarrow's S3 filesystem.

Settings come from the environment, as the AWS tools read them: ``AWS_ENDPOINT_URL_S3`` or
``AWS_ENDPOINT_URL`` (an S3-compatible server such as MinIO, Ceph or moto; unset: AWS itself),
``AWS_REGION`` or ``AWS_DEFAULT_REGION`` (default ``us-east-1``), and the credentials
``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY`` and ``AWS_SESSION_TOKEN`` (or a profile of
``~/.aws``). A URI carries no settings (a query string or ``user@`` is refused): keys must not
end up in manifests, logs or shell histories. The driver resolves the endpoint and region and
ships them with each shard, so every worker writes to the same store; credentials never
travel: each node takes its own from its environment.

Every failure of the store is one :class:`InputError` line naming the object and the reason
in words (the endpoint does not answer, no such bucket, credentials refused), never pyarrow's
paragraph. Buckets are never created: a missing bucket is a mistake in the URI or the
endpoint. Listings are trusted right after a write (S3 has been strongly consistent since
2020; a store that is not would make a resume play a shard again, never lose one).
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import tempfile
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pyarrow as pa
import pyarrow.fs as pafs

from sim.errors import InputError
from sim.storage.object_lock import CREDENTIALS_HINT, ObjectLock, holder_of
from sim.storage.store import HashingWriter, RunStore, copy_stream

#: Seconds to wait for the endpoint to accept a connection (pyarrow's own default retries a
#: dead endpoint for minutes).
CONNECT_TIMEOUT = 5.0
DEFAULT_REGION = "us-east-1"
_BUCKET = re.compile(r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")
_ENDPOINT = re.compile(r"^(https?)://([A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?/?$")
#: pyarrow's S3 errors read "... AWS Error CODE during OPERATION operation: message".
_AWS_ERROR = re.compile(r"AWS Error (\w+) during (\w+) operation:? ?(.*)", re.DOTALL)
_DENIED = (
    "ACCESS_DENIED",
    "INVALID_ACCESS_KEY_ID",
    "SIGNATURE_DOES_NOT_MATCH",
    "UNRECOGNIZED_CLIENT",
    "INVALID_CLIENT_TOKEN_ID",
    "EXPIRED_TOKEN",
    "MISSING_AUTHENTICATION_TOKEN",
)


@dataclass(frozen=True)
class S3Settings:
    """Where the store is: its endpoint (None: AWS) and region."""

    endpoint: str | None
    region: str

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> S3Settings:
        """The settings the AWS tools would take from ``env`` (default: this process's)."""
        env = os.environ if env is None else env
        name = "AWS_ENDPOINT_URL_S3" if env.get("AWS_ENDPOINT_URL_S3") else "AWS_ENDPOINT_URL"
        endpoint = env.get(name) or None
        if endpoint is not None and not _ENDPOINT.match(endpoint):
            raise InputError(
                f"{name} = {endpoint[:60]!r} is not allowed (http://HOST[:PORT] or "
                "https://HOST[:PORT], nothing after the port)"
            )
        region = env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or DEFAULT_REGION
        return cls(endpoint.rstrip("/") if endpoint else None, region)


_FILESYSTEMS: dict[tuple[str | None, str], pafs.S3FileSystem] = {}


def filesystem(endpoint: str | None, region: str) -> pafs.S3FileSystem:
    """pyarrow's S3 filesystem for the store, one per process (it holds a connection pool);
    credentials from this process's environment."""
    key = (endpoint, region)
    if key not in _FILESYSTEMS:
        options: dict[str, Any] = {}
        if endpoint is not None:
            parts = urlsplit(endpoint)
            options = {"endpoint_override": parts.netloc, "scheme": parts.scheme}
        _FILESYSTEMS[key] = pafs.S3FileSystem(
            region=region,
            connect_timeout=CONNECT_TIMEOUT,
            # One PUT for a small object instead of a multipart upload of one part.
            allow_delayed_open=True,
            retry_strategy=pafs.AwsStandardS3RetryStrategy(max_attempts=3),
            **options,
        )
    return _FILESYSTEMS[key]


def reason(exc: BaseException, bucket: str, endpoint: str | None) -> str:
    """What an S3 error means, in a few words."""
    text = str(exc)
    m = _AWS_ERROR.search(text)
    if m is None:
        return " ".join(text.split())[:200] or type(exc).__name__
    code, message = m.group(1), m.group(3)
    if code in _DENIED or (code == "UNKNOWN" and "403" in message):
        return CREDENTIALS_HINT
    if code == "NO_SUCH_BUCKET":
        return f"no bucket {bucket!r} at {endpoint or 'AWS S3'}"
    if code in ("NETWORK_CONNECTION", "REQUEST_TIMEOUT") or "curlCode" in message:
        return f"the endpoint {endpoint or 'of AWS S3'} does not answer"
    first = re.split(r" \(Request ID|\. |; ", message.strip(), maxsplit=1)[0]
    return f"{code.lower().replace('_', ' ')}: {first[:160]}" if first else code.lower()


@dataclass(frozen=True)
class S3Store(RunStore):
    """A run under ``s3://bucket/prefix``."""

    bucket: str
    prefix: str
    endpoint: str | None
    region: str

    local = False

    @classmethod
    def parse(cls, uri: str, settings: S3Settings | None = None) -> S3Store:
        """The store of ``s3://BUCKET/PREFIX`` with ``settings`` (default: from the
        environment); ``InputError`` for a malformed URI."""
        rest = uri[len("s3://") :]
        # Keys written into a URI are never echoed.
        shown = "s3://***@" + rest.split("@", 1)[1] if "@" in rest.split("/", 1)[0] else uri
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        bucket, _, prefix = rest.partition("/")
        prefix = prefix.rstrip("/")
        if any(c in rest for c in "?#@") or not bucket:
            raise InputError(
                f"{shown}: not allowed (s3://BUCKET/PREFIX with no query or user part: the "
                "endpoint and credentials come from the environment, AWS_ENDPOINT_URL, "
                "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)"
            )
        if not _BUCKET.match(bucket):
            raise InputError(
                f"{shown}: {bucket[:63]!r} is not a bucket name (3 to 63 lower-case letters, "
                "digits, dots and hyphens)"
            )
        parts = prefix.split("/")
        if not prefix or any(p in ("", ".", "..") or p.startswith(".") for p in parts):
            raise InputError(
                f"{shown}: a run needs a prefix of plain names inside the bucket "
                "(s3://BUCKET/runs/NAME: no empty, '.' or '..' parts, none starting with '.')"
            )
        settings = settings or S3Settings.from_env()
        return cls(bucket, prefix, settings.endpoint, settings.region)

    # -- naming ----------------------------------------------------------------------------

    @property
    def uri(self) -> str:
        return f"s3://{self.bucket}/{self.prefix}"

    def show(self, rel: str) -> str:
        return f"{self.uri}/{rel}" if rel else self.uri

    @property
    def name(self) -> str:
        return self.prefix.rsplit("/", 1)[-1]

    def sibling(self, name: str) -> S3Store:
        head, _, _ = self.prefix.rpartition("/")
        return S3Store(self.bucket, f"{head}/{name}" if head else name, self.endpoint, self.region)

    def key(self, rel: str) -> str:
        """The object's key inside the bucket."""
        return f"{self.prefix}/{rel}" if rel else self.prefix

    def _path(self, rel: str) -> str:
        return f"{self.bucket}/{self.key(rel)}"

    @property
    def fs(self) -> pafs.S3FileSystem:
        """pyarrow's filesystem for this store (this process's credentials)."""
        return filesystem(self.endpoint, self.region)

    @contextlib.contextmanager
    def _guard(self, rel: str, doing: str) -> Iterator[None]:
        """Turn any failure of the store into one line naming the object."""
        try:
            yield
        except InputError:
            raise
        except OSError as exc:
            why = reason(exc, self.bucket, self.endpoint)
            raise InputError(f"{self.show(rel)}: cannot {doing} ({why})") from None

    # -- files -----------------------------------------------------------------------------

    def read_bytes(self, rel: str) -> bytes | None:
        with self._guard(rel, "read it"):
            try:
                with self.fs.open_input_stream(self._path(rel)) as f:
                    return bytes(f.read())
            except FileNotFoundError:
                return None

    def write_bytes(self, rel: str, data: bytes | memoryview | pa.Buffer) -> None:
        # One object, written whole: a PUT (or a multipart upload, completed at close) is
        # visible only once it has every byte.
        with self._guard(rel, "write it"), self.fs.open_output_stream(self._path(rel)) as f:
            f.write(data)

    def exists(self, rel: str) -> bool:
        with self._guard(rel, "look it up"):
            return bool(self.fs.get_file_info(self._path(rel)).type == pafs.FileType.File)

    def _listing(self, folder: str) -> list[pafs.FileInfo]:
        selector = pafs.FileSelector(self._path(folder).rstrip("/"), allow_not_found=True)
        with self._guard(folder, "list it"):
            found: list[pafs.FileInfo] = self.fs.get_file_info(selector)
            return found

    def list_files(self, folder: str) -> dict[str, int]:
        return {
            info.base_name: int(info.size)
            for info in self._listing(folder)
            if info.type == pafs.FileType.File and not info.base_name.startswith(".")
        }

    def top_entries(self) -> list[str]:
        return sorted(
            info.base_name for info in self._listing("") if not info.base_name.startswith(".")
        )

    def delete(self, rel: str) -> None:
        with self._guard(rel, "delete it"), contextlib.suppress(FileNotFoundError):
            self.fs.delete_file(self._path(rel))

    def delete_many(self, rels: list[str]) -> None:
        # One request each, side by side: a store's latency, not its work, is the cost.
        with ThreadPoolExecutor(max_workers=16) as pool:
            list(pool.map(self.delete, rels))

    def open_input(self, rel: str) -> pa.NativeFile:
        # One GET of the whole object: a random-access file would first ask for its size (a
        # HEAD), then read the footer and the columns in ranges, each a request.
        with self._guard(rel, "read it"), self.fs.open_input_stream(self._path(rel)) as src:
            return pa.BufferReader(src.readall())

    def fetch(self, rel: str, dest: Path) -> tuple[int, str]:
        with (
            self._guard(rel, "read it"),
            self.fs.open_input_stream(self._path(rel)) as src,
            open(dest, "wb") as out,
        ):
            sink = HashingWriter(out)
            copy_stream(src, sink)
        return sink.size, sink.digest.hexdigest()

    def sha256(self, rel: str) -> str:
        with self._guard(rel, "read it"), self.fs.open_input_stream(self._path(rel)) as src:
            sink = HashingWriter(_Discard())
            copy_stream(src, sink)
        return sink.digest.hexdigest()

    def staging(self, rel: str) -> Path:
        fd, name = tempfile.mkstemp(prefix="tourney-stage-", suffix=".parquet")
        os.close(fd)
        return Path(name)

    def upload(self, source: Path, rel: str) -> None:
        # The file is complete before the upload starts, so what becomes visible is whole.
        try:
            with self._guard(rel, "write it"):
                pafs.copy_files(
                    str(source),
                    self._path(rel),
                    source_filesystem=pafs.LocalFileSystem(),
                    destination_filesystem=self.fs,
                )
        finally:
            source.unlink(missing_ok=True)

    def make_folders(self, folders: tuple[str, ...]) -> None:
        pass  # an object store's folders are the keys' prefixes

    # -- the lock and the checks ---------------------------------------------------------------

    def lock(self) -> contextlib.AbstractContextManager[Any]:
        return ObjectLock(self)

    def writer(self) -> str | None:
        return holder_of(self)

    def check_reachable(self) -> None:
        """The endpoint answers within :data:`CONNECT_TIMEOUT` seconds, the bucket exists and
        the credentials are accepted: otherwise one line, at once."""
        if self.endpoint is not None:
            _check_answers(self.uri, self.endpoint)
        with self._guard("", "use it"):
            info = self.fs.get_file_info(self.bucket)
        if info.type == pafs.FileType.NotFound:
            raise InputError(
                f"{self.uri}: no bucket {self.bucket!r} at {self.endpoint or 'AWS S3'} "
                "(tourney never creates buckets: create it, or check the URI and "
                "AWS_ENDPOINT_URL)"
            )


def _check_answers(uri: str, endpoint: str) -> None:
    """``InputError`` unless an HTTP request to ``endpoint`` gets any answer (an error status
    is an answer) within :data:`CONNECT_TIMEOUT` seconds: pyarrow would retry a closed port
    for seconds and a silent one for longer."""
    parts = urlsplit(endpoint)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    conn = kind(parts.hostname or "", parts.port, timeout=CONNECT_TIMEOUT)
    try:
        conn.request("HEAD", "/")
        conn.getresponse().read()
    except (OSError, http.client.HTTPException) as exc:
        why = (
            f"no answer within {CONNECT_TIMEOUT:g} s"
            if isinstance(exc, TimeoutError)
            else (getattr(exc, "strerror", None) or type(exc).__name__)
        )
        raise InputError(
            f"{uri}: the endpoint {endpoint} does not answer ({why}); check AWS_ENDPOINT_URL"
        ) from None
    finally:
        conn.close()


class _Discard:
    """A sink that keeps nothing (hashing only)."""

    def write(self, data: Any) -> int:
        return len(memoryview(data))

    def flush(self) -> None:
        pass
