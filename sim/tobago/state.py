"""The mutable state of one Tobago game, and the small queries every layer asks of it.

One object with ``__slots__``; nothing is created per move. Treasure cards are their coin
values, a curse is :data:`CURSE` (-1). Sets of cells are bitmasks over the island's cells.
The state holds hidden information (hands, decks, drawn cards); strategies never see it
directly, only through :class:`sim.tobago.view.PlayerView`.
"""

from __future__ import annotations

import random

from sim.tobago.island import Island
from sim.tobago.landmarks import Landmarks
from sim.tobago.movelog import CODE, MoveLog
from sim.tobago.rules import TobagoRules

CURSE = -1
N_MAPS = 4
_CLUE_RESHUFFLE = CODE["clue_reshuffle"]


class GameState:
    """Everything about one game in progress."""

    __slots__ = (
        "amulet_board",
        "amulet_stack",
        "amulets",
        "amulets_collected",
        "amulets_spent",
        "amulets_used",
        "atv",
        "clue_discard",
        "clue_draw",
        "clue_masks",
        "clues_played",
        "coins_lost",
        "current",
        "curse_hits",
        "deck_exhausted",
        "dist_left",
        "dist_pool",
        "dist_roses",
        "distribution_rng",
        "drawn",
        "end_reason",
        "facings",
        "hand_short",
        "hand_size",
        "hands",
        "island",
        "landmarks",
        "located_key",
        "located_memo",
        "log",
        "map_cand",
        "map_cards",
        "map_removed",
        "map_roses",
        "n",
        "over",
        "public_events",
        "roses",
        "rules",
        "setup_done",
        "shuffle_rng",
        "t_deck",
        "t_discard",
        "t_removed",
        "treasures",
        "treasures_raised",
        "truncated",
        "turn",
    )

    def __init__(
        self,
        rules: TobagoRules,
        island: Island,
        landmarks: Landmarks,
        n_players: int,
        clue_masks: tuple[int, ...],
        shuffle_rng: random.Random,
        distribution_rng: random.Random,
    ) -> None:
        self.rules = rules
        self.island = island
        self.landmarks = landmarks
        self.n = n_players
        self.clue_masks = clue_masks
        self.shuffle_rng = shuffle_rng
        self.distribution_rng = distribution_rng
        self.log = MoveLog()
        self.clue_draw: list[int] = list(range(len(rules.deck.cards)))  # ids are positions
        self.clue_discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(n_players)]
        self.hand_short = [False] * n_players
        self.hand_size = rules.hand_size_for(n_players)  # a full hand, fixed for the game
        self.map_cards: list[list[int]] = [[] for _ in range(N_MAPS)]
        self.map_roses: list[list[int]] = [[] for _ in range(N_MAPS)]
        self.map_cand: list[int] = [island.all_mask] * N_MAPS
        self.map_removed: list[int] = [0] * N_MAPS
        # located_cells() remembered for the candidate sets it was computed from.
        self.located_key: list[int] = []
        self.located_memo: tuple[int, ...] = ()
        self.t_deck: list[int] = []
        self.t_discard: list[int] = []
        self.t_removed: list[int] = []
        self.treasures: list[list[int]] = [[] for _ in range(n_players)]
        self.drawn: list[list[int]] = [[] for _ in range(n_players)]
        self.public_events: list[tuple[str, int, int]] = []
        self.dist_roses: list[int] = []
        self.dist_left = 0
        self.dist_pool: list[int] = []
        self.amulets_spent = 0
        self.amulet_stack = rules.amulet_count
        self.amulet_board = 0
        self.amulets = [0] * n_players
        self.facings = list(landmarks.facings)
        self.atv = [-1] * n_players
        self.roses = [rules.roses_per_player] * n_players
        self.turn = 0
        self.current = 0
        self.deck_exhausted = False
        self.over = False
        self.setup_done = False
        self.truncated = False
        #: Why the game ended when it did not run to the cap (see ``sim.outcome.END_REASONS``).
        self.end_reason = "deck_exhausted"
        self.treasures_raised = [0] * n_players
        self.clues_played = [0] * n_players
        self.amulets_collected = [0] * n_players
        self.amulets_used = [0] * n_players
        self.curse_hits = [0] * n_players
        self.coins_lost = [0] * n_players

    # -- maps -----------------------------------------------------------------------------

    def markers_shown(self, m: int) -> bool:
        """Whether map ``m``'s markers are on the board (few enough candidates, rules §5.3)."""
        return (
            bool(self.map_cards[m]) and self.map_cand[m].bit_count() <= self.rules.marker_threshold
        )

    def located(self, m: int) -> int:
        """The cell of map ``m``'s treasure if exactly one marker is left, else -1.

        A single candidate always shows its marker, since the threshold is at least 1.
        """
        cand = self.map_cand[m]
        if not cand or cand & (cand - 1) or not self.map_cards[m]:
            return -1
        return cand.bit_length() - 1

    def drop_caches(self) -> None:
        """Forget what :meth:`located_cells` memoised (it is recomputed when next asked)."""
        self.located_key = []
        self.located_memo = ()

    def located_cells(self) -> tuple[int, ...]:
        """:meth:`located` of every map.

        Strategies ask this at nearly every decision and the maps seldom change in between,
        so the answer is kept until the candidate sets change: a map's candidates shrink
        only through its clues and markers and a raise resets them, so equal sets give equal
        answers. A tuple, so the kept answer is handed out as it is."""
        cands = self.map_cand
        if cands == self.located_key:
            return self.located_memo
        # The four maps unrolled.
        k0, k1, k2, k3 = self.map_cards
        c0, c1, c2, c3 = cands
        memo = self.located_memo = (
            c0.bit_length() - 1 if k0 and c0.bit_count() == 1 else -1,
            c1.bit_length() - 1 if k1 and c1.bit_count() == 1 else -1,
            c2.bit_length() - 1 if k2 and c2.bit_count() == 1 else -1,
            c3.bit_length() - 1 if k3 and c3.bit_count() == 1 else -1,
        )
        self.located_key = cands[:]
        return memo

    def clue_legal(self, card: int, m: int) -> bool:
        """Whether ``card`` may go on map ``m`` (rules §5.2, with the BGA flag)."""
        cand = self.map_cand[m]
        after = cand & self.clue_masks[card]
        if not after:
            return False
        if after != cand:
            return True
        return self.rules.bga_allow_non_reducing_without_markers and not self.markers_shown(m)

    # -- cards ----------------------------------------------------------------------------

    def draw_clue(self) -> int:
        """The top clue card, reshuffling the discard pile into the deck when it runs out;
        -1 when both are empty."""
        if not self.clue_draw:
            if not self.clue_discard:
                return -1
            self.clue_draw = self.clue_discard
            self.clue_discard = []
            self.shuffle_rng.shuffle(self.clue_draw)
            self.log.add(self.turn, -1, _CLUE_RESHUFFLE, len(self.clue_draw))
        return self.clue_draw.pop()

    def refill_hand(self, seat: int) -> None:
        """Draw until the hand is at size. When both clue piles are empty the hand stays short
        (rules §5.1 [L]) and is topped up at its owner's next turn (see ``hand_short``)."""
        hand = self.hands[seat]
        size = self.hand_size
        while len(hand) < size:
            if self.clue_draw:  # the common case, without a call
                hand.append(self.clue_draw.pop())
                continue
            card = self.draw_clue()
            if card < 0:
                self.hand_short[seat] = True
                return
            hand.append(card)
        self.hand_short[seat] = False

    def score(self, seat: int) -> int:
        """Coins in ``seat``'s treasure pile."""
        return sum(self.treasures[seat])
