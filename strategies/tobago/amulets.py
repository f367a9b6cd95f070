"""How a scripted Tobago player spends amulets (rules §8.4), power by power.

Amulets beyond the style's ``reserve`` (kept against curses, rules §7.4) are *spare*; only
spare ones are spent, except when the game has stalled (no map changed for ``stall_turns``
turns while the player's hand holds no legal clue): then the reserve goes too, since a stalled
game is lost for everyone. At a turn decision the powers are weighed in this order; the first
that applies is used:

1. **marker removal** (``marker_legs`` >= 0): a map showing markers whose treasure the spare
   amulets can locate (candidates - 1 removals) at the candidate nearest to the ATV, when that
   cell is at most ``marker_legs`` legs away and reached this turn (the ATV stands there, or
   the main move is still to come and it is one move away). The ``marker`` answer then keeps
   the nearest candidate and removes the farthest.
2. **extra clue** (``extra_clue_legs`` > 0): an extra clue play that locates a treasure at most
   ``extra_clue_legs`` legs away, reached this turn (so the seat is first to it); not when the
   same card could be played as the main action on the ATV's own cell.
3. **extra move** (``amulet_move_legs`` > 0): toward the nearest located treasure at most
   ``amulet_move_legs`` legs away, when the amulet move gets there this turn: after the main
   action (within one move), or before it, either beyond one move (the main move finishes
   the trip) or within one move with a clue worth playing as the main action afterwards.
   With ``move_race_only`` only when a rival could reach it on its own next turn.
4. **exchange a dead hand** (``exchange_stuck``): before the main action, when no card in
   hand can be played and no located treasure is within one move; with both clue piles
   empty, a marker removal instead (on the map showing the fewest markers).
5. **exchange a poor hand** (``exchange_poor`` > 0): before the main action, when no play
   eliminates at least that share of a map's candidates while a map showing markers has a
   candidate within one move (a treasure is near and the hand cannot help).

Curse protection is the reserve itself; with ``curse_amulet_optional`` (BGA) the player pays
the amulet unless it has no treasure card to lose.
"""

from __future__ import annotations

from typing import Protocol

from sim.tobago import decisions
from sim.tobago.state import N_MAPS
from sim.tobago.view import PlayerView
from strategies.tobago.style import Style

_CLUE = decisions.ActionKind.CLUE
_AMULET_CLUE = decisions.ActionKind.AMULET_CLUE
_AMULET_MARKER = decisions.ActionKind.AMULET_MARKER


class ScriptedPlayer(Protocol):
    """What the amulet choices read of the scripted player they serve
    (:class:`strategies.tobago.scripted.ScriptedPlayer`, which imports this module)."""

    style: Style
    dist: tuple[list[int], ...]
    within: tuple[tuple[int, ...], ...]
    masks: tuple[int, ...]
    marker_threshold: int
    legs_per_move: int

    def may_raise(self, view: PlayerView) -> bool: ...

    def rival_within(self, cell: int, legs: int) -> bool: ...

    def stalled(self, view: PlayerView) -> bool: ...

    def best_clue_score(self, view: PlayerView, actions: tuple[decisions.Action, ...]) -> float: ...

    def best_share(self, view: PlayerView, actions: tuple[decisions.Action, ...]) -> float: ...


#: ``located`` with no treasure located (a comparison is cheaper than ``max``).
_UNLOCATED = (-1,) * N_MAPS


def _least(a: int, b: int, c: int) -> int:
    """``min(a, b, c)`` (the builtin is several times slower on a few ints)."""
    m = a if a < b else b
    return m if m < c else c


def marker_to_remove(cells: int, dist: list[int]) -> int:
    """Of the candidate ``cells``, the one to remove: the farthest (fewest-id first among
    equals) from the ATV (``dist``: legs from it), never the nearest one, which is kept."""
    keep = -1
    keep_d = 10**9
    far = -1
    far_d = -1
    c = cells
    while c:
        low = c & -c
        c ^= low
        cell = low.bit_length() - 1
        x = dist[cell]
        if x < keep_d:
            keep, keep_d = cell, x
        if x > far_d:
            far, far_d = cell, x
    if far == keep:  # every candidate equally far: keep the lowest, remove the next
        rest = cells & ~(1 << keep)
        far = (rest & -rest).bit_length() - 1
    return far


def choose_power(
    player: ScriptedPlayer,
    view: PlayerView,
    actions: tuple[decisions.Action, ...],
    located: tuple[int, ...],
    here: int,
    main_open: bool,
    dead: bool,
) -> decisions.Action | None:
    """The amulet power to use now, or None (see the module for the rules of thumb).

    ``dead``: the hand holds no legal clue (and the seat has a rose to play one with);
    ``main_open``: the main action is still to come. Marker removals and extra clues are
    built from the maps and the hand by the rules that make them legal (markers shown and not
    the last one; a clue that leaves some cells but not all, from a seat with a rose), which
    is cheaper than searching the listed actions for them."""
    style = player.style
    seat = view.seat
    amulets = view.amulets(seat)
    spare = amulets - style.reserve
    if spare <= 0:
        if not (dead and style.exchange_stuck and player.stalled(view)):
            return None
        spare = amulets
    may_raise = player.may_raise(view)
    reach_marker = style.marker_legs if style.marker_legs >= 0 and may_raise else -1
    reach_clue = style.extra_clue_legs if may_raise and view.roses(seat) else 0
    if reach_marker >= 0 or reach_clue > 0:
        power = _locate_now(player, view, actions, here, main_open, spare, reach_marker, reach_clue)
        if power is not None:
            return power
    # 3. An extra move to a located treasure.
    if style.amulet_move_legs > 0 and may_raise and located != _UNLOCATED:
        power = _move_to_located(player, view, actions, located, here, main_open)
        if power is not None:
            return power
    if not main_open or not (dead or style.exchange_poor > 0):
        return None
    return _exchange(player, view, actions, located, here, dead)


def _locate_now(
    player: ScriptedPlayer,
    view: PlayerView,
    actions: tuple[decisions.Action, ...],
    here: int,
    main_open: bool,
    spare: int,
    reach_marker: int,
    reach_clue: int,
) -> decisions.Action | None:
    """A marker removal (1) or an extra clue (2) that locates a treasure the ATV reaches this
    turn, or None."""
    style = player.style
    legs = player.legs_per_move
    # Cells within 0, 1, 2... legs of the ATV (the last entry: the whole island).
    within = player.within[here]
    last = len(within) - 1
    # "Reached this turn": the ATV's cell, or one main move away (and no farther than
    # the style chases, so that the move that follows does drive there).
    move_reach = 0
    if main_open and decisions.MOVE in actions:
        move_reach = legs if legs < style.chase_legs else style.chase_legs
    cands = view.candidate_masks()
    counts = view.clue_counts()
    # 1. Marker removals that locate a treasure the ATV reaches this turn.
    if reach_marker >= 0:
        reach = within[_least(reach_marker, move_reach, last)]
        threshold = player.marker_threshold
        for m in range(len(cands)):
            cand = cands[m]
            n = cand.bit_count()
            if counts[m] and 1 < n <= threshold and n - 1 <= spare and cand & reach:
                return (_AMULET_MARKER, m)
    # 2. An extra clue that locates a treasure the ATV reaches this turn.
    if reach_clue > 0:
        reach = within[_least(reach_clue, move_reach, last)]
        maps = [m for m in range(len(cands)) if cands[m] & reach and cands[m] & (cands[m] - 1)]
        if maps:
            masks = player.masks
            for card in view.hand:
                f = masks[card]
                for m in maps:
                    after = cands[m] & f
                    if not after or after & (after - 1) or not after & reach:
                        continue  # nothing left, more than one cell, or out of reach
                    if main_open and after >> here & 1 and (_CLUE, card, m) in actions:
                        continue  # the main clue play does the same for free
                    return (_AMULET_CLUE, card, m)
    return None


def _move_to_located(
    player: ScriptedPlayer,
    view: PlayerView,
    actions: tuple[decisions.Action, ...],
    located: tuple[int, ...],
    here: int,
    main_open: bool,
) -> decisions.Action | None:
    """An extra move to the nearest located treasure when it helps this turn, or None."""
    style = player.style
    legs = player.legs_per_move
    dist = player.dist[here]
    target, x = -1, 10**9
    for cell in located:
        if cell >= 0 and dist[cell] < x:
            target, x = cell, dist[cell]
    if 0 < x <= style.amulet_move_legs and decisions.AMULET_MOVE in actions:
        if main_open and decisions.MOVE in actions:
            # Beyond one move: amulet move first, the main move finishes the trip. Within
            # one move: only to keep the main action for a clue worth playing.
            useful = x <= 2 * legs if x > legs else player.best_clue_score(view, actions) > 0
        else:
            useful = x <= legs
        if useful and (not style.move_race_only or player.rival_within(target, legs)):
            return decisions.AMULET_MOVE
    return None


def _exchange(
    player: ScriptedPlayer,
    view: PlayerView,
    actions: tuple[decisions.Action, ...],
    located: tuple[int, ...],
    here: int,
    dead: bool,
) -> decisions.Action | None:
    """An exchange for a dead hand (4) or a poor one while a treasure is near (5), or None
    (the main action still to come)."""
    style = player.style
    legs = player.legs_per_move
    within = player.within[here]
    last = len(within) - 1
    near = within[legs if legs < last else last]
    # 4. A dead hand, with no treasure to drive to this turn.
    if dead:
        if not style.exchange_stuck or any(cell >= 0 and near >> cell & 1 for cell in located):
            return None
        if decisions.AMULET_EXCHANGE in actions:
            return decisions.AMULET_EXCHANGE
        # Both clue piles are empty: nothing to exchange for. A marker removal still changes
        # a map (the one with the fewest candidates; the marker answer keeps the nearest).
        return _fewest_markers(view, player.marker_threshold)
    if decisions.AMULET_EXCHANGE not in actions:
        return None
    # 5. A poor hand while a treasure is near (a map showing markers, one within a move).
    if player.best_share(view, actions) < style.exchange_poor:
        threshold = player.marker_threshold
        for cand, count in zip(view.candidate_masks(), view.clue_counts(), strict=True):
            if count and 1 < cand.bit_count() <= threshold and cand & near:
                return decisions.AMULET_EXCHANGE
    return None


def _fewest_markers(view: PlayerView, threshold: int) -> decisions.Action | None:
    """A marker removal on the map showing the fewest markers (at least two), or None."""
    best, best_n = -1, threshold + 1
    for m, (cand, count) in enumerate(zip(view.candidate_masks(), view.clue_counts(), strict=True)):
        n = cand.bit_count()
        if count and 1 < n < best_n:
            best, best_n = m, n
    return (_AMULET_MARKER, best) if best >= 0 else None
