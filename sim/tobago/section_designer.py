"""Designs the six section faces of the modular island (a maintenance tool, not game code).

Run ``python -m sim.tobago.section_designer [SEED] > data/islands/sections.txt`` to redo the
design. It grows a random shape and terrain for each face in sector 0, then improves the six
faces together by local search (repainting single cells) until all 32 assembled islands pass
validation. The checked-in file is what the game reads; this tool only explains where it came
from and lets a designer start over.

Design constraints beyond validation: small faces hold 20-28 island cells and large faces
30-40; every face holds the centre cell of its sector (so any three faces join up); a beach
cell must see the ocean inside its own sector, so that no neighbouring face can ever land-lock
it.
"""

from __future__ import annotations

import itertools
import math
import random
import sys

from sim.seeding import stream
from sim.tobago.hexgrid import Hex, neighbours
from sim.tobago.island import Island
from sim.tobago.modular import (
    ARRANGEMENTS,
    CENTRE_CELLS,
    FACE_NAMES,
    SECTION_FACES,
    Face,
    assemble,
    format_faces,
    in_region,
    sector_cells,
)
from sim.tobago.terrain import BEACH, TERRAINS
from sim.tobago.terrain_painter import paint
from sim.tobago.validation import island_problems

SMALL_SIZES = (20, 28)
LARGE_SIZES = (30, 40)
_START: Hex = (1, 0)  # the centre cell that lies in sector 0


def beach_allowed(shape: set[Hex]) -> set[Hex]:
    """Shape cells with an ocean neighbour in their own sector or outside the region."""
    sector = set(sector_cells())
    return {
        c
        for c in shape
        if any((n in sector and n not in shape) or not in_region(n) for n in neighbours(c))
    }


def _radius(cell: Hex) -> float:
    """Euclidean distance from the assembly vertex, in hex widths."""
    cx = sum(math.sqrt(3) * (q + r / 2) for q, r in CENTRE_CELLS) / 3
    cy = sum(1.5 * r for _, r in CENTRE_CELLS) / 3
    q, r = cell
    return math.hypot(math.sqrt(3) * (q + r / 2) - cx, 1.5 * r - cy)


def new_shape(rng: random.Random, size: int) -> set[Hex]:
    """``size`` sector cells nearest the centre after a random jitter: a wedge of a round
    island with a ragged coast, so that any three faces close up without holes."""
    while True:
        ranked = sorted(sector_cells(), key=lambda c: _radius(c) + rng.uniform(0.0, 2.2))
        shape = set(ranked[:size])
        if _START in shape and Island("probe", [(c, 0) for c in shape]).is_connected():
            return shape


def new_face(rng: random.Random, large: bool) -> Face:
    """A random face of the right size class."""
    lo, hi = LARGE_SIZES if large else SMALL_SIZES
    while True:
        shape = new_shape(rng, rng.randint(lo + 1, hi - 1))
        face = paint(rng, shape, beach_allowed(shape))
        if set(face.values()) == set(TERRAINS):
            return face


def score(faces: dict[str, Face]) -> int:
    """Validation problems over the 32 islands (heavily weighted), plus one-cell areas
    (speckles that a printed board would not have)."""
    total = 0
    for f1, f2, f3 in itertools.product(*SECTION_FACES):
        for arr in ARRANGEMENTS:
            cells = assemble(faces, (f1, f2, f3), arr)
            island = Island("probe", sorted(cells.items()), origin="modular")
            total += 1000 * len(island_problems(island))
            if arr == 1:
                total += sum(1 for m in island.area_mask if m.bit_count() == 1)
    return total


def mutate(rng: random.Random, faces: dict[str, Face]) -> dict[str, Face]:
    """A copy of ``faces`` with one cell of one face repainted to a neighbouring terrain."""
    name = rng.choice(FACE_NAMES)
    face = dict(faces[name])
    cell = rng.choice(sorted(face))
    options = sorted({face[n] for n in neighbours(cell) if n in face} - {face[cell]})
    if not options:
        return faces
    choice = rng.choice(options)
    if choice == BEACH and cell not in beach_allowed(set(face)):
        return faces
    face[cell] = choice
    return {**faces, name: face}


def design(seed: int, steps: int = 3_000) -> dict[str, Face]:
    """Six faces whose 32 islands are all valid, after ``steps`` of local search."""
    rng = stream(seed, "section-design")
    faces = {name: new_face(rng, name.isupper()) for name in FACE_NAMES}
    best = score(faces)
    for step in range(steps):
        candidate = mutate(rng, faces)
        s = score(candidate)
        if s <= best:
            faces, best = candidate, s
        if best == 0:
            break
        if step % 250 == 0:
            print(f"step {step}: score {best}", file=sys.stderr)
    if best >= 1000:
        raise SystemExit(f"no valid design within {steps} steps (seed {seed})")
    return faces


def main() -> None:
    """Print a sections file designed from the seed given on the command line (default 1)."""
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    faces = design(seed)
    sizes = ", ".join(f"{n}={len(faces[n])}" for n in FACE_NAMES)
    print(f"# Section faces of the modular Tobago island (design seed {seed}; sizes {sizes}).")
    print("# Produced by: python -m sim.tobago.section_designer", seed)
    print("# Each block draws sector 0 of the board region; '.' is ocean. See data/README.md.")
    sys.stdout.write(format_faces(faces, f"modular island faces, design seed {seed}"))


if __name__ == "__main__":
    main()
