"""Dice Race as ``tourney`` sees it: its :class:`~sim.game.GameKind`, the one thing the
package registers (the ``tourney.games`` entry point ``dice-race`` in its dist-info). The
kind holds the game's rules and engine (:mod:`.game`) and its tables, and names, by import
path, what the layers above the runner load when they need it: its players' catalog
(:mod:`.players`). A report part (``report=``, a ``GameReport``) and commands
(``commands=``, a module that registers them) are optional: without them the game gets the
common report and the common commands.
"""

from __future__ import annotations

from sim.game import GameFacts, GameKind
from sim.game_tables import BASIC_SCHEMAS, BASIC_TABLES, BasicTableBuilder
from tourney_dice_race.game import (
    EVENTS,
    KEYS,
    DiceRaceGame,
    DiceRaceRules,
    build,
    load_rules,
    render,
    with_overrides,
)

KIND: GameKind[DiceRaceRules, DiceRaceGame] = GameKind(
    name="dice-race",
    title="Dice Race",
    # The tables every game shares, built by the contract's own builder.
    tables=BASIC_TABLES,
    builder=lambda game, labels: BasicTableBuilder(game, labels, list(EVENTS)),
    schemas=lambda: BASIC_SCHEMAS,
    boards=None,
    load_rules=load_rules,
    with_overrides=with_overrides,
    rules_keys=KEYS,
    build=build,
    default_rules="standard",
    render=render,
    event_names=EVENTS,
    log=lambda game: game.log,
    facts=GameFacts(players=(2, 4), end_reasons=("deck_exhausted", "turn_cap", "timeout")),
    ablations={"busts": {"busts": False}},
    # Imported by the strategies layer when a command first names a player of the game.
    strategies="tourney_dice_race.players:CATALOG",
)
