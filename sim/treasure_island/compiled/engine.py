"""The compiled game loop: setup, the draft, turns, placements and powers, the end.

Each function is the reference engine's method of the same name
(:class:`sim.treasure_island.engine.TreasureIslandGame`) over the flat state of
:mod:`sim.treasure_island.compiled.layout`, and draws the same random numbers in the same
order from the same streams: ``cards`` (the pile's shuffle, the first player, every shuffle
of the discard), ``characters`` (the draft deal) and each seat's own. The reference's chain
of powers is recursive (a power places a card whose power runs at once); here it is the loop
of :func:`_resolve`, since every power places at most one card. The move log is not kept:
this engine gives the ``games`` and ``seats`` rows only. A game's streams come seeded (rows
of ``streams``, see :mod:`sim.treasure_island.compiled.batch`), and a seed block's later
games copy its first game's setup.
"""

from __future__ import annotations

import numpy as np

from sim.treasure_island.compiled import layout as lay
from sim.treasure_island.compiled import rng
from sim.treasure_island.compiled import strategies as ps

_KIND = lay.KIND_OF
_TOP_INDEX = lay.TOP_INDEX_OF
_TOP_LOSS = lay.TOP_LOSS_OF
_CARD_GAIN = lay.CARD_GAIN_OF
_BITS = lay.BITS
_KINDS_IN = lay.KINDS_IN
ANCHOR, HELM, KEY, CHEST, CANDLE, KNIFE, RUM, PISTOL, PARROT, SPYGLASS = range(10)
NAVIGATOR, MASTER_GUNNER, SCAVENGER, MYSTIC, PLUNDERER, TREASURE_HUNTER, WRECKER = range(7)
CHOSEN, SPYGLASS_BACK, PILE_EMPTY, BUSTED = 0, 1, 2, 3
_KEY_CHEST = (1 << KEY) | (1 << CHEST)


@rng.inline
def _bank(g: np.ndarray, seat: int, card: int) -> None:
    """Slot ``card`` into ``seat``'s stash pile of its kind."""
    kind = _KIND[card]
    at = lay.STASH + seat * 10 + kind
    old = g[at]
    g[at] = old | 1 << (card % 6)
    g[lay.POINTS + seat] += _CARD_GAIN[card, old]
    g[lay.CARDS + seat] += 1
    g[lay.STASH_KINDS + seat] |= 1 << kind


@rng.inline
def _pop_top(g: np.ndarray, seat: int, kind: int) -> int:
    """Take the top card off ``seat``'s pile of ``kind``."""
    at = lay.STASH + seat * 10 + kind
    old = g[at]
    top = _TOP_INDEX[old]
    g[at] = old ^ 1 << top
    g[lay.POINTS + seat] -= _TOP_LOSS[kind, old]
    g[lay.CARDS + seat] -= 1
    if not g[at]:
        g[lay.STASH_KINDS + seat] ^= 1 << kind
    return kind * 6 + top


@rng.inline
def _opponent_piles(
    g: np.ndarray, rules: np.ndarray, seat: int, knife: bool, out: np.ndarray
) -> int:
    """Non-empty opponents' piles (``seat * 16 + kind``, seat then kind order) into ``out``;
    for the Knife only kinds absent from ``seat``'s stash. Their count."""
    allowed = 1023
    if knife:
        allowed = ~g[lay.STASH_KINDS + seat]
        if rules[lay.R_KNIFE_AREA]:
            allowed &= ~g[lay.AREA_KINDS]
    count = 0
    for o in range(g[lay.N]):
        if o == seat:
            continue
        kinds = g[lay.STASH_KINDS + o] & allowed
        for j in range(_BITS[kinds]):
            out[count + j] = o * 16 + _KINDS_IN[kinds, j]
        count += _BITS[kinds]
    return count


@rng.inline
def _pick(
    g: np.ndarray,
    streams: np.ndarray,
    seeded: np.ndarray,
    players: np.ndarray,
    params: np.ndarray,
    seat: int,
    decision: int,
    options: np.ndarray,
    count: int,
) -> int:
    """``Referee.pick``: a single option is the answer, unasked; else one decision, asked."""
    if count == 1:
        return options[0]
    g[lay.DECISIONS] += 1
    if players[seat] == ps.RANDOM:
        stream = streams[ps.seat_stream(g, streams, seeded, seat)]
        return options[int(rng.random(stream) * count)]
    return ps.choose(g, seat, decision, options, count)


@rng.inline
def _sample_discard(g: np.ndarray, stream: np.ndarray, count: int, out: np.ndarray) -> int:
    """Shuffle the discard's last steps and take ``count`` cards off it (all when short)."""
    size = g[lay.DISCARD_LEN]
    take = count if count < size else size
    if take <= 0:
        return 0
    for i in range(size, size - take, -1):
        pos = i - 1
        j = int(rng.random(stream) * i)
        a, b = lay.DISCARD + pos, lay.DISCARD + j
        g[a], g[b] = g[b], g[a]
    for t in range(take):
        out[t] = g[lay.DISCARD + size - take + t]
    g[lay.DISCARD_LEN] = size - take
    return take


@rng.jit
def _sorted_discard(g: np.ndarray, out: np.ndarray, size: int) -> None:
    """The discard's ``size`` cards into ``out`` in ascending order (an insertion sort: the
    discard is short and the engine allocates nothing)."""
    for i in range(size):
        card = g[lay.DISCARD + i]
        j = i
        while j > 0 and out[j - 1] > card:
            out[j] = out[j - 1]
            j -= 1
        out[j] = card


@rng.inline
def _to_discard(g: np.ndarray, card: int) -> None:
    g[lay.DISCARD + g[lay.DISCARD_LEN]] = card
    g[lay.DISCARD_LEN] += 1


@rng.jit
def _bonus(
    g: np.ndarray,
    rules: np.ndarray,
    streams: np.ndarray,
    seeded: np.ndarray,
    players: np.ndarray,
    params: np.ndarray,
    seat: int,
    count: int,
) -> None:
    """§6.3: ``count`` cards (up to what is there) into the stash, with no powers."""
    g[lay.KEY_CHEST] = 1
    character = g[lay.CHARACTER + seat]
    if character == TREASURE_HUNTER:
        count *= 3
    options = g[lay.BONUS_CHOICES : lay.BONUS_CHOICES + 64]
    if character == PLUNDERER:
        for _ in range(count):
            n = _opponent_piles(g, rules, seat, False, options)
            if not n:
                break
            target = _pick(g, streams, seeded, players, params, seat, ps.D_BONUS, options, n)
            _bank(g, seat, _pop_top(g, target >> 4, target & 15))
            g[lay.BONUS_CARDS] += 1
        return
    take = _sample_discard(g, streams[lay.CARDS_STREAM], count, options)
    for t in range(take):
        _bank(g, seat, options[t])
    g[lay.BONUS_CARDS] += take


@rng.inline
def _bust(
    g: np.ndarray,
    rules: np.ndarray,
    streams: np.ndarray,
    seeded: np.ndarray,
    players: np.ndarray,
    params: np.ndarray,
    seat: int,
    card: int,
) -> None:
    """§5.1.3 / §6.1: everything to the discard (or the wrecker), except what an Anchor keeps."""
    g[lay.ENDED] = BUSTED
    g[lay.AREA + g[lay.AREA_LEN]] = card  # the lost cards: the area and the bust card
    end = g[lay.AREA_LEN] + 1
    start = 0
    anchor = g[lay.ANCHOR_AT]
    if anchor > 0:
        kept_kinds = 0
        for i in range(anchor):
            _bank(g, seat, g[lay.AREA + i])
            kept_kinds |= 1 << _KIND[g[lay.AREA + i]]
        g[lay.BANKED] = anchor
        start = anchor
        if rules[lay.R_KEY_CHEST_ANCHORED] and kept_kinds & _KEY_CHEST == _KEY_CHEST:
            _bonus(g, rules, streams, seeded, players, params, seat, anchor)
    wrecker = g[lay.WRECKER]
    for i in range(start, end):
        if wrecker >= 0 and wrecker != seat:
            _bank(g, wrecker, g[lay.AREA + i])
        else:
            _to_discard(g, g[lay.AREA + i])


@rng.inline
def _plunder(
    g: np.ndarray,
    rules: np.ndarray,
    streams: np.ndarray,
    seeded: np.ndarray,
    players: np.ndarray,
    params: np.ndarray,
    seat: int,
    reason: int,
) -> None:
    """§5.1.2: the play area into the stash; the Key + Chest bonus (§6.3)."""
    g[lay.ENDED] = reason
    size = g[lay.AREA_LEN]
    for i in range(size):
        _bank(g, seat, g[lay.AREA + i])
    g[lay.BANKED] = size
    if g[lay.AREA_KINDS] & _KEY_CHEST == _KEY_CHEST:
        _bonus(g, rules, streams, seeded, players, params, seat, size)


@rng.inline
def _shoot(g: np.ndarray, seat: int, victim: int, kind: int) -> None:
    """The Pistol's shot at ``victim``'s pile of ``kind`` (the whole pile for the master
    gunner; to the shooter's stash for the scavenger)."""
    character = g[lay.CHARACTER + seat]
    shots = 1
    if character == MASTER_GUNNER:
        shots = _BITS[g[lay.STASH + victim * 10 + kind]]
    for _ in range(shots):
        hit = _pop_top(g, victim, kind)
        if character == SCAVENGER:
            _bank(g, seat, hit)
        else:
            _to_discard(g, hit)


# One loop over the whole chain of powers of a placement (the reference's mutual recursion
# of _draw, _place and the powers), kept whole so that numba compiles it as one function.
@rng.inline
def _resolve(
    g: np.ndarray,
    rules: np.ndarray,
    streams: np.ndarray,
    seeded: np.ndarray,
    players: np.ndarray,
    params: np.ndarray,
    seat: int,
    card: int,
    from_pile: bool,
) -> bool:
    """Place a card (the pile's top when ``from_pile``, else ``card``) and run the chain of
    powers it starts; True when the turn is over (a bust, or a Spyglass put back)."""
    options = g[lay.CHOICES : lay.CHOICES + 64]
    while True:
        if from_pile:  # _draw
            g[lay.PILE_LEN] -= 1
            card = g[lay.PILE + g[lay.PILE_LEN]]
            g[lay.PILE_PILES + _KIND[card]] ^= 1 << (card % 6)
            if g[lay.KNOWN]:
                g[lay.KNOWN] -= 1
            if g[lay.AREA_KINDS] >> _KIND[card] & 1:
                g[lay.BUSTING] -= 1
        kind = _KIND[card]
        if g[lay.AREA_KINDS] >> kind & 1:
            _bust(g, rules, streams, seeded, players, params, seat, card)
            return True
        g[lay.AREA + g[lay.AREA_LEN]] = card
        g[lay.AREA_LEN] += 1
        g[lay.AREA_KINDS] |= 1 << kind
        g[lay.BUSTING] += _BITS[g[lay.PILE_PILES + kind]]
        if g[lay.RUM]:
            g[lay.RUM] -= 1
        from_pile = False
        if kind == ANCHOR:
            g[lay.ANCHOR_AT] = g[lay.AREA_LEN] - 1
            return False
        if kind == RUM:
            g[lay.RUM] = rules[lay.R_RUM]
            return False
        if kind == HELM:
            mine = g[lay.STASH_KINDS + seat]
            n = 0
            for k in range(10):
                if mine >> k & 1:
                    options[n] = k
                    n += 1
            if not n:
                return False
            chosen = _pick(g, streams, seeded, players, params, seat, ps.D_HELM, options, n)
            card = _pop_top(g, seat, chosen)
        elif kind in (KNIFE, PISTOL):
            n = _opponent_piles(g, rules, seat, kind == KNIFE, options)
            if not n:
                return False
            decision = ps.D_KNIFE if kind == KNIFE else ps.D_PISTOL
            chosen = _pick(g, streams, seeded, players, params, seat, decision, options, n)
            if kind == PISTOL:
                _shoot(g, seat, chosen >> 4, chosen & 15)
                return False
            card = _pop_top(g, chosen >> 4, chosen & 15)
        elif kind == CANDLE:
            size = g[lay.DISCARD_LEN]
            if not size:
                return False
            if g[lay.CHARACTER + seat] == NAVIGATOR:
                _sorted_discard(g, options, size)
                g[lay.DISCARD_LEN] = 0
                n = size
            else:
                n = _sample_discard(g, streams[lay.CARDS_STREAM], rules[lay.R_CANDLE], options)
            card = _pick(g, streams, seeded, players, params, seat, ps.D_CANDLE, options, n)
            for i in range(n):  # the others back to the discard, in their order
                if options[i] != card:
                    _to_discard(g, options[i])
        elif kind == SPYGLASS:
            pile = g[lay.PILE_LEN]
            if not pile:
                return False
            seen = 1
            if g[lay.CHARACTER + seat] == MYSTIC:
                seen = min(3, pile)
            g[lay.KNOWN] = max(seen, g[lay.KNOWN])
            from_pile = True
            if not g[lay.RUM]:  # an open Rum requirement leaves no choice (§6.6)
                options[0] = ps.BACK
                options[1] = ps.PLACE
                answer = _pick(g, streams, seeded, players, params, seat, ps.D_SPYGLASS, options, 2)
                if answer != ps.PLACE:
                    _plunder(g, rules, streams, seeded, players, params, seat, SPYGLASS_BACK)
                    return True
        else:  # Key, Chest and the Parrot act at plunder only, or never
            return False


@rng.jit
def play_turn(
    g: np.ndarray,
    rules: np.ndarray,
    streams: np.ndarray,
    seeded: np.ndarray,
    players: np.ndarray,
    params: np.ndarray,
    seat: int,
) -> None:
    """One whole turn (§5.1); adds the turn's counts to the state's ``TURNS`` (per seat:
    turns, busts, cards banked, bonus cards; then the game's Key + Chest bonuses)."""
    for at in (lay.AREA_LEN, lay.AREA_KINDS, lay.RUM, lay.BUSTING, lay.BANKED):
        g[at] = 0
    g[lay.BONUS_CARDS] = 0
    g[lay.KEY_CHEST] = 0
    g[lay.ANCHOR_AT] = -1
    player = players[seat]
    p0, p1 = params[seat, 0], params[seat, 1]
    # One call of each (they are inlined): the first card is drawn unasked, then each
    # draw after the continue question; a plunder ends the loop with its reason.
    stop = -1
    asked = False
    while True:
        if asked:
            if not g[lay.PILE_LEN]:  # nothing to draw: the turn ends with a plunder (§9.1)
                stop = PILE_EMPTY
                break
            if not g[lay.RUM]:
                g[lay.DECISIONS] += 1
                stream = streams[lay.CARDS_STREAM]
                if player == ps.RANDOM:
                    stream = streams[ps.seat_stream(g, streams, seeded, seat)]
                if not ps.keep_drawing(g, seat, player, p0, p1, stream):
                    stop = CHOSEN
                    break
        asked = True
        if _resolve(g, rules, streams, seeded, players, params, seat, -1, True):
            break
    if stop >= 0:
        _plunder(g, rules, streams, seeded, players, params, seat, stop)
    at = lay.TURNS + seat * 4
    g[at] += 1
    g[at + 1] += g[lay.ENDED] == BUSTED
    g[at + 2] += g[lay.BANKED]
    g[at + 3] += g[lay.BONUS_CARDS]
    g[lay.TURNS + lay.MAX_SEATS * 4] += g[lay.KEY_CHEST]


@rng.jit
def _setup(
    g: np.ndarray, rules: np.ndarray, streams: np.ndarray, seeded: np.ndarray, n: int
) -> None:
    """The draw pile shuffled by the ``cards`` stream, the first player, the starting discard;
    every other field empty (``seeded``: the rows of ``streams`` holding the cards and
    characters streams as seeded, then the seats')."""
    g[:] = 0
    cards = streams[lay.CARDS_STREAM]
    rng.copy_state(streams[seeded[0]], cards)
    size = 0
    for c in range(60):
        if c % 6:
            g[lay.PILE + size] = c
            size += 1
        else:
            g[lay.DISCARD + c // 6] = c
    rng.stream_shuffle(cards, g[lay.PILE : lay.PILE + size], size)
    g[lay.PILE_LEN] = size
    g[lay.DISCARD_LEN] = 10
    for k in range(10):
        g[lay.PILE_PILES + k] = 62  # all but the lowest card of each kind
    g[lay.N] = n
    g[lay.WRECKER] = -1
    for s in range(lay.MAX_SEATS):
        g[lay.CHARACTER + s] = -1
    g[lay.ANCHOR_AT] = -1
    if rules[lay.R_FIRST_RANDOM]:
        g[lay.TURN] = rng.randrange(cards, n)  # the first player, kept here until play


@rng.jit
def _draft(
    g: np.ndarray,
    rules: np.ndarray,
    pool: np.ndarray,
    streams: np.ndarray,
    seeded: np.ndarray,
    players: np.ndarray,
    params: np.ndarray,
    first: int,
) -> None:
    """Deal characters from the shuffled pool, each player keeps one (§4.2)."""
    n = g[lay.N]
    dealt = g[lay.DEALT : lay.DEALT + len(pool)]
    for i in range(len(pool)):
        dealt[i] = pool[i]
    per = min(rules[lay.R_DEALT], len(dealt) // n)
    stream = streams[lay.CHARACTERS_STREAM]
    rng.copy_state(streams[seeded[1]], stream)
    rng.stream_shuffle(stream, dealt, len(dealt))
    for k in range(n):
        seat = (first + k) % n
        hand = dealt[k * per : (k + 1) * per]
        name = _pick(g, streams, seeded[2:], players, params, seat, ps.D_DRAFT, hand, per)
        g[lay.CHARACTER + seat] = name
        if name == WRECKER:
            g[lay.WRECKER] = seat


@rng.jit
def _rank_key(g: np.ndarray, rules: np.ndarray, seat: int) -> int:
    """The seat's (score, cards, kinds) comparison key (§7) as one int in the same order
    (cards and kinds are below 64)."""
    cards = g[lay.CARDS + seat] if rules[lay.R_TIE_CARDS] else 0
    kinds = _BITS[g[lay.STASH_KINDS + seat]] if rules[lay.R_TIE_KINDS] else 0
    key: int = g[lay.POINTS + seat] * 4096 + cards * 64 + kinds
    return key


@rng.jit
def start(
    g: np.ndarray,
    rules: np.ndarray,
    pool: np.ndarray,
    streams: np.ndarray,
    seeded: np.ndarray,
    players: np.ndarray,
    params: np.ndarray,
    n: int,
    fresh: bool,
) -> int:
    """A game set up and its characters drafted, ready for its first turn; the first player
    (``seeded``: the rows of ``streams`` holding the cards and characters streams as seeded,
    then the seats'). A game not ``fresh`` has the seeds of the one before (a seed block's
    later game): it copies that game's setup instead of redoing it."""
    saved = streams[lay.SAVED_GAME]
    if fresh:
        _setup(g, rules, streams, seeded, n)
        rng.copy_state(streams[lay.CARDS_STREAM], streams[lay.SAVED_CARDS])
        for i in range(lay.STATE_SIZE):
            saved[i] = g[i]
    else:
        rng.copy_state(streams[lay.SAVED_CARDS], streams[lay.CARDS_STREAM])
        for i in range(lay.STATE_SIZE):
            g[i] = saved[i]
    first: int = g[lay.TURN]
    g[lay.TURN] = 0
    if rules[lay.R_CHARACTERS]:
        _draft(g, rules, pool, streams, seeded, players, params, first)
    return first


@rng.jit
def play_game(
    g: np.ndarray,
    rules: np.ndarray,
    pool: np.ndarray,
    streams: np.ndarray,
    seeded: np.ndarray,
    players: np.ndarray,
    params: np.ndarray,
    n: int,
    fresh: bool,
    game_out: np.ndarray,
    seat_out: np.ndarray,
    shares: np.ndarray,
) -> None:
    """One game to its end; its ``games`` counts into ``game_out`` (first player, turns, end
    reason, decisions, busts, Key + Chest bonuses), each seat's into ``seat_out`` (score,
    rank, stash cards, stash kinds, turns, busts, cards banked, bonus cards, character) and
    the win shares into ``shares``."""
    first = start(g, rules, pool, streams, seeded, players, params, n, fresh)
    seat_seeded = seeded[2:]
    seat = first
    reason = 0
    while g[lay.PILE_LEN]:
        if g[lay.TURN] >= rules[lay.R_MAX_TURNS]:
            reason = 1  # turn_cap
            break
        play_turn(g, rules, streams, seat_seeded, players, params, seat)
        seat = (seat + 1) % n
        g[lay.TURN] += 1
    winners = 0
    for p in range(n):
        above = 0
        for q in range(n):
            above += _rank_key(g, rules, q) > _rank_key(g, rules, p)
        seat_out[p, 1] = above + 1
        winners += above == 0
    for p in range(n):
        seat_out[p, 0] = g[lay.POINTS + p]
        seat_out[p, 2] = g[lay.CARDS + p]
        seat_out[p, 3] = _BITS[g[lay.STASH_KINDS + p]]
        for i in range(4):
            seat_out[p, 4 + i] = g[lay.TURNS + p * 4 + i]
        seat_out[p, 8] = g[lay.CHARACTER + p]
        shares[p] = 1.0 / winners if seat_out[p, 1] == 1 else 0.0
    game_out[0] = first
    game_out[1] = g[lay.TURN]
    game_out[2] = reason
    game_out[3] = g[lay.DECISIONS]
    game_out[4] = 0
    for p in range(n):
        game_out[4] += g[lay.TURNS + p * 4 + 1]
    game_out[5] = g[lay.TURNS + lay.MAX_SEATS * 4]
