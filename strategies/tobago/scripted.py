"""The shared machinery of the scripted Tobago strategies, tuned by their parameters.

:class:`ScriptedPlayer` answers every decision with small, cheap heuristics; each named
strategy (``hunter``, ``cartographer``, ``collector``, ``cautious``) is the same machinery with
its own weights, so their styles differ where the weights say and nowhere else:

- **raise** whenever it can (all of them);
- **main action**: score every legal clue play (cells eliminated, a bonus for locating a
  treasure close to the own ATV, a bonus for using a map the player has few roses on) against
  driving toward the nearest located treasure or amulet; the best score wins;
- **legs**: drive to the leg destination closest (in legs) to the current target;
- **amulets**: spend one to grab a treasure (remove a marker under or next to the ATV, or an
  extra move to a located treasure within reach) while keeping ``reserve`` for curses;
- **offers**: take a card worth at least ``take_at``; take anything positive at the last rose
  the player holds; with ``curse_memory``, after drawing a curse take anything worth at least
  ``curse_take_at`` (the sharing may stop any moment), and wait for a high card it drew.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from math import floor
from typing import Any, TypeVar

from sim.tobago import decisions as d
from sim.tobago.island import Island, bits_of
from sim.tobago.view import PlayerView

_INF = 99
#: The decision kinds answered by the turn and leg logic.
_ACTING = (d.TURN, d.LEG)


@dataclass(frozen=True, slots=True)
class Style:
    """The weights of one scripted style (all documented in ``docs/strategies.md``)."""

    take_at: int = 4
    curse_take_at: int = 2
    curse_memory: bool = False
    locate_bonus: float = 6.0
    spread_bonus: float = 0.0
    chase_legs: int = 3
    amulet_legs: int = 0
    amulet_move_legs: int = 0
    reserve: int = 1
    clue_weight: float = 1.0


T = TypeVar("T")


def _per_island(store: dict[int, tuple[Island, T]], island: Island, make: Callable[[], T]) -> T:
    """The value ``store`` keeps for ``island`` (made on first use; at most 64 islands)."""
    hit = store.get(id(island))
    if hit is None or hit[0] is not island:
        if len(store) > 64:
            store.clear()
        hit = store[id(island)] = (island, make())
    return hit[1]


#: Per island and source cell: legs to every cell, and the cells by legs needed (ascending,
#: the unreachable ones last) as bitmasks.
_Legs = tuple[list[int], tuple[int, ...]]
_leg_cache: dict[int, tuple[Island, dict[int, _Legs]]] = {}


def _legs_from(island: Island, source: int) -> _Legs:
    """Breadth-first over one-leg moves from ``source`` (cached per island and source)."""
    table = _per_island(_leg_cache, island, dict)
    hit = table.get(source)
    if hit is not None:
        return hit
    dist = [_INF] * island.n
    dist[source] = 0
    frontier = 1 << source
    seen = frontier
    layers = [frontier]
    step = 0
    leg = island.leg_mask
    while frontier:
        step += 1
        nxt = 0
        f = frontier
        while f:
            low = f & -f
            nxt |= leg[low.bit_length() - 1]
            f ^= low
        nxt &= ~seen
        seen |= nxt
        frontier = nxt
        if nxt:
            layers.append(nxt)
        f = nxt
        while f:
            low = f & -f
            dist[low.bit_length() - 1] = step
            f ^= low
    if seen != island.all_mask:
        layers.append(island.all_mask & ~seen)
    hit = table[source] = (dist, tuple(layers))
    return hit


def leg_distances(island: Island, source: int) -> list[int]:
    """Legs needed from ``source`` to every cell (breadth-first over one-leg moves)."""
    return _legs_from(island, source)[0]


_LegTables = tuple[tuple[list[int], ...], tuple[tuple[int, ...], ...]]
_tables_cache: dict[int, tuple[Island, _LegTables]] = {}


def _leg_tables(island: Island) -> _LegTables:
    """:func:`_legs_from` of every cell, as the distance lists and the layers indexed by
    source cell (cached per island)."""

    def make() -> _LegTables:
        every = [_legs_from(island, c) for c in range(island.n)]
        return tuple(dist for dist, _ in every), tuple(layers for _, layers in every)

    return _per_island(_tables_cache, island, make)


_central_cache: dict[int, tuple[Island, tuple[int, ...]]] = {}


def central_cells(island: Island) -> tuple[int, ...]:
    """The cells from which the most cells lie within two legs (cached per island)."""

    def compute() -> tuple[int, ...]:
        reach = [sum(1 for x in dist if x <= 2) for dist in _leg_tables(island)[0]]
        best = max(reach)
        return tuple(c for c in range(island.n) if reach[c] == best)

    return _per_island(_central_cache, island, compute)


Params = tuple[tuple[str, float | int | bool], ...]
_styles: dict[tuple[type, Params], Style] = {}


def _style_for(cls: type[ScriptedPlayer], params: Params) -> Style:
    """The style of ``cls`` with ``params`` applied (built once per class and parameters)."""
    key = (cls, params)
    style = _styles.get(key)
    if style is None:
        unknown = sorted(set(dict(params)) - set(Style.__dataclass_fields__))
        if unknown:
            raise ValueError(f"unknown parameter {unknown[0]!r} for {cls.name}")
        overrides: dict[str, Any] = dict(params)
        style = _styles[key] = dataclasses.replace(cls.default_style, **overrides)
    return style


class ScriptedPlayer:
    """A heuristic player; subclasses set ``name`` and their default :class:`Style`."""

    name = "scripted"
    default_style = Style()

    def __init__(self, rng: random.Random, **params: float | int | bool) -> None:
        self.rng = rng
        self.style = _style_for(type(self), tuple(sorted(params.items())) if params else ())
        # Facts fixed for a game, bound from the view of its first decision (a view belongs
        # to one game and seat): reading them once beats a property call per use.
        self._view: PlayerView | None = None
        self._island: Island | None = None
        self._dist: tuple[list[int], ...] = ()
        self._layers: tuple[tuple[int, ...], ...] = ()
        self._central: tuple[int, ...] = ()
        self._masks: tuple[int, ...] = ()
        self._rivals: tuple[int, ...] = ()
        self._legs_per_move = 0
        self._raise_needs_rose = True

    def _bind(self, view: PlayerView) -> None:
        self._view = view
        island = view.island
        if island is not self._island:
            # Every cell's legs: choosing a start cell needs them all anyway.
            self._island = island
            self._dist, self._layers = _leg_tables(island)
            self._central = central_cells(island)
        self._masks = view.clue_masks
        seat = view.seat
        self._rivals = (*range(seat), *range(seat + 1, view.n_players))
        self._legs_per_move = view.rules.legs_per_move
        self._raise_needs_rose = view.rules.raise_needs_rose

    # -- entry point ------------------------------------------------------------------------

    def decide(self, view: PlayerView, decision: d.Decision) -> object:
        """Answer one decision."""
        if view is not self._view:
            self._bind(view)
        kind = decision.kind
        if kind == d.OFFER:
            return self._offer(view, decision)
        if kind in _ACTING:
            if len(decision.actions) == 1 and not decision.cells:
                return decision.actions[0]  # nothing to weigh
            return self._act(view, decision)
        if kind == d.START_CELL:
            return self._start_cell(view, decision)
        if kind == d.RESTART:
            return self._best_clue(view, decision.actions)[0] or decision.actions[0]
        if kind == d.MARKER:
            here = view.atv(view.seat)
            others = decision.cells & ~(1 << here)
            return (others & -others).bit_length() - 1 if others else decision.fallback()
        if kind == d.CURSE:
            return d.PAY_AMULET if view.amulets(view.seat) > self.style.reserve else d.PAY_CARD
        return decision.actions[self.rng.randrange(len(decision.actions))]

    # -- setup ------------------------------------------------------------------------------

    def _start_cell(self, view: PlayerView, decision: d.Decision) -> int:
        """A central cell: the most cells within two legs (ties broken at random)."""
        choices = [c for c in self._central if (decision.cells >> c) & 1]
        if not choices:
            return decision.fallback()  # type: ignore[return-value]
        return choices[self.rng.randrange(len(choices))]

    # -- offers -----------------------------------------------------------------------------

    def _offer(self, view: PlayerView, decision: d.Decision) -> d.Action:
        value = decision.value
        if value <= 0:
            return d.PASS
        style = self.style
        if value >= style.take_at and not style.curse_memory:
            return d.TAKE  # what every later rule would answer too
        position = decision.position
        roses = view.distribution_roses
        mine_later = roses[position + 1 :].count(view.seat)
        if mine_later == 0 and position == len(roses) - 1:
            return d.TAKE  # the last rose: nobody after, so anything beats a discard
        if style.curse_memory:
            drawn = view.my_drawn
            if -1 in drawn:
                return d.TAKE if value >= style.curse_take_at else d.PASS
            better = bool(drawn) and max(drawn) > value  # drew a card better than this one
            if better and view.distribution_cards_left >= 1 and mine_later == 0:
                return d.PASS if value < style.take_at else d.TAKE
        if value >= style.take_at:
            return d.TAKE
        # A low card: keep it if my only rose is this one and cards are running out.
        if mine_later == 0 and view.distribution_cards_left <= 1:
            return d.TAKE
        return d.PASS

    # -- turns and legs ---------------------------------------------------------------------

    def _target(self, view: PlayerView, located: list[int], here: int, has_rose: bool) -> int:
        """The cell of the nearest located treasure (with a rose left to raise it) or wanted
        amulet, or -1 (``located``: each map's located cell or -1)."""
        style = self.style
        dist = self._dist[here]
        best, best_legs = -1, _INF
        if has_rose:
            chase = style.chase_legs
            for cell in located:
                if cell >= 0 and dist[cell] <= chase and dist[cell] < best_legs:
                    best, best_legs = cell, dist[cell]
        amulet_legs = style.amulet_legs
        if best < 0 and amulet_legs:
            # The nearest amulet 1 to amulet_legs legs away, the lowest cell among the
            # nearest: scan the leg layers around the ATV outward (the last layer holds the
            # unreachable cells, if any: its distance is checked).
            board = view.amulet_board
            layers = self._layers[here]
            for legs in range(1, min(amulet_legs + 1, len(layers))):
                hit = board & layers[legs]
                if hit:
                    cell = (hit & -hit).bit_length() - 1
                    return cell if dist[cell] == legs else -1
        return best

    def _best_clue(
        self, view: PlayerView, actions: tuple[d.Action, ...]
    ) -> tuple[d.Action | None, float]:
        style = self.style
        seat = view.seat
        masks = self._masks
        spread = style.spread_bonus
        bonus = [spread / (1 + k) for k in view.roses_on_maps(seat)] if spread else None
        dist: list[int] | None = None
        rivals: list[list[int]] = []
        best: d.Action | None = None
        best_score = -1.0
        cands = view.candidate_masks()
        weight = style.clue_weight
        for action in actions:
            if action[0] != "clue":
                continue
            _, card, m = action
            cand = cands[m]
            n_before = cand.bit_count()
            after = cand & masks[card]
            n_after = after.bit_count()
            score = weight * (n_before - n_after) / n_before
            if n_after <= 1:  # locates the treasure
                cell = after.bit_length() - 1
                if dist is None:
                    dist = self._dist[view.atv(seat)]
                    rivals = [self._dist[view.atv(p)] for p in self._rivals]
                near = dist[cell]
                score += style.locate_bonus * (1.0 if near <= self._legs_per_move else 0.2)
                if min([r[cell] for r in rivals]) < near:
                    score -= style.locate_bonus * 0.8
            if bonus is not None:
                score += bonus[m]
            if score > best_score:
                best, best_score = action, score
        return best, best_score

    def _act(self, view: PlayerView, decision: d.Decision) -> object:
        actions = decision.actions
        cells = decision.cells
        style = self.style
        seat = view.seat
        located = view.located_cells()
        if not style.amulet_legs and max(located) < 0:
            # The common case: nothing to raise or drive to (the ATV's cell is read when
            # needed).
            here = -1
            target = -1
        else:
            here = view.atv(seat)
            has_rose = view.roses(seat) > 0 or not self._raise_needs_rose
            # Raise whenever it can. The engine offers ("raise", m) only for a treasure
            # located under the ATV (while a rose is left, under ``raise_needs_rose``): look
            # for one only then.
            if has_rose and here in located:
                for action in actions:
                    if action[0] == "raise":
                        return action
            target = self._target(view, located, here, has_rose)
        if decision.kind == d.LEG:
            if target >= 0 and cells:
                # The cells of ``cells`` fewest legs from the target: the first leg layer
                # around it that holds any (the layers cover the island).
                for layer in self._layers[target]:
                    steps = cells & layer
                    if steps:
                        break
                if steps.bit_count() == 1:
                    return steps.bit_length() - 1  # a single best step: no draw
                picks = bits_of(steps)
                return picks[floor(self.rng.random() * len(picks))]
            if d.STOP in actions:
                return d.STOP
            return self._wander(view, cells)
        if view.amulets(seat) > style.reserve:
            grab = self._amulet_grab(actions, view, located, view.atv(seat) if here < 0 else here)
            if grab is not None:
                return grab
        # ``end`` is offered (and listed first) only when no main action is left: no clue
        # play to score and no move, so ending is all that the rules below could answer.
        if actions[0] == d.END:
            return d.END
        if target >= 0 and d.MOVE in actions:
            return d.MOVE
        clue, clue_score = self._best_clue(view, actions)
        if clue is not None and clue_score > 0:
            return clue
        if d.MOVE in actions:
            return d.MOVE
        if clue is not None:
            return clue
        if d.END in actions:
            return d.END
        return actions[0]

    def _amulet_grab(
        self, actions: tuple[d.Action, ...], view: PlayerView, located: list[int], here: int
    ) -> d.Action | None:
        """An amulet power that wins a treasure now or next: a marker removal that locates a
        treasure at the ATV (the ``marker`` answer then removes a marker elsewhere), or an
        extra move to a located treasure within reach (``located``: each map's located cell
        or -1)."""
        for action in actions:
            if action[0] == "amulet_marker":
                cand = view.candidates(action[1])
                if cand.bit_count() == 2 and cand >> here & 1:
                    return action  # removing the other marker locates it under the ATV
        reach = self.style.amulet_move_legs
        if reach and d.AMULET_MOVE in actions:
            dist = self._dist[here]
            for cell in located:
                if cell >= 0 and 0 < dist[cell] <= reach:
                    return d.AMULET_MOVE
        return None

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
            dist = self._dist[low.bit_length() - 1]
            score = [x + dist[i] for x, i in zip(score, options, strict=True)]
        best = min(score)
        picks = [i for i, x in zip(options, score, strict=True) if x == best and x <= _INF]
        return picks[floor(self.rng.random() * len(picks))] if len(picks) > 1 else picks[0]
