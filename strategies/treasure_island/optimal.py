"""``optimal``: the exact reference for a single turn.

Every answer of the turn (draw or plunder, the Helm's pile, the Knife's steal, the Pistol's
target, the Candle's card, the Spyglass's place or put back, the Plunderer's bonus cards) is
the one with the highest expected points for the turn, computed by
:class:`~strategies.treasure_island.turn_solver.TurnSolver` over the real turn (exactly with
``exact=true``; the default values the Key + Chest bonus and an Anchor's keep before a forced
Helm approximately, see docs/strategies.md): its forced
placements, forced busts, Rum bottles, the Anchor's keep, the Key + Chest bonus drawn at
random, and the characters' powers. It uses only what the seat's view shows.

The objective is the turn's own points; answers worth the same to the turn (whom the Pistol
hits, often) are broken by the shared heuristics of
:mod:`strategies.treasure_island.powers`, so that a tie hurts the leader. That is the one
thing the game beyond the turn decides for it: what makes it a *reference* for the turn, not
the best player of the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from sim.treasure_island import decisions
from sim.treasure_island.cards import HELM, KNIFE, PISTOL
from sim.treasure_island.view import PlayerView
from strategies.treasure_island.powers import PowerChoices
from strategies.treasure_island.turn_solver import TurnSolver

#: Two answers whose values differ by less than this are worth the same.
_TIE = 1e-9


class OptimalStopping(PowerChoices):
    """Every answer maximises the turn's exact expected points. No parameters."""

    name = "optimal"

    def __init__(self, rng: random.Random, exact: bool = False) -> None:
        if not isinstance(exact, bool):
            raise ValueError(f"exact = {exact!r} is not allowed (true or false)")
        self.rng = rng
        self.exact = exact
        self._solver: TurnSolver | None = None
        # The view and turn the solver was built for. The view itself is held, not its id():
        # a player reused across games (the enumeration tests replay one player in every
        # world) would otherwise meet a new view at a dead one's address and reuse a solver
        # built for another game.
        self._view: PlayerView | None = None
        self._turn = -1

    def solver(self, view: PlayerView, shown: tuple[int, ...] = ()) -> TurnSolver:
        """The turn's solver: one serves every decision of a turn, since each later state is
        one it has already valued (values are relative to the score where they are asked)."""
        if self._solver is None or self._view is not view or self._turn != view.turn:
            self._solver = TurnSolver(view, shown, self.exact)
            self._view = view
            self._turn = view.turn
        return self._solver

    def turn_values(self, view: PlayerView) -> tuple[float, float]:
        """The expected points of the rest of the turn if it plunders now, and if it draws."""
        solver = self.solver(view)
        s = solver.state(view)
        return solver.plunder_value(s), solver.draw_value(s)

    def keep_drawing(self, view: PlayerView) -> bool:
        """Draw exactly when drawing is worth more than plundering now."""
        if not view.pile_size:
            return False
        plunder, draw = self.turn_values(view)
        return draw > plunder + _TIE

    def decide(self, view: PlayerView, decision: decisions.Decision) -> Any:
        """The best answer by the turn's exact values; ties by the shared heuristics."""
        kind = decision.kind
        if kind is decisions.CONTINUE:
            return decisions.DRAW if self.keep_drawing(view) else decisions.PLUNDER
        if kind is decisions.SPYGLASS:
            plunder, draw = self.turn_values(view)
            return decisions.PLACE if draw > plunder + _TIE else decisions.BACK
        options = decision.options
        value: Callable[[Any], float]
        if kind is decisions.CANDLE:
            solver = self.solver(view, options)

            def value(c: Any) -> float:
                return solver.pick_value(solver.state(view, options, c), c)
        elif kind in (decisions.HELM, decisions.KNIFE, decisions.PISTOL):
            solver = self.solver(view)
            power = {decisions.HELM: HELM, decisions.KNIFE: KNIFE, decisions.PISTOL: PISTOL}[kind]
            s = solver.state(view, pending=1 << power)
            if kind is decisions.HELM:

                def value(j: Any) -> float:
                    return solver.helm_value(s, j)
            elif kind is decisions.KNIFE:

                def value(o: Any) -> float:
                    return solver.knife_value(s, o[0], o[1])
            else:

                def value(o: Any) -> float:
                    return solver.pistol_value(s, o[0], o[1])
        else:
            # The draft, and the Plunderer's bonus: each kind counts once, through its best
            # card, so the card worth most now is always in the best set (as the solver has it).
            return super().decide(view, decision)
        best = _best(options, value)
        if len(best) == 1:
            return best[0]
        return super().decide(view, decisions.Decision(kind, decision.seat, best, decision.value))


def _best(options: Sequence[Any], value: Callable[[Any], float]) -> tuple[Any, ...]:
    """The options of the highest value (all that tie with it)."""
    values = [value(o) for o in options]
    top = max(values)
    return tuple(o for o, v in zip(options, values, strict=True) if v >= top - _TIE)
