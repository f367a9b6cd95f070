"""Which actions a Tobago seat is offered: the legal clue plays, raises and amulet powers,
listed in the fallback order of :mod:`sim.tobago.decisions`, as the action tuples shared by
every game (built once per tag, card and map: a game lists hundreds).

:class:`LegalActions` is a base of :class:`sim.tobago.engine.TobagoGame`: the listing reads
the game's state and keeps the last clue plays listed (a turn often asks again with nothing
changed).
"""

from __future__ import annotations

from typing import Any

from sim.tobago import decisions
from sim.tobago.decisions import ActionKind
from sim.tobago.state import N_MAPS, GameState

# The action tags, each bound once as a module global (one load where the hot loops compare
# them; ``ActionKind.X`` would add an attribute lookup).
_MAP = ActionKind.MAP
_CLUE = ActionKind.CLUE
_RAISE = ActionKind.RAISE
_AMULET_MARKER = ActionKind.AMULET_MARKER
_AMULET_CLUE = ActionKind.AMULET_CLUE
#: The actions of one map each, by map.
MARKER_ACTIONS: tuple[decisions.Action, ...] = tuple((_AMULET_MARKER, m) for m in range(N_MAPS))
MAP_ACTIONS: tuple[decisions.Action, ...] = tuple((_MAP, m) for m in range(N_MAPS))
RAISE_ACTIONS: tuple[decisions.Action, ...] = tuple((_RAISE, m) for m in range(N_MAPS))
#: The amulet powers listed last, by (move open) + 2 * (exchange open).
_AMULET_TAILS: tuple[tuple[decisions.Action, ...], ...] = (
    (),
    (decisions.AMULET_MOVE,),
    (decisions.AMULET_EXCHANGE,),
    (decisions.AMULET_MOVE, decisions.AMULET_EXCHANGE),
)

#: Per tag, the plays ``(tag, card, map)`` of every card id, built once: listing the legal
#: plays then picks tuples instead of building them (a game lists hundreds).
_PLAYS: dict[ActionKind, list[tuple[decisions.Action, ...]]] = {}


def plays_table(tag: ActionKind, cards: int) -> list[tuple[decisions.Action, ...]]:
    """``(tag, card, m)`` by card id and map, for ``cards`` card ids or more."""
    table = _PLAYS.get(tag)
    if table is None or len(table) < cards:
        table = _PLAYS[tag] = [tuple((tag, c, m) for m in range(N_MAPS)) for c in range(cards)]
    return table


class LegalActions:
    """The legal actions of a seat in the game's current state (a base of the game)."""

    # Set by the game (sim.tobago.engine.TobagoGame, sim.tobago.position.game_at).
    state: GameState
    #: The clue plays of every card id and map (``plays_table(ActionKind.CLUE, ...)``).
    _clue_table: list[tuple[decisions.Action, ...]]
    #: What the last clue plays listed came from: (seat, its hand, the maps' candidates, the
    #: clue masks); None before any.
    _last_plays: tuple[int, list[int], list[int], tuple[int, ...]] | None
    #: The plays listed for that key, under up to two tags: ``[tag, plays, tag, plays]``.
    _last_lists: list[Any]

    def _clue_plays(self, seat: int, tag: ActionKind, only_map: int = -1) -> list[decisions.Action]:
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
        plays: list[decisions.Action] = []
        append = plays.append
        table = self._clue_table if tag is _CLUE else plays_table(tag, len(masks))
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

    def _raise_actions(self, seat: int) -> tuple[decisions.Action, ...]:
        s = self.state
        bit = 1 << s.atv[seat]  # located here: the map's only candidate is the ATV's cell
        cand = s.map_cand
        if bit not in cand:
            return ()  # the common case, answered without building anything
        if not s.roses[seat] and s.rules.raise_needs_rose:
            return ()
        cards = s.map_cards
        out: tuple[decisions.Action, ...] = ()
        for m in range(N_MAPS):
            if cand[m] == bit and cards[m]:
                out += (RAISE_ACTIONS[m],)
        return out

    def _amulet_actions(self, seat: int, move_locked: bool) -> tuple[decisions.Action, ...]:
        """Amulet powers open to ``seat`` now."""
        s = self.state
        threshold = s.rules.marker_threshold
        cards = s.map_cards
        # A marker may go where markers are shown (GameState.markers_shown), never the last.
        # The four maps unrolled.
        markers: tuple[decisions.Action, ...] = ()
        c0, c1, c2, c3 = s.map_cand
        if 1 < c0.bit_count() <= threshold and cards[0]:
            markers += (MARKER_ACTIONS[0],)
        if 1 < c1.bit_count() <= threshold and cards[1]:
            markers += (MARKER_ACTIONS[1],)
        if 1 < c2.bit_count() <= threshold and cards[2]:
            markers += (MARKER_ACTIONS[2],)
        if 1 < c3.bit_count() <= threshold and cards[3]:
            markers += (MARKER_ACTIONS[3],)
        # Right after the main clue plays were listed, this reuses them (see _clue_plays).
        clues = self._clue_plays(seat, _AMULET_CLUE)
        tail = _AMULET_TAILS[
            (not move_locked) + 2 * bool(s.hands[seat] and (s.clue_draw or s.clue_discard))
        ]
        return (*markers, *clues, *tail)
