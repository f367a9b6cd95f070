"""Which game is which: seeds, islands and seatings as pure functions of the game index.

A run of ``games`` games under root seed ``seed`` plays game ``g`` with the seed
``derive_seed(seed, "game", block)``. With ``seating = "rotate"`` (the duplicate format) the
games come in blocks of ``n`` consecutive indices, ``n`` the number of players: every game of a
block shares its seed and island and seats the players rotated by one more place each time
(for players P0..P3: P0 P1 P2 P3, P1 P2 P3 P0, P2 P3 P0 P1, P3 P0 P1 P2; for three players
the three cyclic rotations), so each player meets the same deal from every seat. With
``seating = "random"`` every game is its own block and the seating is a shuffle drawn from
the game's seed. Islands go round the island list block by block.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.seeding import derive_seed, stream


@dataclass(frozen=True, slots=True)
class GamePlan:
    """One scheduled game: ``order[seat]`` is the index of the player in that seat."""

    game_id: int
    block: int
    rotation: int
    seed: int
    island: str
    order: tuple[int, ...]


def plan_game(
    game_id: int, root_seed: int, n_players: int, seating: str, islands: tuple[str, ...]
) -> GamePlan:
    """The plan of game ``game_id``; depends on nothing but its arguments."""
    if seating == "rotate":
        block, rotation = divmod(game_id, n_players)
        seed = derive_seed(root_seed, "game", block)
        order = tuple((rotation + k) % n_players for k in range(n_players))
    else:
        block, rotation = game_id, 0
        seed = derive_seed(root_seed, "game", block)
        shuffled = list(range(n_players))
        stream(seed, "seating").shuffle(shuffled)
        order = tuple(shuffled)
    return GamePlan(game_id, block, rotation, seed, islands[block % len(islands)], order)
