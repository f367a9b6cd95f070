"""CPython's ``random.Random`` compiled: the Mersenne Twister and the draws built on it.

Every function here gives exactly what CPython 3.11 gives for a generator seeded with the
same int: ``random.Random(seed)`` seeds by ``init_by_array`` over the seed's 32-bit words
(least significant first, at least one word), ``random()`` takes 53 bits from two words,
``getrandbits(k)`` (k <= 32) the top ``k`` bits of one word, ``_randbelow`` rejects draws of
``getrandbits(n.bit_length())`` until one is below ``n``, and ``randrange(n)``, ``choice``
and ``shuffle`` are built on it as ``random.py`` builds them. :func:`stream_shuffle` is
:class:`sim.seeding.Stream`'s shuffle (Fisher-Yates drawing with ``random()``).

A generator is one row of an int64 array: the 624 words of state, then the index of the
next word (``STATE_SIZE`` ints). The arithmetic is done in int64 and masked to 32 bits (the
products stay below 2**63), so that numba never mixes signed and unsigned integers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from numba import njit

_F = TypeVar("_F", bound=Callable[..., Any])


def inline(function: _F) -> _F:
    """:func:`jit` for a small function called in the game's hot loops, inlined where it is
    called (numba links each function's code apart, so the compiler would not inline it)."""
    compiled: _F = njit(cache=True, _nrt=False, inline="always")(function)  # type: ignore[call-overload]
    return compiled


def jit(function: _F) -> _F:
    """How the compiled engine's functions are compiled: cached, and without numba's
    reference counting of arrays (``_nrt=False``), whose atomic counts on every array
    passed or sliced cost more than the game's own work; so these functions allocate no
    array (their callers hand them the room they need)."""
    compiled: _F = njit(cache=True, _nrt=False)(function)  # type: ignore[call-overload]
    return compiled


_N = 624
_M = 397
_MASK32 = 0xFFFFFFFF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_MATRIX_A = 0x9908B0DF
#: Ints in one generator's row: the state words and the index of the next word.
STATE_SIZE = _N + 1


def _init_genrand(seed: int) -> np.ndarray:
    state = [seed]
    for i in range(1, _N):
        prev = state[-1]
        state.append((1812433253 * (prev ^ (prev >> 30)) + i) & _MASK32)
    return np.array(state, dtype=np.int64)


#: ``init_genrand(19650218)``, where every ``init_by_array`` starts whatever the key.
_GENRAND_19650218 = _init_genrand(19650218)


def new_states(count: int) -> np.ndarray:
    """Rows for ``count`` generators (unseeded)."""
    return np.zeros((count, STATE_SIZE), dtype=np.int64)


@jit
def _init_by_array(state: np.ndarray, low: int, high: int, key_length: int) -> None:
    """CPython's ``init_by_array`` over the key ``low`` (``high`` too when ``key_length`` is
    2), without making the key an array."""
    for i in range(_N):
        state[i] = _GENRAND_19650218[i]
    i = 1
    j = 0
    for _ in range(_N):  # max(N, key length) steps
        prev = state[i - 1]
        word = low if j == 0 else high
        state[i] = ((state[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + word + j) & _MASK32
        i += 1
        j += 1
        if i >= _N:
            state[0] = state[_N - 1]
            i = 1
        if j >= key_length:
            j = 0
    for _ in range(_N - 1):
        prev = state[i - 1]
        state[i] = ((state[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & _MASK32
        i += 1
        if i >= _N:
            state[0] = state[_N - 1]
            i = 1
    state[0] = _UPPER
    state[_N] = _N


@jit
def seed_u64(state: np.ndarray, seed: np.uint64) -> None:
    """``random.Random(seed)`` for a seed in 0..2**64-1: its key is one 32-bit word below
    2**32, else two, least significant first."""
    value = np.int64(seed)  # the same 64 bits; the words are read with masks
    low = int(value & _MASK32)
    high = int((value >> 32) & _MASK32)
    _init_by_array(state, low, high, 2 if high != 0 else 1)


@jit
def _twist(state: np.ndarray) -> None:
    # The reference's three loops (no modulo in the hot path).
    for kk in range(_N - _M):
        y = (state[kk] & _UPPER) | (state[kk + 1] & _LOWER)
        state[kk] = state[kk + _M] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
    for kk in range(_N - _M, _N - 1):
        y = (state[kk] & _UPPER) | (state[kk + 1] & _LOWER)
        state[kk] = state[kk + (_M - _N)] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
    y = (state[_N - 1] & _UPPER) | (state[0] & _LOWER)
    state[_N - 1] = state[_M - 1] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
    state[_N] = 0


@inline
def next_word(state: np.ndarray) -> int:
    """The next 32-bit word (``genrand_uint32``)."""
    if state[_N] >= _N:
        _twist(state)
    y: int = state[state[_N]]
    state[_N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & _MASK32


@inline
def random(state: np.ndarray) -> float:
    """``random.random()``: 53 random bits from two words, in [0, 1)."""
    a = next_word(state) >> 5
    b = next_word(state) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@jit
def getrandbits(state: np.ndarray, k: int) -> int:
    """``random.getrandbits(k)`` for 0 <= k <= 32."""
    if k == 0:
        return 0
    word: int = next_word(state)
    return word >> (32 - k)


@jit
def _bit_length(n: int) -> int:
    length = 0
    while n:
        n >>= 1
        length += 1
    return length


@jit
def randbelow(state: np.ndarray, n: int) -> int:
    """``random._randbelow(n)`` for 1 <= n < 2**32: rejection sampling on getrandbits."""
    k = _bit_length(n)
    r = getrandbits(state, k)
    while r >= n:
        r = getrandbits(state, k)
    return r


@jit
def randrange(state: np.ndarray, n: int) -> int:
    """``random.randrange(n)`` for 1 <= n < 2**32."""
    return randbelow(state, n)


@jit
def choice(state: np.ndarray, items: np.ndarray, size: int) -> int:
    """``random.choice`` of the first ``size`` items (size >= 1)."""
    picked: int = items[randbelow(state, size)]
    return picked


@jit
def shuffle(state: np.ndarray, items: np.ndarray, size: int) -> None:
    """``random.shuffle`` of the first ``size`` items (``_randbelow`` per step)."""
    for i in range(size - 1, 0, -1):
        j = randbelow(state, i + 1)
        items[i], items[j] = items[j], items[i]


@jit
def stream_shuffle(state: np.ndarray, items: np.ndarray, size: int) -> None:
    """:meth:`sim.seeding.Stream.shuffle` of the first ``size`` items (``floor(random() *
    (i + 1))`` per step)."""
    for i in range(size - 1, 0, -1):
        j = int(random(state) * (i + 1))
        items[i], items[j] = items[j], items[i]


@jit
def copy_state(source: np.ndarray, target: np.ndarray) -> None:
    """A generator's state (row) copied into another row."""
    for i in range(STATE_SIZE):
        target[i] = source[i]


#: Keys :func:`seed_many` seeds in one pass at most (its scratch's columns).
LOCKSTEP = 128
#: Rows of :func:`seed_many`'s scratch (uint32): the state words, then each key's two word
#: sums.
SCRATCH_ROWS = _N + 2


@jit
def seed_many(keys: np.ndarray, count: int, scratch: np.ndarray, out: np.ndarray) -> None:
    """``seed_u64(out[k], keys[k])`` for ``k < count``, the keys' seedings run in lockstep:
    one generator's steps form a chain each of which waits for the one before, so step ``i``
    of every key is done before step ``i + 1`` (the inner loop over keys, in uint32 words
    that wrap as the reference's masks do, is one vector operation). ``scratch``:
    ``SCRATCH_ROWS`` rows of ``LOCKSTEP`` uint32 (word ``i`` of key ``k`` at ``[i, k]``);
    ``count <= LOCKSTEP``."""
    add0 = scratch[_N]
    add1 = scratch[_N + 1]
    for k in range(count):
        value = np.int64(keys[k])
        low = value & _MASK32
        high = (value >> 32) & _MASK32
        add0[k] = low  # step t adds key word t % length, plus t % length
        add1[k] = (high + 1) & _MASK32 if high != 0 else low
    for i in range(_N):
        word = np.uint32(_GENRAND_19650218[i])
        row = scratch[i]
        for k in range(count):
            row[k] = word
    i = 1
    for t in range(_N):
        add = add1 if t & 1 else add0
        row, prev = scratch[i], scratch[i - 1]
        for k in range(count):
            p = prev[k]
            row[k] = (row[k] ^ ((p ^ (p >> np.uint32(30))) * np.uint32(1664525))) + add[k]
        i += 1
        if i >= _N:
            _copy_row(scratch, _N - 1, 0, count)
            i = 1
    for _ in range(_N - 1):
        row, prev = scratch[i], scratch[i - 1]
        step = np.uint32(i)
        for k in range(count):
            p = prev[k]
            row[k] = (row[k] ^ ((p ^ (p >> np.uint32(30))) * np.uint32(1566083941))) - step
        i += 1
        if i >= _N:
            _copy_row(scratch, _N - 1, 0, count)
            i = 1
    for k in range(count):
        target = out[k]
        target[0] = _UPPER
        for w in range(1, _N):
            target[w] = scratch[w, k]
        target[_N] = _N


@jit
def _copy_row(scratch: np.ndarray, source: int, target: int, count: int) -> None:
    for k in range(count):
        scratch[target, k] = scratch[source, k]
