"""The Tobago game loop: setup, turns, clue plays, movement, amulet powers, the end.

A game is a pure function of (game seed, rules, board, seat strategies): the seed is split
into named streams (``landmarks``, ``first_player``, ``clue_deck``, ``treasure_deck``,
``distribution``, and ``("seat", i)`` for each strategy), so that changing one seat's
strategy never changes the cards anyone is dealt. Raising and distributing a treasure live in
:mod:`sim.tobago.distribution`.

Every decision goes to the seat's strategy through the game's referee (:mod:`sim.referee`),
which builds the seats, checks each answer against the legal answers the engine lists, and
on a failure records a violation (logged here) and plays the documented fallback of
:mod:`sim.tobago.decisions` (``strict=True`` raises :class:`StrategyError` instead).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol

from sim.guard import NO_GUARD, Audited, DecisionTimeout, Guard, ids_of
from sim.outcome import END_REASONS, GameResult, Violation, ranks_and_shares
from sim.referee import Factory, Referee, built_in, seat_game
from sim.sealed import sealed_class
from sim.seeding import stream
from sim.tobago import decisions as d
from sim.tobago.board import Board
from sim.tobago.clues import clue_masks
from sim.tobago.deadlock import deadlocked
from sim.tobago.decisions import ActionKind
from sim.tobago.distribution import raise_treasure
from sim.tobago.landmarks import Landmarks
from sim.tobago.movelog import CODE
from sim.tobago.rules import TobagoRules
from sim.tobago.state import CURSE, N_MAPS, GameState
from sim.tobago.view import PlayerView


class Strategy(Protocol):
    """A player: answers each :class:`~sim.tobago.decisions.Decision` from its view."""

    def decide(self, view: PlayerView, decision: d.Decision) -> object:
        """One legal answer to ``decision``."""
        ...


#: Builds a seat's strategy from the seat's own random generator.
StrategyFactory = Callable[[random.Random], Strategy]


_EV = CODE
# Codes of the most frequent events, looked up once.
_LEG = CODE["leg"]
_EV_CLUE = CODE["clue"]
_END_TURN = CODE["end_turn"]
# The action tags, each bound once as a module global (one load where the hot loops compare
# them; ``ActionKind.X`` would add an attribute lookup).
_MAP = ActionKind.MAP
_CLUE = ActionKind.CLUE
_MOVE = ActionKind.MOVE
_EXCHANGE = ActionKind.EXCHANGE
_RAISE = ActionKind.RAISE
_AMULET_MARKER = ActionKind.AMULET_MARKER
_AMULET_CLUE = ActionKind.AMULET_CLUE
_AMULET_MOVE = ActionKind.AMULET_MOVE
_AMULET_EXCHANGE = ActionKind.AMULET_EXCHANGE
_END = ActionKind.END
_STOP = ActionKind.STOP
_MARKER_ACTIONS: tuple[d.Action, ...] = tuple((_AMULET_MARKER, m) for m in range(N_MAPS))
_MAP_ACTIONS: tuple[d.Action, ...] = tuple((_MAP, m) for m in range(N_MAPS))
_RAISE_ACTIONS: tuple[d.Action, ...] = tuple((_RAISE, m) for m in range(N_MAPS))
_END_ONLY: tuple[d.Action, ...] = (d.END,)
_MOVE_ONLY: tuple[d.Action, ...] = (d.MOVE,)
_MOVE_ACTION = d.MOVE
_EXCHANGE_ONLY: tuple[d.Action, ...] = (d.EXCHANGE,)
_STOP_ONLY: tuple[d.Action, ...] = (d.STOP,)
#: The amulet powers listed last, by (move open) + 2 * (exchange open).
_AMULET_TAILS: tuple[tuple[d.Action, ...], ...] = (
    (),
    (d.AMULET_MOVE,),
    (d.AMULET_EXCHANGE,),
    (d.AMULET_MOVE, d.AMULET_EXCHANGE),
)
# Decisions of the hottest kinds are built as their tuples directly (the named tuple's
# ``__new__`` is a Python call).
_new = tuple.__new__
_DECISION = d.Decision
#: Leg decisions by (seat, cells): a move's first leg (no actions) and the later ones with
#: ``stop`` as the only action. Decisions are immutable and value-keyed here, so every game
#: shares them: a lookup costs less than building the tuple subclass (at most _SHARED kept).
_FIRST_LEGS: dict[tuple[int, int], d.Decision] = {}
_STOP_LEGS: dict[tuple[int, int], d.Decision] = {}
_SHARED = 1 << 16
#: The turn decisions of the two commonest lists, ``end`` only and ``move`` only, by seat
#: (shared like the legs: decisions are immutable).
_END_TURNS = tuple(_new(_DECISION, (d.TURN, seat, _END_ONLY, 0, -1, -1)) for seat in range(4))
_MOVE_TURNS = tuple(_new(_DECISION, (d.TURN, seat, _MOVE_ONLY, 0, -1, -1)) for seat in range(4))
#: A plug-in's view (see :mod:`sim.sealed`).
seal_view = sealed_class(PlayerView, "SealedPlayerView")
#: The game state the audit leaves alone: built at setup from the rules and the board, never
#: changed by play (their identity is checked instead).
_STATIC = ("rules", "island", "landmarks", "clue_masks")

#: Per tag, the plays ``(tag, card, map)`` of every card id, built once: listing the legal
#: plays then picks tuples instead of building them (a game lists hundreds).
_PLAYS: dict[ActionKind, list[tuple[d.Action, ...]]] = {}


def plays_table(tag: ActionKind, cards: int) -> list[tuple[d.Action, ...]]:
    """``(tag, card, m)`` by card id and map, for ``cards`` card ids or more."""
    table = _PLAYS.get(tag)
    if table is None or len(table) < cards:
        table = _PLAYS[tag] = [tuple((tag, c, m) for m in range(N_MAPS)) for c in range(cards)]
    return table


class Deal(NamedTuple):
    """What a game's seed deals before anyone decides: the landmarks, every clue card's mask,
    the treasure deck (drawn from the end) and the first player."""

    landmarks: Landmarks
    clue_masks: tuple[int, ...]
    treasure_deck: tuple[int, ...]
    first_player: int


#: The last deal made, and what it was made from: ``(board, seed, rules, players, deal)``
#: in one tuple, read and replaced whole (a game in another thread sees one deal or the
#: other, never a mix).
_last_deal: list[tuple[Board, int, TobagoRules, int, Deal] | None] = [None]


def deal(board: Board, seed: int, rules: TobagoRules, n_players: int, keep: bool = True) -> Deal:
    """The deal of the game seeded ``seed`` on ``board`` (rules §9.2 and §9.3, and the first
    player), each part drawn from its own stream.

    It depends on nothing else (not on the seating or the strategies), and a run plays a seed
    block's games one after the other on one board (the default seating plays the block's
    rotations on the same deal): the last deal is kept and handed to the next game when it
    comes from the same board, seed, rules and player count. Every part is immutable, so
    sharing it cannot carry one game into another. ``keep=False`` (a game with a plug-in
    seat): nothing is kept, and what was kept is dropped, so that no module state holds the
    deal while a plug-in plays."""
    if not keep:
        _last_deal[0] = None
        return _deal(board, seed, rules, n_players)
    last = _last_deal[0]
    if (
        last is not None
        and last[0] is board
        and last[1] == seed
        and last[2] is rules
        and last[3] == n_players
    ):
        return last[4]
    made = _deal(board, seed, rules, n_players)
    _last_deal[0] = (board, seed, rules, n_players, made)
    return made


def _deal(board: Board, seed: int, rules: TobagoRules, n_players: int) -> Deal:
    landmarks = board.landmarks(stream(seed, "landmarks"), rules.same_object_min_distance)
    masks = clue_masks(board.island, landmarks, rules.deck, rules.object_next_to_includes_self)
    rng = stream(seed, "treasure_deck")
    gold = list(rules.treasure_values)
    rng.shuffle(gold)
    top = gold[: rules.curse_free_top]
    rest = gold[rules.curse_free_top :] + [CURSE] * rules.curse_count
    rng.shuffle(rest)
    first = (
        stream(seed, "first_player").randrange(n_players) if rules.first_player == "random" else 0
    )
    return Deal(landmarks, masks, tuple(rest + top), first)


class TobagoGame:
    """One game: build it, then :meth:`play` it."""

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
        self._last_plays: tuple[int, list[int], list[int], tuple[int, ...]] | None = None
        #: The plays listed for that key, under up to two tags: ``[tag, plays, tag, plays]``.
        self._last_lists: list[Any] = [None, None, None, None]
        #: Whether the turn just played could be the first of a deadlock (see play_turn).
        self._stuck = False
        island = board.island
        landmarks, masks, treasure_deck, first_player = deal(
            board, seed, rules, n, keep=built_in(strategies)
        )
        self._clue_table = plays_table(_CLUE, len(masks))
        self.state = s = GameState(
            rules,
            island,
            landmarks,
            n,
            masks,
            stream(seed, "clue_deck"),
            stream(seed, "distribution"),
        )
        self.referee: Referee[d.Decision] = seat_game(
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

    def ask(self, decision: d.Decision) -> object:
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

    def _record(self, seat: int, kind: d.DecisionKind) -> int:
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
            cell = self.ask(_new(_DECISION, (d.START_CELL, seat, (), s.island.all_mask, -1, -1)))
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
            empty = tuple([_MAP_ACTIONS[m] for m in range(N_MAPS) if not s.map_cards[m]])
            if pos < 0 or not empty or s.roses[seat] == 0:
                continue
            choice = self.ask(_new(_DECISION, (d.START_MAP, seat, empty, 0, -1, -1)))
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

    def play_turn(self, seat: int) -> None:
        """One whole turn of ``seat`` (rules §10.1). Leaves ``_stuck`` true when the seat had
        no clue to play and did nothing but drive (see :mod:`sim.tobago.deadlock`)."""
        s = self.state
        self._stuck = True
        if s.hand_short[seat]:
            s.refill_hand(seat)
        bit = 1 << s.atv[seat]
        if s.amulet_board & bit:
            s.amulet_board &= ~bit
            s.amulets[seat] += 1
            s.amulets_collected[seat] += 1
            s.log.add(s.turn, seat, _EV["amulet_pickup"], s.atv[seat])
        main_done = False
        move_locked = False
        exchange_main = s.rules.exchange_as_main_action
        ask = self.referee.asker(seat)
        while not s.over:
            # Fallback order (see decisions): ``end`` first when no main action is possible,
            # then the clue plays, ``move``, ``exchange`` (C7 flag), raises, amulet powers.
            actions: tuple[d.Action, ...]
            if main_done:
                actions = _END_ONLY
            else:
                clue_plays = self._clue_plays(seat, _CLUE)
                if clue_plays:
                    self._stuck = False
                if not move_locked:
                    actions = (*clue_plays, _MOVE_ACTION) if clue_plays else _MOVE_ONLY
                else:
                    actions = tuple(clue_plays) if clue_plays else _END_ONLY
                if exchange_main and s.hands[seat] and (s.clue_draw or s.clue_discard):
                    # C7 (S4, S21): exchanging the hand is a main action of its own.
                    actions = (*actions, d.EXCHANGE) if actions[0] != d.END else _EXCHANGE_ONLY
            if (1 << s.atv[seat]) in s.map_cand:  # a treasure may be located under the ATV
                actions += self._raise_actions(seat)
            if s.amulets[seat]:
                actions += self._amulet_actions(seat, move_locked)
            # A turn's legal answers are its actions, never a cell. Nothing added to a list
            # leaves the very tuple (a tuple plus () is itself).
            if actions is _END_ONLY:
                decision = _END_TURNS[seat]
            elif actions is _MOVE_ONLY:
                decision = _MOVE_TURNS[seat]
            else:
                decision = _new(_DECISION, (d.TURN, seat, actions, 0, -1, -1))
            # Checked by the referee: an action tuple.
            act: tuple[Any, ...] = ask(decision, actions, 0)
            kind = act[0]
            if kind == _END:
                return
            if kind != _MOVE:
                self._stuck = False  # a raise, an exchange or an amulet power
            if kind == _CLUE:
                self._play_clue(seat, act[1], act[2], _EV_CLUE)
                main_done = True
            elif kind == _MOVE:
                main_done = True
                if self._move(seat, amulet_move=False):
                    move_locked = True
                    if s.rules.raise_ends_turn:
                        return
            elif kind == _EXCHANGE:
                s.log.add(s.turn, seat, _EV["exchange"], self._exchange_hand(seat))
                main_done = True
            elif kind == _RAISE:
                raise_treasure(self, seat, act[1])
                move_locked = True
                if s.rules.raise_ends_turn:
                    return
            elif self._use_amulet(seat, act):  # an amulet move that ended in a raise
                move_locked = True
                if s.rules.raise_ends_turn:
                    return

    # -- clues --------------------------------------------------------------------------------

    def _clue_plays(self, seat: int, tag: ActionKind, only_map: int = -1) -> list[d.Action]:
        """Legal ``(tag, card, map)`` plays from ``seat``'s hand (none without a rose), on
        every map or on ``only_map``. The list may be shared: callers must not change it."""
        s = self.state
        if not s.roses[seat]:
            return []
        masks = s.clue_masks
        hand = s.hands[seat]
        cands = s.map_cand
        if s.rules.bga_allow_non_reducing_without_markers:
            on = range(N_MAPS) if only_map < 0 else (only_map,)
            return [(tag, card, m) for card in hand for m in on if s.clue_legal(card, m)]
        if only_map < 0:
            key = self._last_plays
            if (
                key is not None
                and key[0] == seat
                and key[1] == hand
                and key[2] == cands
                and key[3] is masks
            ):
                lists = self._last_lists  # [tag, its plays, another tag, its plays]
                if lists[0] == tag:
                    return lists[1]  # type: ignore[no-any-return]
                if lists[2] != tag:
                    lists[2] = tag
                    table = plays_table(tag, len(masks))
                    lists[3] = [table[card][m] for _, card, m in lists[1]]
                return lists[3]  # type: ignore[no-any-return]
        plays: list[d.Action] = []
        append = plays.append
        table = self._clue_table if tag == _CLUE else plays_table(tag, len(masks))
        if only_map >= 0:
            cand = cands[only_map]
            for card in hand:
                after = cand & masks[card]
                if after and after != cand:
                    append(table[card][only_map])
            return plays
        # The four maps unrolled (the hottest loop of the engine): plays by card, then map.
        c0, c1, c2, c3 = cands
        for card in hand:
            f = masks[card]
            by_map = table[card]
            a = c0 & f
            if a and a != c0:
                append(by_map[0])
            a = c1 & f
            if a and a != c1:
                append(by_map[1])
            a = c2 & f
            if a and a != c2:
                append(by_map[2])
            a = c3 & f
            if a and a != c3:
                append(by_map[3])
        self._last_plays = (seat, hand.copy(), cands.copy(), masks)
        self._last_lists = [tag, plays, None, None]
        return plays

    def _place_clue(self, seat: int, card: int, m: int) -> None:
        s = self.state
        s.map_cards[m].append(card)
        s.map_roses[m].append(seat)
        s.roses[seat] -= 1
        s.map_cand[m] &= s.clue_masks[card]
        s.clues_played[seat] += 1

    def _play_clue(self, seat: int, card: int, m: int, event: int) -> None:
        """Play ``card`` from ``seat``'s hand onto map ``m`` and draw a replacement; the move
        log's row is an ``event`` (a code)."""
        s = self.state
        s.hands[seat].remove(card)
        self._place_clue(seat, card, m)
        row = (s.turn, seat, event, card, m, s.map_cand[m].bit_count())
        s.log.flat.extend(row)  # MoveLog.add without a Python call (six ints a row)
        s.refill_hand(seat)

    def restart_map(self, seat: int, m: int) -> None:
        """Rules §7.5: ``seat`` restarts the emptied map ``m`` with a legal clue, if any."""
        plays = self._clue_plays(seat, _CLUE, m)
        if not plays:
            return
        choice = self.ask(_new(_DECISION, (d.RESTART, seat, tuple(plays), 0, -1, -1)))
        assert isinstance(choice, tuple)
        self._play_clue(seat, choice[1], m, _EV["restart"])

    # -- raising ------------------------------------------------------------------------------

    def _raise_actions(self, seat: int) -> tuple[d.Action, ...]:
        s = self.state
        bit = 1 << s.atv[seat]  # located here: the map's only candidate is the ATV's cell
        cand = s.map_cand
        if bit not in cand:
            return ()  # the common case, answered without building anything
        if not s.roses[seat] and s.rules.raise_needs_rose:
            return ()
        cards = s.map_cards
        out: tuple[d.Action, ...] = ()
        for m in range(N_MAPS):
            if cand[m] == bit and cards[m]:
                out += (_RAISE_ACTIONS[m],)
        return out

    # -- movement -----------------------------------------------------------------------------

    def _move(self, seat: int, amulet_move: bool) -> bool:
        """One move action of up to ``legs_per_move`` legs; True if it ended in a raise."""
        s = self.state
        rules = s.rules
        leg_mask = s.island.leg_mask
        row = s.log.flat.extend  # MoveLog.add without a Python call (six ints a row)
        between = not amulet_move and rules.amulet_use_between_legs
        # The amulet powers between legs: driving changes none of them (only using one
        # does), so they are listed once per move and after each use.
        powers: tuple[d.Action, ...] | None = None
        legs = 0
        ask = self.referee.asker(seat)
        while legs < rules.legs_per_move and not s.over:
            here = s.atv[seat]
            cells = leg_mask[here]
            if legs:
                actions = _STOP_ONLY
                if (1 << here) in s.map_cand:  # a treasure may be located under the ATV
                    actions += self._raise_actions(seat)
                if between and s.amulets[seat]:
                    if powers is None:
                        powers = self._amulet_actions(seat, move_locked=True)
                    actions += powers
                if actions is _STOP_ONLY:  # nothing was added (a tuple plus () is itself)
                    decision = _STOP_LEGS.get((seat, cells))
                    if decision is None:
                        if len(_STOP_LEGS) > _SHARED:
                            _STOP_LEGS.clear()
                        decision = _new(_DECISION, (d.LEG, seat, actions, cells, -1, -1))
                        _STOP_LEGS[seat, cells] = decision
                else:
                    decision = _new(_DECISION, (d.LEG, seat, actions, cells, -1, -1))
            else:
                actions = ()
                decision = _FIRST_LEGS.get((seat, cells))
                if decision is None:
                    if len(_FIRST_LEGS) > _SHARED:
                        _FIRST_LEGS.clear()
                    decision = _new(_DECISION, (d.LEG, seat, (), cells, -1, -1))
                    _FIRST_LEGS[seat, cells] = decision
            # A leg to one of ``cells``, or one of the actions.
            choice = ask(decision, actions, cells)
            if type(choice) is int:
                s.atv[seat] = choice
                legs += 1
                bit = 1 << choice
                collected = 0
                if not amulet_move and s.amulet_board & bit:
                    s.amulet_board &= ~bit
                    s.amulets[seat] += 1
                    s.amulets_collected[seat] += 1
                    collected = 1
                row((s.turn, seat, _LEG, here, choice, collected))
                continue
            act: tuple[Any, ...] = choice  # validated: an action
            if act[0] == _STOP:
                break
            if act[0] == _RAISE:
                self._stuck = False
                raise_treasure(self, seat, act[1])
                return True
            self._use_amulet(seat, act)
            powers = None
        return False

    # -- amulets ------------------------------------------------------------------------------

    def _amulet_actions(self, seat: int, move_locked: bool) -> tuple[d.Action, ...]:
        """Amulet powers open to ``seat`` now."""
        s = self.state
        threshold = s.rules.marker_threshold
        cards = s.map_cards
        # A marker may go where markers are shown (GameState.markers_shown), never the last.
        # The four maps unrolled.
        markers: tuple[d.Action, ...] = ()
        c0, c1, c2, c3 = s.map_cand
        if 1 < c0.bit_count() <= threshold and cards[0]:
            markers += (_MARKER_ACTIONS[0],)
        if 1 < c1.bit_count() <= threshold and cards[1]:
            markers += (_MARKER_ACTIONS[1],)
        if 1 < c2.bit_count() <= threshold and cards[2]:
            markers += (_MARKER_ACTIONS[2],)
        if 1 < c3.bit_count() <= threshold and cards[3]:
            markers += (_MARKER_ACTIONS[3],)
        # Right after the main clue plays were listed, this reuses them (see _clue_plays).
        clues = self._clue_plays(seat, _AMULET_CLUE)
        tail = _AMULET_TAILS[
            (not move_locked) + 2 * bool(s.hands[seat] and (s.clue_draw or s.clue_discard))
        ]
        return (*markers, *clues, *tail)

    def _use_amulet(self, seat: int, choice: d.Action) -> bool:
        """Apply one amulet power; True if it led to a raise."""
        s = self.state
        self._stuck = False
        s.amulets[seat] -= 1
        s.amulets_used[seat] += 1
        s.amulets_spent += 1
        kind = choice[0]
        if kind == _AMULET_MARKER:
            m = choice[1]
            cell = self.ask(_new(_DECISION, (d.MARKER, seat, (), s.map_cand[m], m, -1)))
            assert isinstance(cell, int)
            s.map_removed[m] |= 1 << cell
            s.map_cand[m] &= ~(1 << cell)
            s.log.add(s.turn, seat, _EV["amulet_marker"], m, cell, s.map_cand[m].bit_count())
        elif kind == _AMULET_CLUE:
            assert isinstance(choice[1], int) and isinstance(choice[2], int)
            self._play_clue(seat, choice[1], choice[2], _EV["amulet_clue"])
        elif kind == _AMULET_MOVE:
            s.log.add(s.turn, seat, _EV["amulet_move"])
            return self._move(seat, amulet_move=True)
        elif kind == _AMULET_EXCHANGE:
            s.log.add(s.turn, seat, _EV["amulet_exchange"], self._exchange_hand(seat))
        return False

    def _exchange_hand(self, seat: int) -> int:
        """Rules §8.4 power 4: discard the whole hand and draw as many; the cards exchanged."""
        s = self.state
        hand = s.hands[seat]
        k = len(hand)
        s.clue_discard.extend(hand)
        hand.clear()
        for _ in range(k):
            card = s.draw_clue()
            if card < 0:
                break
            hand.append(card)
        s.hand_short[seat] = len(hand) < s.hand_size
        return k


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
