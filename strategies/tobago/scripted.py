"""The shared machinery of the scripted Tobago strategies, tuned by their parameters.

:class:`ScriptedPlayer` answers every decision with small, cheap heuristics; each named
strategy (``hunter``, ``cartographer``, ``collector``, ``cautious``) is the same machinery with
its own weights, so their styles differ where the weights say and nowhere else:

- **start**: the cell that scores best on the start weights (:mod:`.start`);
- **raise** whenever it can (all of them);
- **amulets**: each power behind its own parameter (:mod:`.amulets`), spending only amulets
  beyond ``reserve`` unless the game has stalled;
- **main action**: score every legal clue play (cells eliminated, a bonus for locating a
  treasure close to the own ATV, a bonus for using a map the player has few roses on) against
  driving toward the nearest located treasure or amulet; the best score wins;
- **legs**: drive to the leg destination closest (in legs) to the current target; with a
  hand that holds no legal clue and no spare amulet to exchange it, the target is the
  nearest amulet on the board;
- **offers**: take a card worth at least ``take_at``; take anything positive at the last rose
  the player holds; with ``curse_memory``, after drawing a curse take anything worth at least
  ``curse_take_at`` (the sharing may stop any moment), and wait for a high card it drew.
"""

from __future__ import annotations

import dataclasses
import random
from math import floor
from typing import Any

from sim.bits import bits_of
from sim.tobago import decisions
from sim.tobago.island import Island
from sim.tobago.state import N_MAPS
from sim.tobago.view import PlayerView
from strategies.tobago.amulets import choose_power, marker_to_remove
from strategies.tobago.geometry import INF as _INF
from strategies.tobago.geometry import leg_tables, within_tables
from strategies.tobago.start import choose_start
from strategies.tobago.style import Style

# The most frequent decision kinds and answers, looked up once.
_TURN, _OFFER, _LEG, _MOVE = decisions.TURN, decisions.OFFER, decisions.LEG, decisions.MOVE
_TAKE, _PASS = decisions.TAKE, decisions.PASS
_CLUE, _RAISE = decisions.ActionKind.CLUE, decisions.ActionKind.RAISE
#: What ``located_cells`` answers when no treasure is located: comparing with it is several
#: times cheaper than ``max(located) >= 0`` (the builtin ``min`` and ``max`` are slow on a few
#: numbers, hence the conditional expressions instead in the hot paths).
_UNLOCATED = (-1,) * N_MAPS


#: The island the last bound player played on, and its leg and within tables.
_last_tables: list[Any] = [None, None, None]

Params = tuple[tuple[str, float | int | bool | str], ...]
_styles: dict[tuple[type, Params], Style] = {}


def _check_type(cls: type[ScriptedPlayer], name: str, value: object, default: object) -> None:
    """A parameter must be of its default's type: a bool for a switch, an integer for a
    count (never a bool), any number for a weight (``ValueError`` says what is allowed)."""
    if isinstance(default, bool):
        ok, allowed = isinstance(value, bool), "true or false"
    elif isinstance(default, int):
        ok, allowed = isinstance(value, int) and not isinstance(value, bool), "an integer"
    else:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        allowed = "a number"
    if not ok:
        raise ValueError(f"{name} = {value!r} is not allowed for {cls.name} ({allowed})")


def _style_for(cls: type[ScriptedPlayer], params: Params) -> Style:
    """The style of ``cls`` with ``params`` applied (built once per class and parameters)."""
    key = (cls, params)
    style = _styles.get(key)
    if style is None:
        unknown = sorted(set(dict(params)) - set(Style.__dataclass_fields__))
        if unknown:
            raise ValueError(f"unknown parameter {unknown[0]!r} for {cls.name}")
        overrides: dict[str, Any] = dict(params)
        for name, value in params:
            _check_type(cls, name, value, getattr(cls.default_style, name))
        style = _styles[key] = dataclasses.replace(cls.default_style, **overrides)
    return style


class ScriptedPlayer:
    """A heuristic player; subclasses set ``name`` and their default :class:`Style`."""

    name = "scripted"
    default_style = Style()

    @classmethod
    def param_defaults(cls) -> dict[str, object]:
        """Every parameter's value when none is given (a pool names ``hunter(take_at=3)``
        and ``hunter`` as one member)."""
        return {name: getattr(cls.default_style, name) for name in Style.__dataclass_fields__}

    def __init__(self, rng: random.Random, **params: float | int | bool | str) -> None:
        self.rng = rng
        self.style = _style_for(type(self), tuple(sorted(params.items())) if params else ())
        # Facts fixed for a game, bound from the view of its first decision (a view belongs
        # to one game and seat): reading them once beats a property call per use.
        self._view: PlayerView | None = None
        self._island: Island | None = None
        #: Legs between cells, and the cells by legs, indexed by source cell.
        self.dist: tuple[list[int], ...] = ()
        self.layers: tuple[tuple[int, ...], ...] = ()
        #: Per source cell, the cells at most 0, 1, 2... legs away.
        self.within: tuple[tuple[int, ...], ...] = ()
        #: Every clue card's cells.
        self.masks: tuple[int, ...] = ()
        self.marker_threshold = 0
        self._rivals: tuple[int, ...] = ()
        self.legs_per_move = 0
        self._raise_needs_rose = True
        # The turn at whose start the hand held no legal clue (-1: none); while it lasts the
        # player drives to fetch an amulet when it has none to spare.
        self._stuck_turn = -1
        # The last position seen while stuck and the turn it was first seen (see stalled).
        self._calm_key: tuple[tuple[int, ...], int] | None = None
        self._calm_since = 0

    def _bind(self, view: PlayerView) -> None:
        self._view = view
        island = view.island
        if island is not self._island:
            # Every cell's legs: choosing a start cell needs them all anyway. The seats of a
            # game share the island: the last island's tables are at hand without a lookup.
            self._island = island
            if _last_tables[0] is not island:
                _last_tables[:] = (island, leg_tables(island), within_tables(island))
            self.dist, self.layers = _last_tables[1]
            self.within = _last_tables[2]
        self.masks = view.clue_masks
        seat = view.seat
        self._rivals = (*range(seat), *range(seat + 1, view.n_players))
        rules = view.rules
        self.legs_per_move = rules.legs_per_move
        self._raise_needs_rose = rules.raise_needs_rose
        self.marker_threshold = rules.marker_threshold
        self._stuck_turn = -1
        self._calm_key = None

    # -- entry point ------------------------------------------------------------------------

    def decide(self, view: PlayerView, decision: decisions.Decision) -> object:
        """Answer one decision (the kinds tested most frequent first)."""
        if view is not self._view:
            self._bind(view)
        kind = decision.kind
        if kind is _TURN:
            actions = decision.actions
            if len(actions) == 1:
                only = actions[0]  # nothing to weigh
                if only == _MOVE:  # a main action with no clue to play: the hand is dead
                    self._note_stuck(view, True)
                return only
            return self._turn(view, decision)
        if kind is _OFFER:
            # The first answers of _offer, inline: most offers end here.
            value = decision.value
            if value <= 0:
                return _PASS
            if value >= self.style.take_at and not self.style.curse_memory:
                return _TAKE
            return self._offer(view, decision)
        if kind is _LEG:
            return self._leg(view, decision)
        if kind is decisions.START_CELL:
            return choose_start(self.style, view, decision.cells, self.rng)
        if kind is decisions.RESTART:
            return self._best_clue(view, decision.actions)[0] or decision.actions[0]
        if kind is decisions.MARKER:
            return marker_to_remove(decision.cells, self.dist[view.atv(view.seat)])
        if kind is decisions.CURSE:
            # The reserve is kept for curses: pay with it, unless no card would be lost.
            return decisions.PAY_AMULET if view.my_treasures else decisions.PAY_CARD
        return decision.actions[self.rng.randrange(len(decision.actions))]

    # -- offers -----------------------------------------------------------------------------

    def _offer(self, view: PlayerView, decision: decisions.Decision) -> decisions.Action:
        value = decision.value
        if value <= 0:
            return decisions.PASS
        style = self.style
        if value >= style.take_at and not style.curse_memory:
            return decisions.TAKE  # what every later rule would answer too
        position = decision.position
        roses = view.distribution_roses
        mine_later = roses[position + 1 :].count(view.seat)
        if mine_later == 0 and position == len(roses) - 1:
            return decisions.TAKE  # the last rose: nobody after, so anything beats a discard
        if style.curse_memory:
            drawn = view.my_drawn
            if -1 in drawn:
                return decisions.TAKE if value >= style.curse_take_at else decisions.PASS
            better = bool(drawn) and max(drawn) > value  # drew a card better than this one
            if better and view.distribution_cards_left >= 1 and mine_later == 0:
                return decisions.PASS if value < style.take_at else decisions.TAKE
        if value >= style.take_at:
            return decisions.TAKE
        # A low card: keep it if my only rose is this one and cards are running out.
        if mine_later == 0 and view.distribution_cards_left <= 1:
            return decisions.TAKE
        return decisions.PASS

    def _note_stuck(self, view: PlayerView, no_clue: bool) -> bool:
        """Record whether this turn starts with a dead hand: no legal clue while a rose is
        left to play one (without a rose no exchange helps). Returns that."""
        dead = no_clue and view.roses(view.seat) > 0
        self._stuck_turn = view.turn if dead and self.style.exchange_stuck else -1
        return dead

    # -- facts the amulet powers ask ---------------------------------------------------------

    def may_raise(self, view: PlayerView) -> bool:
        """Whether this player could raise a located treasure (a rose left, if needed)."""
        return view.roses(view.seat) > 0 or not self._raise_needs_rose

    def rival_within(self, cell: int, legs: int) -> bool:
        """Whether some rival's ATV is at most ``legs`` legs from ``cell``."""
        view = self._view
        assert view is not None
        dist = self.dist
        return any(dist[view.atv(p)][cell] <= legs for p in self._rivals)

    def stalled(self, view: PlayerView) -> bool:
        """Whether the maps and the treasure deck have not changed for ``stall_turns`` turns
        (asked only while stuck, so each call also advances the watch)."""
        key = (tuple(view.candidate_masks()), view.treasure_deck_size)
        if key != self._calm_key:
            self._calm_key = key
            self._calm_since = view.turn
        return view.turn - self._calm_since >= self.style.stall_turns

    def best_clue_score(self, view: PlayerView, actions: tuple[decisions.Action, ...]) -> float:
        """The score of the best main clue play among ``actions`` (-1 without one)."""
        return self._best_clue(view, actions)[1]

    def best_share(self, view: PlayerView, actions: tuple[decisions.Action, ...]) -> float:
        """The largest share of a map's candidates one clue play among ``actions`` removes."""
        masks = self.masks
        cands = view.candidate_masks()
        best = 0.0
        for action in actions:
            if action[0] is _CLUE:
                cand = cands[action[2]]
                n = cand.bit_count()
                share = (n - (cand & masks[action[1]]).bit_count()) / n
                best = max(best, share)
        return best

    # -- turns and legs ---------------------------------------------------------------------

    def _target(self, view: PlayerView, located: tuple[int, ...], here: int, chase: bool) -> int:
        """The cell to drive to, or -1: the nearest located treasure within ``chase_legs``
        (when ``chase``: one is located and this player may raise it), else the nearest
        amulet within ``amulet_legs``, or at any distance while stuck without a spare amulet
        (``located``: each map's cell or -1)."""
        style = self.style
        dist = self.dist[here]
        if chase:
            best, best_legs = -1, style.chase_legs + 1
            for cell in located:
                if cell >= 0 and dist[cell] < best_legs:
                    best, best_legs = cell, dist[cell]
            if best >= 0:
                return best
        amulet_legs = style.amulet_legs
        stuck = self._stuck_turn
        if stuck >= 0 and stuck == view.turn and view.amulets(view.seat) <= style.reserve:
            amulet_legs = _INF
        board = view.amulet_board
        if amulet_legs and board:
            # The nearest amulet 1 to amulet_legs legs away, the lowest cell among the
            # nearest: scan the leg layers around the ATV outward (the last layer holds the
            # unreachable cells, if any: its distance is checked).
            layers = self.layers[here]
            stop = len(layers)
            if amulet_legs < stop:
                stop = amulet_legs + 1
            for legs in range(1, stop):
                hit = board & layers[legs]
                if hit:
                    cell = (hit & -hit).bit_length() - 1
                    return cell if dist[cell] == legs else -1
        return -1

    def _best_clue(
        self, view: PlayerView, actions: tuple[decisions.Action, ...]
    ) -> tuple[decisions.Action | None, float]:
        """The best scoring clue play among ``actions`` (listed first, as the engine does)
        and its score; ``(None, -1.0)`` without one."""
        style = self.style
        seat = view.seat
        masks = self.masks
        spread = style.spread_bonus
        # List comprehensions cost a frame each: this method runs at most turn decisions.
        roses_on = view.roses_on_maps(seat) if spread else None
        dist: list[int] | None = None
        rivals: list[list[int]] = []
        best: decisions.Action | None = None
        best_score = -1.0
        cands = view.candidate_masks()
        c0, c1, c2, c3 = cands
        before = (c0.bit_count(), c1.bit_count(), c2.bit_count(), c3.bit_count())
        weight = style.clue_weight
        for action in actions:
            if action[0] is not _CLUE:
                break  # the clue plays come first
            _, card, m = action
            n_before = before[m]
            after = cands[m] & masks[card]
            n_after = after.bit_count()
            score = weight * (n_before - n_after) / n_before
            if n_after <= 1:  # locates the treasure
                cell = after.bit_length() - 1
                if dist is None:
                    dist = self.dist[view.atv(seat)]
                    rivals = [self.dist[view.atv(p)] for p in self._rivals]
                near = dist[cell]
                score += style.locate_bonus * (1.0 if near <= self.legs_per_move else 0.2)
                for r in rivals:
                    if r[cell] < near:  # a rival is nearer
                        score -= style.locate_bonus * 0.8
                        break
            if roses_on is not None:
                score += spread / (1 + roses_on[m])
            if score > best_score:
                best, best_score = action, score
        return best, best_score

    def _leg(self, view: PlayerView, decision: decisions.Decision) -> object:
        """One leg: toward the target, else stop (after the first leg) or wander."""
        cells = decision.cells
        located = view.located_cells()
        target = -1
        any_located = located != _UNLOCATED
        stuck = self._stuck_turn
        if any_located or self.style.amulet_legs or (stuck >= 0 and stuck == view.turn):
            seat = view.seat
            here = view.atv(seat)
            chase = any_located and (view.roses(seat) > 0 or not self._raise_needs_rose)
            if chase and here in located:
                for action in decision.actions:
                    if action[0] is _RAISE:
                        return action
            target = self._target(view, located, here, chase)
        if target >= 0:
            # The cells of ``cells`` fewest legs from the target: the first leg layer around
            # it that holds any (the layers cover the island).
            for layer in self.layers[target]:
                steps = cells & layer
                if steps:
                    break
            if steps.bit_count() == 1:
                return steps.bit_length() - 1  # a single best step: no draw
            picks = bits_of(steps)
            return picks[floor(self.rng.random() * len(picks))]
        if decisions.STOP in decision.actions:
            return decisions.STOP
        return self._wander(view, cells)

    def _turn(self, view: PlayerView, decision: decisions.Decision) -> object:
        """A turn decision: raise, an amulet power, or the main action (or end)."""
        actions = decision.actions
        style = self.style
        seat = view.seat
        first = actions[0]
        located = view.located_cells()
        chase = False
        here = -1  # the ATV's cell, read when needed
        if located != _UNLOCATED:
            here = view.atv(seat)
            chase = view.roses(seat) > 0 or not self._raise_needs_rose
            if chase and here in located:
                # Raise whenever it can (the engine lists a raise only for a treasure
                # located under the ATV).
                for action in actions:
                    if action[0] is _RAISE:
                        return action
        main_open = first != decisions.END  # ``end`` comes first once no main action is left
        dead = False
        if main_open:
            # The clue plays are listed first: none first means the hand holds none.
            if first[0] is not _CLUE:
                dead = self._note_stuck(view, True)
            elif self._stuck_turn >= 0:
                self._stuck_turn = -1
        amulets = view.amulets(seat)
        if amulets and (amulets > style.reserve or dead):  # spare ones, or maybe a stall
            if here < 0:
                here = view.atv(seat)
            power = choose_power(self, view, actions, located, here, main_open, dead)
            if power is not None:
                return power
        if not main_open:
            return decisions.END
        stuck = self._stuck_turn
        if chase or style.amulet_legs or (stuck >= 0 and stuck == view.turn):
            if here < 0:
                here = view.atv(seat)
            if self._target(view, located, here, chase) >= 0 and decisions.MOVE in actions:
                return decisions.MOVE
        clue, clue_score = self._best_clue(view, actions)
        if clue is not None and clue_score > 0:
            return clue
        if dead and decisions.EXCHANGE in actions:
            return decisions.EXCHANGE  # C7: a new hand as the main action beats a pointless move
        if decisions.MOVE in actions:
            return decisions.MOVE
        if clue is not None:
            return clue
        return first

    def _wander(self, view: PlayerView, cells: int) -> int:
        """With no target: toward the candidates of the most advanced map (the cells whose
        summed legs to its first six candidates are fewest, ties broken at random)."""
        best_m = -1
        best_n = _INF * 10
        cands = view.candidate_masks()
        for m, count in enumerate(view.clue_counts()):
            n = cands[m].bit_count()
            if count and n < best_n:
                best_m, best_n = m, n
        if best_m < 0:
            low = cells & -cells
            return low.bit_length() - 1
        options = bits_of(cells)
        score = [0] * len(options)
        c = cands[best_m]
        for _ in range(6):
            if not c:
                break
            low = c & -c
            c ^= low
            dist = self.dist[low.bit_length() - 1]
            score = [x + dist[i] for x, i in zip(score, options, strict=True)]
        best = min(score)
        picks = [i for i, x in zip(options, score, strict=True) if x == best and x <= _INF]
        return picks[floor(self.rng.random() * len(picks))] if len(picks) > 1 else picks[0]
