"""Dice Race: a deliberately tiny third game, installed only for the tests, that proves a
game can live in its own package, and the folder a new game starts from
(``docs/adding-a-game.md`` walks through it). Everything ``tourney`` knows of it comes
through one entry point of its ``tourney_dice_race-1.0.dist-info``: its kind
(``kind.KIND``), which names the rest (its players, ``players.CATALOG``). It names no report
part, so reports show the common one.
"""
