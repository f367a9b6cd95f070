"""The powers in a :class:`~strategies.treasure_island.turn_solver.TurnSolver`'s expectimax
(rules spec §6): the Helm's pile, the Knife's steal, the Pistol's shot, the Candle's pick of
the discard, the Spyglass's peek (the Mystic's three cards), each with the characters' changes,
and this seat's pile moving with what the play area banks on it.
"""

from __future__ import annotations

from sim.treasure_island.cards import (
    CANDLE,
    HELM,
    KIND,
    KNIFE,
    PER_KIND,
    PISTOL,
    SPYGLASS,
    TOP_INDEX,
    TOP_VALUE,
)
from strategies.treasure_island.turn_state import (
    ALL_KINDS,
    BANK_AT,
    BUSTS,
    CANON_AT,
    KEPT_AT,
    KINDS_OF,
    PLAIN,
    RUM_MASK,
    RUM_ONE,
    SAFE_AT,
    SHAPE,
    TAKEN_AT,
    TAKEN_ONE,
    Context,
    Solver,
    cards_of,
    order_statistic_mean,
    replace_pile,
)


def power(solver: Solver, h: int, c: Context, k: int) -> float:
    """The Helm's, Knife's, Pistol's, Candle's or Spyglass's power, just placed."""
    # The best of a power's answers by plain loops, not max() over a generator: a game asks
    # this a million times.
    best: float
    if k == HELM:
        options = KINDS_OF[c.held]
        if options:
            best = helm(solver, h, c, options[0])
            for j in options[1:]:
                value = helm(solver, h, c, j)
                best = max(best, value)
            return best
    elif k == KNIFE:
        steals = knife_options(solver, h, c)
        if steals:
            best = knife(solver, h, c, *steals[0])
            for o, j in steals[1:]:
                value = knife(solver, h, c, o, j)
                best = max(best, value)
            return best
    elif k == PISTOL:
        targets = pistol_options(solver, c)
        if targets:
            best = pistol(solver, h, c, *targets[0])
            for o, j in targets[1:]:
                value = pistol(solver, h, c, o, j)
                best = max(best, value)
            return best
    elif k == CANDLE:
        if c.dsize:
            return candle(solver, h, c)
    elif k == SPYGLASS:
        return spyglass(solver, h, c)
    return solver.choice(h, c)


def helm(solver: Solver, s_h: int, c: Context, kind: int) -> float:
    """§6.2: the top card of this seat's pile of ``kind`` into the play area."""
    pile = c.cur[kind]
    card = kind * PER_KIND + TOP_INDEX[pile]
    h, ctx, moved = _move_mine(solver, s_h, c, kind, pile & ~(1 << TOP_INDEX[pile]), card)
    if h >> kind & 1:  # a kind in play: the bust place() would find, one call less
        return moved + solver.bust(h, ctx)
    return moved + solver.place(h, ctx, card)


def knife_options(solver: Solver, h: int, c: Context) -> list[tuple[int, int]]:
    """The Knife's legal steals (§6.5): opponents' piles of kinds not in my stash."""
    allowed = ALL_KINDS & ~c.held
    if solver.knife_area:
        allowed &= ~h
    return _targets(c, allowed)


def pistol_options(solver: Solver, c: Context) -> list[tuple[int, int]]:
    """The Pistol's targets (§6.7): any opponent's pile."""
    return _targets(c, ALL_KINDS)


def _targets(c: Context, allowed: int) -> list[tuple[int, int]]:
    """The opponents' non-empty piles of the ``allowed`` kinds: (opponent index, kind)."""
    targets = c.targets.get(allowed)
    if targets is None:
        opp = c.opp
        targets = [(i, k) for i, stash in enumerate(opp) for k in KINDS_OF[allowed] if stash[k]]
        c.targets[allowed] = targets
    return targets


def knife(solver: Solver, h: int, c: Context, victim: int, kind: int) -> float:
    """§6.5: opponent ``victim`` (an index into the opponents)'s top card of ``kind``."""
    pile = c.opp[victim][kind]
    card = kind * PER_KIND + TOP_INDEX[pile]
    key = (h & SHAPE) << 8 | victim << 4 | kind
    ctx = c.steals.get(key)
    if ctx is None:
        opp = replace_pile(c.opp, victim, kind, pile & ~(1 << TOP_INDEX[pile]))
        ctx = solver.context(h, c.cur, opp, c.discard, c.dsize, c.known, card)
        c.steals[key] = ctx
    if h >> kind & 1:  # a kind in play: the bust place() would find, one call less
        return solver.bust(h, ctx)
    return solver.place(h, ctx, card)


def pistol(solver: Solver, h: int, c: Context, victim: int, kind: int) -> float:
    """§6.7 (and the Master gunner's whole pile, the Scavenger's shot card to the stash)."""
    pile = c.opp[victim][kind]
    if solver.character == "master_gunner":
        shot, left = pile, 0
    else:
        shot = 1 << TOP_INDEX[pile]
        left = pile & ~shot
    key = (h & SHAPE) << 8 | victim << 4 | kind
    ctx = c.shots.get(key)
    if ctx is None:
        opp = replace_pile(c.opp, victim, kind, left)
        if solver.character == "scavenger":
            ctx = solver.context(h, c.cur, opp, c.discard, c.dsize, c.known)
        else:
            discard = c.discard | shot << (kind * PER_KIND)
            ctx = solver.context(h, c.cur, opp, discard, c.dsize + shot.bit_count(), c.known)
        c.shots[key] = ctx
    if solver.character == "scavenger":
        h, ctx, moved = _move_mine(solver, h, ctx, kind, c.cur[kind] | shot)
        return moved + solver.choice(h, ctx)
    return solver.choice(h, ctx)


def candle(solver: Solver, h: int, c: Context) -> float:
    """§6.4: random cards of the discard shown, the best placed (the Navigator sees the
    whole discard)."""
    # Cards that change the same things are worth the same: a card of a kind in play
    # busts; the others by what they bank and their clamped value (the pick itself never
    # counts in a later bonus, its kind's pile being at least its value by then).
    kinds = h & ALL_KINDS
    inc = c.inc or solver.increments(c)
    cards = c.dcards
    if not cards:
        cards = c.dcards = tuple((x, 1 << KIND[x]) for x in cards_of(c.discard))
    worth: dict[int, float] = {}
    values = []
    for x, bit in cards:
        key = -1 if kinds & bit else inc[x]
        value = worth.get(key)
        if value is None:
            value = candle_pick(solver, h, c, x)
            worth[key] = value
        values.append(value)
    if solver.character == "navigator":
        return max(values)
    return order_statistic_mean(values, solver.reveal)


def candle_pick(solver: Solver, h: int, c: Context, card: int) -> float:
    """Placing ``card`` of the discard (a Candle's pick; the others stay there)."""
    key = (h & SHAPE) << 6 | card
    ctx = c.picks.get(key)
    if ctx is None:
        ctx = solver.context(h, c.cur, c.opp, c.discard & ~(1 << card), c.dsize - 1, c.known, card)
        c.picks[key] = ctx
    return solver.place(h, ctx, card)


def spyglass(solver: Solver, h: int, c: Context) -> float:
    """§6.9: the top card (three for the Mystic) shown; place it or plunder at once; an
    open Rum requirement places it."""
    known = c.known
    taken = h >> TAKEN_AT & 63
    pile_size = len(known) + solver.unknown_size - taken
    if not pile_size:
        return solver.choice(h, c)
    seen = min(3, pile_size) if solver.character == "mystic" else 1
    if len(known) >= seen:
        return after_peek(solver, h, c)
    if seen > 1:
        return _reveal(solver, h, c, seen - len(known), [])
    # One card shown: the chance points of a draw, each followed by the choice.
    forced = bool(h & RUM_MASK)
    plunder = solver.plunder(h, c)
    kinds = h & ALL_KINDS
    size = solver.unknown_size - taken
    busting = solver.busting_of[kinds] - taken
    bust = solver.bust(h, c)
    total = busting * (bust if forced else max(plunder, bust)) if busting else 0.0
    h += TAKEN_ONE
    owed = RUM_ONE if forced else 0
    choice = solver.choice
    after_place = solver.after_place
    classes = c.classes or solver.classes(c)
    for k in KINDS_OF[~kinds & ALL_KINDS]:
        plain = PLAIN >> k & 1  # no power: straight to the next choice, as after_place would
        for card, times, inc in classes[k]:
            child = h + inc - owed
            value = choice(child, c) if plain else after_place(child, c, card, kinds)
            # max(plunder, value), without the call
            total += times * (value if forced or value > plunder else plunder)
    return total / size


def _reveal(solver: Solver, h: int, c: Context, more: int, removed: list[int]) -> float:
    """Reveal ``more`` unknown cards one by one onto the public top of the pile (the
    Mystic). ``removed``: the cards of kinds not in play already revealed in this peek."""
    kinds = h & ALL_KINDS
    taken = h >> TAKEN_AT & 63
    size = solver.unknown_size - taken
    # Cards taken before this peek were all of kinds in play; those of this peek that are
    # not (``removed``) are still in the pile's count of their own kind.
    busting = solver.busting_of[kinds] - taken + len(removed)
    h += TAKEN_ONE
    total = 0.0
    if busting:
        ctx = solver.context(h, c.cur, c.opp, c.discard, c.dsize, (*c.known, BUSTS))
        total += busting * (
            after_peek(solver, h, ctx) if more == 1 else _reveal(solver, h, ctx, more - 1, removed)
        )
    classes = c.classes or solver.classes(c)
    increments = c.inc or solver.increments(c)
    for k in KINDS_OF[~kinds & ALL_KINDS]:
        for card, times, inc in classes[k]:
            left = times - sum(1 for r in removed if KIND[r] == k and increments[r] == inc)
            if left <= 0:
                continue
            ctx = solver.context(h, c.cur, c.opp, c.discard, c.dsize, (*c.known, card))
            value = (
                after_peek(solver, h, ctx)
                if more == 1
                else _reveal(solver, h, ctx, more - 1, [*removed, card])
            )
            total += left * value
    return total / size


def after_peek(solver: Solver, h: int, c: Context) -> float:
    """The Spyglass's choice once its top card is public."""
    if h & RUM_MASK:
        return solver.draw(h, c)
    return max(solver.plunder(h, c), solver.draw(h, c))


def _move_mine(
    solver: Solver, h: int, c: Context, kind: int, new: int, incoming: int = -1
) -> tuple[int, Context, int]:
    """This seat's pile of ``kind`` becomes ``new``: what the play area's card of that
    kind (and the Anchor's) would bank moves with it. Also returns the points the score
    moves by (values are relative to the score where they are asked)."""
    cur = c.cur
    old = cur[kind]
    was, now = TOP_VALUE[kind][old], TOP_VALUE[kind][new]
    if h >> kind & 1:
        v = h >> (CANON_AT + 4 * kind) & 15
        delta = (v - now if v > now else 0) - (v - was if v > was else 0)
        h += delta << BANK_AT
        if h >> (KEPT_AT + kind) & 1:
            h += delta << SAFE_AT
    # One int for (shape, kind, new pile, incoming card + 1): kind < 16, pile < 64, card < 63.
    key = (h & SHAPE) << 16 | kind << 12 | new << 6 | incoming + 1
    ctx = c.moves.get(key)
    if ctx is None:
        mine = (*cur[:kind], new, *cur[kind + 1 :])
        ctx = solver.context(h, mine, c.opp, c.discard, c.dsize, c.known, incoming)
        c.moves[key] = ctx
    return h, ctx, now - was
