"""The four scripted Tobago styles: the same machinery (:mod:`.scripted`), different weights.

Every :class:`~strategies.tobago.style.Style` field is a tunable parameter of each of them,
for example ``hunter(take_at=3, chase_legs=6)`` or ``cautious(reserve=1, marker_legs=3)``.
"""

from __future__ import annotations

from strategies.tobago.scripted import ScriptedPlayer
from strategies.tobago.style import Style


class Hunter(ScriptedPlayer):
    """Races to located treasures (chases up to 6 legs away) and plays clues that locate a
    treasure near its own ATV (large ``locate_bonus``). Takes cards of 3 coins or more.
    Amulets go to getting there first: markers removed and extra clues that locate a treasure
    it reaches this turn, extra moves up to 6 legs away. Starts central, away from rivals."""

    name = "hunter"
    default_style = Style(
        take_at=3,
        locate_bonus=10.0,
        chase_legs=6,
        clue_weight=0.5,
        marker_legs=3,
        extra_clue_legs=3,
        amulet_move_legs=6,
        start_reach=1.0,
        start_apart=0.5,
    )


class Cartographer(ScriptedPlayer):
    """Narrows maps (clue plays weighted by cells eliminated) and spreads its roses over
    maps where it has few (``spread_bonus``) to share in many treasures; chases only treasures
    within one turn of driving. Amulets buy better clues: it exchanges a hand that narrows no
    map by a fifth while a treasure is near, and plays extra clues that locate one it reaches.
    Starts where many terrains meet."""

    name = "cartographer"
    default_style = Style(
        take_at=4,
        locate_bonus=2.0,
        spread_bonus=1.5,
        chase_legs=3,
        clue_weight=2.0,
        exchange_poor=0.2,
        extra_clue_legs=3,
        marker_legs=0,
        start_reach=0.5,
        start_terrains=1.0,
    )


class Collector(ScriptedPlayer):
    """Values amulets: starts near where the statues will drop them, detours up to 2 legs to
    collect them, and spends them on every power that wins a treasure (markers removed and
    extra clues that locate one it reaches this turn, extra moves up to 3 legs, a poor hand
    exchanged while a treasure is near), keeping one in reserve against curses."""

    name = "collector"
    default_style = Style(
        take_at=4,
        amulet_legs=2,
        amulet_move_legs=3,
        reserve=1,
        chase_legs=4,
        marker_legs=3,
        extra_clue_legs=3,
        exchange_poor=0.1,
        start_reach=0.5,
        start_gaze=1.5,
    )


class Cautious(ScriptedPlayer):
    """Uses what it drew for a distribution: after drawing a curse it takes any card of 2 or
    more (the sharing may stop any moment), otherwise waits for the high cards it saw; keeps
    two amulets against curses and spends only beyond them: an extra move only to beat a
    rival to a treasure, a marker only under its own ATV, an extra clue only for a treasure
    two legs away. Starts away from the others."""

    name = "cautious"
    default_style = Style(
        take_at=5,
        curse_take_at=2,
        curse_memory=True,
        reserve=2,
        chase_legs=3,
        amulet_move_legs=3,
        move_race_only=True,
        marker_legs=0,
        extra_clue_legs=2,
        start_reach=1.0,
        start_apart=1.0,
    )
