"""A Treasure Island game as a replay shows it: the scene that never changes, the state at
any moment, and every logged event in words, all as plain JSON-ready data read from the
engine's state.

:func:`watch` swaps the game's move log for one that calls back after every row (see
:mod:`sim.watched_log`); a replay then takes a :func:`snapshot` at each row, so every frame
is the engine's own state at the moment it logged that event. Nothing here plays or decides:
the rules stay in the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim.treasure_island.cards import KIND_NAMES, N_CARDS, N_KINDS, PER_KIND, VALUE, card_name
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.movelog import EVENTS, describe
from sim.watched_log import WatchedRows

_BLIND_DRAWS = frozenset(("draw", "draw_forced"))
_DRAWS = frozenset(("draw", "draw_forced", "draw_known"))
#: Events whose ``a`` is a card.
_CARD_EVENTS = _DRAWS | {"place", "bust", "reveal", "spyglass_back", "pistol"}
#: The stash pile mask of a kind -> its card ids, highest (the top) first.
_PILE_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(k * PER_KIND + i for i in reversed(range(PER_KIND)) if m >> i & 1)
        for m in range(1 << PER_KIND)
    )
    for k in range(N_KINDS)
)


def watch(game: TreasureIslandGame, on_row: Callable[[int], None]) -> None:
    """Call ``on_row(row index)`` after every row the game logs (before it is played)."""
    if game.log:
        raise ValueError("watch a game before it is played")
    game.log = WatchedRows(on_row)


def scene(game: TreasureIslandGame) -> dict[str, Any]:
    """What stays the same all game: every card's name, kind and value by card id, the kind
    names, and the first player."""
    return {
        "cards": [card_name(c) for c in range(N_CARDS)],
        "kind_of": [c // PER_KIND for c in range(N_CARDS)],
        "values": list(VALUE),
        "kinds": list(KIND_NAMES),
        "first_player": game.first_player,
    }


def snapshot(game: TreasureIslandGame) -> dict[str, Any]:
    """The state now. Keys are stable, so two snapshots differ exactly in the keys that
    changed: each seat's stash (per kind its card ids, top first), points, cards and
    character; the play area in placing order, where its Anchor lies (-1: none) and the
    cards a Rum bottle still asks for; the draw pile's size, how many of its cards would bust
    the play area and the cards on its top made public by a Spyglass (top first); the
    discard pile's size."""
    pile = game.pile
    return {
        "turn": game.turn,
        "stash": [[list(_PILE_CARDS[k][m]) for k, m in enumerate(piles)] for piles in game.stash],
        "points": list(game.points),
        "cards": list(game.cards),
        "characters": list(game.characters),
        "area": list(game.area),
        "anchor": game.anchor_at,
        "rum": game.rum,
        "pile": len(pile),
        "busting": game.busting,
        "known": pile[len(pile) - game.known :][::-1] if game.known else [],
        "discard": len(game.discard),
    }


def describer(game: TreasureIslandGame) -> Callable[[tuple[int, ...]], dict[str, Any]]:
    """Describes the game's logged rows ``(turn, seat, kind, a, b, c)`` for people: each as
    its event name and text (every event is public) and ``card``, the card it is about. A
    card taken from the draw pile also gets ``chance``: ``[cards that bust, cards in the
    pile]`` just before it was taken, in its text too (unless a Spyglass had shown the card:
    ``known``). Call it while the game is at that row."""

    def event(row: tuple[int, ...]) -> dict[str, Any]:
        turn, seat, kind, a, b, c = row
        name = EVENTS[kind][0]
        record: dict[str, Any] = {
            "turn": turn,
            "seat": seat,
            "name": name,
            "text": describe(kind, a, b, c),
            "secret": -1,
        }
        if name in _CARD_EVENTS:
            record["card"] = a
        if name in _DRAWS:
            # The row gives the busting cards before the draw; the pile held this card too.
            size = len(game.pile) + 1
            record["chance"] = [c, size]
            if name in _BLIND_DRAWS:
                record["text"] += f"; bust chance {c}/{size} = {100 * c / size:.1f}%"
            else:
                record["known"] = True
                record["text"] += "; the card was known"
        return record

    return event
