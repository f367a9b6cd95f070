"""The compiled Treasure Island engine (numba): the reference engine's games, many per call.

The reference engine (:mod:`sim.treasure_island.engine`) stays the readable definition;
this package plays the same games with the built-in players that can be compiled and gives
the same ``games`` and ``seats`` rows, value for value (checked by the differential tests).

numba's cache notices an edit to a compiled function's own file only: not to the functions
it calls in the package's other files, nor to the card and character tables it compiles in
as constants. So the cache lives in a folder named by a digest of all of those sources
(:func:`cache_dir`): any edit gives a new folder and a fresh compile, never stale machine
code for a game.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from numba import config as _numba

_HERE = Path(__file__).resolve().parent
#: The sources the compiled code depends on: this package and the reference modules whose
#: tables it reads as constants.
SOURCES = (*sorted(_HERE.glob("*.py")), _HERE.parent / "cards.py", _HERE.parent / "characters.py")


def cache_dir(base: str | None) -> str:
    """Where numba caches the engine: under ``base`` (numba's own setting, else the
    package's ``__pycache__``), in a folder named by the digest of :data:`SOURCES`."""
    digest = hashlib.sha256()
    for path in SOURCES:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return str(Path(base or _HERE / "__pycache__") / f"numba-{digest.hexdigest()[:16]}")


# numba reads its settings from module attributes the stubs do not declare.
_numba.CACHE_DIR = cache_dir(_numba.CACHE_DIR or None)  # type: ignore[attr-defined]
