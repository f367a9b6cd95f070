"""The Tobago game: a game built from its seed, rules, board and seats, set up and played
turn by turn to its end, and its result.

A game is a pure function of (game seed, rules, board, seat strategies): the seed is split
into named streams (``landmarks``, ``first_player``, ``clue_deck``, ``treasure_deck``,
``distribution``, and ``("seat", i)`` for each strategy), so that changing one seat's
strategy never changes the cards anyone is dealt. The parts of the game live in their own
modules: the deal in :mod:`sim.tobago.deal`, the legal actions in
:mod:`sim.tobago.legal_actions`, a turn in :mod:`sim.tobago.turn` (bases of
:class:`TobagoGame`), raising and distributing a treasure in :mod:`sim.tobago.distribution`.

Every decision goes to the seat's strategy through the game's referee (:mod:`sim.referee`),
which builds the seats, checks each answer against the legal answers the engine lists, and
on a failure records a violation (logged here) and plays the documented fallback of
:mod:`sim.tobago.decisions` (``strict=True`` raises :class:`StrategyError` instead).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from sim.guard import NO_GUARD, Audited, DecisionTimeout, Guard, ids_of
from sim.outcome import END_REASONS, GameResult, Violation, ranks_and_shares
from sim.referee import Factory, Referee, built_in, seat_game
from sim.sealed import sealed_class
from sim.seeding import stream
from sim.tobago import decisions
from sim.tobago.board import Board
from sim.tobago.deadlock import deadlocked
from sim.tobago.deal import deal
from sim.tobago.decisions import ActionKind, Decision, DecisionKind
from sim.tobago.legal_actions import MAP_ACTIONS, plays_table
from sim.tobago.movelog import CODE
from sim.tobago.rules import TobagoRules
from sim.tobago.state import N_MAPS, GameState
from sim.tobago.turn import TurnPlay
from sim.tobago.view import PlayerView

#: Kept importable from here: positions rebuilt for search (:mod:`sim.tobago.position`)
#: make their games' clue tables with it.
__all__ = ["Strategy", "StrategyFactory", "TobagoGame", "plays_table", "seal_view"]


class Strategy(Protocol):
    """A player: answers each :class:`~sim.tobago.Decision` from its view."""

    def decide(self, view: PlayerView, decision: Decision) -> object:
        """One legal answer to ``decision``."""
        ...


#: Builds a seat's strategy from the seat's own random generator.
StrategyFactory = Callable[[random.Random], Strategy]

_EV = CODE
_END_TURN = CODE["end_turn"]
# Decisions are built as their tuples directly (the named tuple's ``__new__`` is a Python
# call).
_new = tuple.__new__
_DECISION = Decision
#: A plug-in's view (see :mod:`sim.sealed`).
seal_view = sealed_class(PlayerView, "SealedPlayerView")
#: The game state the audit leaves alone: built at setup from the rules and the board, never
#: changed by play (their identity is checked instead).
_STATIC = ("rules", "island", "landmarks", "clue_masks")


class TobagoGame(TurnPlay):
    """One game: build it, then :meth:`play` it (its turns are :class:`TurnPlay`'s)."""

    def __init__(
        self,
        rules: TobagoRules,
        board: Board,
        strategies: Sequence[Factory],
        seed: int,
        strict: bool = False,
        guard: Guard = NO_GUARD,
    ) -> None:
        n = len(strategies)
        if not 2 <= n <= 4:
            raise ValueError(f"Tobago takes 2 to 4 players, got {n}")
        self.seed = seed
        self.strict = strict
        self.result: GameResult | None = None
        # The last clue plays listed, by tag, and what they came from (seat, its hand, the
        # maps' candidates, the clue masks): a turn often asks again with nothing changed
        # (after a move, between legs), and the lists are then reused.
        self._last_plays = None
        self._last_lists = [None, None, None, None]
        self._stuck = False
        island = board.island
        landmarks, masks, treasure_deck, first_player = deal(
            board, seed, rules, n, keep=built_in(strategies)
        )
        self._clue_table = plays_table(ActionKind.CLUE, len(masks))
        self.state = s = GameState(
            rules,
            island,
            landmarks,
            n,
            masks,
            stream(seed, "clue_deck"),
            stream(seed, "distribution"),
        )
        self.referee: Referee[Decision] = seat_game(
            seed,
            strategies,
            [PlayerView(s, i) for i in range(n)],
            seal_view,
            self._record,
            strict=strict,
            guard=guard,
            audited=self._audited,
        )
        self.strategies = self.referee.strategies
        self.views = self.referee.views
        self.violations: list[Violation] = self.referee.violations
        self.first_player = first_player
        # Rules §9.3: the curse-free top cards over the rest shuffled with the curses.
        s.t_deck = list(treasure_deck)
        s.current = self.first_player

    @property
    def decisions(self) -> int:
        """Decisions asked so far (the referee counts them)."""
        return self.referee.decisions

    @decisions.setter
    def decisions(self, value: int) -> None:
        self.referee.decisions = value

    def ask(self, decision: Decision) -> object:
        """The seat's checked answer to ``decision`` (an action, or a cell of ``cells``), or
        the fallback after a violation (see :mod:`sim.referee`)."""
        return self.referee.asker(decision.seat)(decision, decision.actions, decision.cells)

    def _audited(self) -> Audited:
        """What the audit compares around each decision: every changing field of the state,
        the recorded violations and counts, which strategy and view each seat has, and the
        identity of the rules and the board."""
        s = self.state
        caches = ("located_key", "located_memo")
        fields = tuple(f for f in type(s).__slots__ if f not in (*_STATIC, *caches, "log"))

        def identity() -> tuple[int, ...]:
            static = [getattr(s, f) for f in _STATIC]
            referee = self.referee
            seats = [id(x) for pair in referee.deciders for x in pair]
            logs = (id(s.log), id(s.log.flat), id(referee.violations))
            return (*ids_of(*static[:3]), id(static[3]), *seats, *logs)

        def after_restore() -> None:
            self._last_plays = None
            self._last_lists = [None, None, None, None]

        def after_decision() -> None:
            # Caches derived from the state: refilled from the state when next needed, so a
            # strategy that poisoned one gains nothing.
            s.drop_caches()
            after_restore()

        holder = _AuditedGame(s, self)
        return Audited(
            holder,
            (*fields, "g_decisions"),
            identity,
            after_restore,
            copied=("g_log", "g_violations"),
            after_decision=after_decision,
        )

    def _record(self, seat: int, kind: DecisionKind) -> int:
        """Log a violation of ``seat`` on a decision of ``kind`` (the referee's callback);
        the turn it happened in."""
        s = self.state
        s.log.add(s.turn, seat, _EV["violation"], int(kind), 1)
        return s.turn

    # -- setup --------------------------------------------------------------------------------

    def setup(self) -> None:
        """Rules §9: ATVs, starting clues on empty maps, hands."""
        s = self.state
        n = s.n
        order = [(self.first_player + k) % n for k in range(n)]
        for seat in order:
            cell = self.ask(
                _new(_DECISION, (decisions.START_CELL, seat, (), s.island.all_mask, -1, -1))
            )
            assert isinstance(cell, int)
            s.atv[seat] = cell
            s.log.add(s.turn, seat, _EV["start_cell"], cell)
        s.shuffle_rng.shuffle(s.clue_draw)
        full = s.island.all_mask
        for seat in order:
            # The top card that can start a map (rules §5.4: redraw one that cannot); it stays
            # in the deck until it is placed.
            pos = len(s.clue_draw) - 1
            while pos >= 0 and s.clue_masks[s.clue_draw[pos]] in (0, full):
                pos -= 1
            empty = tuple([MAP_ACTIONS[m] for m in range(N_MAPS) if not s.map_cards[m]])
            if pos < 0 or not empty or s.roses[seat] == 0:
                continue
            choice = self.ask(_new(_DECISION, (decisions.START_MAP, seat, empty, 0, -1, -1)))
            m = choice[1]  # type: ignore[index]
            card = s.clue_draw.pop(pos)
            self._place_clue(seat, card, m)
            s.log.add(s.turn, seat, _EV["start_clue"], card, m, s.map_cand[m].bit_count())
        s.shuffle_rng.shuffle(s.clue_draw)
        for seat in order:
            s.refill_hand(seat)
        s.setup_done = True

    # -- the game -----------------------------------------------------------------------------

    def play(self) -> GameResult:
        """Play the game to its end and return the result (a decision past the guard's time
        limit ends it at once, with the end reason ``timeout``)."""
        try:
            self.setup()
            return self.play_turns()
        except DecisionTimeout as exc:
            self.referee.timed_out(exc)
            s = self.state
            s.end_reason = "timeout"
            s.truncated = False
            self.result = self._finish()
            return self.result

    def play_turns(self) -> GameResult:
        """Play turns from the current position to the end of the game (the turn cap, the
        natural end, or a deadlock) and return the result; :meth:`play` is :meth:`setup` then
        this (scenario tests start it on a position built by hand)."""
        s = self.state
        max_turns = s.rules.max_turns
        row = s.log.flat.extend  # MoveLog.add without a Python call (six ints a row)
        while not s.over:
            if s.turn >= max_turns:
                # A deadlock that began after the last stuck-turn check (a turn that changed
                # something, then the cap) is still a deadlock, not a cut-off game.
                if deadlocked(s):
                    s.end_reason = "deadlock"
                else:
                    s.truncated = True
                break
            self.play_turn(s.current)
            row((s.turn, s.current, _END_TURN, -1, -1, -1))
            s.current = (s.current + 1) % s.n
            s.turn += 1
            # Only a turn in which the seat had no clue to play and changed nothing can be
            # the first of a deadlock: the full check runs only then.
            if self._stuck and not s.over and deadlocked(s):
                s.end_reason = "deadlock"
                break
        self.result = self._finish()
        return self.result

    def play_on(self) -> GameResult:
        """Play the current seat's turn and the game on to its end: the turn from its start,
        or from its first decision (its opening steps, the refill and the amulet pick-up,
        have nothing left to do by then). Search plays rebuilt positions on with it
        (:mod:`sim.tobago.position`); the end of the turn is :meth:`play_turns`'s."""
        s = self.state
        self.play_turn(s.current)
        s.log.flat.extend((s.turn, s.current, _END_TURN, -1, -1, -1))
        s.current = (s.current + 1) % s.n
        s.turn += 1
        if self._stuck and not s.over and deadlocked(s):
            s.end_reason = "deadlock"
            self.result = self._finish()
            return self.result
        return self.play_turns()

    def _finish(self) -> GameResult:
        s = self.state
        s.over = True
        self.referee.release()
        reason = "turn_cap" if s.truncated else s.end_reason
        s.log.add(s.turn, -1, _EV["game_end"], END_REASONS.index(reason))
        scores = tuple(map(sum, s.treasures))  # GameState.score of each seat
        keys = [
            (scores[p], s.amulets[p] if s.rules.tie_break == "amulets" else 0) for p in range(s.n)
        ]
        ranks, shares = ranks_and_shares(keys)
        for p in range(s.n):
            s.log.add(s.turn, p, _EV["score"], scores[p], ranks[p], s.amulets[p])
        rules = s.rules
        return GameResult(
            scores,
            ranks,
            shares,
            s.turn,
            s.truncated,
            self.first_player,
            rules.preset,
            rules.hash,
            reason,
        )


class _AuditedGame:
    """The audit's window on a game: the state's fields by name, the move log's rows as
    ``g_log``, and the game's violations and decision count as ``g_violations`` and
    ``g_decisions``."""

    __slots__ = ("_game", "_state")

    def __init__(self, state: GameState, game: TobagoGame) -> None:
        self._state = state
        self._game = game

    def __getattr__(self, name: str) -> object:
        if name == "g_violations":
            return self._game.referee.violations
        if name == "g_log":
            return self._state.log.flat
        if name == "g_decisions":
            return self._game.decisions
        return getattr(self._state, name)

    def __setattr__(self, name: str, value: object) -> None:
        if name in self.__slots__:
            object.__setattr__(self, name, value)
        elif name == "g_decisions":
            self._game.decisions = value  # type: ignore[assignment]
        else:
            setattr(self._state, name, value)
