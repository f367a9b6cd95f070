"""Where a reference game's time goes: the bench's games under cProfile, each profiled
function charged to a part of the game (a builtin to its caller's part)."""

from __future__ import annotations

import cProfile
import os
import pstats
from typing import Any

from .capture import setup_games

#: The parts of a game, as ``file:function`` of the reference and its built-in players (``*``:
#: every function of the file); a builtin's time goes to the part of its caller.
PARTS: dict[str, str] = {
    "clue filter (legal clue plays, their scoring)": "legal_actions.py:_clue_plays "
    "scripted.py:_best_clue scripted.py:best_share amulets.py:_locate_now state.py:clue_legal",
    "movement (legs: the engine's and the leg choice)": "turn.py:_move scripted.py:_leg "
    "scripted.py:_target scripted.py:_wander island.py:bits_of geometry.py:legs_from",
    "distribution (raise, draws, offers, curses, amulets appear)": "distribution.py:* "
    "scripted.py:_offer seeding.py:shuffle",
    "setup and deal (landmarks, clue masks, seats, start cells)": "engine.py:__init__ "
    "engine.py:setup deal.py:* landmarks.py:* clues.py:* board.py:* start.py:* "
    "state.py:__init__ referee.py:seat_game referee.py:_build referee.py:__init__ "
    "seeding.py:* kind.py:build",
    "referee and views (asking, checking answers, what a seat sees)": "referee.py:ask "
    "referee.py:asker engine.py:ask view.py:* state.py:located_cells",
    "turn logic (turn loop, main actions, amulets, deadlock)": "turn.py:* engine.py:* "
    "legal_actions.py:* state.py:* scripted.py:* amulets.py:* deadlock.py:*",
}
OTHER = "the rest"


def part_of(where: tuple[str, int, str]) -> str | None:
    """The part a profiled function belongs to (None: a builtin, charged to its caller)."""
    path, _, name = where
    if path == "~":
        return None
    base = os.path.basename(path)
    for part, members in PARTS.items():
        if f"{base}:{name}" in members.split() or f"{base}:*" in members.split():
            return part
    return OTHER


def profile_shares(games: int) -> tuple[dict[str, float], float]:
    """cProfile ``games`` of the bench's games: each part's share of the profiled time, and
    that time."""
    kind, rules, factories, plans = setup_games(games)
    profiler = cProfile.Profile()
    profiler.enable()
    for plan in plans:
        kind.play(plan, rules, factories)
    profiler.disable()
    stats: Any = pstats.Stats(profiler).stats  # type: ignore[attr-defined] # (file, line, name) -> (cc, nc, tt, ct, callers)
    seconds: dict[str, float] = {}
    for where, (_, _, own, _, callers) in stats.items():
        part = part_of(where)
        if part is not None:
            seconds[part] = seconds.get(part, 0.0) + own
            continue
        for caller, (_, _, tt, _) in callers.items():  # per-caller own time of a builtin
            charged = part_of(caller) or OTHER
            seconds[charged] = seconds.get(charged, 0.0) + tt
    total = sum(seconds.values())
    return {part: t / total for part, t in sorted(seconds.items(), key=lambda x: -x[1])}, total
