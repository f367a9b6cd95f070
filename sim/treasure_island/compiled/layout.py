"""Where the compiled engine keeps a game: offsets into one flat int64 array, the rules as
ints, and the card tables as numpy arrays.

A game's whole state is one row of ints (``STATE_SIZE``): the draw pile (top = last), the
discard (in its list order, which the next shuffle of it starts from), each seat's stash as
ten 6-bit pile masks with its points, card count and kind mask, the play area in placing
order, and the turn's counters. The names are those of the reference engine's attributes
(:class:`sim.treasure_island.engine.TreasureIslandGame`). The tables are the ones of
:mod:`sim.treasure_island.cards` as arrays (numba reads module-level arrays as constants).
"""

from __future__ import annotations

import numpy as np

from sim.treasure_island.cards import (
    CARD_GAIN,
    GAIN,
    KIND,
    N_CARDS,
    N_KINDS,
    TOP_INDEX,
    TOP_LOSS,
    TOP_VALUE,
    VALUE,
)
from sim.treasure_island.characters import NAMES as CHARACTER_NAMES
from sim.treasure_island.rules import TreasureIslandRules

MAX_SEATS = 4
# -- the state row: (offset, length) laid end to end ---------------------------------------------
PILE = 0  # 50 cards, the top last
PILE_LEN = PILE + 50
PILE_PILES = PILE_LEN + 1  # the pile's make-up, one 6-bit mask per kind
DISCARD = PILE_PILES + N_KINDS  # up to every card
DISCARD_LEN = DISCARD + N_CARDS
STASH = DISCARD_LEN + 1  # seat * 10 + kind: pile masks
POINTS = STASH + MAX_SEATS * N_KINDS
CARDS = POINTS + MAX_SEATS
STASH_KINDS = CARDS + MAX_SEATS
CHARACTER = STASH_KINDS + MAX_SEATS  # each seat's character code, -1 for none
SEEDED = CHARACTER + MAX_SEATS  # 1 once a seat's own stream is seeded (made on first use)
AREA = SEEDED + MAX_SEATS  # the play area in placing order (at most one card a kind)
AREA_LEN = AREA + N_KINDS + 1  # room for the bust card after a full area
AREA_KINDS = AREA_LEN + 1
ANCHOR_AT = AREA_KINDS + 1
RUM = ANCHOR_AT + 1
BUSTING = RUM + 1  # cards in the pile of kinds in the play area
KNOWN = BUSTING + 1  # public cards on top of the pile
TURN = KNOWN + 1
N = TURN + 1
WRECKER = N + 1
ENDED = WRECKER + 1  # how the turn ended (the engine's CHOSEN .. BUSTED)
BANKED = ENDED + 1
BONUS_CARDS = BANKED + 1
KEY_CHEST = BONUS_CARDS + 1
DECISIONS = KEY_CHEST + 1
TURNS = DECISIONS + 1  # per seat: turns, busts, cards banked, bonus cards; then the game's
# Key + Chest bonuses
CHOICES = TURNS + (MAX_SEATS + 1) * 4  # room for a power's options (a game allocates nothing)
BONUS_CHOICES = CHOICES + 64  # the bonus's, which a power's bust or plunder may ask for
DEALT = BONUS_CHOICES + 64  # the draft's shuffled copy of the character pool
STATE_SIZE = DEALT + 64

# -- the rules as ints ---------------------------------------------------------------------------
R_CHARACTERS = 0
R_DEALT = 1
R_RUM = 2
R_CANDLE = 3
R_KEY_CHEST_ANCHORED = 4
R_KNIFE_AREA = 5
R_TIE_CARDS = 6
R_TIE_KINDS = 7
R_FIRST_RANDOM = 8
R_MAX_TURNS = 9
RULES_SIZE = 10

# -- streams: the rows of a game's generators ----------------------------------------------------
CARDS_STREAM = 0
CHARACTERS_STREAM = 1
SEAT_STREAM = 2  # + seat
# A seed block's games share their deal: what its first game set up is kept and copied.
SAVED_CARDS = SEAT_STREAM + MAX_SEATS  # the cards stream after the setup
SAVED_GAME = SAVED_CARDS + 1  # the game's state after the setup (its first STATE_SIZE ints)
#: The rows a game plays in; the streams as seeded follow (``play_game``'s ``seeded`` rows).
STREAM_ROWS = SAVED_GAME + 1

# -- the card tables -----------------------------------------------------------------------------
KIND_OF = np.array(KIND, dtype=np.int64)
VALUE_OF = np.array(VALUE, dtype=np.int64)
#: A pile mask's top index; an empty pile's is -1 (callers check for an empty pile first).
TOP_INDEX_OF = np.array(TOP_INDEX, dtype=np.int64)
TOP_VALUE_OF = np.array(TOP_VALUE, dtype=np.int64)
TOP_LOSS_OF = np.array(TOP_LOSS, dtype=np.int64)
CARD_GAIN_OF = np.array(CARD_GAIN, dtype=np.int64)
#: ``GAIN_ROWS[kind, my pile, pile]``: ``GAIN[kind][top of my pile][pile]``, an empty pile's
#: top read as the reference reads it (index -1: the last row, the empty pile's).
GAIN_ROWS = np.array(
    [[GAIN[k][TOP_INDEX[m]] for m in range(64)] for k in range(N_KINDS)], dtype=np.int64
)
#: Bits set in every mask up to 10 bits.
BITS = np.array([m.bit_count() for m in range(1 << N_KINDS)], dtype=np.int64)
#: ``KINDS_IN[mask, j]``: the ``j``-th kind (lowest first) in a mask of kinds.
KINDS_IN = np.array(
    [
        [k for k in range(N_KINDS) if m >> k & 1] + [0] * (N_KINDS - m.bit_count())
        for m in range(1 << N_KINDS)
    ],
    dtype=np.int64,
)


def rules_row(rules: TreasureIslandRules) -> np.ndarray:
    """The rules as the compiled engine reads them."""
    row = np.zeros(RULES_SIZE, dtype=np.int64)
    row[R_CHARACTERS] = rules.characters
    row[R_DEALT] = rules.characters_dealt
    row[R_RUM] = rules.rum_cards
    row[R_CANDLE] = rules.candle_reveal
    row[R_KEY_CHEST_ANCHORED] = rules.key_chest_on_anchored_bust
    row[R_KNIFE_AREA] = rules.knife_checks_play_area
    row[R_TIE_CARDS] = rules.tie_break_cards
    row[R_TIE_KINDS] = rules.tie_break_kinds
    row[R_FIRST_RANDOM] = rules.first_player == "random"
    row[R_MAX_TURNS] = rules.max_turns
    return row


def character_pool(rules: TreasureIslandRules) -> np.ndarray:
    """The rules' character pool as character codes (indices into ``characters.NAMES``)."""
    return np.array([CHARACTER_NAMES.index(c) for c in rules.character_pool], dtype=np.int64)
