"""``Schedule.plan_batch``: the plans of a range of games as columns, the same games as
``Schedule.plan`` one by one."""

from __future__ import annotations

import numpy as np
import pytest

from sim.game import PlanBatch
from sim.runner.schedule import Schedule

SCHEDULES = {
    "3 rotated": Schedule(7, 3, "rotate", ("-",)),
    "4 random, two islands": Schedule(7, 4, "random", ("aBc-2", "xYz-3")),
    "2 rotated": Schedule(2**70 + 5, 2, "rotate", ("-",)),
    "pool of 5 at 2-4 rotated": Schedule(5, 5, "rotate", ("a", "b", "c"), (2, 3, 4)),
    "pool of 5 at 2-4 random": Schedule(5, 5, "random", ("a", "b", "c"), (2, 3, 4)),
    "pool of 6 at 4 rotated": Schedule(9, 6, "rotate", ("x", "x"), (4,)),
}


@pytest.mark.parametrize("name", list(SCHEDULES))
@pytest.mark.parametrize(("first", "count"), [(0, 400), (37, 211), (1001, 1)])
def test_a_batch_is_the_games_planned_one_by_one(name: str, first: int, count: int) -> None:
    schedule = SCHEDULES[name]
    batch = schedule.plan_batch(first, count)
    assert batch.plans() == [schedule.plan(g) for g in range(first, first + count)]
    assert batch.seed.dtype == np.uint64 and len(batch) == count


def test_the_order_is_padded_to_the_widest_table() -> None:
    batch = SCHEDULES["pool of 5 at 2-4 rotated"].plan_batch(0, 200)
    assert batch.order.shape == (200, 4)
    narrow = batch.n_players < 4
    assert narrow.any() and (batch.order[narrow, 3] == -1).all()


def test_plans_make_the_same_batch() -> None:
    plans = SCHEDULES["4 random, two islands"].plan_batch(3, 50).plans()
    assert PlanBatch.of(plans).plans() == plans
    assert PlanBatch.of([]).plans() == []
