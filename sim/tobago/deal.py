"""What a Tobago game's seed deals before anyone decides: the landmarks, every clue card's
mask, the treasure deck and the first player (rules §9.2 and §9.3), each drawn from its own
named stream of the seed, and the last deal kept for the next game of the same seed block.
"""

from __future__ import annotations

from typing import NamedTuple

from sim.seeding import stream
from sim.tobago.board import Board
from sim.tobago.clues import clue_masks
from sim.tobago.landmarks import Landmarks
from sim.tobago.rules import TobagoRules
from sim.tobago.state import CURSE


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
