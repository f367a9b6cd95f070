"""Island files: a valid example loads, formatting round-trips, broken files are rejected
with one line naming the file, the place and the rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.errors import InputError
from sim.paths import data_dir
from sim.tobago.island_file import format_island, load_island_file, parse_island_text
from sim.tobago.modular import load_island
from sim.tobago.terrain import TERRAIN_NAMES

EXAMPLE = data_dir() / "islands" / "example.island"


def test_example_file_loads_with_fixed_landmarks() -> None:
    board = load_island_file(EXAMPLE)
    assert board.island.name == "example"
    assert board.fixed is not None
    assert len(board.fixed.huts) == 4 and len(board.fixed.palms) == 3
    assert len(board.fixed.statues) == 3 and all(f is not None for f in board.fixed.facings)


def test_small_file_coordinates_by_hand() -> None:
    text = """
name = "tiny"
[map]
 J J
S B R
 L M
"""
    # Interior beach breaks a rule, so check geometry through the error's cell name.
    with pytest.raises(InputError) as err:
        parse_island_text(text, "tiny.island")
    # Row 2 of the drawing is line 5; the B sits in text column 3 -> q = (2 - 1 - 1) / 2 = 0.
    assert str(err.value) == (
        "tiny.island: line 5, column 3 (cell q=0, r=1): beach cell does not touch the ocean"
    )


@pytest.mark.parametrize("name", ["abc-1", "ABC-4", "aBc-2"])
def test_format_then_parse_round_trips(name: str) -> None:
    island = load_island(name)
    board = parse_island_text(format_island(island), "x.island")
    assert board.island.coords == island.coords
    assert board.island.terrain == island.terrain
    assert board.fixed is None


def test_landmarks_round_trip_through_the_file() -> None:
    board = load_island_file(EXAMPLE)
    assert board.fixed is not None
    again = parse_island_text(format_island(board.island, board.fixed), "x.island")
    assert again.fixed == board.fixed


def test_statue_without_facing_draws_one_per_game() -> None:
    text = EXAMPLE.read_text()
    first_statue = next(d for d in "012345" if d in text.split("[landmarks]")[1])
    head, tail = text.split("[landmarks]")
    board = parse_island_text(head + "[landmarks]" + tail.replace(first_statue, "s", 1), "x")
    assert board.fixed is not None and None in board.fixed.facings


LINE = "J M S B R L"


def broken(header: str, drawing: str, landmarks: str | None = None) -> str:
    text = header + "\n[map]\n" + drawing + "\n"
    if landmarks is not None:
        text += "[landmarks]\n" + landmarks + "\n"
    return text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name = x\n", "f.island: no [map] block (the island must be drawn under [map])"),
        (
            broken("colour = red", LINE),
            "f.island: line 1: unknown key (allowed: name, description, q0, r0)",
        ),
        (broken("q0 = left", LINE), "f.island: line 1: q0 must be an integer"),
        (
            broken("name = x", "J M X B R L"),
            "f.island: line 3, column 5: not a terrain letter (allowed: J M S B R L .)",
        ),
        (broken("name = x", "J M  S B R L"), "f.island: line 3, column 6: 'S' is off the hex grid"),
        (
            broken("name = x", "J M\tS B R L"),
            "f.island: line 3, column 4: tab found; draw hexes with spaces",
        ),
        (
            broken("name = x", "J M S B R L . . J J"),
            "f.island: line 3, column 17 (cell q=8, r=0): cell is not connected to the rest",
        ),
        (
            broken("name = x", "J M S B R"),
            "f.island: [map]: terrain lake is missing (all six are required)",
        ),
        (
            broken("name = x", "J M J S B R L"),
            "f.island: line 3, column 5 (cell q=2, r=0): 2 jungle areas tie for largest at 1 cells",
        ),
        (
            broken("name = x", " J J\nS M R\n L B"),
            "f.island: [map]: no legal landmark placement exists",
        ),
        (
            broken("name = x", LINE + "\n[moon]"),
            "f.island: line 4: unknown block (allowed: [map], [landmarks])",
        ),
    ],
)
def test_broken_small_files(text: str, message: str) -> None:
    with pytest.raises(InputError) as err:
        parse_island_text(text, "f.island")
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def _landmark_block() -> tuple[str, list[str]]:
    head, tail = EXAMPLE.read_text().split("[landmarks]\n")
    return head, tail.splitlines()


def _find(rows: list[str], ch: str) -> tuple[int, int]:
    for i, line in enumerate(rows):
        if ch in line:
            return i, line.index(ch)
    raise AssertionError(ch)


def _put(rows: list[str], i: int, col: int, ch: str) -> list[str]:
    rows = list(rows)
    rows[i] = rows[i][:col] + ch + rows[i][col + 1 :]
    return rows


def test_landmark_on_the_ocean_is_rejected() -> None:
    head, rows = _landmark_block()
    i, col = _find(rows, "p")
    rows = _put(_put(rows, i, col, "."), 0, 0, "p")
    with pytest.raises(InputError, match=r"line \d+, column 1 .*landmark 'p' stands on the ocean"):
        parse_island_text(head + "[landmarks]\n" + "\n".join(rows), "f.island")


def test_missing_palm_is_rejected() -> None:
    head, rows = _landmark_block()
    i, col = _find(rows, "p")
    rows = _put(rows, i, col, ".")
    with pytest.raises(InputError, match=r"f.island: \[landmarks\]: needs 3 palms, found 2"):
        parse_island_text(head + "[landmarks]\n" + "\n".join(rows), "f.island")


def test_huts_too_close_are_rejected() -> None:
    board = load_island_file(EXAMPLE)
    assert board.fixed is not None
    taken = set(board.fixed.huts + board.fixed.palms + board.fixed.statues)
    # Move the second hut right next to the first one, onto a cell with no object.
    free = next(j for j in board.island.neighbours[board.fixed.huts[0]] if j not in taken)
    layout = type(board.fixed)(
        (board.fixed.huts[0], free, *board.fixed.huts[2:]),
        board.fixed.palms,
        board.fixed.statues,
        board.fixed.facings,
    )
    q, r = board.island.coords[free]
    with pytest.raises(
        InputError, match=rf"\(cell q={q}, r={r}\): two huts are 1 apart \(at least 4 required\)"
    ):
        parse_island_text(format_island(board.island, layout), "f.island")


def test_statue_on_the_coast_is_rejected() -> None:
    board = load_island_file(EXAMPLE)
    assert board.fixed is not None
    taken = set(board.fixed.huts + board.fixed.palms + board.fixed.statues)
    coast = next(
        i for i in range(board.island.n) if (board.island.coast_mask >> i) & 1 and i not in taken
    )
    layout = type(board.fixed)(
        board.fixed.huts, board.fixed.palms, (coast, *board.fixed.statues[1:]), board.fixed.facings
    )
    q, r = board.island.coords[coast]
    with pytest.raises(InputError, match=rf"\(cell q={q}, r={r}\): a statue touches the ocean"):
        parse_island_text(format_island(board.island, layout), "f.island")


def test_shifted_landmark_drawing_is_rejected() -> None:
    head, rows = _landmark_block()
    shifted = [" " + line for line in rows]
    with pytest.raises(InputError, match=r"\[landmarks\]: the drawing is shifted by one column"):
        parse_island_text(head + "[landmarks]\n" + "\n".join(shifted), "f.island")


def test_missing_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="island file not found"):
        load_island_file(tmp_path / "nope.island")


def test_terrain_names_are_the_documented_ones() -> None:
    assert TERRAIN_NAMES == ("jungle", "mountain", "scrub", "beach", "river", "lake")


def test_header_values_may_carry_comments() -> None:
    text = EXAMPLE.read_text().replace('name = "example"', 'name = "ex #1"  # a comment', 1)
    text = text.replace("q0 = -3", "q0 = -3  # first column")
    board = parse_island_text(text, "x.island")
    assert board.island.name == "ex #1"
    assert board.island.coords == load_island_file(EXAMPLE).island.coords
