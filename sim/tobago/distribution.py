"""Raising a treasure and sharing it out (rules §7.2-§7.6, §8.2, §10.2).

The raiser puts a rose under the map; the rose list R runs from the bottom (the raiser) up
to the first clue's rose. Each player draws one treasure card per rose in R, secretly; one
more card joins blind; the cards are shuffled and turned up one by one, each offered along R
from the bottom: the first to take it gets it, and that rose goes home. Nobody taking it
discards it. A curse stops the sharing: everyone still in R loses an amulet, or else their
best card; the curse leaves the game, so does the other curse if it is among the cards not
turned up. Leftovers are discarded unrevealed. Then the map's clues are discarded, the last
taker (or the raiser, if nobody took anything) restarts the map, and amulets appear where
the statues look before the statues turn. If the treasure deck ran out during the draws,
the discard pile is shuffled in to finish them, and the game ends after this distribution.
"""

from __future__ import annotations

from typing import Protocol

from sim.referee import Referee
from sim.tobago import decisions
from sim.tobago.decisions import OFFER, OFFER_ACTIONS, TAKE, Decision
from sim.tobago.island import Island
from sim.tobago.movelog import CODE
from sim.tobago.state import CURSE, GameState

# Offers are built as their tuples directly (the named tuple's ``__new__`` is a Python call).
_new = tuple.__new__

#: Offers by (seat, card, rose position): decisions are immutable and value-keyed here, so
#: every game shares them (a lookup costs less than building the tuple subclass).
_OFFERS: dict[tuple[int, int, int], Decision] = {}


class TobagoGame(Protocol):
    """What a distribution needs of its game (the engine's :class:`TobagoGame`; named here so
    that this module does not import the engine that imports it)."""

    state: GameState
    referee: Referee[Decision]

    def ask(self, decision: Decision) -> object: ...

    def restart_map(self, seat: int, m: int) -> None: ...


_EV = CODE
# Codes of the most frequent events, looked up once.
_DRAW = CODE["draw"]
_REVEAL = CODE["reveal"]
_TAKE = CODE["take"]
_PASS = CODE["pass"]
_RAISE = CODE["raise"]
_EXTRA = CODE["extra_card"]
_APPEARS = CODE["amulet_appears"]
_STATUES_TURN = CODE["statues_turn"]


def _draw_treasure(game: TobagoGame) -> int | None:
    """The top treasure card; when the deck is empty the discard pile is shuffled in. The
    game's end flag is set whenever a draw empties the deck (rules §10.2)."""
    s = game.state
    if not s.t_deck:
        if not s.t_discard:
            return None
        s.t_deck = s.t_discard
        s.t_discard = []
        s.distribution_rng.shuffle(s.t_deck)
        s.log.add(s.turn, -1, _EV["treasure_reshuffle"], len(s.t_deck))
    card = s.t_deck.pop()
    if not s.t_deck:
        s.deck_exhausted = True
    return card


def gaze_cell(game: TobagoGame, statue: int, facing: int) -> int:
    """The last island cell a statue sees before the coast, looking along ``facing``."""
    step = game.state.island.step
    cell = statue
    nxt = step[cell][facing]
    while nxt >= 0:
        cell = nxt
        nxt = step[cell][facing]
    return cell


def raise_treasure(game: TobagoGame, raiser: int, m: int) -> None:
    """Raise map ``m``'s treasure at ``raiser``'s ATV and resolve everything it triggers."""
    s = game.state
    roses = _raise(game, raiser, m)
    _draw_cards(game, raiser, roses)
    last_taker, cursed = _share(game, raiser, roses)
    pool = s.dist_pool
    if pool:
        curses = pool.count(CURSE)
        remove = cursed or s.rules.leftover_curse_removed
        for card in pool:
            (s.t_removed if card == CURSE and remove else s.t_discard).append(card)
        s.log.add(s.turn, -1, _EV["leftover"], len(pool), curses)
        pool.clear()
    for owner in roses:
        s.roses[owner] += 1
    s.dist_roses = []
    s.dist_left = 0
    for hand in s.drawn:
        hand.clear()

    game.restart_map(last_taker if last_taker >= 0 else raiser, m)

    if s.deck_exhausted:
        s.over = True
        return
    _amulets_appear(game)


def _raise(game: TobagoGame, raiser: int, m: int) -> list[int]:
    """Rules §7.2: the rose list R, from the bottom (the raiser's rose) up; the map's clues
    are discarded and its roses move into R."""
    s = game.state
    cell = s.located(m)
    roses = list(reversed(s.map_roses[m]))  # R, from the bottom up
    if s.roses[raiser]:
        # Rules §7.2 step 1: the raiser's rose goes under the last clue. A raiser without a
        # rose raises only with ``raise_needs_rose`` off, and then has no rose of its own in R.
        s.roses[raiser] -= 1
        roses.insert(0, raiser)
    s.dist_roses = roses
    s.log.flat.extend((s.turn, raiser, _RAISE, m, cell, len(roses)))
    s.treasures_raised[raiser] += 1
    # The map's clues are done with; its roses now live in R until they go home.
    s.clue_discard.extend(s.map_cards[m])
    s.map_cards[m] = []
    s.map_roses[m] = []
    s.map_cand[m] = s.island.all_mask
    s.map_removed[m] = 0
    return roses


def _draw_cards(game: TobagoGame, raiser: int, roses: list[int]) -> None:
    """Rules §7.3: each player draws a card per rose in R, one more joins blind, and the
    pool is shuffled."""
    s = game.state
    n = s.n
    turn = s.turn
    # MoveLog.add without a Python call for the rows of every card (six ints a row).
    row = s.log.flat.extend
    pool = s.dist_pool
    for k in range(n):
        seat = (raiser + k) % n
        drawn = s.drawn[seat]
        for _ in range(roses.count(seat)):
            deck = s.t_deck
            # The plain draw inline; the last card and the reshuffle go to _draw_treasure.
            card = deck.pop() if len(deck) > 1 else _draw_treasure(game)
            if card is None:
                break
            drawn.append(card)
            pool.append(card)
            row((turn, seat, _DRAW, card, -1, -1))
    extra = _draw_treasure(game)
    if extra is not None:
        pool.append(extra)
        row((turn, -1, _EXTRA, extra, -1, -1))
    s.distribution_rng.shuffle(pool)


def _share(game: TobagoGame, raiser: int, roses: list[int]) -> tuple[int, bool]:
    """Rules §7.4-§7.5: turn the cards up one by one, each offered along R from the bottom,
    until the pool or R is empty or a curse strikes; the last taker (-1: none) and whether a
    curse struck."""
    s = game.state
    turn = s.turn
    log = s.log
    row = log.flat.extend
    pool = s.dist_pool
    last_taker = -1
    number = 0
    asker = game.referee.asker
    events = s.public_events
    while pool and roses:
        card = pool[-1]  # the top card; it stays in the pool until it has gone somewhere
        s.dist_left = len(pool) - 1
        row((turn, -1, _REVEAL, card, number, -1))
        number += 1
        if card == CURSE:
            events.append(("curse", raiser, CURSE))
            _curse(game, raiser, roses)
            s.t_removed.append(pool.pop())
            return last_taker, True
        taker = -1
        for pos, owner in enumerate(roses):
            offer = _OFFERS.get((owner, card, pos))
            if offer is None:
                if len(_OFFERS) > 1 << 16:
                    _OFFERS.clear()
                offer = _new(Decision, (OFFER, owner, OFFER_ACTIONS, 0, card, pos))
                _OFFERS[owner, card, pos] = offer
            answer = asker(owner)(offer, OFFER_ACTIONS, 0)
            if answer == TAKE:
                taker = owner
                del roses[pos]
                s.roses[owner] += 1
                s.treasures[owner].append(pool.pop())
                row((turn, owner, _TAKE, card, pos, -1))
                break
            row((turn, owner, _PASS, card, pos, -1))
        if taker >= 0:
            last_taker = taker
            events.append(("take", taker, card))
        else:
            s.t_discard.append(pool.pop())
            events.append(("unclaimed", -1, card))
            log.add(turn, -1, _EV["unclaimed"], card)
    return last_taker, False


def _curse(game: TobagoGame, raiser: int, roses: list[int]) -> None:
    """Rules §7.4: every player still holding a rose in R pays an amulet or their best card."""
    s = game.state
    hit = set(roses)
    for k in range(s.n):
        seat = (raiser + k) % s.n
        if seat not in hit:
            continue
        s.curse_hits[seat] += 1
        pay_amulet = s.amulets[seat] > 0
        if pay_amulet and s.rules.curse_amulet_optional:
            # BGA (S3) and S4: "sacrifice an amulet, or lose their most valuable treasure
            # card". The choice stands even without a card: giving up "the best card" then
            # costs nothing, and the amulet is kept.
            answer = game.ask(
                _new(Decision, (decisions.CURSE, seat, decisions.CURSE_ACTIONS, 0, -1, -1))
            )
            pay_amulet = answer == decisions.PAY_AMULET
        if pay_amulet:
            s.amulets[seat] -= 1
            s.amulets_spent += 1
            s.public_events.append(("lost_amulet", seat, -1))
            s.log.add(s.turn, seat, _EV["curse_hit"], 0)
        elif s.treasures[seat]:
            best = max(s.treasures[seat])
            s.treasures[seat].remove(best)
            s.t_discard.append(best)
            s.coins_lost[seat] += best
            s.public_events.append(("lost_card", seat, best))
            s.log.add(s.turn, seat, _EV["curse_hit"], 1, best)
        else:
            s.log.add(s.turn, seat, _EV["curse_hit"], 2)


_gaze_cache: dict[int, tuple[Island, dict[int, int]]] = {}


def _gaze_table(island: Island) -> dict[int, int]:
    """:func:`gaze_cell` answers for ``island`` by ``6 * statue + facing``, filled as asked
    (at most 256 islands kept)."""
    hit = _gaze_cache.get(id(island))
    if hit is None or hit[0] is not island:
        if len(_gaze_cache) > 256:
            _gaze_cache.clear()
        hit = _gaze_cache[id(island)] = (island, {})
    return hit[1]


def _amulets_appear(game: TobagoGame) -> None:
    """Rules §8.2: one amulet where each statue looks (unless one lies there), then turn."""
    s = game.state
    gazes = _gaze_table(s.island)
    facings = s.facings
    row = s.log.flat.extend  # MoveLog.add without a Python call (six ints a row)
    turn = s.turn
    for idx, statue in enumerate(s.landmarks.statues):
        key = 6 * statue + facings[idx]
        cell = gazes.get(key, -1)
        if cell < 0:
            cell = gazes[key] = gaze_cell(game, statue, facings[idx])
        bit = 1 << cell
        if s.amulet_board & bit or s.amulet_stack == 0:
            continue
        s.amulet_board |= bit
        s.amulet_stack -= 1
        row((turn, -1, _APPEARS, cell, idx, -1))
    s.facings = [(f + 1) % 6 for f in facings]
    row((turn, -1, _STATUES_TURN, -1, -1, -1))
