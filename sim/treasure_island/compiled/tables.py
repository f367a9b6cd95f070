"""Scheduled games through the compiled engine, as ``games`` and ``seats`` tables.

The games come as a :class:`sim.game.PlanBatch` (columns); their stream seeds are derived
in Python once per seed block (:mod:`sim.treasure_island.compiled.seeds`), the games played
in one compiled call (:func:`sim.treasure_island.compiled.batch.play_games`), and the
tables built column by column from the engine's arrays with the reference's schemas
(:data:`sim.treasure_island.tables.SCHEMAS`), so that they compare value for value with the
reference's table builder's. Players are given as ``(name, params)`` of the built-in
players that compile (:data:`sim.treasure_island.compiled.strategies.PLAYERS`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from sim.errors import InputError
from sim.game import GamePlan, PlanBatch
from sim.outcome import END_REASONS
from sim.seeding import derive_seed
from sim.treasure_island.characters import NAMES as CHARACTER_NAMES
from sim.treasure_island.compiled import layout as lay
from sim.treasure_island.compiled.batch import new_room, play_games
from sim.treasure_island.compiled.seeds import stream_seed_rows
from sim.treasure_island.compiled.strategies import seat_code
from sim.treasure_island.rules import TreasureIslandRules
from sim.treasure_island.tables import SCHEMAS

#: A player as the compiled engine takes it: a built-in player's name and its parameters.
Player = tuple[str, Mapping[str, object]]
_TURN_CAP = END_REASONS.index("turn_cap")
#: Character codes shifted by one (no character: 0) to their names.
_CHARACTERS = ("", *CHARACTER_NAMES)


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


def _check(batch: PlanBatch, rules: TreasureIslandRules, pool: np.ndarray) -> None:
    for n in np.unique(batch.n_players).tolist():
        if not 2 <= n <= lay.MAX_SEATS:
            raise ValueError(f"Treasure Island takes 2 to 4 players, got {n}")
        if rules.characters and min(rules.characters_dealt, len(pool) // n) < 1:
            raise InputError(
                f"rules: character_pool has {len(pool)} characters, a {n}-player game "
                f"needs at least {n}"
            )


def play_batch(batch: PlanBatch, rules: TreasureIslandRules, players: Sequence[Player]) -> Played:
    """Play ``batch`` (seat ``s`` of game ``i`` is ``players[batch.order[i, s]]``)."""
    pool = lay.character_pool(rules)
    _check(batch, rules, pool)
    codes = [seat_code(name, params) for name, params in players]
    code_kinds = np.array([c[0] for c in codes] + [0], dtype=np.int64)  # -1: an empty seat
    code_params = np.array([c[1:] for c in codes] + [(0.0, 0.0)], dtype=np.float64)
    order = np.full((len(batch), lay.MAX_SEATS), -1, dtype=np.int64)
    order[:, : batch.order.shape[1]] = batch.order
    kinds = code_kinds[order]
    seeds = stream_seed_rows(batch, rules.characters, np.where(order >= 0, kinds, -1))
    count = len(batch)
    game_out = np.zeros((count, 6), dtype=np.int64)
    seat_out = np.zeros((count, lay.MAX_SEATS, 9), dtype=np.int64)
    shares = np.zeros((count, lay.MAX_SEATS), dtype=np.float64)
    play_games(
        *new_room(),
        lay.rules_row(rules),
        pool,
        seeds,
        batch.n_players.astype(np.int64),
        kinds,
        code_params[order],
        game_out,
        seat_out,
        shares,
    )
    return Played(game_out, seat_out, shares)


def play(
    plans: Sequence[GamePlan], rules: TreasureIslandRules, players: Sequence[Player]
) -> Played:
    """Play ``plans`` (seat ``s`` of a game is ``players[plan.order[s]]``)."""
    return play_batch(PlanBatch.of(plans), rules, players)


def _dictionary(codes: np.ndarray, names: Sequence[str], kind: pa.DataType) -> pa.Array:
    """A dictionary column of the names ``codes`` index, its dictionary in order of first
    appearance (as ``dictionary_encode`` makes it)."""
    named = np.array([list(names).index(name) for name in names], dtype=np.int64)[codes]
    values, first, inverse = np.unique(named, return_index=True, return_inverse=True)
    by_first = np.argsort(first, kind="stable")
    rank = np.empty(len(values), dtype=np.int64)
    rank[by_first] = np.arange(len(values))
    index_type = kind.index_type.to_pandas_dtype()
    return pa.DictionaryArray.from_arrays(
        pa.array(rank[inverse].astype(index_type), kind.index_type),
        pa.array([names[v] for v in values[by_first].tolist()], pa.string()),
    )


def _constant(value: str, count: int, kind: pa.DataType) -> pa.Array:
    return _dictionary(np.zeros(count, dtype=np.int64), [value], kind)


def _games_table(
    game: str, batch: PlanBatch, rules: TreasureIslandRules, out: Played, ranks: np.ndarray
) -> pa.Table:
    count = len(batch)
    go = out.game_out
    columns = {
        "game_id": batch.game_id,
        "seed": batch.seed,
        "block": batch.block,
        "rotation": batch.rotation,
        "game": game,
        "rules": rules.preset,
        "rules_hash": rules.hash,
        "island": (batch.island, batch.islands),
        "n_players": batch.n_players,
        "first_player": go[:, 0],
        "turns": go[:, 1],
        "truncated": go[:, 2] == _TURN_CAP,
        "end_reason": (go[:, 2], END_REASONS),
        "winners": (ranks == 1).sum(axis=1),
        "decisions": go[:, 3],
        "violations": np.zeros(count, dtype=np.int64),
        "busts": go[:, 4],
        "key_chest_bonuses": go[:, 5],
    }
    return _table(columns, SCHEMAS["games"], count)


def _table(columns: Mapping[str, object], schema: pa.Schema, count: int) -> pa.Table:
    arrays = []
    for field in schema:
        value = columns[field.name]
        if isinstance(value, str):
            arrays.append(_constant(value, count, field.type))
        elif isinstance(value, tuple):
            arrays.append(_dictionary(value[0], value[1], field.type))
        else:
            assert isinstance(value, np.ndarray)
            arrays.append(pa.array(value.astype(field.type.to_pandas_dtype()), field.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def played_tables(
    game: str,
    batch: PlanBatch,
    rules: TreasureIslandRules,
    out: Played,
    labels: Sequence[str],
) -> dict[str, pa.Table]:
    """The ``games`` and ``seats`` tables of ``batch`` as the compiled engine played it
    (``out``): the columns and types of the reference's; no strategy fails, so no
    violations."""
    seated = np.arange(lay.MAX_SEATS) < batch.n_players[:, None]
    ranks = np.where(seated, out.seat_out[:, :, 1], 0)
    rows = np.nonzero(seated)  # game then seat, as the rows go
    at, seat = rows
    seats = out.seat_out[rows]
    order = batch.order[at, seat]
    columns = {
        "game_id": batch.game_id[at],
        "n_players": batch.n_players[at],
        "island": (batch.island[at], batch.islands),
        "rules_hash": rules.hash,
        "seat": seat,
        "player": order,
        "strategy": (order, tuple(labels)),
        "score": seats[:, 0],
        "rank": seats[:, 1],
        "win_share": out.shares[rows],
        "character": (seats[:, 8] + 1, _CHARACTERS),
        "stash_cards": seats[:, 2],
        "stash_kinds": seats[:, 3],
        "turns_played": seats[:, 4],
        "busts": seats[:, 5],
        "cards_banked": seats[:, 6],
        "bonus_cards": seats[:, 7],
        "violations": np.zeros(len(at), dtype=np.int64),
    }
    return {
        "games": _games_table(game, batch, rules, out, ranks),
        "seats": _table(columns, SCHEMAS["seats"], len(at)),
    }


def batch_tables(
    game: str,
    batch: PlanBatch,
    rules: TreasureIslandRules,
    players: Sequence[Player],
    labels: Sequence[str],
) -> dict[str, pa.Table]:
    """The ``games`` and ``seats`` tables of ``batch`` played by the compiled engine."""
    return played_tables(game, batch, rules, play_batch(batch, rules, players), labels)


def tables(
    game: str,
    plans: Sequence[GamePlan],
    rules: TreasureIslandRules,
    players: Sequence[Player],
    labels: Sequence[str],
) -> dict[str, pa.Table]:
    """:func:`batch_tables` of ``plans``."""
    return batch_tables(game, PlanBatch.of(plans), rules, players, labels)
