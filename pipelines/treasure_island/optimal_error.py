"""How far ``optimal``'s default (bonus-approximating) answers are from the exact ones.

Plays games of ``expected-value`` against itself; at every draw-or-plunder decision of seat
``expected-value`` whose draw pile holds at most ``--max-pile`` cards, both solvers value the
position, and the exact one is kept when it finishes within ``--limit`` seconds (a timer, so
which positions are kept depends on the machine: the figures are a measurement, not a test).
Prints how often the two decisions differ, what the approximate decision costs in exact
points, and how far its value is from the exact value.

    python -m pipelines.treasure_island.optimal_error --games 20 --max-pile 25 --limit 10
"""

from __future__ import annotations

import argparse
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any

from sim.treasure_island.decisions import CONTINUE, Decision
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.rules import preset
from sim.treasure_island.view import PlayerView
from strategies.treasure_island.stopping import ExpectedValue
from strategies.treasure_island.turn_solver import TurnSolver


class _TooLongError(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _TooLongError


@dataclass
class Row:
    """One position: value error, exact points lost, whether the decisions differ, times."""

    error: float
    loss: float
    differs: bool
    exact_seconds: float
    approximate_seconds: float


class Probe(ExpectedValue):
    """Plays expected-value, and compares the two solvers at its decisions."""

    def __init__(self, rng: Any, rows: list[Row], max_pile: int, limit: float) -> None:
        super().__init__(rng)
        self.rows = rows
        self.max_pile = max_pile
        self.limit = limit

    def decide(self, view: PlayerView, decision: Decision) -> Any:
        if decision.kind == CONTINUE and view.pile_size <= self.max_pile:
            self._compare(view)
        return super().decide(view, decision)

    def _compare(self, view: PlayerView) -> None:
        signal.setitimer(signal.ITIMER_REAL, self.limit)
        try:
            start = time.perf_counter()
            exact = TurnSolver(view)
            s = exact.state(view)
            plunder, draw = exact.plunder_value(s), exact.draw_value(s)
            middle = time.perf_counter()
            approx = TurnSolver(view, exact=False)
            a = approx.state(view)
            a_plunder, a_draw = approx.plunder_value(a), approx.draw_value(a)
            end = time.perf_counter()
        except _TooLongError:
            return
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        draws, a_draws = draw > plunder + 1e-9, a_draw > a_plunder + 1e-9
        best = max(plunder, draw)
        chosen = draw if a_draws else plunder
        self.rows.append(
            Row(
                max(a_plunder, a_draw) - best,
                best - chosen,
                draws != a_draws,
                middle - start,
                end - middle,
            )
        )


def main() -> None:
    """Run the comparison and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--max-pile", type=int, default=25)
    parser.add_argument("--limit", type=float, default=10.0, help="seconds per exact solve")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    rows: list[Row] = []
    for g in range(args.games):

        def probe(rng: Any) -> Probe:
            return Probe(rng, rows, args.max_pile, args.limit)

        other: Callable[[Any], Any] = ExpectedValue
        factories = [probe, other] if g % 2 == 0 else [other, probe]
        TreasureIslandGame(preset("standard"), factories, args.seed + g).play()
    n = len(rows)
    if not n:
        print("no position was solved exactly within the limit")
        return
    errors = [r.error for r in rows]
    losses = [r.loss for r in rows]
    print(f"positions solved exactly: {n}")
    print(f"decisions that differ: {sum(r.differs for r in rows)} of {n}")
    print(
        f"exact points lost by the approximate decision: mean {sum(losses) / n:.4f}, "
        f"max {max(losses):.3f}"
    )
    print(
        f"approximate value minus exact value: mean {sum(errors) / n:+.3f}, "
        f"from {min(errors):+.3f} to {max(errors):+.3f}"
    )
    exact_s = sum(r.exact_seconds for r in rows)
    approx_s = sum(r.approximate_seconds for r in rows)
    print(f"seconds: exact {exact_s:.1f}, approximate {approx_s:.1f}")


if __name__ == "__main__":
    main()
