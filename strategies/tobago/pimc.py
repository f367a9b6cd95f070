"""``pimc`` for Tobago: perfect-information Monte Carlo (determinized flat Monte Carlo) at the
start of each turn: no tree and no information sets, hence the name (``ismcts`` is kept as an
alias of it, so older specs and stored runs name the same player).

At the first decision of each of its turns the player samples *deals* of what it cannot see
(:func:`sim.tobago.position.determinize`: the other hands, the clue piles, the treasure
deck; from its view alone), and on each deal plays every candidate answer with the real
engine to the end of the game (common random numbers: the answers are compared on the same
deals, so their difference is measured with far less noise than with separate samples). The
candidates are the rollout policy's own answer, the ``width`` clue plays that remove most of
their map's candidates, and one answer of every other kind on offer (move, end, raise,
exchange, each amulet power). Every later decision, of every seat, is the ``rollout``
policy's (a scripted style), and so are this player's other decisions of the turn.

Reward: the win share plus ``margin_weight`` times the final coin margin over the best other
seat. The answer with the best mean reward is played; with ``z > 0``, only when its paired
gain over the policy's answer is ``z`` standard errors above zero. ``iterations`` is the
number of playouts per searched decision. The player draws only from its own generator, so it
is deterministic per seed like every strategy.
"""

from __future__ import annotations

import random
from typing import Any

from sim.tobago import decisions
from sim.tobago.position import copy_state, determinize, game_at
from sim.tobago.view import PlayerView
from strategies.search import pick_answer
from strategies.tobago.random_player import RandomPlayer
from strategies.tobago.styles import Cartographer, Cautious, Collector, Hunter

#: The policies ``rollout`` may name.
ROLLOUTS: dict[str, type] = {
    "hunter": Hunter,
    "cartographer": Cartographer,
    "collector": Collector,
    "cautious": Cautious,
    "random": RandomPlayer,
}


#: The tags of clue plays (the main action's and the amulet's).
_CLUE_KINDS = (decisions.ActionKind.CLUE, decisions.ActionKind.AMULET_CLUE)


class _Forced:
    """The searching seat in a playout: ``answer`` to its first turn decision, then the
    policy (which also sees that first decision, so its memory of the turn is kept)."""

    __slots__ = ("answer", "policy")

    def __init__(self, answer: decisions.Action, policy: Any) -> None:
        self.answer: decisions.Action | None = answer
        self.policy = policy

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        answer = self.answer
        if answer is not None and decision.kind == decisions.TURN:
            self.answer = None
            self.policy.decide(view, decision)
            return answer
        return self.policy.decide(view, decision)


def candidates(
    view: PlayerView, actions: tuple[decisions.Action, ...], default: Any, width: int
) -> list[decisions.Action]:
    """The answers searched: ``default`` first, the ``width`` best clue plays (by the share of
    their map's candidates they remove) of each clue kind, one of every other kind."""
    masks = view.clue_masks
    cands = view.candidate_masks()
    out: list[decisions.Action] = [default]
    by_kind: dict[decisions.ActionKind, list[tuple[float, int, decisions.Action]]] = {}
    for k, a in enumerate(actions):
        if a[0] in _CLUE_KINDS:
            before = cands[a[2]]
            share = (before.bit_count() - (before & masks[a[1]]).bit_count()) / before.bit_count()
            by_kind.setdefault(a[0], []).append((-share, k, a))
        elif a[0] == decisions.ActionKind.RAISE:
            out.append(a)
        else:
            by_kind.setdefault(a[0], []).append((0.0, k, a))
    for kind, options in by_kind.items():
        options.sort()
        keep = width if kind in _CLUE_KINDS else 1
        out.extend(a for _, _, a in options[:keep])
    return list(dict.fromkeys(out))


class Pimc:
    """Determinized search over the real engine at the start of each turn (module docs)."""

    name = "pimc"

    def __init__(
        self,
        rng: random.Random,
        iterations: int = 96,
        rollout: str = "cautious",
        width: int = 3,
        margin_weight: float = 0.01,
        z: float = 1.0,
    ) -> None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"iterations = {iterations!r} is not allowed (an integer >= 1)")
        if rollout not in ROLLOUTS:
            allowed = ", ".join(ROLLOUTS)
            raise ValueError(f"rollout = {rollout!r} is not allowed (one of {allowed})")
        if isinstance(width, bool) or not isinstance(width, int) or width < 1:
            raise ValueError(f"width = {width!r} is not allowed (an integer >= 1)")
        for key, value in (("margin_weight", margin_weight), ("z", z)):
            if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
                raise ValueError(f"{key} = {value!r} is not allowed (a number >= 0)")
        self.rng = rng
        self.iterations = iterations
        self.rollout = ROLLOUTS[rollout]
        self.width = width
        self.margin_weight = float(margin_weight)
        self.z = float(z)
        self.policy = self.rollout(rng)
        self._searched_turn = -1
        #: The last search: each candidate's mean reward and the deals (for tests, studies).
        self.last_means: dict[Any, float] = {}
        self.last_deals = 0

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        """At a turn's first decision, the searched answer; otherwise the policy's."""
        default = self.policy.decide(view, decision)
        if decision.kind != decisions.TURN or view.turn == self._searched_turn:
            return default
        self._searched_turn = view.turn
        options = candidates(view, decision.actions, default, self.width)
        if len(options) < 2:
            return default
        rewards = self._search(view, options)
        return pick_answer(options, rewards, default, self.z)

    def _search(self, view: PlayerView, options: list[decisions.Action]) -> dict[Any, list[float]]:
        """Every candidate's reward on each sampled deal (deal by deal, so paired)."""
        rng = self.rng
        seat = view.seat
        n = view.n_players
        deals = max(1, -(-self.iterations // len(options)))
        rewards: dict[Any, list[float]] = {a: [] for a in options}
        rollout, weight = self.rollout, self.margin_weight
        for _ in range(deals):
            deal = determinize(view, rng)
            for answer in options:
                state = copy_state(deal)
                players: list[Any] = [rollout(rng) for _ in range(n)]
                players[seat] = _Forced(answer, players[seat])
                result = game_at(state, players).play_on()
                scores = result.scores
                rival = max(x for i, x in enumerate(scores) if i != seat)
                rewards[answer].append(result.win_shares[seat] + weight * (scores[seat] - rival))
        self.last_deals = deals
        self.last_means = {a: sum(r) / deals for a, r in rewards.items()}
        return rewards
