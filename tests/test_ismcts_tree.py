"""The SO-ISMCTS tree on hand-made decision problems: UCB1 with availability counts (visit
counts worked out by hand, and a choice that the parent's visit count would get wrong), the
recommendation, the backup by seat and the reward."""

from __future__ import annotations

import math
import random

import pytest

from strategies.ismcts_tree import Node, Walk, most_visited, rewards_of, select


class FirstUntried(random.Random):
    """A generator whose draws are all 0: among untried actions the first is taken."""

    def random(self) -> float:
        return 0.0


#: The hand-made problem: one decision of one seat, rewards fixed per action; ``x`` is legal
#: only at even iterations (as another seat's card in some deals only).
REWARD = {"a": 0.0, "b": 1.0, "x": 0.5}


def _iterate(root: Node, iteration: int, c: float) -> str:
    keys = ["a", "b", "x"] if iteration % 2 == 0 else ["a", "b"]
    walk = Walk(root, c, FirstUntried())
    key = keys[walk.choose(0, keys)]
    walk.backup([REWARD[key]])
    return key


def test_ucb_counts_each_child_by_its_availability() -> None:
    root = Node()
    chosen = [_iterate(root, i, c=1.0) for i in range(1, 7)]
    # By hand (c = 1; availability a, visits n, mean m; score m + sqrt(ln a / n)):
    # 1: a, b untried -> a.  2: b, x untried -> b.  3: a 0 + sqrt(ln 3) = 1.05,
    # b 1 + sqrt(ln 3) = 2.05 -> b.  4: x untried -> x.  5: a sqrt(ln 5) = 1.27,
    # b 1 + sqrt(ln 5 / 2) = 1.90 -> b.  6: a sqrt(ln 6) = 1.34, b 1 + sqrt(ln 6 / 3) = 1.77,
    # x 0.5 + sqrt(ln 3) = 1.55 -> b. With the parent's 6 visits in place of x's availability
    # of 3, x would score 0.5 + sqrt(ln 6) = 1.84 and be chosen over b.
    assert chosen == ["a", "b", "b", "x", "b", "b"]
    edges = root.edges
    assert {k: (e.visits, e.avail) for k, e in edges.items()} == {
        "a": (1, 6),
        "b": (4, 6),
        "x": (1, 3),
    }
    assert edges["b"].total == 4.0 and edges["x"].mean == 0.5
    assert 0.5 + math.sqrt(math.log(6)) > 1 + math.sqrt(math.log(6) / 3)  # the trap above
    assert most_visited(root, ["a", "b", "x"]) == 1
    assert most_visited(root, ["a", "x"]) == 1  # a tie of visits: the better mean
    assert most_visited(root, ["y"]) is None


def test_an_untried_action_is_drawn_uniformly_from_the_generator() -> None:
    picks = {select(Node(), ["a", "b", "c"], 0.7, random.Random(s))[0] for s in range(40)}
    assert picks == {0, 1, 2}
    index, expanded = select(Node(), ["a"], 0.7, random.Random(0))
    assert (index, expanded) == (0, True)


def test_a_walk_leaves_the_tree_after_its_expansion_and_credits_each_seat() -> None:
    root = Node()
    first = Walk(root, 0.7, FirstUntried())
    assert first.choose(0, ["a"]) == 0 and first.done  # new: the rollout policy takes over
    first.backup([1.0, 0.0])
    second = Walk(root, 0.7, FirstUntried())
    assert second.choose(0, ["a"]) == 0 and not second.done  # known: on down the tree
    assert [second.choose(1, ["p", "q"]), second.done] == [0, True]
    second.backup([0.25, 0.75])
    a = root.edges["a"]
    assert (a.visits, a.total) == (2, 1.25)
    assert a.child is not None
    p = a.child.edges["p"]
    assert (p.visits, p.total, p.avail) == (1, 0.75, 1)  # seat 1's reward
    assert (a.child.edges["q"].visits, a.child.edges["q"].avail) == (0, 1)


def test_the_reward_is_the_win_share_plus_the_weighted_margin() -> None:
    assert rewards_of((10, 7, 10), (0.5, 0.0, 0.5), 0.1) == pytest.approx([0.5, -0.3, 0.5])
