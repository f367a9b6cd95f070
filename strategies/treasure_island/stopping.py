"""The stopping-rule strategies: when to plunder, with the shared power choices.

- ``stop-at(n=3)``: plunder once the play area holds ``n`` cards.
- ``bust-threshold(threshold=0.25)``: card counting: plunder once the exact chance that the
  next draw busts (cards left of kinds in play / cards left; 0 or 1 when a Spyglass or the
  Mystic has made the top card public) exceeds ``threshold``.
- ``expected-value(k=1.0, tie_weight=0.5)``: draw while ``(1 - p) * E[gain of the next safe
  card] * k > p * (points at risk)``, where the points at risk are what the unanchored cards
  would add to the stash plus ``tie_weight`` per card (the card-count tie-break). A public
  top card (a Spyglass, the Mystic) is drawn exactly when it is safe.
"""

from __future__ import annotations

import random

from sim.treasure_island.cards import KIND
from sim.treasure_island.view import PlayerView
from strategies.treasure_island.powers import PowerChoices

_NUMBERS = (int, float)


def _is_number(x: object) -> bool:
    """An int or a float, never a bool (a spec's ``true`` is not a number)."""
    return isinstance(x, _NUMBERS) and not isinstance(x, bool)


class StopAt(PowerChoices):
    """Plunders once the play area holds ``n`` cards (``n`` >= 1)."""

    name = "stop-at"

    def __init__(self, rng: random.Random, n: int = 3) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"n = {n!r} is not allowed (an integer >= 1)")
        self.rng = rng
        self.n = n

    def keep_drawing(self, view: PlayerView) -> bool:
        """Draw while fewer than ``n`` cards are in play."""
        return view.area_size < self.n


class BustThreshold(PowerChoices):
    """Plunders once the chance of a bust on the next draw exceeds ``threshold`` (0..1)."""

    name = "bust-threshold"

    def __init__(self, rng: random.Random, threshold: float = 0.25) -> None:
        if not _is_number(threshold) or not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold = {threshold!r} is not allowed (a number from 0 to 1)")
        self.rng = rng
        self.threshold = float(threshold)

    def keep_drawing(self, view: PlayerView) -> bool:
        """Draw while the exact bust chance is at most the threshold."""
        return view.bust_chance() <= self.threshold


class ExpectedValue(PowerChoices):
    """Draws while the expected gain of a draw, times ``k``, beats the expected loss."""

    name = "expected-value"

    def __init__(self, rng: random.Random, k: float = 1.0, tie_weight: float = 0.5) -> None:
        if not _is_number(k) or not k > 0:
            raise ValueError(f"k = {k!r} is not allowed (a positive number)")
        if not _is_number(tie_weight) or not tie_weight >= 0:
            raise ValueError(f"tie_weight = {tie_weight!r} is not allowed (a number >= 0)")
        self.rng = rng
        self.k = float(k)
        self.tie_weight = float(tie_weight)

    def keep_drawing(self, view: PlayerView) -> bool:
        """The myopic expected-value rule of the rules spec §10."""
        top = view.known_top
        if top >= 0:
            # The next card is public (a Spyglass, or the Mystic's three): p is 0 or 1. A sure
            # safe card risks nothing and adds a card for the tie-break, so it is drawn.
            return not view.area_kinds >> KIND[top] & 1
        # (1 - p) E[gain | safe] k > p risk, both sides times the pile's size: the safe cards'
        # summed gain times k against the busting cards times the points at risk.
        busting = view.busting
        if not busting:
            return True
        # The points at risk: the unanchored cards' gain plus tie_weight each.
        gain, cards = view.at_risk()
        return view.safe_gain_total() * self.k > busting * (gain + self.tie_weight * cards)
