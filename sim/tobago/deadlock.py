"""Deadlock: a Tobago position that no seat can ever change again under the rules.

The game moves toward its end only by raising treasures (the treasure deck shrinks only when
one is raised), and a treasure is located only by clue plays and marker removals. A position
is **deadlocked** when none of the following can ever happen again:

- a clue play: a seat with a rose left holds a card legal on some map (rules §5.2, with the
  BGA flag);
- a raise: some map is located and some seat holds a rose (any seat, without
  ``raise_needs_rose``); every island cell can be reached, since neighbouring cells are always
  one leg apart (rules §6.1);
- a change of hand: a short hand tops up at its owner's next turn while a clue pile holds
  cards; with ``exchange_as_main_action`` any seat with cards may exchange them while a pile
  holds cards;
- a useful amulet: an amulet held, or lying on the board where any ATV can collect it, can
  exchange a hand (while a pile holds cards) or remove a marker (a map showing two or more).

Driving, an amulet move or an extra clue that cannot be played changes none of these facts,
and amulets appear only when a treasure is raised: so if none holds now, none holds ever
after. One more case ends the game whatever hands and amulets could still do: no seat holds a
rose while raising needs one. Clue plays and raises both need a rose, and roses come back
only from a raise, so nothing can ever be raised again.

:func:`deadlocked` is therefore sound: it never ends a game that could still reach its natural
end. It is also cautious: a position where some hand could still change is not called a
deadlock even when no card left could ever be played (a strategy that never exchanges, or only
useless cards left, can still run to the turn cap). It is called only after a turn in which
the seat could not play a clue and changed nothing, so its cost does not show in normal play.
"""

from __future__ import annotations

from sim.tobago.state import N_MAPS, GameState


def deadlocked(s: GameState) -> bool:
    """Whether no seat can ever play a clue, raise, or change its hand (see the module)."""
    rules = s.rules
    if rules.raise_needs_rose and not any(s.roses):
        return True  # no clue play and no raise ever again: roses come back only from raises
    hands = s.hands
    seats = range(s.n)
    piles = bool(s.clue_draw or s.clue_discard)
    if piles:
        if any(s.hand_short):
            return False
        if rules.exchange_as_main_action and any(hands):
            return False
    if s.amulet_board or any(s.amulets):
        # Who could use an amulet: anyone, once one lies on the board; else its holders.
        users = seats if s.amulet_board else [p for p in seats if s.amulets[p]]
        if piles and any(hands[p] for p in users):
            return False
        threshold = rules.marker_threshold
        for m in range(N_MAPS):
            if s.map_cards[m] and 1 < s.map_cand[m].bit_count() <= threshold:
                return False
    can_raise = any(s.roses) or not rules.raise_needs_rose
    for m in range(N_MAPS):
        if can_raise and s.located(m) >= 0:
            return False
    for p in seats:
        if s.roses[p]:
            for card in hands[p]:
                for m in range(N_MAPS):
                    if s.clue_legal(card, m):
                        return False
    return True
