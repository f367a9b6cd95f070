"""Upper bounds that prune a :class:`~strategies.treasure_island.turn_solver.TurnSolver`'s
search: what drawing now can be worth at best, and what the rest of the turn can add to the
bank at best. A draw whose bound is no better than plundering is not searched.
"""

from __future__ import annotations

from sim.treasure_island.cards import (
    ANCHOR,
    KIND,
    N_KINDS,
    PER_KIND,
    RUM,
    TOP_INDEX,
    TOP_VALUE,
    VALUE,
)
from strategies.treasure_island.turn_state import (
    ALL_KINDS,
    BANK_AT,
    KEPT_AT,
    KEPT_MASK,
    KINDS_OF,
    RUM_AT,
    RUM_MASK,
    RUM_ONE,
    SAFE_AT,
    SAFE_MASK,
    SIMPLE,
    TAKEN_AT,
    TAKEN_ONE,
    Context,
    Solver,
)


def draw_bound(solver: Solver, h: int, c: Context) -> float:
    """An upper bound of the value of drawing now (the pile's top unknown): each card's
    exact value where it is known, else the best the card's own state could lead to (a
    plunder, or the best case of one more draw; for a power, the bank plus every card
    still reachable)."""
    taken = h >> TAKEN_AT & 63
    kinds = h & ALL_KINDS
    size = solver.unknown_size - taken
    busting = solver.busting_of[kinds] - taken
    total = busting * solver.bust(h, c) if busting else 0.0
    h += TAKEN_ONE
    owed = RUM_ONE if h & RUM_MASK else 0
    reach = c.reach or reach_bounds(solver, c)
    memo = solver._memo
    plunder = solver.plunder
    bust = solver.bust
    cid = c.id
    classes = c.classes or solver.classes(c)
    left = size - 1
    for k in KINDS_OF[~kinds & ALL_KINDS]:
        after = kinds | 1 << k
        if not SIMPLE >> k & 1:
            for _card, times, inc in classes[k]:
                total += times * (((h + inc - owed) >> BANK_AT & 127) + reach[after])
            continue
        for _card, times, inc in classes[k]:
            child = h + inc - owed
            if k == ANCHOR and kinds:
                child = (
                    child & ~(KEPT_MASK | SAFE_MASK)
                    | kinds << KEPT_AT
                    | (h >> BANK_AT & 127) << SAFE_AT
                )
            elif k == RUM:
                child = child & ~RUM_MASK | solver.rum_cards << RUM_AT
            hit = memo.get(child | cid)
            if hit is not None:
                total += times * hit
                continue
            bank = child >> BANK_AT & 127
            if not left:
                total += times * plunder(child, c)
                continue
            bust_cards = busting + solver.counts[k] - 1
            best = (
                bust_cards * bust(child, c) + (left - bust_cards) * (bank + reach[after])
            ) / left
            if not child & RUM_MASK:
                stop = plunder(child, c)
                best = stop if stop > best else best  # max(), without the call
            total += times * best
    return total / size


def reach_bounds(solver: Solver, c: Context) -> tuple[int, ...]:
    """Set and return ``c.reach``: per kind mask of the kinds in play, an upper bound of
    what the rest of the turn can add to the bank, whatever it does: per kind not in
    play, the most points one card of it that could still come (from the pile, the
    discard, a rival's stash) would add; and, while a Key and a Chest can both still be
    plundered, the most each kind's pile could gain from the discard by the bonus (from
    rivals' stashes for the Plunderer); and the most a Scavenger's shot could add."""
    cur = c.cur
    card_reach = []
    bonus_reach = 0
    shot_reach = 0
    for k in range(N_KINDS):
        top = TOP_VALUE[k][cur[k]]
        best = 0
        mask = solver.unknown[k]
        if mask:
            best = VALUE[k * PER_KIND + TOP_INDEX[mask]]
        in_discard = 0
        pile = c.discard >> (k * PER_KIND) & 63
        if pile:
            in_discard = VALUE[k * PER_KIND + TOP_INDEX[pile]]
        in_stashes = 0
        for stash in c.opp:
            if stash[k]:
                in_stashes = max(in_stashes, VALUE[k * PER_KIND + TOP_INDEX[stash[k]]])
        for card in c.known:
            if card >= 0 and KIND[card] == k:
                best = max(best, VALUE[card])
        best = max(best, in_discard, in_stashes)
        card_reach.append(max(0, best - top))
        source = in_stashes if solver.character == "plunderer" else in_discard
        if solver.character == "master_gunner":
            source = max(source, in_stashes)
        bonus_reach += max(0, source - top)
        if solver.character == "scavenger":
            shot_reach = max(shot_reach, in_stashes - top)
    extra = bonus_reach + shot_reach
    # ``free[m]``: the card reach of the kinds of ``m``, built kind by kind (the masks with
    # kind ``k`` are those without it plus its reach): this runs once per context.
    free = [0]
    for r in card_reach:
        free += [f + r for f in free]
    # The kinds not in play of mask ``m`` are ``ALL_KINDS - m``: ``free`` read backwards.
    reach = tuple(extra + f for f in reversed(free))
    c.reach = reach
    return reach
