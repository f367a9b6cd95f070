"""A Tobago turn (rules §10.1): the turn's decisions and what each answer does: clue plays
and map restarts, movement leg by leg, raises (handed to :mod:`sim.tobago.distribution`),
amulet powers and hand exchanges.

:class:`TurnPlay` is a base of :class:`sim.tobago.engine.TobagoGame` (one object: the engine
builds it and plays the turns in order). The commonest decisions are shared by every game
(decisions are immutable) or built as their tuples directly, since a game asks hundreds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.referee import Referee
from sim.tobago import decisions
from sim.tobago.decisions import ActionKind
from sim.tobago.distribution import raise_treasure
from sim.tobago.legal_actions import LegalActions
from sim.tobago.movelog import CODE

_EV = CODE
# Codes of the most frequent events, looked up once.
_LEG = CODE["leg"]
_EV_CLUE = CODE["clue"]
# The action tags, each bound once as a module global (one load where the hot loops compare
# them; ``ActionKind.X`` would add an attribute lookup).
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
_END_ONLY: tuple[decisions.Action, ...] = (decisions.END,)
_MOVE_ONLY: tuple[decisions.Action, ...] = (decisions.MOVE,)
_MOVE_ACTION = decisions.MOVE
_EXCHANGE_ONLY: tuple[decisions.Action, ...] = (decisions.EXCHANGE,)
_STOP_ONLY: tuple[decisions.Action, ...] = (decisions.STOP,)
# Decisions of the hottest kinds are built as their tuples directly (the named tuple's
# ``__new__`` is a Python call).
_new = tuple.__new__
_DECISION = decisions.Decision
#: Leg decisions by (seat, cells): a move's first leg (no actions) and the later ones with
#: ``stop`` as the only action. Decisions are immutable and value-keyed here, so every game
#: shares them: a lookup costs less than building the tuple subclass (at most _SHARED kept).
_FIRST_LEGS: dict[tuple[int, int], decisions.Decision] = {}
_STOP_LEGS: dict[tuple[int, int], decisions.Decision] = {}
_SHARED = 1 << 16
#: The turn decisions of the two commonest lists, ``end`` only and ``move`` only, by seat
#: (shared like the legs: decisions are immutable).
_END_TURNS = tuple(
    _new(_DECISION, (decisions.TURN, seat, _END_ONLY, 0, -1, -1)) for seat in range(4)
)
_MOVE_TURNS = tuple(
    _new(_DECISION, (decisions.TURN, seat, _MOVE_ONLY, 0, -1, -1)) for seat in range(4)
)


class TurnPlay(LegalActions):
    """A seat's turn in the game's state (a base of the game)."""

    # Set by the game (sim.tobago.engine.TobagoGame, sim.tobago.position.game_at).
    referee: Referee[decisions.Decision]
    #: Whether the turn just played could be the first of a deadlock (see play_turn).
    _stuck: bool

    if TYPE_CHECKING:

        def ask(self, decision: decisions.Decision) -> object:
            """The seat's checked answer (the game's)."""
            ...

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
        ask = self.referee.asker(seat)
        while not s.over:
            actions = _END_ONLY if main_done else self._main_actions(seat, move_locked)
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
                decision = _new(_DECISION, (decisions.TURN, seat, actions, 0, -1, -1))
            # Checked by the referee: an action tuple.
            act: tuple[Any, ...] = ask(decision, actions, 0)
            kind = act[0]
            if kind is _END:
                return
            if kind is _CLUE:  # offered only with clue plays listed: not stuck already
                self._play_clue(seat, act[1], act[2], _EV_CLUE)
                main_done = True
                continue
            if kind is _MOVE:
                main_done = True
                raised = self._move(seat, amulet_move=False)
            elif kind is _EXCHANGE:
                self._stuck = False
                s.log.add(s.turn, seat, _EV["exchange"], self._exchange_hand(seat))
                main_done = True
                continue
            elif kind is _RAISE:
                self._stuck = False
                raise_treasure(self, seat, act[1])
                raised = True
            else:  # an amulet power (it unsticks the turn); a move with it may end in a raise
                raised = self._use_amulet(seat, act)
            if raised:
                move_locked = True
                if s.rules.raise_ends_turn:
                    return

    def _main_actions(self, seat: int, move_locked: bool) -> tuple[decisions.Action, ...]:
        """The main actions open to ``seat`` (none done yet this turn), in the fallback order
        of :mod:`sim.tobago.decisions`: ``end`` first when none is possible, then the clue
        plays, ``move`` (unless a raise locked it), ``exchange`` (C7 flag). Unsticks the turn
        when there is a clue to play."""
        s = self.state
        clue_plays = self._clue_plays(seat, _CLUE)
        if clue_plays:
            self._stuck = False
        actions: tuple[decisions.Action, ...]
        if not move_locked:
            actions = (*clue_plays, _MOVE_ACTION) if clue_plays else _MOVE_ONLY
        else:
            actions = tuple(clue_plays) if clue_plays else _END_ONLY
        if s.rules.exchange_as_main_action and s.hands[seat] and (s.clue_draw or s.clue_discard):
            # C7 (S4, S21): exchanging the hand is a main action of its own.
            actions = (
                (*actions, decisions.EXCHANGE) if actions[0] != decisions.END else _EXCHANGE_ONLY
            )
        return actions

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
        choice = self.ask(_new(_DECISION, (decisions.RESTART, seat, tuple(plays), 0, -1, -1)))
        assert isinstance(choice, tuple)
        self._play_clue(seat, choice[1], m, _EV["restart"])

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
        powers: tuple[decisions.Action, ...] | None = None
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
                        decision = _new(_DECISION, (decisions.LEG, seat, actions, cells, -1, -1))
                        _STOP_LEGS[seat, cells] = decision
                else:
                    decision = _new(_DECISION, (decisions.LEG, seat, actions, cells, -1, -1))
            else:
                actions = ()
                decision = _FIRST_LEGS.get((seat, cells))
                if decision is None:
                    if len(_FIRST_LEGS) > _SHARED:
                        _FIRST_LEGS.clear()
                    decision = _new(_DECISION, (decisions.LEG, seat, (), cells, -1, -1))
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
            if act[0] is _STOP:
                break
            if act[0] is _RAISE:
                self._stuck = False
                raise_treasure(self, seat, act[1])
                return True
            self._use_amulet(seat, act)
            powers = None
        return False

    # -- amulets and exchanges ---------------------------------------------------------------

    def _use_amulet(self, seat: int, choice: decisions.Action) -> bool:
        """Apply one amulet power; True if it led to a raise."""
        s = self.state
        self._stuck = False
        s.amulets[seat] -= 1
        s.amulets_used[seat] += 1
        s.amulets_spent += 1
        kind = choice[0]
        if kind is _AMULET_MARKER:
            m = choice[1]
            cell = self.ask(_new(_DECISION, (decisions.MARKER, seat, (), s.map_cand[m], m, -1)))
            assert isinstance(cell, int)
            s.map_removed[m] |= 1 << cell
            s.map_cand[m] &= ~(1 << cell)
            s.log.add(s.turn, seat, _EV["amulet_marker"], m, cell, s.map_cand[m].bit_count())
        elif kind is _AMULET_CLUE:
            assert isinstance(choice[1], int) and isinstance(choice[2], int)
            self._play_clue(seat, choice[1], choice[2], _EV["amulet_clue"])
        elif kind is _AMULET_MOVE:
            s.log.add(s.turn, seat, _EV["amulet_move"])
            return self._move(seat, amulet_move=True)
        elif kind is _AMULET_EXCHANGE:
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
