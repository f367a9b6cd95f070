"""The project's own modular island: 3 double-sided sections, 4 arrangements, 32 islands.

The board is a roughly hexagonal region around the vertex shared by the cells ``(0, 0)``,
``(1, 0)`` and ``(0, 1)``, cut into three 120-degree sectors (see :mod:`sim.tobago.hexgrid`).
Each section has a small face (``a``, ``b``, ``c``) and a large face (``A``, ``B``, ``C``), all
drawn in sector 0 in ``data/islands/sections.txt``. An island takes one face per section and
one arrangement:

==  ===========================================================
1   sections 1, 2, 3 in sectors 0, 1, 2 (counter-clockwise)
2   sections 1, 3, 2 in sectors 0, 1, 2
3   arrangement 1 mirrored (``(q, r) -> (r, q)``)
4   arrangement 2 mirrored
==  ===========================================================

so ``aBc-2`` is the small face of section 1, the large face of section 2 and the small face of
section 3, in arrangement 2. The faces were produced by :mod:`sim.tobago.section_designer`
and are checked in as data; every one of the 32 islands passes :mod:`sim.tobago.validation`.
"""

from __future__ import annotations

import functools
import itertools
from pathlib import Path

from sim.errors import InputError
from sim.paths import data_dir
from sim.tobago.hexgrid import Hex, distance, mirror_about_vertex, rotate_about_vertex, sector_of
from sim.tobago.island import Island
from sim.tobago.island_file import drawn_cells, read_blocks
from sim.tobago.terrain import OCEAN_LETTER, TERRAIN_BY_LETTER, TERRAIN_LETTERS
from sim.tobago.validation import island_problems

#: Cells of the board region: at most this far from each of the three centre cells.
REGION_RADIUS = 8
#: The three cells around the assembly vertex.
CENTRE_CELLS: tuple[Hex, ...] = ((0, 0), (1, 0), (0, 1))
#: Face letters per section (small, large).
SECTION_FACES: tuple[tuple[str, str], ...] = (("a", "A"), ("b", "B"), ("c", "C"))
FACE_NAMES: tuple[str, ...] = ("a", "A", "b", "B", "c", "C")
ARRANGEMENTS: tuple[int, ...] = (1, 2, 3, 4)

Face = dict[Hex, int]


def in_region(cell: Hex) -> bool:
    """Whether ``cell`` lies inside the board region."""
    return all(distance(cell, c) <= REGION_RADIUS for c in CENTRE_CELLS)


def sector_cells() -> list[Hex]:
    """The region's cells in sector 0, where faces are drawn, sorted by row then column."""
    span = range(-REGION_RADIUS - 2, REGION_RADIUS + 3)
    cells = [(q, r) for r in span for q in span if in_region((q, r)) and sector_of((q, r)) == 0]
    return sorted(cells, key=lambda c: (c[1], c[0]))


def sections_path() -> Path:
    """The checked-in face data."""
    return data_dir() / "islands" / "sections.txt"


def parse_faces(text: str, path: str) -> dict[str, Face]:
    """The six faces from the sections file, each checked to lie inside sector 0."""
    header, blocks = read_blocks(text, path, FACE_NAMES, ("description", "q0", "r0"))
    q0 = int(header.get("q0", 0))
    r0 = int(header.get("r0", 0))
    letters = "".join(TERRAIN_LETTERS) + OCEAN_LETTER
    faces: dict[str, Face] = {}
    for name in FACE_NAMES:
        if name not in blocks:
            raise InputError(f"{path}: face [{name}] is missing (faces: {', '.join(FACE_NAMES)})")
        face: Face = {}
        cells, _ = drawn_cells(path, blocks[name], letters, "terrain", q0, r0)
        for cell, ch, spot in cells:
            if ch == OCEAN_LETTER:
                continue
            if not in_region(cell) or sector_of(cell) != 0:
                raise InputError(f"{path}: [{name}] {spot}: cell lies outside the face's sector")
            face[cell] = TERRAIN_BY_LETTER[ch]
        faces[name] = face
    return faces


def format_faces(faces: dict[str, Face], description: str = "") -> str:
    """The sections file for ``faces``, drawing every sector cell (``.`` where ocean)."""
    region = sector_cells()
    r_lo = min(r for _, r in region)
    r_hi = max(r for _, r in region)
    xs = [2 * q + r for q, r in region]
    min_x, max_x = min(xs), max(xs)
    q0 = (min_x - r_lo) // 2
    base = r_lo + 2 * q0
    inside = set(region)
    lines = []
    if description:
        lines.append(f'description = "{description}"')
    lines += [f"q0 = {q0}", f"r0 = {r_lo}"]
    for name in FACE_NAMES:
        lines.append(f"[{name}]")
        for r in range(r_lo, r_hi + 1):
            row = [" "] * (max_x - base + 1)
            for x in range(min_x + (min_x - r) % 2, max_x + 1, 2):
                cell = ((x - r) // 2, r)
                if cell in inside:
                    t = faces[name].get(cell)
                    row[x - base] = OCEAN_LETTER if t is None else TERRAIN_LETTERS[t]
            lines.append("".join(row).rstrip())
    return "\n".join(lines) + "\n"


@functools.cache
def load_faces() -> dict[str, Face]:
    """The six faces from ``data/islands/sections.txt`` (cached)."""
    path = sections_path()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot read section faces ({exc})") from None
    return parse_faces(text, str(path))


def island_names() -> list[str]:
    """The 32 built-in island names, in a stable order."""
    return [
        f"{f1}{f2}{f3}-{arr}"
        for f1, f2, f3 in itertools.product(*SECTION_FACES)
        for arr in ARRANGEMENTS
    ]


def parse_name(name: str) -> tuple[tuple[str, str, str], int] | None:
    """``("a", "B", "c"), 2`` for ``aBc-2``; None if ``name`` is not a modular island."""
    if len(name) != 5 or name[3] != "-" or name[4] not in "1234":
        return None
    faces = (name[0], name[1], name[2])
    for face, options in zip(faces, SECTION_FACES, strict=True):
        if face not in options:
            return None
    return faces, int(name[4])


def assemble(
    faces: dict[str, Face], chosen: tuple[str, str, str], arrangement: int
) -> dict[Hex, int]:
    """The terrain map of one island: faces rotated into their sectors, maybe mirrored."""
    order = (0, 1, 2) if arrangement in (1, 3) else (0, 2, 1)
    cells: dict[Hex, int] = {}
    for slot, section in enumerate(order):
        for cell, t in faces[chosen[section]].items():
            cells[rotate_about_vertex(cell, slot)] = t
    if arrangement in (3, 4):
        cells = {mirror_about_vertex(c): t for c, t in cells.items()}
    return cells


def build_island(name: str, faces: dict[str, Face] | None = None) -> Island:
    """The built-in island ``name`` (not validated; see :func:`load_island`)."""
    parsed = parse_name(name)
    if parsed is None:
        raise KeyError(name)
    chosen, arrangement = parsed
    cells = assemble(faces if faces is not None else load_faces(), chosen, arrangement)
    return Island(name, sorted(cells.items()), origin="modular")


@functools.cache
def load_island(name: str) -> Island:
    """The validated built-in island ``name`` (cached)."""
    island = build_island(name)
    problems = island_problems(island)
    if problems:
        cell, message = problems[0]
        where = f" at cell {island.coords[cell]}" if cell is not None else ""
        raise InputError(f"{sections_path()}: island {name}{where}: {message}")
    return island
