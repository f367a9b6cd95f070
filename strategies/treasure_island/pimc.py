"""``pimc``: perfect-information Monte Carlo search (determinized, flat at the root by default),
a strong reference player (``ismcts`` is kept as an alias of it, so older specs and stored runs
name the same player).

At each decision the player reads the position from its view alone
(:func:`sim.treasure_island.position.position_of`): in Treasure Island that is everything but
the order of the draw pile under its public top cards (and the discard's order, which is
shuffled before every use). Each *deal* samples that order uniformly from the cards the view
says are in the pile, and the real engine plays the game on from the position to its end
(:func:`~sim.treasure_island.position.play_on`).

- **The root** plays every legal answer on each deal (common random numbers: the answers
  are compared on the same pile orders, so their difference is measured with far less
  noise than with separate samples), and the answer with the best mean reward is played;
  on a tie, the rollout policy's own answer.
- **The tree** (``tree=true``; off by default): the seat's later decisions of the same turn
  are chosen by UCB1 (with availability counts, as in single-observer ISMCTS) over nodes
  keyed by what the seat has seen when it decides (the decision, the play area, the public
  top cards): its information set. One new node is tried per playout; beyond it the rollout
  policy answers. Measured against expected-value in 2-player games, the tree's exploration
  cost more than its lookahead gained (``docs/strategies.md``), hence the default.
- **Rollouts**: every other decision, of every seat and every later turn, is answered by the
  ``rollout`` policy (a scripted strategy by name).
- **Reward**: the seat's win share at the end plus ``margin_weight`` times its final score
  margin over the best other seat (points); the margin term tells apart answers that rarely
  change the winner in a few hundred playouts.
- ``z`` (default 1): the player leaves its rollout policy's answer only when the best
  answer's paired gain over it is ``z`` standard errors above zero (``z=0``: the best mean
  always); a small, noisy gain is more often luck of the deals than a better answer.

``iterations`` is the number of playouts per decision (spread over the root's answers: a
draw-or-plunder decision gets ``iterations / 2`` deals). Decisions that cannot be resumed from
a view (the draft, the Plunderer's bonus picks) are answered by the rollout policy. The search
draws only from the seat's own generator, so the player is deterministic per seed like every
strategy, and a change in what the seat cannot see cannot change its answer
(``tests/treasure_island/test_pimc.py``).
"""

from __future__ import annotations

import math
import random
from typing import Any

from sim.treasure_island import decisions
from sim.treasure_island.position import RESUMABLE, Position, game_at, play_on, position_of
from sim.treasure_island.view import PlayerView
from strategies.search import pick_answer
from strategies.treasure_island.random_player import RandomPlayer
from strategies.treasure_island.stopping import BustThreshold, ExpectedValue, StopAt

#: The policies ``rollout`` may name.
ROLLOUTS: dict[str, type] = {
    "expected-value": ExpectedValue,
    "bust-threshold": BustThreshold,
    "stop-at": StopAt,
    "random": RandomPlayer,
}

_Key = tuple[Any, ...]


class _Node:
    """Statistics of one information set of the searching seat: per answer, playouts,
    summed reward and how often it was available."""

    __slots__ = ("avail", "total", "visits")

    def __init__(self) -> None:
        self.visits: dict[Any, int] = {}
        self.total: dict[Any, float] = {}
        self.avail: dict[Any, int] = {}


class _Walk:
    """One playout's path through the tree: the (node, answer) pairs it took."""

    __slots__ = ("expanded", "path", "seat", "turn")

    def __init__(self, seat: int, turn: int) -> None:
        self.seat = seat
        self.turn = turn
        self.path: list[tuple[_Node, Any]] = []
        self.expanded = False


class _TreeSeat:
    """The searching seat inside a playout: its decisions of the current turn come from the
    tree (UCB1) until one new node has been tried, every later one from the rollout policy."""

    __slots__ = ("c", "policy", "rng", "tree", "walk")

    def __init__(
        self, tree: dict[_Key, _Node], walk: _Walk, policy: Any, c: float, rng: random.Random
    ) -> None:
        self.tree = tree
        self.walk = walk
        self.policy = policy
        self.c = c
        self.rng = rng

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        walk = self.walk
        if walk.expanded or view.turn != walk.turn or decision.kind not in RESUMABLE:
            return self.policy.decide(view, decision)
        key = (decision.kind, decision.options, decision.value, view.area, view.known_cards)
        node = self.tree.get(key)
        if node is None:
            node = self.tree[key] = _Node()
        visits, total, avail = node.visits, node.total, node.avail
        untried = []
        for a in decision.options:
            avail[a] = avail.get(a, 0) + 1
            if a not in visits:
                untried.append(a)
        if untried:
            answer = untried[math.floor(self.rng.random() * len(untried))]
            visits[answer] = 0
            total[answer] = 0.0
            walk.expanded = True
        else:
            c = self.c
            best = -math.inf
            answer = decision.options[0]
            for a in decision.options:
                n = visits[a]
                score = total[a] / n + c * math.sqrt(math.log(avail[a]) / n)
                if score > best:
                    best, answer = score, a
        walk.path.append((node, answer))
        return answer


class Pimc:
    """Determinized Monte Carlo search over the real engine (see the module docs)."""

    name = "pimc"

    def __init__(
        self,
        rng: random.Random,
        iterations: int = 100,
        c: float = 0.7,
        rollout: str = "expected-value",
        margin_weight: float = 0.02,
        z: float = 1.0,
        tree: bool = False,
    ) -> None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"iterations = {iterations!r} is not allowed (an integer >= 1)")
        if isinstance(c, bool) or not isinstance(c, int | float) or not c >= 0:
            raise ValueError(f"c = {c!r} is not allowed (a number >= 0)")
        if rollout not in ROLLOUTS:
            allowed = ", ".join(ROLLOUTS)
            raise ValueError(f"rollout = {rollout!r} is not allowed (one of {allowed})")
        if isinstance(margin_weight, bool) or not isinstance(margin_weight, int | float):
            raise ValueError(f"margin_weight = {margin_weight!r} is not allowed (a number)")
        if not margin_weight >= 0:
            raise ValueError(f"margin_weight = {margin_weight!r} is not allowed (a number >= 0)")
        if isinstance(z, bool) or not isinstance(z, int | float) or not z >= 0:
            raise ValueError(f"z = {z!r} is not allowed (a number >= 0)")
        if not isinstance(tree, bool):
            raise ValueError(f"tree = {tree!r} is not allowed (true or false)")
        self.rng = rng
        self.tree = tree
        self.z = float(z)
        self.iterations = iterations
        self.c = float(c)
        self.rollout = ROLLOUTS[rollout]
        self.margin_weight = float(margin_weight)
        self.policy = self.rollout(rng)
        #: The last root search: each answer's mean reward and its deals (for tests, studies).
        self.last_means: dict[Any, float] = {}
        self.last_deals = 0

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        """The answer with the best mean reward over the sampled deals."""
        options = decision.options
        default = self.policy.decide(view, decision)
        if decision.kind not in RESUMABLE or len(options) < 2:
            return default
        position = position_of(view, decision)
        rewards = self._search(position, options)
        return pick_answer(options, rewards, default, self.z)

    def _search(self, position: Position, options: tuple[Any, ...]) -> dict[Any, list[float]]:
        """Every root answer's reward on each sampled deal (deal by deal, so paired)."""
        rng = self.rng
        seat = position.decision.seat
        n = position.n
        deals = max(1, -(-self.iterations // len(options)))
        hidden = list(position.hidden)
        tree: dict[_Key, _Node] = {}
        rewards: dict[Any, list[float]] = {a: [] for a in options}
        rollout, c, weight = self.rollout, self.c, self.margin_weight
        for _ in range(deals):
            rng.shuffle(hidden)
            for answer in options:
                walk = _Walk(seat, position.turn)
                walk.expanded = not self.tree  # no tree: the policy answers after the root
                players: list[Any] = [rollout(rng) for _ in range(n)]
                players[seat] = _TreeSeat(tree, walk, players[seat], c, rng)
                game = game_at(position, hidden, players, rng)
                result = play_on(game, position.decision, answer)
                scores = result.scores
                rival = max(s for i, s in enumerate(scores) if i != seat)
                reward = result.win_shares[seat] + weight * (scores[seat] - rival)
                rewards[answer].append(reward)
                for node, a in walk.path:
                    node.visits[a] += 1
                    node.total[a] += reward
        self.last_deals = deals
        self.last_means = {a: sum(rewards[a]) / deals for a in options}
        return rewards
