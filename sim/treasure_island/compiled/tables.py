"""Scheduled games through the compiled engine, as ``games`` and ``seats`` tables.

The seeds are derived here in Python (:func:`sim.seeding.derive_seed`, BLAKE2b), the games
played in one compiled call (:func:`sim.treasure_island.compiled.engine.play_games`), and
the rows built with the reference's schemas (:data:`sim.treasure_island.tables.SCHEMAS`), so
that they compare value for value with the reference's table builder's.
Players are given as ``(name, params)`` of the built-in players that compile
(:data:`sim.treasure_island.compiled.strategies.PLAYERS`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from sim.errors import InputError
from sim.game import GamePlan
from sim.game_tables import table_of
from sim.outcome import END_REASONS
from sim.seeding import derive_seed
from sim.treasure_island.characters import NAMES as CHARACTER_NAMES
from sim.treasure_island.compiled import layout as lay
from sim.treasure_island.compiled.engine import play_games
from sim.treasure_island.compiled.strategies import seat_code
from sim.treasure_island.rules import TreasureIslandRules
from sim.treasure_island.tables import SCHEMAS

#: A player as the compiled engine takes it: a built-in player's name and its parameters.
Player = tuple[str, Mapping[str, object]]


@dataclass(frozen=True)
class Played:
    """What the compiled engine returns for a batch of games (see ``engine.play_game``)."""

    game_out: np.ndarray
    seat_out: np.ndarray
    shares: np.ndarray


def stream_seeds(seed: int, n: int) -> list[int]:
    """A game's stream seeds: ``cards``, ``characters``, then each seat's (4 slots)."""
    seeds = [derive_seed(seed, "cards"), derive_seed(seed, "characters")]
    seeds += [derive_seed(seed, "seat", i) for i in range(n)]
    return seeds + [0] * (lay.MAX_SEATS - n)


def play(
    plans: Sequence[GamePlan], rules: TreasureIslandRules, players: Sequence[Player]
) -> Played:
    """Play ``plans`` (seat ``s`` of a game is ``players[plan.order[s]]``)."""
    for plan in plans:
        if not 2 <= len(plan.order) <= lay.MAX_SEATS:
            raise ValueError(f"Treasure Island takes 2 to 4 players, got {len(plan.order)}")
    pool = lay.character_pool(rules)
    if rules.characters:
        for n in {len(p.order) for p in plans}:
            if min(rules.characters_dealt, len(pool) // n) < 1:
                raise InputError(
                    f"rules: character_pool has {len(pool)} characters, a {n}-player game "
                    f"needs at least {n}"
                )
    codes = [seat_code(name, params) for name, params in players]
    count = len(plans)
    seeds = np.zeros((count, 2 + lay.MAX_SEATS), dtype=np.uint64)
    kinds = np.zeros((count, lay.MAX_SEATS), dtype=np.int64)
    params = np.zeros((count, lay.MAX_SEATS, 2), dtype=np.float64)
    sizes = np.array([len(p.order) for p in plans], dtype=np.int64)
    by_seed: dict[tuple[int, int], list[int]] = {}
    for i, plan in enumerate(plans):
        key = (plan.seed, len(plan.order))
        if key not in by_seed:  # a block's rotations share their seeds
            by_seed[key] = stream_seeds(plan.seed, len(plan.order))
        seeds[i] = by_seed[key]
        for s, p in enumerate(plan.order):
            kinds[i, s], params[i, s, 0], params[i, s, 1] = codes[p]
    game_out = np.zeros((count, 6), dtype=np.int64)
    seat_out = np.zeros((count, lay.MAX_SEATS, 9), dtype=np.int64)
    shares = np.zeros((count, lay.MAX_SEATS), dtype=np.float64)
    play_games(lay.rules_row(rules), pool, seeds, sizes, kinds, params, game_out, seat_out, shares)
    return Played(game_out, seat_out, shares)


def tables(
    game: str,
    plans: Sequence[GamePlan],
    rules: TreasureIslandRules,
    players: Sequence[Player],
    labels: Sequence[str],
) -> dict[str, pa.Table]:
    """The ``games`` and ``seats`` tables of ``plans`` played by the compiled engine (the
    columns and types of the reference's; no strategy fails, so no violations)."""
    out = play(plans, rules, players)
    g: dict[str, list[object]] = {f.name: [] for f in SCHEMAS["games"]}
    st: dict[str, list[object]] = {f.name: [] for f in SCHEMAS["seats"]}
    for i, plan in enumerate(plans):
        n = len(plan.order)
        first, turns, reason, decisions, busts, bonuses = out.game_out[i].tolist()
        seats = out.seat_out[i, :n].tolist()
        for name, value in (
            ("game_id", plan.game_id),
            ("seed", plan.seed),
            ("block", plan.block),
            ("rotation", plan.rotation),
            ("game", game),
            ("rules", rules.preset),
            ("rules_hash", rules.hash),
            ("island", plan.island),
            ("n_players", n),
            ("first_player", first),
            ("turns", turns),
            ("truncated", END_REASONS[reason] == "turn_cap"),
            ("end_reason", END_REASONS[reason]),
            ("winners", sum(1 for row in seats if row[1] == 1)),
            ("decisions", decisions),
            ("violations", 0),
            ("busts", busts),
            ("key_chest_bonuses", bonuses),
        ):
            g[name].append(value)
        for s, row in enumerate(seats):
            score, rank, cards, kinds, played, busted, banked, bonus, character = row
            for name, value in (
                ("game_id", plan.game_id),
                ("n_players", n),
                ("island", plan.island),
                ("rules_hash", rules.hash),
                ("seat", s),
                ("player", plan.order[s]),
                ("strategy", labels[plan.order[s]]),
                ("score", score),
                ("rank", rank),
                ("win_share", float(out.shares[i, s])),
                ("character", CHARACTER_NAMES[character] if character >= 0 else ""),
                ("stash_cards", cards),
                ("stash_kinds", kinds),
                ("turns_played", played),
                ("busts", busted),
                ("cards_banked", banked),
                ("bonus_cards", bonus),
                ("violations", 0),
            ):
                st[name].append(value)
    return {"games": table_of(g, SCHEMAS["games"]), "seats": table_of(st, SCHEMAS["seats"])}
