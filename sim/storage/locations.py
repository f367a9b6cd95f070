"""Run locations: a path, ``file:///ABS`` or ``s3://BUCKET/PREFIX``, to its :class:`RunStore`.

Kept apart from :mod:`sim.storage.store` so that the store base classes import no backend:
this module is the one place that knows every kind of store.
"""

from __future__ import annotations

import re
from pathlib import Path

from sim.errors import InputError
from sim.storage.s3 import S3Store
from sim.storage.store import LocalStore, RunStore

#: ``scheme://`` at the start of a location.
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
SCHEMES = ("s3", "file")


def open_store(location: str | Path | RunStore) -> RunStore:
    """The store of a run location: a :class:`RunStore` as it is, a path, ``file:///ABS``,
    or ``s3://BUCKET/PREFIX`` (configured from the environment, see :mod:`sim.storage.s3`).
    ``InputError`` for another scheme or a malformed URI."""
    if isinstance(location, RunStore):
        return location
    if isinstance(location, Path):
        return LocalStore(location)
    m = _SCHEME.match(location)
    if m is None:
        return LocalStore(Path(location))
    scheme = m.group(1).lower()
    if scheme == "file":
        rest = location[m.end() :]
        if not rest.startswith("/"):
            raise InputError(f"{location}: a file:// URI names an absolute path (file:///...)")
        return LocalStore(Path(rest))
    if scheme == "s3":
        return S3Store.parse(location)
    raise InputError(
        f"{_shown(location)}: the scheme {scheme}:// is not supported (a path, file:///PATH "
        "or s3://BUCKET/PREFIX)"
    )


def is_uri(location: str) -> bool:
    """Whether ``location`` is written as a URI (``scheme://...``) rather than a path."""
    return _SCHEME.match(location) is not None


def _shown(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."
