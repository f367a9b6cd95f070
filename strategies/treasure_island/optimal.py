"""``optimal``: the exact optimal-stopping reference for a single turn.

At every draw-or-plunder choice it solves, by dynamic programming over what is left in the
draw pile, the turn as a stopping problem: each draw takes a uniformly random card of the
pile's known make-up (§9.15); a card of a kind in play busts and the turn scores what an
Anchor keeps (the gain of the cards before it) or nothing; otherwise the card joins the play
area, a Rum bottle forces the next ``rum_cards`` draws, and stopping banks the gain of every
card in play. The objective is the expected number of points the turn adds to the player's
score . It is exact for that model; what the model leaves
out is the other powers (Helm, Knife, Candle, Pistol, Spyglass, Key + Chest are valued at
nothing) and the game beyond this turn, which is what makes it a *reference*: the best any
stopping rule can do for the turn's own points, against which the cheap rules are measured.

The state of the recursion is (kinds in play, points banked so far, points an Anchor keeps,
Rum cards owed); the pile's size and its busting cards follow from the kinds in play, because
every safe draw takes exactly one card of a new kind. States are memoised per solve.
"""

from __future__ import annotations

import random

from sim.treasure_island.cards import ANCHOR, N_KINDS, PER_KIND, RUM, TOP_VALUE, VALUE
from sim.treasure_island.decisions import BACK, PLACE, SPYGLASS, Decision
from sim.treasure_island.view import PlayerView
from strategies.treasure_island.powers import PowerChoices, gain

_NEG = float("-inf")


class TurnProblem:
    """One stopping problem: the pile's cards by kind and what each would gain.

    Points are ints, so a state packs into one int key. Two facts keep it fast and exact:
    drawing-then-stopping beating stopping proves drawing optimal (no search needed); and the
    value minus the bank only falls as the bank grows, so once a state stops at some bank, the
    same kinds, Anchor keep and Rum debt stop at any higher bank (kept per node in ``stops``).
    """

    __slots__ = (
        "counts",
        "gains",
        "memo",
        "root_busting",
        "root_kinds",
        "root_size",
        "rum_cards",
        "stops",
    )

    def __init__(self, view: PlayerView) -> None:
        mine = view.my_stash
        pile = view.pile_mask
        self.root_kinds = view.area_kinds
        self.root_size = view.pile_size
        self.root_busting = view.busting
        self.rum_cards = view.rules.rum_cards
        self.counts = [0] * N_KINDS
        #: Per kind, (gain, how many pile cards give it).
        self.gains: list[tuple[tuple[int, int], ...]] = [()] * N_KINDS
        for k in range(N_KINDS):
            if self.root_kinds >> k & 1:
                continue
            top = TOP_VALUE[k][mine[k]]
            by_gain: dict[int, int] = {}
            for i in range(PER_KIND):
                if pile >> (k * PER_KIND + i) & 1:
                    g = max(0, VALUE[k * PER_KIND + i] - top)
                    by_gain[g] = by_gain.get(g, 0) + 1
                    self.counts[k] += 1
            self.gains[k] = tuple(sorted(by_gain.items()))
        self.memo: dict[int, int | float] = {}
        self.stops: dict[int, int] = {}

    def value(self, kinds: int, bank: int, safe: int, rum: int) -> float:
        """The best expected turn value from a choice point (must draw while ``rum`` > 0)."""
        node = kinds | safe << 10 | rum << 20
        if rum == 0:
            stop_at = self.stops.get(node)
            if stop_at is not None and bank >= stop_at:
                return bank
        key = node | bank << 24
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        size = self.root_size - (kinds & ~self.root_kinds).bit_count()
        if size == 0:
            best: float = bank
        else:
            draw = self.draw_value(kinds, bank, safe, rum)
            if rum == 0 and draw <= bank:
                best = bank
                if bank < self.stops.get(node, 1 << 30):
                    self.stops[node] = bank
            else:
                best = draw
        self.memo[key] = best
        return best

    def draw_value(self, kinds: int, bank: int, safe: int, rum: int) -> float:
        """The expected turn value of drawing now."""
        counts = self.counts
        new = kinds & ~self.root_kinds
        size = self.root_size - new.bit_count()
        busting = self.root_busting
        for k in range(N_KINDS):
            if new >> k & 1:
                busting += counts[k] - 1
        total: float = busting * safe
        next_rum = rum - 1 if rum > 0 else 0
        value = self.value
        for k in range(N_KINDS):
            if kinds >> k & 1 or not counts[k]:
                continue
            nk = kinds | (1 << k)
            ns = bank if k == ANCHOR else safe
            nr = self.rum_cards if k == RUM else next_rum
            for g, times in self.gains[k]:
                total += times * value(nk, bank + g, ns, nr)
        return total / size

    def one_step(self, kinds: int, bank: int, safe: int) -> float:
        """Draw once, then stop (or keep drawing only as a Rum bottle forces): a lower bound
        of the value of drawing; used as-is when it already beats stopping."""
        new = kinds & ~self.root_kinds
        size = self.root_size - new.bit_count()
        busting = self.root_busting
        total: float = 0.0
        for k in range(N_KINDS):
            if new >> k & 1:
                busting += self.counts[k] - 1
            elif not kinds >> k & 1 and k != RUM:
                for g, times in self.gains[k]:
                    total += times * (bank + g)
        total += busting * safe
        return total / size


class OptimalStopping(PowerChoices):
    """Draws exactly when the turn's dynamic program says drawing is worth more than
    plundering. No parameters."""

    name = "optimal"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    @staticmethod
    def _banked(view: PlayerView) -> tuple[int, int]:
        """Points the play area banks now, and what its Anchor would keep on a bust."""
        mine = view.my_stash
        area = view.area
        bank = sum(gain(mine, c) for c in area)
        anchor = view.anchor_at
        safe = sum(gain(mine, c) for c in area[:anchor]) if anchor > 0 else 0
        return bank, safe

    def keep_drawing(self, view: PlayerView) -> bool:
        """Draw when the expected value of drawing beats banking now."""
        if not view.pile_size:
            return False
        bank, safe = self._banked(view)
        problem = TurnProblem(view)
        kinds = view.area_kinds
        if problem.one_step(kinds, bank, safe) > bank:
            return True
        return problem.draw_value(kinds, bank, safe, view.rum_pending) > bank

    def decide(self, view: PlayerView, decision: Decision) -> object:
        """The shared power choices, with an exact answer for a safe Spyglass card."""
        if decision.kind == SPYGLASS:
            card = decision.value
            kind = card // PER_KIND
            if view.area_kinds >> kind & 1:
                return BACK
            bank, safe = self._banked(view)
            problem = TurnProblem(view)
            g = gain(view.my_stash, card)
            after = problem.value(
                view.area_kinds | (1 << kind),
                bank + g,
                bank if kind == ANCHOR else safe,
                view.rules.rum_cards if kind == RUM else 0,
            )
            return PLACE if after > bank else BACK
        return super().decide(view, decision)
