"""The four scripted Tobago styles: the same machinery (:mod:`.scripted`), different weights.

Every :class:`~strategies.tobago.scripted.Style` field is a tunable parameter of each of them,
for example ``hunter(take_at=3, chase_legs=6)``.
"""

from __future__ import annotations

from strategies.tobago.scripted import ScriptedPlayer, Style


class Hunter(ScriptedPlayer):
    """Races to located treasures (chases up to 6 legs away) and plays clues that locate a
    treasure near its own ATV (large ``locate_bonus``). Takes cards of 3 coins or more."""

    name = "hunter"
    default_style = Style(take_at=3, locate_bonus=10.0, chase_legs=6, clue_weight=0.5)


class Cartographer(ScriptedPlayer):
    """Narrows maps (clue plays weighted by cells eliminated) and spreads its roses over
    maps where it has few (``spread_bonus``) to share in many treasures; chases only treasures
    within one turn of driving."""

    name = "cartographer"
    default_style = Style(
        take_at=4, locate_bonus=2.0, spread_bonus=1.5, chase_legs=3, clue_weight=2.0
    )


class Collector(ScriptedPlayer):
    """Values amulets: detours up to 2 legs to collect them, spends them on marker removals
    and extra moves that win a treasure, and keeps one in reserve against curses."""

    name = "collector"
    default_style = Style(take_at=4, amulet_legs=2, amulet_move_legs=3, reserve=1, chase_legs=4)


class Cautious(ScriptedPlayer):
    """Uses what it drew for a distribution: after drawing a curse it takes any card of 2 or
    more (the sharing may stop any moment), otherwise waits for the high cards it saw; keeps
    two amulets against curses."""

    name = "cautious"
    default_style = Style(take_at=5, curse_take_at=2, curse_memory=True, reserve=2, chase_legs=3)
