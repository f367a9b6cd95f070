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
from math import floor
from typing import Any, ClassVar, Protocol

from sim.errors import InputError
from sim.guard import NO_GUARD, Audited, DecisionTimeout, Guard, ids_of
from sim.outcome import END_REASONS, GameResult, Violation, ranks_and_shares
from sim.referee import Factory, Referee, seat_game
from sim.sealed import sealed_class
from sim.seeding import shuffled, stream
from sim.treasure_island import decisions as d
from sim.treasure_island.cards import (
    ANCHOR,
    CANDLE,
    CARD_GAIN,
    CHEST,
    HELM,
    KEY,
    KIND,
    KIND_BIT,
    KNIFE,
    N_KINDS,
    PER_KIND,
    PISTOL,
    RUM,
    SPYGLASS,
    STARTING_DISCARD,
    STARTING_PILE,
    TOP_INDEX,
    TOP_LOSS,
)
from sim.treasure_island.characters import (
    MASTER_GUNNER,
    MYSTIC,
    NAVIGATOR,
    PLUNDERER,
    SCAVENGER,
    TREASURE_HUNTER,
    WRECKER,
)
from sim.treasure_island.characters import NAMES as CHARACTER_NAMES
from sim.treasure_island.movelog import CODE
from sim.treasure_island.rules import TreasureIslandRules
from sim.treasure_island.view import PlayerView


class Shortcuts(Protocol):
    """A built-in player class that answers the commonest questions by function as well.

    ``shortcuts()`` (a class method) returns the function that answers the continue question
    (a true value: draw, else plunder) or None, and the power choices it answers from their
    options alone, by decision kind; each is called with the player as its first argument,
    like a method of the class. Each must answer exactly what ``decide`` answers to the same
    question, and draw the same random numbers (the referee trusts that only of the built-in
    players, see :mod:`sim.referee`)."""

    @classmethod
    def shortcuts(cls) -> d.ShortcutTable:
        """The continue answer and the power choices by kind."""
        ...


class Strategy(Protocol):
    """A player: answers each :class:`~sim.treasure_island.decisions.Decision`."""

    def decide(self, view: PlayerView, decision: d.Decision) -> object:
        """One legal answer to ``decision``."""
        ...


#: Builds a seat's strategy from the seat's own random generator.
StrategyFactory = Callable[[random.Random], Strategy]

# Placement sources (the ``b`` argument of ``place`` and of the draws table).
FROM_PILE, FROM_HELM, FROM_KNIFE, FROM_CANDLE = 0, 1, 2, 3
# How a turn ended (the ``reason`` of the turns table).
CHOSEN, SPYGLASS_BACK, PILE_EMPTY, BUSTED = 0, 1, 2, 3
_KEY_CHEST = (1 << KEY) | (1 << CHEST)
_FULL_PILE = (1 << PER_KIND) - 1
#: Bits set in every mask up to 10 bits: the kinds in a kind mask, the cards in a pile mask.
_BITS: tuple[int, ...] = tuple(m.bit_count() for m in range(1 << N_KINDS))
#: The kinds of every kind mask, in order, made once.
_KINDS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in range(N_KINDS) if m >> k & 1) for m in range(1 << N_KINDS)
)
#: The ``(seat, kind)`` answers for every seat and kind mask, made once.
_PAIRS_OF: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(tuple((o, k) for k in range(N_KINDS) if m >> k & 1) for m in range(1 << N_KINDS))
    for o in range(4)
)
#: The other seats of each seat, by number of players.
_OPPONENTS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(o for o in range(n) if o != s) for s in range(n)) for n in range(5)
)
#: The other seats of each seat, by number of players, each with its ``_PAIRS_OF`` row.
_PairsRow = tuple[tuple[tuple[int, int], ...], ...]
_OPPONENT_ROWS: tuple[tuple[tuple[tuple[int, _PairsRow], ...], ...], ...] = tuple(
    tuple(tuple((o, _PAIRS_OF[o]) for o in others) for others in by_seat) for by_seat in _OPPONENTS
)
#: An empty pile's entry in ``_POP_TOP``: unpacking it raises, as taking from it must.
_NO_TOP: Any = ()
#: ``_POP_TOP[kind][pile]``: the pile without its top card, that card, and the points lost.
_POP_TOP: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(
        (
            m ^ 1 << TOP_INDEX[m],
            k * PER_KIND + TOP_INDEX[m],
            TOP_LOSS[k][m],
        )
        if m
        else _NO_TOP
        for m in range(1 << PER_KIND)
    )
    for k in range(N_KINDS)
)
#: A card's bit in the 6-bit pile mask of its kind.
_PILE_BIT: tuple[int, ...] = tuple(1 << (c % PER_KIND) for c in range(N_KINDS * PER_KIND))
_DRAW, _PLUNDER, _PLACE = d.DRAW, d.PLUNDER, d.PLACE
_HELM, _KNIFE, _PISTOL, _CANDLE, _SPYGLASS = d.HELM, d.KNIFE, d.PISTOL, d.CANDLE, d.SPYGLASS
_Decision = d.Decision
# The named tuple's ``__new__`` is a Python call: the hot path builds the tuple directly.
_new = tuple.__new__
#: The draw-or-plunder question of each seat (immutable, so shared by every game).
_CONTINUE_DECISIONS: tuple[d.Decision, ...] = tuple(
    d.Decision(d.CONTINUE, i, d.CONTINUE_OPTIONS) for i in range(4)
)
#: The continue question as the referee asks it (:attr:`sim.referee.Referee.yeses`).
_CONTINUE_QUESTION = (_CONTINUE_DECISIONS, d.CONTINUE_OPTIONS)
#: The Spyglass question of each seat and revealed card (immutable, so shared by every game).
_SPYGLASS_DECISIONS: tuple[tuple[d.Decision, ...], ...] = tuple(
    tuple(
        _new(_Decision, (d.SPYGLASS, i, d.SPYGLASS_OPTIONS, c)) for c in range(N_KINDS * PER_KIND)
    )
    for i in range(4)
)
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
#: ``_STEPS[size][take]``: the Fisher-Yates steps that take ``take`` cards off a list of
#: ``size`` (the discard never holds more than the 60 cards), each as (the position it fills,
#: how many positions it picks from); the step pairs are shared.
_STEP_PAIRS: tuple[tuple[int, int], ...] = tuple((i - 1, i) for i in range(61))
_STEPS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(tuple(_STEP_PAIRS[i] for i in range(size, size - take, -1)) for take in range(size + 1))
    for size in range(61)
)
#: Characters whose Pistol does more than send one card to the discard.
_SHOOTERS = frozenset((MASTER_GUNNER, SCAVENGER))
_EV_DRAW = CODE["draw"]
_EV_DRAW_FORCED = CODE["draw_forced"]
_EV_DRAW_KNOWN = CODE["draw_known"]
_EV_PLACE = CODE["place"]
_EV_BUST = CODE["bust"]
_EV_PLUNDER = CODE["plunder"]
_EV_END_TURN = CODE["end_turn"]
_EV_NO_EFFECT = CODE["no_effect"]
_EV_GAME_END = CODE["game_end"]
_EV_RUM = CODE["rum"]
_EV_PISTOL = CODE["pistol"]
_EV_SPYGLASS_BACK = CODE["spyglass_back"]
_EV_BONUS = CODE["bonus"]
_EV_REVEAL = CODE["reveal"]
_EV_SCORE = CODE["score"]


def _question(kind: d.DecisionKind, seat: int, options: tuple[Any, ...], value: int) -> d.Decision:
    """The power question ``_choose`` asks (the Spyglass's are built once, by seat and card)."""
    if options is d.SPYGLASS_OPTIONS:
        return _SPYGLASS_DECISIONS[seat][value]
    return _new(_Decision, (kind, seat, options, value))


class TreasureIslandGame:
    """One game: build it, then :meth:`play` it.

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
        self.referee: Referee[d.Decision] = seat_game(
            seed,
            strategies,
            [PlayerView(self, i) for i in range(n)],
            seal_view,
            self._record,
            strict=strict,
            guard=guard,
            audited=self._audited,
            lazy_streams=True,
            yes=_CONTINUE_QUESTION,
        )
        referee = self.referee
        self.strategies = referee.strategies
        self.views = referee.views
        self.violations: list[Violation] = referee.violations
        cards_rng, pile = shuffled(seed, "cards", STARTING_PILE, keep=all(referee.trusted))
        self.pile = pile
        self.pile_piles = [_FULL_PILE - 1] * N_KINDS  # all but the lowest card of each kind
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
        self._continue = _CONTINUE_DECISIONS

    @property
    def decisions(self) -> int:
        """Decisions asked so far (the referee counts them)."""
        return self.referee.decisions

    @decisions.setter
    def decisions(self, value: int) -> None:
        self.referee.decisions = value

    def ask(self, decision: d.Decision) -> Any:
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

    def _record(self, seat: int, kind: d.DecisionKind) -> int:
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
            self.pile_piles[KIND[c]] |= _PILE_BIT[c]
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
            name = dealt[0] if per == 1 else self.ask(d.Decision(d.DRAFT, seat, dealt))
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

    def _bank(self, seat: int, card: int) -> None:
        """Slot ``card`` into ``seat``'s stash pile of its kind (kept sorted by the mask)."""
        piles = self.stash[seat]
        kind = KIND[card]
        old = piles[kind]
        piles[kind] = old | _PILE_BIT[card]
        self.points[seat] += CARD_GAIN[card][old]
        self.cards[seat] += 1
        self.stash_kinds[seat] |= 1 << kind

    # -- a turn -----------------------------------------------------------------------------

    def play_turn(self, seat: int) -> None:
        """One whole turn (§5.1): the mandatory draw, then draw or plunder until either."""
        self.area = []
        self.area_kinds = 0
        self.anchor_at = -1
        self.rum = 0
        self.busting = 0
        self._bonus_cards = 0
        self._banked = 0
        self._key_chest = 0
        before = self.points[seat]
        reason = BUSTED
        if not self._draw(seat, True):
            pile = self.pile
            yes = self.referee.yeses[seat]
            while True:
                if not pile:  # nothing to draw: the turn ends with a plunder (§9.1)
                    reason = PILE_EMPTY
                    self._plunder(seat, reason)
                    break
                if self.rum:
                    forced = True
                else:
                    forced = False
                    if not yes():
                        reason = CHOSEN
                        self._plunder(seat, reason)
                        break
                if self._draw(seat, forced):
                    reason = self._ended
                    break
        else:
            reason = self._ended
        after = self.points[seat]
        self.log += (
            self.turn,
            seat,
            _EV_END_TURN,
            1 if reason == BUSTED else 0,
            self.cards[seat],
            after,
        )
        self.turn_rows += (
            self.turn,
            seat,
            len(self.area),
            reason,
            self._banked,
            self._bonus_cards,
            after - before,
            self._key_chest,
        )

    def _draw(self, seat: int, forced: bool) -> bool:
        """Take the top card of the draw pile into the play area; True when the turn is over.

        The log row says which kind of draw it was: ``draw`` (chosen, card unknown),
        ``draw_forced`` (the turn's first card, or owed to a Rum bottle) or ``draw_known``
        (the card was public: a Spyglass showed it). Its arguments give the kinds in play and
        the pile's busting cards before the draw, from which the reports compute the exact bust
        chance of every draw (the pile's size follows from the draws before it)."""
        card = self.pile.pop()
        kind = KIND[card]
        piles = self.pile_piles
        left = piles[kind] ^ _PILE_BIT[card]
        piles[kind] = left
        kinds = self.area_kinds
        busting = self.busting
        if self.known:
            self.known -= 1
            event = _EV_DRAW_KNOWN
        else:
            event = _EV_DRAW_FORCED if forced else _EV_DRAW
        self.log += (self.turn, seat, event, card, _BITS[kinds], busting)
        if kinds & KIND_BIT[card]:
            self.busting = busting - 1
            self._bust(seat, card)
            return True
        # The rest of _place, inlined: this is the hottest path of the engine.
        self.area.append(card)
        self.area_kinds = kinds | KIND_BIT[card]
        self.busting = busting + _BITS[left]
        if self.rum:
            self.rum -= 1
        power = _POWERS[kind]
        if power is None:
            return False
        return power(self, seat, card)

    def _place(self, seat: int, card: int, source: int, origin: int) -> bool:
        """A power puts ``card`` (from ``origin``'s stash, or the discard: -1) into the play
        area: bust, or apply its power. True when the turn is over."""
        self.log += (self.turn, seat, _EV_PLACE, card, source, origin)
        kind = KIND[card]
        if self.area_kinds & KIND_BIT[card]:
            self._bust(seat, card)
            return True
        self.area.append(card)
        self.area_kinds |= KIND_BIT[card]
        self.busting += _BITS[self.pile_piles[kind]]
        if self.rum:
            self.rum -= 1
        power = _POWERS[kind]
        if power is None:
            return False
        return power(self, seat, card)

    # -- ending a turn ----------------------------------------------------------------------------

    def _bust(self, seat: int, card: int) -> None:
        """§5.1.3 / §6.1: everything to the discard, except what an Anchor keeps."""
        self.log += (self.turn, seat, _EV_BUST, card, -1, -1)
        self._ended = BUSTED
        area = self.area
        lost = [*area, card]
        if self.anchor_at > 0:
            kept = area[: self.anchor_at]
            lost = lost[self.anchor_at :]
            before = self.points[seat]
            for c in kept:
                self._bank(seat, c)
            self._banked = len(kept)
            self._log(seat, CODE["anchor_keep"], len(kept), self.points[seat] - before)
            kept_kinds = 0
            for c in kept:
                kept_kinds |= KIND_BIT[c]
            if self.rules.key_chest_on_anchored_bust and kept_kinds & _KEY_CHEST == _KEY_CHEST:
                self._bonus(seat, len(kept))
        wrecker = self.wrecker
        if wrecker >= 0 and wrecker != seat:
            for c in lost:
                self._bank(wrecker, c)
            self._log(seat, CODE["wrecked"], len(lost), wrecker)
        else:
            self._to_discard(lost)

    def _sample_discard(self, count: int) -> list[int]:
        """Shuffle the discard and take ``count`` cards off it (all when it is short): the
        last steps of a Fisher-Yates shuffle draw exactly those cards, and the rest of the
        discard's order never matters because it is shuffled before every use."""
        discard = self.discard
        size = len(discard)
        take = count if count < size else size
        if take <= 0:
            return []
        rnd = self.discard_rng.random
        for pos, i in _STEPS[size][take]:
            j = floor(rnd() * i)
            discard[pos], discard[j] = discard[j], discard[pos]
        cards = discard[size - take :]
        del discard[size - take :]
        return cards

    def _to_discard(self, cards: list[int]) -> None:
        self.discard += cards

    def _plunder(self, seat: int, reason: int) -> None:
        """§5.1.2: the play area into the stash; the Key + Chest bonus (§6.3)."""
        self._ended = reason
        area = self.area
        piles = self.stash[seat]
        before = self.points[seat]
        points = before
        for c in area:  # _bank, inlined: every plunder moves several cards
            kind = KIND[c]
            old = piles[kind]
            piles[kind] = old | _PILE_BIT[c]
            points += CARD_GAIN[c][old]
        self.points[seat] = points
        size = len(area)
        self.cards[seat] += size
        kinds = self.area_kinds
        self.stash_kinds[seat] |= kinds
        self._banked = size
        self.log += (self.turn, seat, _EV_PLUNDER, size, points - before, reason)
        if kinds & _KEY_CHEST == _KEY_CHEST:
            self._bonus(seat, size)

    def _bonus(self, seat: int, count: int) -> None:
        """§6.3: ``count`` cards (up to what is there) into the stash, with no powers."""
        self._key_chest = 1
        character = self.characters[seat]
        if character == TREASURE_HUNTER:
            count *= 3
        before = self.points[seat]
        if character == PLUNDERER:
            for _ in range(count):
                targets = self._opponent_piles(seat, False)
                if not targets:
                    break
                victim, kind = self.referee.pick(d.BONUS, seat, targets, -1, _question)
                self._bank(seat, self._pop_top(victim, kind))
                self._bonus_cards += 1
                self._log(seat, CODE["bonus"], 1, 0, victim)
            self._log(seat, CODE["bonus"], 0, self.points[seat] - before, -1)
            return
        cards = self._sample_discard(count)
        take = len(cards)
        for c in cards:
            self._bank(seat, c)
        self._bonus_cards += take
        self.log += (self.turn, seat, _EV_BONUS, take, self.points[seat] - before, -1)

    # -- powers (§6): each returns True when the turn is over -----------------------------------

    def _pop_top(self, seat: int, kind: int) -> int:
        """Take the top card off ``seat``'s pile of ``kind``."""
        piles = self.stash[seat]
        new, card, loss = _POP_TOP[kind][piles[kind]]
        piles[kind] = new
        self.points[seat] -= loss
        self.cards[seat] -= 1
        if not new:
            self.stash_kinds[seat] ^= 1 << kind
        return card

    def _opponent_piles(self, seat: int, knife: bool) -> tuple[tuple[int, int], ...]:
        """Non-empty opponents' piles; for the Knife only kinds absent from ``seat``'s stash."""
        kinds = self.stash_kinds
        allowed = 1023
        if knife:
            allowed = ~kinds[seat]
            if self.rules.knife_checks_play_area:
                allowed &= ~self.area_kinds
        rows = _OPPONENT_ROWS[self.n][seat]
        if len(rows) == 3:  # four players, unrolled
            (o1, p1), (o2, p2), (o3, p3) = rows
            return p1[kinds[o1] & allowed] + p2[kinds[o2] & allowed] + p3[kinds[o3] & allowed]
        out: tuple[tuple[int, int], ...] = ()
        for o, pairs in rows:
            out += pairs[kinds[o] & allowed]
        return out

    def _no_effect(self, seat: int, kind: int) -> bool:
        self.log += (self.turn, seat, _EV_NO_EFFECT, kind, -1, -1)
        return False

    def _anchor(self, seat: int, card: int) -> bool:
        self.anchor_at = len(self.area) - 1
        return False

    def _rum(self, seat: int, card: int) -> bool:
        self.rum = self.rules.rum_cards
        self.log += (self.turn, seat, _EV_RUM, self.rum, -1, -1)
        return False

    def _helm(self, seat: int, card: int) -> bool:
        """§6.2: the top card of one of your own piles, forced, even if it busts."""
        options = _KINDS_OF[self.stash_kinds[seat]]
        if not options:
            return self._no_effect(seat, HELM)
        kind = self.referee.pick(_HELM, seat, options, -1, _question)
        return self._place(seat, self._pop_top(seat, kind), FROM_HELM, seat)

    def _knife(self, seat: int, card: int) -> bool:
        """§6.5: an opponent's top card of a kind not in your stash, into your play area."""
        options = self._opponent_piles(seat, True)
        if not options:
            return self._no_effect(seat, KNIFE)
        victim, kind = self.referee.pick(_KNIFE, seat, options, -1, _question)
        return self._place(seat, self._pop_top(victim, kind), FROM_KNIFE, victim)

    def _pistol(self, seat: int, card: int) -> bool:
        """§6.7: an opponent's top card (whole pile for the master gunner) to the discard (to
        your stash for the scavenger)."""
        options = self._opponent_piles(seat, False)
        if not options:
            return self._no_effect(seat, PISTOL)
        victim, kind = self.referee.pick(_PISTOL, seat, options, -1, _question)
        return self._shoot(seat, victim, kind)

    def _shoot(self, seat: int, victim: int, kind: int) -> bool:
        """The Pistol's shot at ``victim``'s pile of ``kind`` (never ends the turn)."""
        character = self.characters[seat]
        if character not in _SHOOTERS:  # one card to the discard
            hit = self._pop_top(victim, kind)
            self.discard.append(hit)
            self.log += (self.turn, seat, _EV_PISTOL, hit, victim, -1)
            return False
        shots = self.stash[victim][kind].bit_count() if character == MASTER_GUNNER else 1
        for _ in range(shots):
            hit = self._pop_top(victim, kind)
            if character == SCAVENGER:
                self._bank(seat, hit)
                self.log += (self.turn, seat, _EV_PISTOL, hit, victim, seat)
            else:
                self._to_discard([hit])
                self.log += (self.turn, seat, _EV_PISTOL, hit, victim, -1)
        return False

    def _candle(self, seat: int, card: int) -> bool:
        """§6.4: shuffle the discard, reveal 3, place one (forced); the others go back."""
        discard = self.discard
        if not discard:
            return self._no_effect(seat, CANDLE)
        if self.characters[seat] == NAVIGATOR:
            shown = sorted(discard)
            discard.clear()
        else:
            shown = self._sample_discard(self.rules.candle_reveal)
        turn = self.turn
        log = self.log
        for c in shown:
            log += (turn, seat, _EV_REVEAL, c, FROM_CANDLE, -1)
        choice = self.referee.pick(_CANDLE, seat, tuple(shown), -1, _question)
        shown.remove(choice)
        discard += shown
        return self._place(seat, choice, FROM_CANDLE, -1)

    def _spyglass(self, seat: int, card: int) -> bool:
        """§6.9: reveal the top card; place it, or put it back and plunder at once."""
        pile = self.pile
        if not pile:
            return self._no_effect(seat, SPYGLASS)
        top = pile[-1]
        self.log += (self.turn, seat, _EV_REVEAL, top, 4, -1)
        seen = 1
        if self.characters[seat] == MYSTIC:
            seen = min(3, len(pile))
            for c in reversed(pile[len(pile) - seen : -1]):
                self.log += (self.turn, seat, _EV_REVEAL, c, 5, -1)
        known = self.known
        self.known = seen if seen > known else known  # the builtin max is slow on two ints
        if self.rum:  # an open Rum requirement leaves no choice (§6.6)
            return self._draw(seat, True)
        if self.referee.pick(_SPYGLASS, seat, d.SPYGLASS_OPTIONS, top, _question) == _PLACE:
            return self._draw(seat, False)
        self.log += (self.turn, seat, _EV_SPYGLASS_BACK, top, -1, -1)
        self._plunder(seat, SPYGLASS_BACK)
        return True


#: Each kind's power (None: nothing happens when it is placed), called as ``power(game,
#: seat, card)``; a class-level table, so a game does not build bound methods.
_POWERS: tuple[Callable[[TreasureIslandGame, int, int], bool] | None, ...] = tuple(
    {
        ANCHOR: TreasureIslandGame._anchor,
        HELM: TreasureIslandGame._helm,
        CANDLE: TreasureIslandGame._candle,
        KNIFE: TreasureIslandGame._knife,
        RUM: TreasureIslandGame._rum,
        PISTOL: TreasureIslandGame._pistol,
        SPYGLASS: TreasureIslandGame._spyglass,
    }.get(k)
    for k in range(N_KINDS)
)
