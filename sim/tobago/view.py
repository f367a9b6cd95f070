"""What one player may know, as a read-only view handed to that seat's strategy.

Public: the island, landmarks and statue facings, amulets on the board and in the supply,
every ATV, the maps (clues, roses, candidate cells, markers), roses and amulets of everyone,
the sizes of hands, piles and decks, and every card turned face up (``revealed``: who took
which card, who lost what to curses). Private to this seat: its hand, its treasure cards and
the treasure cards it drew for the distribution in progress. Never: other hands, the order of
any deck, the engine's random generators.
"""

from __future__ import annotations

from sim.tobago.clues import ClueDeck
from sim.tobago.island import Island
from sim.tobago.landmarks import Landmarks
from sim.tobago.rules import TobagoRules
from sim.tobago.state import N_MAPS, GameState


class PlayerView:
    """Seat ``seat``'s window on a game. Lists returned are copies; masks are ints."""

    __slots__ = ("_s", "seat")

    def __init__(self, state: GameState, seat: int) -> None:
        self._s = state
        self.seat = seat

    # -- static facts ---------------------------------------------------------------------
    @property
    def rules(self) -> TobagoRules:
        """The rules of this game."""
        return self._s.rules

    @property
    def island(self) -> Island:
        """The island (immutable)."""
        return self._s.island

    @property
    def landmarks(self) -> Landmarks:
        """Hut, palm and statue cells (statue facings as at setup; see :attr:`facings`)."""
        return self._s.landmarks

    @property
    def deck(self) -> ClueDeck:
        """The clue deck's card list (what each card id says)."""
        return self._s.rules.deck

    @property
    def clue_masks(self) -> tuple[int, ...]:
        """Candidate cells of every clue card on this island, by card id."""
        return self._s.clue_masks

    @property
    def n_players(self) -> int:
        """Players in the game."""
        return self._s.n

    # -- public state ---------------------------------------------------------------------
    @property
    def turn(self) -> int:
        """The current turn number (from 0)."""
        return self._s.turn

    @property
    def current(self) -> int:
        """The seat whose turn it is."""
        return self._s.current

    @property
    def facings(self) -> tuple[int, ...]:
        """Current statue facings, in landmark order."""
        return tuple(self._s.facings)

    @property
    def amulet_board(self) -> int:
        """Cells holding an amulet."""
        return self._s.amulet_board

    @property
    def amulet_stack(self) -> int:
        """Amulets left in the supply."""
        return self._s.amulet_stack

    def atv(self, seat: int) -> int:
        """The cell of ``seat``'s ATV (-1 before it is placed)."""
        return self._s.atv[seat]

    def amulets(self, seat: int) -> int:
        """Amulets held by ``seat`` (open information)."""
        return self._s.amulets[seat]

    def roses(self, seat: int) -> int:
        """Compass roses left in ``seat``'s supply."""
        return self._s.roses[seat]

    def hand_size(self, seat: int) -> int:
        """Clue cards in ``seat``'s hand."""
        return len(self._s.hands[seat])

    def treasure_count(self, seat: int) -> int:
        """Treasure cards in ``seat``'s pile (values are hidden, except one's own)."""
        return len(self._s.treasures[seat])

    def map_clues(self, m: int) -> list[tuple[int, int]]:
        """``(card id, rose owner)`` of each clue on map ``m``, oldest first."""
        return list(zip(self._s.map_cards[m], self._s.map_roses[m], strict=True))

    def candidates(self, m: int) -> int:
        """Cells where map ``m``'s treasure may lie."""
        return self._s.map_cand[m]

    def markers_shown(self, m: int) -> bool:
        """Whether map ``m``'s markers are on the board."""
        return self._s.markers_shown(m)

    def located(self, m: int) -> int:
        """The cell of map ``m``'s treasure when located, else -1."""
        return self._s.located(m)

    def candidate_masks(self) -> list[int]:
        """``candidates(m)`` of every map, in one call."""
        return list(self._s.map_cand)

    def clue_counts(self) -> list[int]:
        """How many clues lie on each map."""
        return [len(cards) for cards in self._s.map_cards]

    def roses_on_maps(self, seat: int) -> list[int]:
        """How many of ``seat``'s roses lie on each map."""
        return [roses.count(seat) for roses in self._s.map_roses]

    def located_cells(self) -> tuple[int, ...]:
        """For every map, the cell of its treasure when located, else -1."""
        s = self._s
        # The state's memo checked here: strategies ask at nearly every decision and it
        # nearly always holds, so the usual answer costs no second call.
        if s.map_cand == s.located_key:
            return s.located_memo
        return s.located_cells()

    @property
    def maps(self) -> range:
        """Map indices."""
        return range(N_MAPS)

    def clue_legal(self, card: int, m: int) -> bool:
        """Whether clue ``card`` may be played on map ``m`` now."""
        return self._s.clue_legal(card, m)

    @property
    def clue_pile_size(self) -> int:
        """Clue cards left in the draw pile (face down: its order and cards are hidden)."""
        return len(self._s.clue_draw)

    @property
    def clue_discard_size(self) -> int:
        """Clue cards in the discard pile."""
        return len(self._s.clue_discard)

    @property
    def treasure_deck_size(self) -> int:
        """Cards left in the treasure deck."""
        return len(self._s.t_deck)

    @property
    def revealed(self) -> list[tuple[str, int, int]]:
        """Every treasure event seen face up, oldest first, as ``(what, seat, value)``:
        ``("take", seat, value)``, ``("unclaimed", -1, value)``, ``("curse", raiser, -1)``,
        ``("lost_card", seat, value)`` and ``("lost_amulet", seat, -1)`` for curse victims."""
        return list(self._s.public_events)

    @property
    def distribution_roses(self) -> list[int]:
        """During a distribution: the owners of the roses still in R, from the bottom up."""
        return list(self._s.dist_roses)

    @property
    def distribution_cards_left(self) -> int:
        """During a distribution: cards not yet turned up (after the offered one)."""
        return self._s.dist_left

    # -- private to this seat -------------------------------------------------------------
    @property
    def hand(self) -> list[int]:
        """This seat's clue cards."""
        return list(self._s.hands[self.seat])

    @property
    def my_treasures(self) -> list[int]:
        """This seat's treasure card values."""
        return list(self._s.treasures[self.seat])

    @property
    def my_drawn(self) -> list[int]:
        """Treasure cards this seat drew for the distribution in progress (-1 is a curse)."""
        return list(self._s.drawn[self.seat])
