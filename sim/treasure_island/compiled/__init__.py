"""The compiled Treasure Island engine (numba): the reference engine's games, many per call.

The reference engine (:mod:`sim.treasure_island.engine`) stays the readable definition;
this package plays the same games with the built-in players that can be compiled and gives
the same ``games`` and ``seats`` rows, value for value (checked by the differential tests).
"""
