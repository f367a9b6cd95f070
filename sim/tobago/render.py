"""Text rendering of an island for people: a hex drawing with landmarks and a legend.

Each cell is drawn as its terrain letter followed by a landmark mark (``h`` hut, ``p`` palm,
an arrow for a statue pointing where it faces) or a space; ``~`` is ocean. With ``color=True``
terrains get ANSI background colours close to the board's (rules §2.1).
"""

from __future__ import annotations

from sim.tobago.hexgrid import DIRECTION_ARROWS, DIRECTION_NAMES
from sim.tobago.island import Island
from sim.tobago.landmarks import Landmarks, objects_by_cell
from sim.tobago.terrain import TERRAIN_LETTERS, TERRAIN_NAMES

_BG = ("42", "100", "102", "103", "46", "44")  # jungle, mountain, scrub, beach, river, lake
_OCEAN = "~   "


def render_island(island: Island, landmarks: Landmarks | None = None, color: bool = False) -> str:
    """The island as a multi-line string (no trailing newline)."""
    mark: dict[int, str] = {}
    if landmarks is not None:
        for i, (kind, facing) in objects_by_cell(landmarks).items():
            mark[i] = kind[0] if facing is None else DIRECTION_ARROWS[facing]
    xs = [2 * q + r for q, r in island.coords]
    rs = [r for _, r in island.coords]
    min_x, max_x = min(xs) - 2, max(xs) + 2
    lines = []
    for r in range(min(rs) - 1, max(rs) + 2):
        parts = []
        first = min_x + (min_x - r) % 2
        parts.append("  " * (first - min_x))
        for x in range(first, max_x + 1, 2):
            i = island.index.get(((x - r) // 2, r), -1)
            if i < 0:
                token = _OCEAN
            else:
                token = TERRAIN_LETTERS[island.terrain[i]] + mark.get(i, " ")
                if color:
                    token = f"\x1b[30;{_BG[island.terrain[i]]}m{token}\x1b[0m"
                token += "  "
            parts.append(token)
        lines.append("".join(parts).rstrip())
    legend = "  ".join(f"{TERRAIN_LETTERS[t]} {name}" for t, name in enumerate(TERRAIN_NAMES))
    arrows = " ".join(f"{a}{n}" for a, n in zip(DIRECTION_ARROWS, DIRECTION_NAMES, strict=True))
    lines.append("")
    lines.append(f"{legend}  ~ ocean")
    if landmarks is not None:
        lines.append(f"h hut  p palm  statue facing: {arrows}")
    return "\n".join(lines)
