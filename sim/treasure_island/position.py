"""A Treasure Island position rebuilt from one seat's view, and played on by the real engine.

Everything in Treasure Island is public except the order of the draw pile below its public
top cards (a Spyglass, the Mystic) and the order of the discard, which is shuffled before
every use (§9.15). So a seat's view at a decision determines the whole position but that
order: :func:`position_of` reads it (from the view alone), and :func:`game_at` builds a game
in that position for a given order of the hidden cards, the *determinization* a search
samples. :func:`play_on` applies an answer to the pending decision with the engine's own
methods, finishes the turn and plays the game to its end.

The rebuilt game draws every later random number (the Candle's and the bonus's draws from
the discard) from the generator it is given; its move log starts at the position and the
resumed turn has no row in ``turn_rows``. Decisions that cannot be resumed from a view
(``draft``, and the Plunderer's ``bonus`` picks, which come in a loop) raise ``ValueError``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sim.outcome import GameResult
from sim.referee import Referee
from sim.treasure_island import decisions
from sim.treasure_island.cards import (
    CARD_GAIN,
    KIND,
    KIND_BIT,
    N_CARDS,
    N_KINDS,
    PER_KIND,
)
from sim.treasure_island.characters import WRECKER
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.movelog import CODE
from sim.treasure_island.precomputed import (
    CHOSEN,
    CONTINUE_DECISIONS,
    CONTINUE_QUESTION,
    FROM_CANDLE,
    FROM_HELM,
    FROM_KNIFE,
    PILE_EMPTY,
    SPYGLASS_BACK,
)
from sim.treasure_island.rules import TreasureIslandRules
from sim.treasure_island.view import PlayerView

#: Decisions :func:`play_on` can resume.
RESUMABLE = frozenset(
    (
        decisions.CONTINUE,
        decisions.HELM,
        decisions.KNIFE,
        decisions.PISTOL,
        decisions.CANDLE,
        decisions.SPYGLASS,
    )
)


@dataclass(frozen=True, slots=True)
class Position:
    """The public facts of a game at one seat's decision (nothing a view does not give)."""

    rules: TreasureIslandRules
    n: int
    turn: int
    decision: decisions.Decision
    characters: tuple[str, ...]
    stashes: tuple[tuple[int, ...], ...]
    area: tuple[int, ...]
    anchor_at: int
    rum: int
    #: The public top cards of the draw pile, top first.
    known: tuple[int, ...]
    #: The other cards of the draw pile, in card order (their order is what is hidden).
    hidden: tuple[int, ...]
    #: The discard's cards, in card order.
    discard: tuple[int, ...]

    @property
    def pile_size(self) -> int:
        """Cards in the draw pile."""
        return len(self.known) + len(self.hidden)


def _cards_of(mask: int) -> tuple[int, ...]:
    return tuple(c for c in range(N_CARDS) if mask >> c & 1)


def position_of(view: PlayerView, decision: decisions.Decision) -> Position:
    """The position at ``decision``, from the seat's view alone."""
    known = view.known_cards
    known_mask = 0
    for c in known:
        known_mask |= 1 << c
    return Position(
        rules=view.rules,
        n=view.n,
        turn=view.turn,
        decision=decision,
        characters=view.characters,
        stashes=view.stashes(),
        area=view.area,
        anchor_at=view.anchor_at,
        rum=view.rum_pending,
        known=known,
        hidden=_cards_of(view.pile_mask & ~known_mask),
        discard=_cards_of(view.discard_mask),
    )


Factory = Callable[[random.Random], Any]


def game_at(
    position: Position,
    hidden_order: Sequence[int],
    strategies: Sequence[Any],
    rng: random.Random,
    discard_order: Sequence[int] | None = None,
) -> TreasureIslandGame:
    """A game in ``position`` whose hidden pile cards lie in ``hidden_order`` (top last),
    played by ``strategies`` (built objects, one per seat: trusted players, read through the
    direct view) and drawing the discard's random cards from ``rng``. The discard lies in
    card order unless ``discard_order`` is given: any fixed order makes the draws from it
    uniformly random, and only a replay of the real game needs the real one."""
    g: TreasureIslandGame = object.__new__(TreasureIslandGame)
    n = position.n
    g.rules = position.rules
    g.n = n
    g.seed = 0
    g.strict = False
    g.result = None
    g.pile = [*hidden_order, *reversed(position.known)]
    piles = [0] * N_KINDS
    for c in g.pile:
        piles[KIND[c]] |= 1 << (c % PER_KIND)
    g.pile_piles = piles
    g.discard = list(position.discard if discard_order is None else discard_order)
    g.discard_rng = rng
    g.stash = [list(s) for s in position.stashes]
    g.points = [0] * n
    g.cards = [0] * n
    g.stash_kinds = [0] * n
    for seat, stash in enumerate(position.stashes):
        for kind, pile in enumerate(stash):
            if pile:
                g.stash_kinds[seat] |= 1 << kind
                g.cards[seat] += pile.bit_count()
                top = kind * PER_KIND + pile.bit_length() - 1
                g.points[seat] += CARD_GAIN[top][0]
    g.area = list(position.area)
    kinds = 0
    for c in position.area:
        kinds |= KIND_BIT[c]
    g.area_kinds = kinds
    g.anchor_at = position.anchor_at
    g.rum = position.rum
    g.busting = sum(piles[k].bit_count() for k in range(N_KINDS) if kinds >> k & 1)
    g.known = len(position.known)
    g.turn = position.turn
    g.first_player = 0
    g.characters = list(position.characters)
    g.wrecker = position.characters.index(WRECKER) if WRECKER in position.characters else -1
    g.log = []
    g.turn_rows = []
    g._bonus_cards = 0
    g._banked = 0
    g._key_chest = 0
    g._ended = CHOSEN
    referee: Referee[decisions.Decision] = Referee(
        strategies,
        [PlayerView(g, i) for i in range(n)],
        g._record,
        yes=CONTINUE_QUESTION,
    )
    g.referee = referee
    g.strategies = referee.strategies
    g.views = referee.views
    g.violations = referee.violations
    g._continue = CONTINUE_DECISIONS
    return g


def _apply(game: TreasureIslandGame, decision: decisions.Decision, answer: Any) -> bool:
    """The engine's step after ``answer`` to the pending ``decision``; True when it ended
    the turn (each power places at most one card, so nothing else is pending after it)."""
    seat = decision.seat
    kind = decision.kind
    if kind == decisions.CONTINUE:
        if answer == decisions.PLUNDER:
            game._plunder(seat, CHOSEN)
            return True
        return game._draw(seat, False)
    if kind == decisions.HELM:
        return game._place(seat, game._pop_top(seat, answer), FROM_HELM, seat)
    if kind == decisions.KNIFE:
        victim, pile = answer
        return game._place(seat, game._pop_top(victim, pile), FROM_KNIFE, victim)
    if kind == decisions.PISTOL:
        victim, pile = answer
        return game._shoot(seat, victim, pile)
    if kind == decisions.CANDLE:
        shown = list(decision.options)
        shown.remove(answer)
        game.discard += shown
        return game._place(seat, answer, FROM_CANDLE, -1)
    if kind == decisions.SPYGLASS:
        if answer == decisions.PLACE:
            return game._draw(seat, False)
        game.log += (game.turn, seat, CODE["spyglass_back"], decision.value, -1, -1)
        game._plunder(seat, SPYGLASS_BACK)
        return True
    raise ValueError(f"a {kind!r} decision cannot be resumed from a position")


def _finish_turn(game: TreasureIslandGame, seat: int) -> None:
    """The rest of the turn's draw-or-plunder loop (what ``play_turn`` does after a step)."""
    pile = game.pile
    decision = game._continue[seat]
    while True:
        if not pile:  # nothing to draw: the turn ends with a plunder (§9.1)
            game._plunder(seat, PILE_EMPTY)
            return
        forced = bool(game.rum)
        if not forced and game.ask(decision) != decisions.DRAW:
            game._plunder(seat, CHOSEN)
            return
        if game._draw(seat, forced):
            return


def play_on(game: TreasureIslandGame, decision: decisions.Decision, answer: Any) -> GameResult:
    """Apply ``answer`` to ``decision`` (the position's pending one) in ``game``, finish the
    turn and play the game to its end; the result."""
    if decision.kind not in RESUMABLE:
        raise ValueError(f"a {str(decision.kind)!r} decision cannot be resumed from a position")
    if answer not in decision.options:
        raise ValueError(f"{answer!r} is not an answer to {decision!r}")
    seat = decision.seat
    if not _apply(game, decision, answer):
        _finish_turn(game, seat)
    game.turn += 1
    return game.play_from((seat + 1) % game.n)
