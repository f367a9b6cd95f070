"""The hand-writable island file: reading (with validation) and writing.

Format (documented in ``data/README.md``)::

    # comment
    name = "lagoon"
    [map]
       . B B .
      B J J M B
       R L M S .
    [landmarks]
       . h . .
      . . 2 . p
       . . . . .

Header lines ``key = value`` come first (``name``, ``description``, ``q0``, ``r0``). ``[map]``
draws the hexes as rows of terrain letters (``J`` jungle, ``M`` mountain, ``S`` scrub, ``B``
beach, ``R`` river, ``L`` lake, ``.`` ocean), one cell every other text column, each row shifted
half a hex from the one above. The optional ``[landmarks]`` block is drawn over the same grid:
``h`` hut, ``p`` palm, ``s`` statue with a facing drawn per game, ``0``-``5`` a statue facing
that direction (clockwise from east: E, SE, SW, W, NW, NE); ``.`` or a terrain letter means no
object. Axial coordinates: ``r = r0 + row``, ``q = q0 + (column - row - parity) / 2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sim.errors import InputError
from sim.text_input import read_text
from sim.tobago.board import Board, FixedLayout
from sim.tobago.hexgrid import DIRECTION_NAMES, Hex
from sim.tobago.island import Island
from sim.tobago.landmarks import (
    DEFAULT_MIN_DISTANCE,
    STATUE,
    Landmarks,
    landmark_problems,
    objects_by_cell,
)
from sim.tobago.terrain import OCEAN_LETTER, TERRAIN_BY_LETTER, TERRAIN_LETTERS
from sim.tobago.validation import MAX_CELLS, island_problems

_HEADER_KEYS = ("name", "description", "q0", "r0")
_LANDMARK_LETTERS = "hps012345"


@dataclass(frozen=True, slots=True)
class _Drawn:
    """One drawn character: its file position (1-based) and its cell."""

    line: int
    column: int
    char: str
    cell: Hex


def _fail(path: str, where: str, message: str) -> InputError:
    return InputError(f"{path}: {where}: {message}")


def _parse_value(path: str, lineno: int, key: str, raw: str) -> str | int:
    raw = raw.strip()
    if raw[:1] in ("'", '"') and raw[0] in raw[1:]:
        raw = raw[: raw.index(raw[0], 1) + 1]  # a quoted value; anything after is a comment
    else:
        raw = raw.split("#", 1)[0].strip()
    if key in ("q0", "r0"):
        try:
            return int(raw)
        except ValueError:
            raise _fail(path, f"line {lineno}", f"{key} must be an integer") from None
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'":
        raw = raw[1:-1]
    if not raw:
        raise _fail(path, f"line {lineno}", f"{key} must not be empty")
    return raw


def _grid(
    path: str, rows: list[tuple[int, str]], allowed: str, what: str
) -> tuple[list[_Drawn], int | None]:
    """The characters of a drawn block with their file positions, and the column parity."""
    drawn: list[_Drawn] = []
    parity: int | None = None
    for row, (lineno, text) in enumerate(rows):
        if "\t" in text:
            col = text.index("\t") + 1
            raise _fail(path, f"line {lineno}, column {col}", "tab found; draw hexes with spaces")
        for col, ch in enumerate(text):
            if ch == " ":
                continue
            if ch not in allowed:
                raise _fail(
                    path,
                    f"line {lineno}, column {col + 1}",
                    f"not a {what} letter (allowed: {' '.join(allowed)})",
                )
            if parity is None:
                parity = (col - row) % 2
            if (col - row - parity) % 2:
                raise _fail(
                    path,
                    f"line {lineno}, column {col + 1}",
                    f"{ch!r} is off the hex grid (cells sit on every other column, each row "
                    "shifted by one column from the row above)",
                )
            drawn.append(_Drawn(lineno, col + 1, ch, (0, 0)))
    return drawn, parity


def read_blocks(
    text: str, path: str, block_names: tuple[str, ...], header_keys: tuple[str, ...]
) -> tuple[dict[str, str | int], dict[str, list[tuple[int, str]]]]:
    """Split a drawing file into its ``key = value`` header and its named drawn blocks.

    Blocks map to ``(line number, line)`` rows; blank lines before and after a drawing are
    dropped, ``#`` lines are comments everywhere.
    """
    header: dict[str, str | int] = {}
    blocks: dict[str, list[tuple[int, str]]] = {}
    section: str | None = None
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("#"):
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1].strip()
            if section not in block_names:
                allowed = ", ".join(f"[{b}]" for b in block_names)
                raise _fail(path, f"line {lineno}", f"unknown block (allowed: {allowed})")
            if section in blocks:
                raise _fail(path, f"line {lineno}", f"block [{section}] appears twice")
            blocks[section] = []
            continue
        if section is None:
            if not stripped:
                continue
            if "=" not in stripped:
                raise _fail(path, f"line {lineno}", "expected 'key = value' or a [block] line")
            key, _, value = stripped.partition("=")
            key = key.strip()
            if key not in header_keys:
                raise _fail(
                    path,
                    f"line {lineno}",
                    f"unknown key (allowed: {', '.join(header_keys)})",
                )
            header[key] = _parse_value(path, lineno, key, value)
            continue
        if not stripped and not blocks[section]:
            continue
        blocks[section].append((lineno, line.rstrip()))
    for rows in blocks.values():
        while rows and not rows[-1][1].strip():
            rows.pop()
    return header, blocks


def drawn_cells(
    path: str, rows: list[tuple[int, str]], allowed: str, what: str, q0: int, r0: int
) -> tuple[list[tuple[Hex, str, str]], int | None]:
    """The cells of a drawn block as ``(cell, letter, 'line L, column C (cell q=.., r=..)')``,
    and the block's column parity (None when it draws nothing)."""
    drawn, parity = _grid(path, rows, allowed, what)
    if parity is None:
        return [], None
    first_line = rows[0][0]
    out = []
    for d in drawn:
        row = d.line - first_line
        cell = (q0 + (d.column - 1 - row - parity) // 2, r0 + row)
        out.append(
            (cell, d.char, f"line {d.line}, column {d.column} (cell q={cell[0]}, r={cell[1]})")
        )
    return out, parity


def parse_island_text(text: str, path: str = "<island>") -> Board:
    """Parse and validate an island file's text; ``InputError`` names the line and rule."""
    header, blocks = read_blocks(text, path, ("map", "landmarks"), _HEADER_KEYS)
    if "map" not in blocks:
        raise InputError(f"{path}: no [map] block (the island must be drawn under [map])")
    name = str(header.get("name", Path(path).stem))
    q0 = int(header.get("q0", 0))
    r0 = int(header.get("r0", 0))
    letters = "".join(TERRAIN_LETTERS) + OCEAN_LETTER
    map_cells, parity = drawn_cells(path, blocks["map"], letters, "terrain", q0, r0)
    if parity is None:
        raise InputError(f"{path}: the [map] block draws no cells")
    cells: list[tuple[Hex, int]] = []
    where: dict[Hex, str] = {}
    for cell, ch, spot in map_cells:
        if ch != OCEAN_LETTER:
            cells.append((cell, TERRAIN_BY_LETTER[ch]))
            where[cell] = spot
    if len(cells) > MAX_CELLS:  # before building: the island's tables grow with cells squared
        raise _fail(
            path, "[map]", f"the island has {len(cells)} cells (at most {MAX_CELLS} allowed)"
        )
    island = Island(name, cells, origin="file")
    for cell_id, message in island_problems(island):
        raise _fail(
            path, where[island.coords[cell_id]] if cell_id is not None else "[map]", message
        )

    fixed = None
    if "landmarks" in blocks:
        lm_cells, lm_parity = drawn_cells(
            path, blocks["landmarks"], _LANDMARK_LETTERS + letters, "landmark", q0, r0
        )
        if lm_parity is not None and lm_parity != parity:
            raise InputError(
                f"{path}: [landmarks]: the drawing is shifted by one column against [map] "
                "(draw it over exactly the same grid)"
            )
        huts: list[int] = []
        palms: list[int] = []
        statues: list[int] = []
        facings: list[int | None] = []
        for cell, ch, spot in lm_cells:
            if ch not in _LANDMARK_LETTERS:
                continue
            if cell not in island.index:
                raise _fail(path, spot, f"landmark {ch!r} stands on the ocean")
            i = island.index[cell]
            if ch == "h":
                huts.append(i)
            elif ch == "p":
                palms.append(i)
            else:
                statues.append(i)
                facings.append(None if ch == "s" else int(ch))
        probe = Landmarks(tuple(huts), tuple(palms), tuple(statues), tuple(f or 0 for f in facings))
        for cell_id, message in landmark_problems(island, probe, DEFAULT_MIN_DISTANCE):
            spot = where[island.coords[cell_id]] if cell_id is not None else "[landmarks]"
            raise _fail(path, spot, message)
        fixed = FixedLayout(tuple(huts), tuple(palms), tuple(statues), tuple(facings))
    return Board(island, fixed)


def load_island_file(path: Path) -> Board:
    """Read and validate an island file."""
    return parse_island_text(read_text(path, "island file"), str(path))


def format_island(island: Island, landmarks: Landmarks | FixedLayout | None = None) -> str:
    """The island (and landmarks, if given) in island-file format; parses back identically.

    One ring of ocean is drawn around the island so that its coast is visible.
    """
    xs = [2 * q + r for q, r in island.coords]
    rs = [r for _, r in island.coords]
    r0 = min(rs) - 1
    min_x, max_x = min(xs) - 2, max(xs) + 2
    q0 = (min_x - r0) // 2
    base = r0 + 2 * q0  # text column (0-based) of a cell = 2q + r - base
    kind_of: dict[int, str] = {}
    if landmarks is not None:
        for i, (kind, facing) in objects_by_cell(landmarks).items():
            kind_of[i] = kind[0] if kind != STATUE or facing is None else str(facing)

    def draw(layer: str) -> list[str]:
        out = []
        for r in range(r0, max(rs) + 2):
            line = [" "] * (max_x - base + 1)
            for x in range(min_x + (min_x - r) % 2, max_x + 1, 2):
                i = island.index.get(((x - r) // 2, r), -1)
                if layer == "map":
                    ch = TERRAIN_LETTERS[island.terrain[i]] if i >= 0 else OCEAN_LETTER
                else:
                    ch = kind_of.get(i, ".")
                line[x - base] = ch
            out.append("".join(line).rstrip())
        return out

    lines = [f'name = "{island.name}"', f"q0 = {q0}", f"r0 = {r0}", "[map]", *draw("map")]
    if landmarks is not None:
        facings = ", ".join(f"{k} {n}" for k, n in enumerate(DIRECTION_NAMES))
        lines += [f"# statue facings: {facings}", "[landmarks]", *draw("landmarks")]
    return "\n".join(lines) + "\n"
