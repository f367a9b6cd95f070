"""The compiled generator against CPython's ``random.Random``: the same numbers, shuffles and
choices for the same seeds, and :class:`sim.seeding.Stream`'s shuffle."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sim.seeding import Stream, derive_seed, shuffled
from sim.treasure_island.compiled import rng

#: Seeds of one word and of two, the edges of both, and derived ones.
SEEDS = [0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1] + [derive_seed(7, "t", i) for i in range(60)]


def _state(seed: int) -> np.ndarray:
    state: np.ndarray = rng.new_states(1)[0]
    rng.seed_u64(state, np.uint64(seed))
    return state


@pytest.mark.parametrize("seed", SEEDS)
def test_random_and_getrandbits_match(seed: int) -> None:
    ours, theirs = _state(seed), random.Random(seed)
    # Past the first twist of the state (624 words) more than once.
    assert [rng.random(ours) for _ in range(700)] == [theirs.random() for _ in range(700)]
    for k in (0, 1, 5, 31, 32):
        assert rng.getrandbits(ours, k) == theirs.getrandbits(k)


@pytest.mark.parametrize("seed", SEEDS)
def test_randrange_choice_and_shuffles_match(seed: int) -> None:
    ours, theirs = _state(seed), random.Random(seed)
    for n in (1, 2, 3, 7, 50, 2**31 + 5):
        assert [rng.randrange(ours, n) for _ in range(20)] == [
            theirs.randrange(n) for _ in range(20)
        ]
    items = list(range(9))
    assert rng.choice(ours, np.array(items), 9) == theirs.choice(items)
    for size in (0, 1, 2, 10, 50, 60):
        mine = np.arange(size, dtype=np.int64)
        rng.shuffle(ours, mine, size)
        expected = list(range(size))
        theirs.shuffle(expected)
        assert mine.tolist() == expected
    assert rng.random(ours) == theirs.random()


@pytest.mark.parametrize("seed", SEEDS[:20])
def test_stream_shuffle_matches_the_seeding_stream(seed: int) -> None:
    ours, theirs = _state(seed), Stream(seed)
    for size in (1, 2, 10, 50):
        mine = np.arange(size, dtype=np.int64)
        rng.stream_shuffle(ours, mine, size)
        expected = list(range(size))
        theirs.shuffle(expected)
        assert mine.tolist() == expected
    assert rng.random(ours) == theirs.random()


def test_a_kept_shuffle_leaves_the_stream_where_a_fresh_shuffle_does() -> None:
    items = tuple(range(50))
    first_rng, first = shuffled(11, "compiled-test", items)
    kept_rng, kept = shuffled(11, "compiled-test", items)  # the kept order, the stream skipped
    ours = _state(derive_seed(11, "compiled-test"))
    mine = np.arange(50, dtype=np.int64)
    rng.stream_shuffle(ours, mine, 50)
    assert mine.tolist() == first == kept
    after = [rng.random(ours) for _ in range(5)]
    assert after == [first_rng.random() for _ in range(5)] == [kept_rng.random() for _ in range(5)]


@pytest.mark.parametrize("count", [1, 5, len(SEEDS)])
def test_seeding_in_lockstep_is_seeding_each(count: int) -> None:
    keys = np.array(SEEDS[:count], dtype=np.uint64)
    scratch = np.zeros((rng.SCRATCH_ROWS, rng.LOCKSTEP), dtype=np.uint32)
    out = rng.new_states(count)
    rng.seed_many(keys, count, scratch, out)
    for k, seed in enumerate(SEEDS[:count]):
        assert out[k].tolist() == _state(seed).tolist()
        theirs = random.Random(seed)
        assert [rng.random(out[k]) for _ in range(700)] == [theirs.random() for _ in range(700)]
