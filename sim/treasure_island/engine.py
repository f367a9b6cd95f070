"""The Treasure Island game loop: setup, turns, placements and powers, busts, plunder, the end.

A game is a pure function of (game seed, rules, seat strategies). The seed is split into
named streams: ``cards`` (first the draw pile's order and the first player, then every
shuffle of the discard for a Candle or a Key + Chest bonus), ``characters`` (the draft deal)
and ``("seat", i)`` for each strategy (built on first use), so changing one seat's strategy
never changes the order of the draw pile.

The rulings are those of the rules spec §9. How they are read here:

- A placement from any source busts when its kind is already in the play area; the bust card's
  power is not applied and the turn ends at once, even inside a chain of powers (§5.1, §9.3).
- Powers resolve depth-first: a card placed by a power resolves its own power before anything
  else (§9.3). Each power places at most one card, so nothing is pending after it.
- The Rum bottle is a counter: after it, the next ``rum_cards`` cards placed by any source
  must come before a plunder, and while the counter is open the player draws (§6.6, §9.4). A
  Spyglass under an open counter places the card it reveals. With the draw pile empty the
  requirement shrinks to nothing and the turn ends with a plunder (§9.1).
- The Anchor keeps, on a bust, the cards placed before it in the play area (§6.1, §9.5);
  that is not a plunder, so no Key + Chest bonus (unless ``key_chest_on_anchored_bust``).
- A power with nothing to act on does nothing (logged ``no_effect``, §9.11); a choice with a
  single legal answer is made for the player (§9.12: a forced bust is still a bust).
- Every turn takes at least one card from the draw pile (the mandatory first draw), so a game
  lasts at most 50 turns; ``max_turns`` is only a safety net.

Stashes are kept as ten 6-bit pile masks per player (:mod:`sim.treasure_island.cards`), and
so is the public make-up of the draw pile (what perfect memory knows, §9.15); the engine also
keeps one record per turn for the reports. Speed notes: CPython allocates every int above
256, so the hot paths avoid rebuilding 60-bit card masks (``pile_mask`` and ``discard_mask``
are computed when asked) and read small precomputed tables instead of shifting; a finished
game drops its views, which point back at it, so it is freed without the cycle collector.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol

from sim.errors import InputError
from sim.guard import NO_GUARD, Audited, DecisionTimeout, Guard, ids_of
from sim.outcome import END_REASONS, GameResult, Violation, ranks_and_shares
from sim.referee import Factory, Referee, seat_game
from sim.sealed import sealed_class
from sim.seeding import shuffled, stream
from sim.treasure_island import decisions
from sim.treasure_island.card_powers import CardPowers
from sim.treasure_island.cards import KIND, N_KINDS, PER_KIND, STARTING_DISCARD, STARTING_PILE
from sim.treasure_island.characters import NAMES as CHARACTER_NAMES
from sim.treasure_island.characters import WRECKER
from sim.treasure_island.decisions import Decision, DecisionKind
from sim.treasure_island.movelog import CODE
from sim.treasure_island.precomputed import (
    BUSTED,
    CHOSEN,
    CONTINUE_DECISIONS,
    CONTINUE_QUESTION,
    FROM_CANDLE,
    FROM_HELM,
    FROM_KNIFE,
    FROM_PILE,
    FULL_PILE,
    PILE_BIT,
    PILE_EMPTY,
    SPYGLASS_BACK,
)
from sim.treasure_island.rules import TreasureIslandRules
from sim.treasure_island.turn import TurnPlay
from sim.treasure_island.view import PlayerView

#: Kept importable from here: the codes of placement sources and of how a turn ended, which
#: the tables and the tests read.
__all__ = [
    "BUSTED",
    "CHOSEN",
    "FROM_CANDLE",
    "FROM_HELM",
    "FROM_KNIFE",
    "FROM_PILE",
    "PILE_EMPTY",
    "SPYGLASS_BACK",
    "CardPowers",
    "Shortcuts",
    "Strategy",
    "StrategyFactory",
    "TreasureIslandGame",
    "seal_view",
]

_EV_GAME_END = CODE["game_end"]
_EV_SCORE = CODE["score"]


class Shortcuts(Protocol):
    """A built-in player class that answers the commonest questions by function as well.

    ``shortcuts()`` (a class method) returns the function that answers the continue question
    (a true value: draw, else plunder) or None, and the power choices it answers from their
    options alone, by decision kind; each is called with the player as its first argument,
    like a method of the class. Each must answer exactly what ``decide`` answers to the same
    question, and draw the same random numbers (the referee trusts that only of the built-in
    players, see :mod:`sim.referee`)."""

    @classmethod
    def shortcuts(cls) -> decisions.ShortcutTable:
        """The continue answer and the power choices by kind."""
        ...


class Strategy(Protocol):
    """A player: answers each :class:`~sim.treasure_island.Decision`."""

    def decide(self, view: PlayerView, decision: Decision) -> object:
        """One legal answer to ``decision``."""
        ...


#: Builds a seat's strategy from the seat's own random generator.
StrategyFactory = Callable[[random.Random], Strategy]

#: A plug-in's view (see :mod:`sim.sealed`).
seal_view = sealed_class(PlayerView, "SealedPlayerView")
#: What the audit leaves alone: set when the game is built and never changed by play (or, for
#: the seats' strategies and views, checked by identity).
_STATIC = (
    "rules",
    "n",
    "seed",
    "strict",
    "strategies",
    "views",
    "_continue",
    "referee",
    "result",
)


class TreasureIslandGame(TurnPlay):
    """One game: build it, then :meth:`play` it (its turns are :class:`TurnPlay`'s, the cards'
    powers :class:`CardPowers`').

    Public attributes read by views, tests and the runner: ``pile`` (top = last),
    ``discard``, ``stash`` (per seat, ten pile masks), ``area`` (the play area in placing
    order), ``area_kinds`` (kind mask), ``anchor_at``, ``rum``, ``pile_piles`` (the draw
    pile's make-up: one 6-bit mask per kind, like a stash), ``pile_mask`` and
    ``discard_mask`` (60-bit card masks, computed when read), ``log`` (flat rows of six
    ints) and ``turn_rows`` (flat rows of :data:`TURN_FIELDS`). ``views`` is emptied when
    :meth:`play` returns.
    """

    __slots__ = (
        "_banked",
        "_bonus_cards",
        "_continue",
        "_ended",
        "_key_chest",
        "anchor_at",
        "area",
        "area_kinds",
        "busting",
        "cards",
        "characters",
        "discard",
        "discard_rng",
        "first_player",
        "known",
        "log",
        "n",
        "pile",
        "pile_piles",
        "points",
        "referee",
        "result",
        "rules",
        "rum",
        "seed",
        "stash",
        "stash_kinds",
        "strategies",
        "strict",
        "turn",
        "turn_rows",
        "views",
        "violations",
        "wrecker",
    )

    #: One row per turn.
    TURN_FIELDS: ClassVar[tuple[str, ...]] = (
        "turn",
        "seat",
        "placed",
        "reason",
        "banked",
        "bonus_cards",
        "points",
        "key_chest",
    )

    def __init__(
        self,
        rules: TreasureIslandRules,
        strategies: Sequence[Factory],
        seed: int,
        strict: bool = False,
        guard: Guard = NO_GUARD,
    ) -> None:
        n = len(strategies)
        if not 2 <= n <= 4:
            raise ValueError(f"Treasure Island takes 2 to 4 players, got {n}")
        self.rules = rules
        self.n = n
        self.seed = seed
        self.strict = strict
        self.result: GameResult | None = None
        # The seats first: the deal's kept shuffle serves only games of built-in players.
        self.referee: Referee[Decision] = seat_game(
            seed,
            strategies,
            [PlayerView(self, i) for i in range(n)],
            seal_view,
            self._record,
            strict=strict,
            guard=guard,
            audited=self._audited,
            lazy_streams=True,
            yes=CONTINUE_QUESTION,
        )
        referee = self.referee
        self.strategies = referee.strategies
        self.views = referee.views
        self.violations: list[Violation] = referee.violations
        cards_rng, pile = shuffled(seed, "cards", STARTING_PILE, keep=all(referee.trusted))
        self.pile = pile
        self.pile_piles = [FULL_PILE - 1] * N_KINDS  # all but the lowest card of each kind
        self.discard = list(STARTING_DISCARD)
        self.discard_rng: random.Random = cards_rng
        self.stash: list[list[int]] = [[0] * N_KINDS for _ in range(n)]
        self.points = [0] * n  # each stash's score, kept up to date card by card
        self.cards = [0] * n  # each stash's card count
        self.stash_kinds = [0] * n  # each stash's non-empty piles, as a kind mask
        self.area: list[int] = []
        self.area_kinds = 0
        self.anchor_at = -1
        self.rum = 0
        self.busting = 0  # cards in the draw pile of kinds in the play area
        self.known = 0  # cards on top of the draw pile whose identity is public
        self.turn = 0
        self.first_player = cards_rng.randrange(n) if rules.first_player == "random" else 0
        self.characters: list[str] = [""] * n
        self.wrecker = -1
        self.log: list[int] = []
        self.turn_rows: list[int] = []
        self._bonus_cards = 0
        self._banked = 0
        self._key_chest = 0
        self._ended = CHOSEN
        # Decisions are immutable: the continue questions are shared by every game.
        self._continue = CONTINUE_DECISIONS

    @property
    def decisions(self) -> int:
        """Decisions asked so far (the referee counts them)."""
        return self.referee.decisions

    @decisions.setter
    def decisions(self, value: int) -> None:
        self.referee.decisions = value

    def ask(self, decision: Decision) -> Any:
        """The seat's checked answer to ``decision`` (one of its options), or the fallback
        after a violation (see :mod:`sim.referee`)."""
        return self.referee.asker(decision.seat)(decision, decision.options, 0)

    def _audited(self) -> Audited:
        """What the audit compares around each decision: every changing field of the game
        (piles, stashes, the play area, the generator, the logs, the violations, the count of
        decisions), which strategy and view each seat has, and the identity of the rules."""
        copied = ("log", "turn_rows", "violations")
        fields = (*(f for f in self.__slots__ if f not in (*_STATIC, *copied)), "decisions")

        def identity() -> tuple[int, ...]:
            seats = [id(x) for pair in self.referee.deciders for x in pair]
            lists = (id(self.log), id(self.turn_rows), id(self.referee.violations))
            return (*ids_of(self.rules), *seats, *map(id, self._continue), *lists)

        return Audited(self, fields, identity, copied=copied)

    def _record(self, seat: int, kind: DecisionKind) -> int:
        """Log a violation of ``seat`` on a decision of ``kind`` (the referee's callback);
        the turn it happened in."""
        self._log(seat, CODE["violation"], int(kind), 1)
        return self.turn

    def _log(self, seat: int, kind: int, a: int = -1, b: int = -1, c: int = -1) -> None:
        self.log += (self.turn, seat, kind, a, b, c)

    def arrange(
        self,
        pile: Sequence[int],
        discard: Sequence[int] = (),
        stashes: Sequence[Sequence[int]] = (),
    ) -> None:
        """Put every card in a chosen place (scenario tests, analysis): ``pile`` listed top
        first, the ``discard``, and each seat's stash; cards not named are out of the game."""
        self.pile = list(reversed(pile))
        self.pile_piles = [0] * N_KINDS
        for c in pile:
            self.pile_piles[KIND[c]] |= PILE_BIT[c]
        self.discard = list(discard)
        self.stash = [[0] * N_KINDS for _ in range(self.n)]
        self.points = [0] * self.n
        self.cards = [0] * self.n
        self.stash_kinds = [0] * self.n
        for seat, cards in enumerate(stashes):
            for c in cards:
                self._bank(seat, c)

    # -- the game -------------------------------------------------------------------------------

    def play(self) -> GameResult:
        """Play the game to its end and return the result."""
        if self.rules.characters:
            self._draft()
        return self.play_from(self.first_player)

    def play_from(self, seat: int) -> GameResult:
        """Play turns from ``seat``'s on to the end of the game and return the result
        (:meth:`play` after the draft; search plays a rebuilt position on with it, see
        :mod:`sim.treasure_island.position`)."""
        n = self.n
        max_turns = self.rules.max_turns
        reason = "deck_exhausted"
        try:
            while self.pile:
                if self.turn >= max_turns:
                    reason = "turn_cap"
                    break
                self.play_turn(seat)
                seat = (seat + 1) % n
                self.turn += 1
        except DecisionTimeout as exc:
            # The guard's decision time limit: the game ends here (end reason ``timeout``).
            self.referee.timed_out(exc)
            reason = "timeout"
        self.result = self._finish(reason)
        # Views and askers point back at the game: dropping them breaks the cycles, so a
        # finished game is freed at once instead of by the cycle collector (about 5% of the
        # run's time).
        self.referee.release()
        self.views = []
        return self.result

    def _draft(self) -> None:
        """Deal characters, each player keeps one (§4.2); fewer dealt when the pool is short."""
        pool = list(self.rules.character_pool)
        n = self.n
        per = min(self.rules.characters_dealt, len(pool) // n)
        if per < 1:
            raise InputError(
                f"rules: character_pool has {len(pool)} characters, a {n}-player game "
                f"needs at least {n}"
            )
        stream(self.seed, "characters").shuffle(pool)
        for k in range(n):
            seat = (self.first_player + k) % n
            dealt = tuple(pool[k * per : (k + 1) * per])
            name = dealt[0] if per == 1 else self.ask(Decision(decisions.DRAFT, seat, dealt))
            self.characters[seat] = name
            if name == WRECKER:
                self.wrecker = seat
            self._log(seat, CODE["draft"], CHARACTER_NAMES.index(name))

    def _finish(self, reason: str) -> GameResult:
        rules = self.rules
        turn = self.turn
        log = self.log
        log += (turn, -1, _EV_GAME_END, END_REASONS.index(reason), -1, -1)
        scores = tuple(self.points)
        cards = self.cards
        by_cards = rules.tie_break_cards
        by_kinds = rules.tie_break_kinds
        keys = [
            (score, cards[p] if by_cards else 0, self.stash_kinds[p].bit_count() if by_kinds else 0)
            for p, score in enumerate(scores)
        ]
        ranks, shares = ranks_and_shares(keys)
        for p, score in enumerate(scores):
            log += (turn, p, _EV_SCORE, score, ranks[p], cards[p])
        return GameResult(
            scores,
            ranks,
            shares,
            turn,
            reason == "turn_cap",
            self.first_player,
            rules.preset,
            rules.hash,
            reason,
        )

    @property
    def pile_mask(self) -> int:
        """The draw pile's make-up as a 60-bit card mask (kept per kind in ``pile_piles``)."""
        mask = 0
        for kind, pile in enumerate(self.pile_piles):
            mask |= pile << (kind * PER_KIND)
        return mask

    @property
    def discard_mask(self) -> int:
        """The discard's make-up as a 60-bit card mask."""
        mask = 0
        for c in self.discard:
            mask |= 1 << c
        return mask

    def score(self, seat: int) -> int:
        """Points of ``seat``'s stash: the top value of each kind (§7)."""
        return self.points[seat]

    def stash_cards(self, seat: int) -> int:
        """Cards in ``seat``'s stash."""
        return self.cards[seat]
