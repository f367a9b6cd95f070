"""Named streams, and the kept shuffle that a seed block's games reuse."""

from __future__ import annotations

import pytest

from sim.seeding import shuffled, stream

ITEMS = tuple(range(60))


def _fresh(seed: int, name: str, items: tuple[int, ...]) -> tuple[list[int], list[float]]:
    """The order and the next draws of a stream that did the shuffle itself."""
    rng = stream(seed, name)
    order = list(items)
    rng.shuffle(order)
    return order, [rng.random() for _ in range(700)]  # past the Twister's next refill


@pytest.mark.parametrize("items", [ITEMS, tuple(range(2)), tuple(range(1)), (), tuple(range(200))])
def test_a_kept_shuffle_leaves_the_stream_where_the_shuffle_would(items: tuple[int, ...]) -> None:
    expected = _fresh(5, "probe", items)
    for _ in range(3):  # the first call shuffles, the later ones reuse the order
        rng, order = shuffled(5, "probe", items)
        assert (order, [rng.random() for _ in range(700)]) == expected


def test_the_kept_shuffle_is_not_reused_across_seeds_names_or_items() -> None:
    shuffled(1, "a", ITEMS)
    other = tuple(range(60))  # equal, but not the same object: shuffled again
    assert shuffled(2, "a", ITEMS)[1] == _fresh(2, "a", ITEMS)[0]
    assert shuffled(2, "b", ITEMS)[1] == _fresh(2, "b", ITEMS)[0]
    assert shuffled(2, "a", other)[1] == _fresh(2, "a", other)[0]
    _, order = shuffled(2, "a", other)
    order.reverse()  # the caller owns its copy: the kept order is unchanged
    assert shuffled(2, "a", other)[1] == _fresh(2, "a", other)[0]


def test_a_seed_that_is_not_an_int_is_refused_even_after_its_int() -> None:
    shuffled(1, "c", ITEMS)
    with pytest.raises(TypeError):
        shuffled(1.0, "c", ITEMS)  # type: ignore[arg-type]
