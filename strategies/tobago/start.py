"""Where a scripted Tobago player puts its ATV at the start (rules §9.5).

A weighted score per cell, from four features (weights are style parameters):

- ``start_reach``: how central the cell is (cells within two legs, as a share of the best);
- ``start_terrains``: how many terrains lie under it or one leg away (as a share of the best):
  near many terrains, many clues will name cells close by;
- ``start_gaze``: closeness (``1 / (1 + legs)``, legs counted up to 3) to the nearest cell
  where a statue's gaze drops an amulet after the first raise (rules §8.2): an ATV standing
  there takes it at the start of its next turn;
- ``start_apart``: legs to the nearest ATV already placed (up to 3, as a share of 3).

Only a shortlist is scored: the 6 best cells by the static part (reach and terrains, cached
per island and weights) plus the gaze cells. Legs to the nearest gaze cell or rival are read
from masks of the cells 0, 1, 2 legs around them (the union of their leg layers), so a
choice costs a few microseconds. Ties go to the seat's own random generator.
"""

from __future__ import annotations

import random

from sim.tobago.island import Island
from sim.tobago.view import PlayerView
from strategies.tobago.geometry import cell_features, leg_tables, per_island
from strategies.tobago.style import Style

#: Cells kept from the static ranking.
SHORTLIST = 6
#: Legs to a rival or gaze cell beyond which being farther counts no more.
CAP = 3

#: Per island and weights: every cell's static score, the shortlist (a mask) and the cells
#: with the best static score (a tuple).
_Static = tuple[tuple[float, ...], int, tuple[int, ...]]
_static_cache: dict[int, tuple[Island, dict[tuple[float, float], _Static]]] = {}


def _static(island: Island, reach_w: float, terrain_w: float) -> _Static:
    """The static part of the start score (cached per island and weights)."""
    table = per_island(_static_cache, island, dict)
    key = (reach_w, terrain_w)
    hit = table.get(key)
    if hit is None:
        reach, kinds = cell_features(island)
        score = tuple(reach_w * r + terrain_w * k for r, k in zip(reach, kinds, strict=True))
        ranked = sorted(range(island.n), key=lambda c: -score[c])
        mask = 0
        for c in ranked[:SHORTLIST]:
            mask |= 1 << c
        top = max(score)
        best = tuple(c for c in range(island.n) if score[c] > top - 1e-9)
        hit = table[key] = (score, mask, best)
    return hit


def gaze_cells(view: PlayerView, turns: int = 1) -> list[int]:
    """The cells where amulets appear after each of the next ``turns`` raises (each statue's
    last island cell along its facing, then along the facing turned 60° clockwise)."""
    ends = _gaze_ends(view.island)
    out: list[int] = []
    for statue, facing in zip(view.landmarks.statues, view.facings, strict=True):
        for k in range(turns):
            out.append(ends[statue][(facing + k) % 6])
    return out


_gaze_cache: dict[int, tuple[Island, tuple[tuple[int, ...], ...]]] = {}


def _gaze_ends(island: Island) -> tuple[tuple[int, ...], ...]:
    """Per cell and facing, the last island cell looking that way (cached per island)."""

    def make() -> tuple[tuple[int, ...], ...]:
        step = island.step
        out = []
        for start in range(island.n):
            row = []
            for facing in range(6):
                cell = start
                nxt = step[cell][facing]
                while nxt >= 0:
                    cell = nxt
                    nxt = step[cell][facing]
                row.append(cell)
            out.append(tuple(row))
        return tuple(out)

    return per_island(_gaze_cache, island, make)


def _rings(sources: list[int], layers: tuple[tuple[int, ...], ...]) -> tuple[int, int, int]:
    """Masks of the cells 0, at most 1 and at most 2 legs from the nearest of ``sources``."""
    r0 = r1 = r2 = 0
    for s in sources:
        around = layers[s]
        r0 |= around[0]
        if len(around) > 1:
            r1 |= around[1]
            if len(around) > 2:
                r2 |= around[2]
    r1 |= r0
    return r0, r1, r2 | r1


def choose_start(style: Style, view: PlayerView, cells: int, rng: random.Random) -> int:
    """The best cell of ``cells`` by the style's start weights."""
    island = view.island
    score, pool, top = _static(island, style.start_reach, style.start_terrains)
    seat = view.seat
    rivals = (
        [view.atv(p) for p in range(view.n_players) if p != seat and view.atv(p) >= 0]
        if style.start_apart
        else []
    )
    if not style.start_gaze and not rivals:
        # Only the static score counts: its best cells are known per island.
        picks = [c for c in top if cells >> c & 1]
        if picks:
            return picks[0] if len(picks) == 1 else picks[rng.randrange(len(picks))]
    layers = leg_tables(island)[1]
    # Per feature: the masks of the cells 0, <= 1, <= 2 legs from its sources, and the score
    # added at 0, 1, 2 and 3 or more legs.
    gaze = apart = (0, 0, 0)
    if style.start_gaze:
        sources = gaze_cells(view)
        for g in sources:
            pool |= 1 << g
        gaze = _rings(sources, layers)
    if rivals:
        apart = _rings(rivals, layers)
    wg = style.start_gaze
    g0, g1, g2 = gaze
    wa = style.start_apart / CAP
    a0, a1, a2 = apart
    pool &= cells
    if not pool:
        pool = cells
    best: list[int] = []
    best_score = -1.0
    while pool:
        low = pool & -pool
        pool ^= low
        c = low.bit_length() - 1
        value = score[c]
        if g2:
            value += wg / (1 if low & g0 else 2 if low & g1 else 3 if low & g2 else 4)
        if a2:
            value += wa * (0 if low & a0 else 1 if low & a1 else 2 if low & a2 else CAP)
        if value > best_score + 1e-9:
            best, best_score = [c], value
        elif value > best_score - 1e-9:
            best.append(c)
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]
