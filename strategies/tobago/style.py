"""The weights of a scripted Tobago style: one frozen record per style and parameters."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Style:
    """The weights of one scripted style (all documented in ``docs/strategies.md``)."""

    # Offers.
    take_at: int = 4
    curse_take_at: int = 2
    curse_memory: bool = False
    # Clue plays.
    locate_bonus: float = 6.0
    spread_bonus: float = 0.0
    clue_weight: float = 1.0
    # Driving.
    chase_legs: int = 3
    amulet_legs: int = 0
    # Amulet powers (see strategies.tobago.amulets).
    reserve: int = 1
    exchange_stuck: bool = True
    exchange_poor: float = 0.0
    extra_clue_legs: int = 0
    amulet_move_legs: int = 0
    move_race_only: bool = False
    marker_legs: int = -1
    stall_turns: int = 8
    # Start cell (see strategies.tobago.start).
    start_reach: float = 1.0
    start_terrains: float = 0.0
    start_gaze: float = 0.0
    start_apart: float = 0.0
