"""``ismcts`` for Tobago: single-observer information-set Monte Carlo tree search (SO-ISMCTS,
Cowling, Powley and Whitehouse 2012; the tree is :mod:`strategies.ismcts_tree`).

At the first decision of each of its turns the player runs ``iterations`` iterations. Each
samples one determinization of what the seat cannot see from its view alone
(:func:`sim.tobago.position.determinize`: the other hands, the clue piles, the treasure
deck), and plays the turn and the game on with the real engine. While the iteration is in
the tree, every decision of every seat within ``horizon`` turns is a tree step: the
searching seat's and the others' actions (each chosen for its own seat's reward) are edges
keyed by what the searching seat sees of them, ``(seat, kind, value, position, answer)``:
a clue play by its card and map, a cell by its id, an offer by the card's coins. An action
that exists only in some determinizations (another seat's clue card) is weighed by its
availability count. After the first new edge, and beyond the horizon, the ``rollout``
policy (a scripted style) answers everything. The answers a tree step considers are the
policy's own answer, and at a turn decision the ``width`` clue plays that remove most of
their map's candidates and one answer of every other kind (:func:`strategies.tobago.pimc.
candidates`); at every other decision, all legal answers.

The answer played is the root's most visited one, unless (``z > 0``) its mean reward is not
``z`` standard errors above the policy's own answer's, which is then kept
(:func:`strategies.ismcts_tree.recommend`). The rest of the turn follows the tree the same
way while its path is the searching seat's own (no other seat has decided in between) and
the action it recommends has at least ``follow`` playouts; otherwise the policy answers. Reward:
the win share plus ``margin_weight`` times the final coin margin over the best other seat.
The budget is a number of iterations, never a time: a time budget would make the answers,
hence the games, depend on the machine's load, and a game must stay a pure function of its
seed. The player draws only from its own generator.
"""

from __future__ import annotations

import random
from typing import Any

from sim.tobago import decisions
from sim.tobago.position import determinize, game_at
from sim.tobago.view import PlayerView
from strategies.ismcts_tree import Node, Walk, recommend, rewards_of
from strategies.search import check_int, check_number
from strategies.tobago.pimc import ROLLOUTS, candidates

#: An action's key in the tree: ``(seat, kind, value, position, answer)``.
Key = tuple[Any, ...]


def answers(view: PlayerView, decision: decisions.Decision, default: Any, width: int) -> list[Any]:
    """The answers a tree step weighs, ``default`` (the policy's) first: at a turn decision
    :func:`~strategies.tobago.pimc.candidates`, otherwise every legal action and cell."""
    if decision.kind == decisions.TURN:
        return candidates(view, decision.actions, default, width)
    out: list[Any] = [default, *decision.actions]
    cells = decision.cells
    while cells:
        low = cells & -cells
        out.append(low.bit_length() - 1)
        cells ^= low
    return list(dict.fromkeys(out))


def keys_of(decision: decisions.Decision, options: list[Any]) -> list[Key]:
    """Each answer's key: what the searching seat sees of it, the same in every deal."""
    head = (decision.seat, decision.kind, decision.value, decision.position)
    return [(*head, a) for a in options]


class _TreeSeat:
    """A seat in an iteration's playout: its rollout policy sees every decision (so its
    memory of the game is kept), and while the walk is in the tree and within the horizon
    the tree chooses the answer."""

    __slots__ = ("last_turn", "policy", "walk", "width")

    def __init__(self, walk: Walk, policy: Any, width: int, last_turn: int) -> None:
        self.walk = walk
        self.policy = policy
        self.width = width
        self.last_turn = last_turn

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        default = self.policy.decide(view, decision)
        walk = self.walk
        if walk.done:
            return default
        if view.turn > self.last_turn:
            walk.leave()
            return default
        options = answers(view, decision, default, self.width)
        if len(options) < 2:
            return default
        return options[walk.choose(decision.seat, keys_of(decision, options))]


class Ismcts:
    """Single-observer ISMCTS at the start of each turn (module docs)."""

    name = "ismcts"

    def __init__(
        self,
        rng: random.Random,
        iterations: int = 100,
        c: float = 0.7,
        rollout: str = "cautious",
        width: int = 3,
        margin_weight: float = 0.01,
        z: float = 1.0,
        horizon: int = 1,
        follow: int = 10,
    ) -> None:
        check_int("iterations", iterations, 1)
        check_number("c", c)
        if rollout not in ROLLOUTS:
            allowed = ", ".join(ROLLOUTS)
            raise ValueError(f"rollout = {rollout!r} is not allowed (one of {allowed})")
        check_int("width", width, 1)
        check_number("margin_weight", margin_weight)
        check_number("z", z)
        check_int("horizon", horizon, 1)
        check_int("follow", follow, 1)
        self.rng = rng
        self.iterations = iterations
        self.c = float(c)
        self.rollout = ROLLOUTS[rollout]
        self.width = width
        self.margin_weight = float(margin_weight)
        self.z = float(z)
        self.horizon = horizon
        self.follow = follow
        self.policy = self.rollout(rng)
        self._searched_turn = -1
        #: Where the turn's decisions are in the last search's tree (None: left it).
        self._node: Node | None = None
        #: The last search's root (for tests and studies).
        self.last_root: Node | None = None

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        """At a turn's first decision, the search's answer; later in the turn the tree's
        while it knows enough; otherwise the policy's."""
        default = self.policy.decide(view, decision)
        root = decision.kind == decisions.TURN and view.turn != self._searched_turn
        if root:
            self._searched_turn = view.turn
            self._node = self._search(view)
        node = self._node
        if node is None or view.turn != self._searched_turn:
            return default
        options = answers(view, decision, default, self.width)
        if len(options) < 2:
            return default
        keys = keys_of(decision, options)
        index = recommend(node, keys, self.z)
        if index is None or not (root or node.edges[keys[index]].visits >= self.follow):
            self._node = None
            return default
        self._node = node.edges[keys[index]].child
        return options[index]

    def _search(self, view: PlayerView) -> Node:
        """The tree grown by ``iterations`` iterations from the start of the seat's turn."""
        rng = self.rng
        n = view.n_players
        last_turn = view.turn + self.horizon - 1
        rollout, width, c, weight = self.rollout, self.width, self.c, self.margin_weight
        root = Node()
        for _ in range(self.iterations):
            state = determinize(view, rng)
            walk = Walk(root, c)
            players = [_TreeSeat(walk, rollout(rng), width, last_turn) for _ in range(n)]
            result = game_at(state, players).play_on()
            walk.backup(rewards_of(result.scores, result.win_shares, weight))
        self.last_root = root
        return root
