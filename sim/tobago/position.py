"""A Tobago game rebuilt from one seat's view, with the hidden facts sampled: a determinization.

At the start of a turn the hidden facts of a Tobago game are the other hands, the order (and
split between draw pile and discard) of the clue cards the seat has not seen, and the order
of the treasure deck. :func:`determinize` reads everything else from the view alone and
deals the unseen cards at random, consistently with what the view says:

- the clue cards neither in the seat's hand nor on a map go, shuffled, into the other hands
  (each at its public size), then the draw pile and the discard (at their public sizes);
- the treasure cards not yet turned face up (the initial deck less every card taken,
  unclaimed or revealed as a curse, per :attr:`PlayerView.revealed`) go into the deck at its
  public size and into the left-overs nobody saw (the cards drawn but never turned up);
  since the first cards drawn were the curse-free top, the left-overs hold no more curses
  than the draws past it allow, and while the deck still holds part of that top, that part
  lies on top, curse-free; the discard holds the cards turned up into it (unclaimed, lost
  to a curse) and the left-overs;
- every treasure pile is what the face-up events put there (the seat's own, as it knows it).

It uses less than a player with perfect memory could know (which clue cards a raise put in
the discard), never more. :func:`game_at` builds a game on such a state whose strategies are
the given objects and whose random numbers come from the given generator; its
:meth:`~sim.tobago.engine.TobagoGame.play_on` plays the turn and the rest of the game.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from typing import Any

from sim.referee import Referee
from sim.tobago.decisions import ActionKind
from sim.tobago.engine import TobagoGame, plays_table
from sim.tobago.movelog import MoveLog
from sim.tobago.state import CURSE, N_MAPS, GameState
from sim.tobago.view import PlayerView


def _without(pool: list[int], taken: Sequence[int]) -> list[int]:
    """``pool`` less one copy of each of ``taken`` (those not in it are ignored)."""
    out = list(pool)
    for x in taken:
        with contextlib.suppress(ValueError):
            out.remove(x)
    return out


def determinize(view: PlayerView, rng: random.Random) -> GameState:
    """A full game state consistent with ``view``, the hidden facts drawn from ``rng``
    (the position must be between decisions of a turn, not inside a distribution)."""
    rules = view.rules
    n = view.n_players
    s: GameState = object.__new__(GameState)
    s.rules = rules
    s.island = view.island
    s.landmarks = view.landmarks
    s.n = n
    s.clue_masks = view.clue_masks
    s.shuffle_rng = rng
    s.distribution_rng = rng
    s.log = MoveLog()
    s.hand_size = rules.hand_size_for(n)
    _deal_clues(s, view, rng)
    _deal_treasures(s, view, rng)
    # The open board.
    s.amulets_spent = 0
    s.amulet_stack = view.amulet_stack
    s.amulet_board = view.amulet_board
    s.amulets = [view.amulets(p) for p in range(n)]
    s.facings = list(view.facings)
    s.atv = [view.atv(p) for p in range(n)]
    s.roses = [view.roses(p) for p in range(n)]
    s.turn = view.turn
    s.current = view.current
    s.deck_exhausted = False
    s.over = False
    s.setup_done = True
    s.truncated = False
    s.end_reason = "deck_exhausted"
    s.treasures_raised = [0] * n
    s.clues_played = [0] * n
    s.amulets_collected = [0] * n
    s.amulets_used = [0] * n
    s.curse_hits = [0] * n
    s.coins_lost = [0] * n
    return s


def _deal_clues(s: GameState, view: PlayerView, rng: random.Random) -> None:
    """The maps as shown, the seat's own hand, and the unseen clue cards dealt at random
    into the other hands, the draw pile and the discard."""
    n = view.n_players
    s.map_cards = []
    s.map_roses = []
    on_maps: list[int] = []
    for m in range(N_MAPS):
        clues = view.map_clues(m)
        s.map_cards.append([c for c, _ in clues])
        s.map_roses.append([r for _, r in clues])
        on_maps.extend(c for c, _ in clues)
    s.map_cand = view.candidate_masks()
    s.map_removed = [0] * N_MAPS
    s.located_key = []
    s.located_memo = ()
    hand = view.hand
    unseen = sorted(set(range(len(view.rules.deck.cards))) - set(hand) - set(on_maps))
    rng.shuffle(unseen)
    s.hands = []
    for p in range(n):
        if p == view.seat:
            s.hands.append(list(hand))
            continue
        k = view.hand_size(p)
        s.hands.append(unseen[:k])
        del unseen[:k]
    pile = view.clue_pile_size
    s.clue_draw = unseen[:pile]
    s.clue_discard = unseen[pile:]
    s.hand_short = [len(h) < s.hand_size for h in s.hands]


def _deal_treasures(s: GameState, view: PlayerView, rng: random.Random) -> None:
    """The treasure piles and the discard from the face-up events, the rest of the cards
    at random into the deck and the left-overs nobody saw."""
    rules = view.rules
    n = view.n_players
    events = view.revealed
    s.treasures = [[] for _ in range(n)]
    seen: list[int] = []  # every card turned face up
    public_discard: list[int] = []  # unclaimed cards and cards lost to curses, face up
    for what, seat, value in events:
        if what == "take":
            s.treasures[seat].append(value)
            seen.append(value)
        elif what == "unclaimed":
            seen.append(value)
            public_discard.append(value)
        elif what == "curse":
            seen.append(CURSE)
        elif what == "lost_card":
            s.treasures[seat].remove(value)
            public_discard.append(value)
    s.treasures[view.seat] = view.my_treasures
    initial = [*rules.treasure_values, *([CURSE] * rules.curse_count)]
    size = view.treasure_deck_size
    drawn = len(initial) - size
    # The cards drawn so far came first from the curse-free top: only those drawn past it
    # can have been curses, so the left-overs nobody saw hold at most that many, less the
    # curses seen.
    curses_allowed = max(0, drawn - rules.curse_free_top) - seen.count(CURSE)
    pool = _without(initial, seen)  # the deck and the unseen left-overs
    rng.shuffle(pool)
    n_leftovers = drawn - len(seen)
    leftovers: list[int] = []
    deck: list[int] = []
    for card in pool:
        if len(leftovers) < n_leftovers and (card != CURSE or curses_allowed > 0):
            leftovers.append(card)
            if card == CURSE:
                curses_allowed -= 1
        else:
            deck.append(card)
    # While the deck still holds part of the curse-free top, that part is on top.
    top = max(0, min(size, rules.curse_free_top - drawn))
    gold = [v for v in deck if v != CURSE][:top]
    below = _without(deck, gold)
    s.t_deck = below + gold  # drawn from the end: the curse-free cards come first
    s.t_discard = public_discard + [v for v in leftovers if v != CURSE]
    s.t_removed = [v for v in leftovers if v == CURSE]
    s.drawn = [[] for _ in range(n)]
    s.public_events = events
    s.dist_roses = []
    s.dist_left = 0
    s.dist_pool = []


def game_at(state: GameState, strategies: Sequence[Any]) -> TobagoGame:
    """A game on ``state`` played by ``strategies`` (built objects, one per seat: trusted
    players, read through the direct view), ready for :meth:`TobagoGame.play_on`."""
    g: TobagoGame = object.__new__(TobagoGame)
    g.seed = 0
    g.strict = False
    g.result = None
    g._last_plays = None
    g._last_lists = [None, None, None, None]
    g._stuck = False
    g._clue_table = plays_table(ActionKind.CLUE, len(state.clue_masks))
    g.state = state
    g.referee = Referee(strategies, [PlayerView(state, i) for i in range(state.n)], g._record)
    g.strategies = g.referee.strategies
    g.views = g.referee.views
    g.violations = g.referee.violations
    g.first_player = 0
    return g


def copy_state(state: GameState) -> GameState:
    """A copy of ``state`` that a game can play on without touching the original: every
    list copied (lists of lists one level down), a fresh move log, the generators shared."""
    s: GameState = object.__new__(GameState)
    for name in GameState.__slots__:
        value = getattr(state, name)
        if type(value) is list:
            value = [x[:] for x in value] if value and type(value[0]) is list else value[:]
        setattr(s, name, value)
    s.log = MoveLog()
    return s
