"""The SO-ISMCTS tree on hand-made decision problems: UCB1 with availability counts (visit
counts worked out by hand, and a choice that the parent's visit count would get wrong), the
order of expansion, the recommendation and its guard, the backup by seat and the reward."""

from __future__ import annotations

import math

import pytest

from strategies.ismcts_tree import Edge, Node, Walk, most_visited, recommend, rewards_of, select

#: The hand-made problem: one decision of one seat, rewards fixed per action; ``x`` is legal
#: only at even iterations (as another seat's card in some deals only).
REWARD = {"a": 0.0, "b": 1.0, "x": 0.5}


def _iterate(root: Node, iteration: int, c: float) -> str:
    keys = ["a", "b", "x"] if iteration % 2 == 0 else ["a", "b"]
    walk = Walk(root, c)
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


def test_untried_actions_are_taken_in_order_the_policy_s_first() -> None:
    root = Node()
    assert [select(root, ["p", "a", "b"], 0.7) for _ in range(2)] == [(0, True), (0, True)]
    root.edges["p"].visits = 1
    assert select(root, ["p", "a", "b"], 0.7) == (1, True)
    assert root.edges["p"].avail == 3 and root.edges["b"].avail == 3


def _edge(*rewards: float) -> Edge:
    edge = Edge()
    edge.visits = len(rewards)
    edge.total = sum(rewards)
    edge.squares = sum(r * r for r in rewards)
    return edge


def test_the_recommendation_keeps_the_policy_s_answer_unless_clearly_beaten() -> None:
    root = Node()
    root.edges["p"] = _edge(0, 1, 0, 1)  # mean 0.5, variance 1/3
    root.edges["a"] = _edge(1, 1, 1, 0, 1, 1)  # mean 5/6, variance 1/6
    # By hand: gain 1/3, standard error sqrt(1/3 / 4 + 1/6 / 6) = sqrt(1/9) = 1/3.
    assert math.isclose(root.edges["a"].variance, 1 / 6)
    assert recommend(root, ["p", "a"], 0) == 1  # the most visited
    assert recommend(root, ["p", "a"], 0.99) == 1  # 1/3 > 0.99 / 3
    assert recommend(root, ["p", "a"], 1.01) == 0  # 1/3 < 1.01 / 3: the policy's
    root.edges["p"] = _edge(0)  # UCB1 tried the policy's answer once: clearly worse
    assert recommend(root, ["p", "a"], 5) == 1
    assert recommend(root, ["q"], 1) is None


def test_a_walk_leaves_the_tree_after_its_expansion_and_credits_each_seat() -> None:
    root = Node()
    first = Walk(root, 0.7)
    assert first.choose(0, ["a"]) == 0 and first.done  # new: the rollout policy takes over
    first.backup([1.0, 0.0])
    second = Walk(root, 0.7)
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
