"""Dice Race: a deliberately tiny third game, installed only for the tests, that proves a
game can live in its own package. Everything ``tourney`` knows of it comes through the
entry points of its ``tourney_dice_race-1.0.dist-info``: the game (``game.KIND``) and its
players (``players.CATALOG``). It registers no report part, so reports show the common one.
"""
