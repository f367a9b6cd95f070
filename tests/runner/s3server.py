"""A real S3-compatible server for tests: moto's server mode on a free loopback port, with one
bucket, and the environment that points tourney (pyarrow and boto3) at it."""

from __future__ import annotations

import contextlib
import os
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import boto3
from moto.server import ThreadedMotoServer

BUCKET = "tourney-runs"
#: moto accepts any keys unless told to check them (:func:`S3Server.checking_credentials`).
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"}


@dataclass
class S3Server:
    """A running server: its endpoint and the environment a client needs."""

    endpoint: str

    @property
    def env(self) -> dict[str, str]:
        """The variables that point tourney at this server."""
        return {**CREDENTIALS, "AWS_ENDPOINT_URL": self.endpoint, "AWS_REGION": "us-east-1"}

    def client(self) -> Any:
        """A boto3 client of the server (to look at or tamper with objects)."""
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name="us-east-1",
            aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
        )

    def keys(self, prefix: str) -> list[str]:
        """The keys under ``prefix`` in the bucket, sorted."""
        pages = (
            self.client().get_paginator("list_objects_v2").paginate(Bucket=BUCKET, Prefix=prefix)
        )
        return sorted(o["Key"] for page in pages for o in page.get("Contents", []))

    @contextlib.contextmanager
    def checking_credentials(self) -> Iterator[None]:
        """Within: the server checks credentials, and the test keys are unknown to it."""
        self._auth(b"0")
        try:
            yield
        finally:
            self._auth(b"inf")

    def _auth(self, count: bytes) -> None:
        request = urllib.request.Request(
            f"{self.endpoint}/moto-api/reset-auth",
            data=count,
            method="POST",
            headers={"Content-Type": "text/plain"},
        )
        with urllib.request.urlopen(request, timeout=10) as done:
            done.read()


@contextlib.contextmanager
def s3_server() -> Iterator[S3Server]:
    """Start moto's server with the bucket :data:`BUCKET`, and set this process's
    environment to use it (restored afterwards)."""
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    running = S3Server(f"http://{host}:{port}")
    saved = {k: os.environ.get(k) for k in running.env}
    os.environ.update(running.env)
    try:
        running.client().create_bucket(Bucket=BUCKET)
        yield running
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        server.stop()
