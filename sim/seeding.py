"""Deterministic seeds: named, independent random streams derived from integer seeds.

A stream is identified by the parent seed plus a path of names (``"landmarks"``,
``("seat", 2)``...). Hashing the path with BLAKE2b makes streams independent of one another
and of the order in which they are created, so adding a stream never shifts another.
"""

from __future__ import annotations

import _random
import hashlib
import math
import random
from typing import Any, TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1


def derive_seed(seed: int, *path: str | int) -> int:
    """A 64-bit seed for the stream ``path`` under ``seed``."""
    data = (seed & _MASK128).to_bytes(16, "little", signed=False)
    for part in path:
        data += b"\x1f" + str(part).encode()
    # One call over the joined bytes: the same digest as feeding them piece by piece.
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little") & _MASK64


def stream(seed: int, *path: str | int) -> Stream:
    """A fresh generator for the stream ``path`` under ``seed``."""
    return Stream(derive_seed(seed, *path))


#: The last shuffle :func:`shuffled` made under each stream name: ``(seed, items, order,
#: the stream's own seed)``.
_last_shuffle: dict[str, tuple[int, tuple[Any, ...], tuple[Any, ...], int]] = {}


def shuffled(
    seed: int, name: str, items: tuple[T, ...], keep: bool = True
) -> tuple[Stream, list[T]]:
    """``stream(seed, name)`` after it has shuffled a copy of ``items``, and that copy.

    A run plays a seed block's games one after the other (the default seating plays the
    block's rotations on the same deal), so the last shuffle under each name is kept: when
    the seed and the items are the same, the order is copied and the fresh stream skips the
    numbers the shuffle drew in one call. Each ``random()`` takes two 32-bit words of the
    Mersenne Twister, and ``getrandbits(64 * k)`` takes the same ``2 * k`` words in the same
    way, so the stream is left in exactly the state the shuffle would have left it in.

    ``keep=False`` (a game with a plug-in seat): nothing is kept, and what was kept is
    dropped, so that no module state holds the deal while a plug-in plays."""
    if not keep:
        _last_shuffle.pop(name, None)
        rng = stream(seed, name)
        order = list(items)
        rng.shuffle(order)
        return rng, order
    last = _last_shuffle.get(name)
    if last is not None and last[0] == seed and type(seed) is int and last[1] is items:
        rng = Stream(last[3])
        if len(items) > 1:
            rng.getrandbits(64 * (len(items) - 1))  # the shuffle's n - 1 draws
        return rng, list(last[2])
    own = derive_seed(seed, name)
    rng = Stream(own)
    order = list(items)
    rng.shuffle(order)
    _last_shuffle[name] = (seed, items, tuple(order), own)
    return rng, order


class Stream(random.Random):
    """A Mersenne Twister whose ``shuffle`` draws with ``random()`` (Fisher-Yates): cheaper
    than the standard library's ``randbelow``-based shuffle, with a negligible bias from the
    53-bit float. Deterministic like the base class."""

    def __init__(self, x: Any = None) -> None:
        if type(x) is not int:  # unpickling (no seed) and other seeds: the base class
            super().__init__(x)
            return
        # What Random.__init__ and Random.seed do for an int seed, without their two Python
        # calls (a game seeds up to eight streams; the C seeding is what remains).
        _random.Random.seed(self, x)
        self.gauss_next = None

    def shuffle(self, x: Any, random: Any = None) -> None:
        rnd = self.random
        floor = math.floor  # equal to int() on these non-negative floats, and faster
        n = len(x)
        # The steps (position, positions to pick from) read from a table for the usual
        # sizes: cheaper than counting them down.
        steps: Any = (
            _STEPS[n] if n < len(_STEPS) else zip(range(n - 1, 0, -1), range(n, 1, -1), strict=True)
        )
        for i, size in steps:
            j = floor(rnd() * size)
            x[i], x[j] = x[j], x[i]


#: ``_STEPS[n]``: the Fisher-Yates steps of a list of ``n``, as (position, its index + 1).
_STEPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((i, i + 1) for i in range(n - 1, 0, -1)) for n in range(128)
)


class LazyStream:
    """Stands in for ``stream(seed, *path)`` and builds it on first use.

    Seeding a Mersenne Twister costs microseconds, most scripted strategies never draw a random
    number, and a game hands one generator to every seat: at thousands of games per second the
    seeding of unused generators is a measurable share. The first attribute looked up builds
    the real stream; methods are then cached on this object, so later calls cost what a plain
    bound method costs. Numbers drawn are exactly those of ``stream(seed, *path)``.
    """

    def __init__(self, seed: int, *path: str | int) -> None:
        self._seed = seed
        self._path = path
        self._stream: Stream | None = None

    def __getattr__(self, name: str) -> Any:
        # Only called for names not found on the object, i.e. before caching.
        if name.startswith("__") or name in ("_seed", "_path", "_stream"):
            raise AttributeError(name)
        if self._stream is None:
            self._stream = stream(self._seed, *self._path)
        value = getattr(self._stream, name)
        if callable(value):
            setattr(self, name, value)
        return value
