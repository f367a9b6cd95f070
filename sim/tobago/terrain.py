"""The six terrains of the island, their letters in island files, and their names.

Terrain codes are small ints so that per-terrain tables are plain tuples indexed by code.
"""

from __future__ import annotations

JUNGLE = 0
MOUNTAIN = 1
SCRUB = 2
BEACH = 3
RIVER = 4
LAKE = 5

#: Terrain codes in a fixed order.
TERRAINS: tuple[int, ...] = (JUNGLE, MOUNTAIN, SCRUB, BEACH, RIVER, LAKE)
#: Names used in clue targets, JSON and reports.
TERRAIN_NAMES: tuple[str, ...] = ("jungle", "mountain", "scrub", "beach", "river", "lake")
#: One letter per terrain in island files and terminal drawings.
TERRAIN_LETTERS: tuple[str, ...] = ("J", "M", "S", "B", "R", "L")
#: The letter for an ocean cell in island files.
OCEAN_LETTER = "."

TERRAIN_BY_NAME: dict[str, int] = {name: code for code, name in enumerate(TERRAIN_NAMES)}
TERRAIN_BY_LETTER: dict[str, int] = {ch: code for code, ch in enumerate(TERRAIN_LETTERS)}
