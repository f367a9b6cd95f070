"""``ismcts`` for Treasure Island: single-observer information-set Monte Carlo tree search
(SO-ISMCTS, Cowling, Powley and Whitehouse 2012; the tree is :mod:`strategies.ismcts_tree`).

At every decision with a choice that can be resumed from a view (draw or plunder and every
power's choice; :data:`sim.treasure_island.position.RESUMABLE`) the player runs
``iterations`` iterations. Each samples one determinization, a uniformly random order of
the draw pile below its public top cards (the only hidden fact; the discard is shuffled
before every use, so its draws come from the player's generator), and plays the game on
with the real engine (:func:`sim.treasure_island.position.play_on`). While the iteration is
in the tree, every decision of every seat within ``horizon`` turns is a tree step: actions
are edges keyed by what the searching seat sees of them, ``(seat, kind, value, answer)``
(``draw``, a kind, a ``(seat, kind)`` target, a card id: values, the same in every
determinization), each chosen for its own seat's reward by UCB1 with availability counts.
Which card a draw turns up is chance, fixed by the determinization and not a branch of the
tree. After the first new edge, and beyond the horizon, the ``rollout`` policy (a stopping
rule) answers everything.

The answer played is the root's most visited one, unless (``z > 0``) its mean reward is not
``z`` standard errors above the policy's own answer's, which is then kept
(:func:`strategies.ismcts_tree.recommend`). Reward: the
win share plus ``margin_weight`` times the final score margin over the best other seat.
The budget is a number of iterations, never a time, so that a game stays a pure function of
its seed; the player draws only from its own generator. The draft and the Plunderer's
bonus picks are the policy's.
"""

from __future__ import annotations

import random
from typing import Any

from sim.treasure_island import decisions
from sim.treasure_island.position import RESUMABLE, Position, game_at, play_on, position_of
from sim.treasure_island.view import PlayerView
from strategies.ismcts_tree import Node, Walk, recommend, rewards_of
from strategies.search import check_int, check_number
from strategies.treasure_island.pimc import ROLLOUTS

#: An action's key in the tree: ``(seat, kind, value, answer)``.
Key = tuple[Any, ...]


def ordered(decision: decisions.Decision, default: Any) -> list[Any]:
    """The legal answers, ``default`` (the policy's) first."""
    return list(dict.fromkeys((default, *decision.options)))


def keys_of(decision: decisions.Decision, options: list[Any]) -> list[Key]:
    """Each answer's key: what the searching seat sees of it, the same in every deal."""
    head = (decision.seat, decision.kind, decision.value)
    return [(*head, a) for a in options]


class _TreeSeat:
    """A seat in an iteration's playout: its rollout policy's answer, unless the walk is
    in the tree and within the horizon, where the tree chooses."""

    __slots__ = ("last_turn", "policy", "walk")

    def __init__(self, walk: Walk, policy: Any, last_turn: int) -> None:
        self.walk = walk
        self.policy = policy
        self.last_turn = last_turn

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        default = self.policy.decide(view, decision)
        walk = self.walk
        if walk.done:
            return default
        if view.turn > self.last_turn:
            walk.leave()
            return default
        if len(decision.options) < 2:
            return default
        options = ordered(decision, default)
        return options[walk.choose(decision.seat, keys_of(decision, options))]


class Ismcts:
    """Single-observer ISMCTS at every resumable decision (module docs)."""

    name = "ismcts"

    def __init__(
        self,
        rng: random.Random,
        iterations: int = 100,
        c: float = 0.7,
        rollout: str = "expected-value",
        margin_weight: float = 0.02,
        z: float = 1.0,
        horizon: int = 1,
    ) -> None:
        check_int("iterations", iterations, 1)
        check_int("horizon", horizon, 1)
        check_number("c", c)
        if rollout not in ROLLOUTS:
            allowed = ", ".join(ROLLOUTS)
            raise ValueError(f"rollout = {rollout!r} is not allowed (one of {allowed})")
        check_number("margin_weight", margin_weight)
        check_number("z", z)
        self.rng = rng
        self.iterations = iterations
        self.c = float(c)
        self.rollout = ROLLOUTS[rollout]
        self.margin_weight = float(margin_weight)
        self.z = float(z)
        self.horizon = horizon
        self.policy = self.rollout(rng)
        #: The last search's root (for tests and studies).
        self.last_root: Node | None = None

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        """The root's most visited answer after the search; the policy's where none runs."""
        default = self.policy.decide(view, decision)
        if decision.kind not in RESUMABLE or len(decision.options) < 2:
            return default
        options = ordered(decision, default)
        keys = keys_of(decision, options)
        root = self._search(position_of(view, decision), options, keys)
        index = recommend(root, keys, self.z)
        return default if index is None else options[index]

    def _search(self, position: Position, options: list[Any], keys: list[Key]) -> Node:
        """The tree grown by ``iterations`` iterations from the pending decision."""
        rng = self.rng
        seat = position.decision.seat
        hidden = list(position.hidden)
        last_turn = position.turn + self.horizon - 1
        rollout, c, weight = self.rollout, self.c, self.margin_weight
        root = Node()
        for _ in range(self.iterations):
            rng.shuffle(hidden)
            walk = Walk(root, c)
            players = [_TreeSeat(walk, rollout(rng), last_turn) for _ in range(position.n)]
            game = game_at(position, hidden, players, rng)
            answer = options[walk.choose(seat, keys)]
            result = play_on(game, position.decision, answer)
            walk.backup(rewards_of(result.scores, result.win_shares, weight))
        self.last_root = root
        return root
