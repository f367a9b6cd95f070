"""A greedy Tobago player: raises at once, otherwise plays the clue that removes the most
cells, and takes any treasure card worth at least `take_at` coins."""

import random

from sim.tobago.decisions import OFFER, PASS, TAKE, Action, ActionKind, Decision
from sim.tobago.view import PlayerView


class Greedy:
    def __init__(self, rng: random.Random, take_at: int = 4) -> None:
        self.rng = rng
        self.take_at = take_at

    def decide(self, view: PlayerView, decision: Decision) -> object:
        if decision.kind == OFFER:
            return TAKE if decision.value >= self.take_at else PASS
        for action in decision.actions:
            if action[0] == ActionKind.RAISE:
                return action
        clues = [a for a in decision.actions if a[0] == ActionKind.CLUE]
        if clues:

            def removed(a: Action) -> int:
                cand = view.candidates(a[2])
                return cand.bit_count() - (cand & view.clue_masks[a[1]]).bit_count()

            return max(clues, key=removed)
        if decision.cells:  # a cell choice: pick one at random
            cells = [i for i in range(view.island.n) if decision.cells >> i & 1]
            return self.rng.choice(cells)
        return decision.actions[0]
