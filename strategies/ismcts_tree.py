"""The search tree of single-observer information-set MCTS (SO-ISMCTS: Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2), 2012), shared by
both games' ``ismcts`` players; the games supply the determinizations and the playouts.

A node stands for an information set of the searching seat: the history of actions from the
root as that seat sees them (the same history over different determinizations is one node).
Its edges are the actions taken there, by whichever seat decides, each keyed by its visible
description (a value such as ``(seat, kind, value, answer)``, never an object's identity),
so the same action found in two determinizations is one edge. Chance is not in the tree:
each iteration's determinization fixes it. An edge keeps its playouts, their summed reward
for the seat that acts there and its *availability*: how often it was legal when its node
was visited. An action legal in only some determinizations (another seat's card, an offer
of one card value) is then judged against the visits it could have had, not its parent's:
UCB1 with the availability count in place of the parent's visit count.

One iteration (a :class:`Walk`) descends from the root, choosing at each decision an action
not yet tried there or else the best by UCB1; the first untried action taken is the
expansion, after which the rollout policy answers until the game ends, and every edge on the
path is credited with the reward of the seat that took it. Untried actions are taken in the
order the game lists them, the rollout policy's own answer first: a node's first playout is
then the policy's, so the values above it start from the policy's play rather than from a
random deviation (the paper draws the untried action uniformly; this is the one departure).

The recommendation (:func:`recommend`) is the most visited action, but a search of a few
hundred playouts often ranks two close actions by luck: with ``z > 0`` the policy's own
answer is kept unless the most visited one's mean reward is ``z`` standard errors above it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence


class Edge:
    """An action from a node: playouts through it, their summed reward for the seat that
    acts, how often it was available, and the node it leads to."""

    __slots__ = ("avail", "child", "squares", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.squares = 0.0
        self.avail = 0
        self.child: Node | None = None

    @property
    def mean(self) -> float:
        """The mean reward of its playouts (0 before the first)."""
        return self.total / self.visits if self.visits else 0.0

    @property
    def variance(self) -> float:
        """The sample variance of its playouts' rewards (0 before the second)."""
        n = self.visits
        if n < 2:
            return 0.0
        return max(0.0, (self.squares - self.total * self.total / n) / (n - 1))


class Node:
    """An information set of the searching seat: its edges by action key."""

    __slots__ = ("edges",)

    def __init__(self) -> None:
        self.edges: dict[Hashable, Edge] = {}


def select(node: Node, keys: Sequence[Hashable], c: float) -> tuple[int, bool]:
    """The index in ``keys`` (the actions legal at this visit, keyed) of the action to take,
    and whether it is an expansion (untried so far); every one of ``keys`` is counted as
    available once. The first untried action in ``keys``; otherwise the highest
    ``mean + c * sqrt(ln(availability) / visits)``, the first of ``keys`` on a tie."""
    edges = node.edges
    untried = -1
    for i, key in enumerate(keys):
        edge = edges.get(key)
        if edge is None:
            edge = edges[key] = Edge()
        edge.avail += 1
        if edge.visits == 0 and untried < 0:
            untried = i
    if untried >= 0:
        return untried, True
    best, choice = -math.inf, 0
    for i, key in enumerate(keys):
        edge = edges[key]
        score = edge.total / edge.visits + c * math.sqrt(math.log(edge.avail) / edge.visits)
        if score > best:
            best, choice = score, i
    return choice, False


def most_visited(node: Node, keys: Sequence[Hashable]) -> int | None:
    """The index in ``keys`` of the available action played most often from ``node`` (the
    best mean reward among those, then the first of ``keys``), or None when none of them has
    been played: the tree's recommendation."""
    best: tuple[int, float] | None = None
    choice = None
    for i, key in enumerate(keys):
        edge = node.edges.get(key)
        if edge is None or edge.visits == 0:
            continue
        rank = (edge.visits, edge.mean)
        if best is None or rank > best:
            best, choice = rank, i
    return choice


def recommend(node: Node, keys: Sequence[Hashable], z: float) -> int | None:
    """The tree's answer among ``keys`` (``keys[0]``: the rollout policy's own): the most
    visited (:func:`most_visited`), unless ``z > 0`` and its mean reward is not ``z``
    standard errors (of the difference of two independent means) above the policy's; then
    the policy's. None when none of ``keys`` has been played."""
    choice = most_visited(node, keys)
    if choice is None or choice == 0 or z <= 0:
        return choice
    best, default = node.edges[keys[choice]], node.edges.get(keys[0])
    if default is None or default.visits < 2 or best.visits < 2:
        return choice  # UCB1 left the policy's answer nearly untried: it was clearly worse
    error = math.sqrt(best.variance / best.visits + default.variance / default.visits)
    return choice if best.mean - default.mean > z * error else 0


class Walk:
    """One iteration's descent from the root: where it is, the edges taken (with the seat
    that took each) and whether it has left the tree (after its expansion)."""

    __slots__ = ("c", "done", "node", "path")

    def __init__(self, root: Node, c: float) -> None:
        self.node = root
        self.c = c
        self.path: list[tuple[Edge, int]] = []
        self.done = False

    def choose(self, seat: int, keys: Sequence[Hashable]) -> int:
        """The index in ``keys`` that ``seat`` plays at the walk's node (see :func:`select`);
        the walk moves to that edge's node and, after an expansion, leaves the tree."""
        node = self.node
        index, expanded = select(node, keys, self.c)
        edge = node.edges[keys[index]]
        self.path.append((edge, seat))
        if edge.child is None:
            edge.child = Node()
        self.node = edge.child
        self.done = expanded
        return index

    def leave(self) -> None:
        """Stop descending: every later decision of the playout is the rollout policy's."""
        self.done = True

    def backup(self, rewards: Sequence[float]) -> None:
        """Credit every edge taken with the reward (``rewards``, by seat) of its seat."""
        for edge, seat in self.path:
            reward = rewards[seat]
            edge.visits += 1
            edge.total += reward
            edge.squares += reward * reward


def rewards_of(scores: Sequence[int], win_shares: Sequence[float], weight: float) -> list[float]:
    """Each seat's reward at the end of a playout: its win share plus ``weight`` times its
    final margin over the best other seat."""
    out: list[float] = []
    for seat, score in enumerate(scores):
        rival = max(x for i, x in enumerate(scores) if i != seat)
        out.append(win_shares[seat] + weight * (score - rival))
    return out
