"""The compiled engine's tables built from its arrays: the same tables as rows built value by
value, stream seeds derived once a block as ``derive_seed`` derives them, and a block's games
played together as each played alone."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
import pytest

from sim.game import PlanBatch
from sim.game_tables import table_of
from sim.outcome import END_REASONS
from sim.runner.schedule import Schedule
from sim.seeding import derive_seed
from sim.treasure_island.characters import NAMES as CHARACTER_NAMES
from sim.treasure_island.compiled import layout as lay
from sim.treasure_island.compiled import strategies as ps
from sim.treasure_island.compiled.seeds import derive_many, stream_seed_rows
from sim.treasure_island.compiled.tables import (
    Played,
    Player,
    batch_tables,
    play_batch,
    played_tables,
)
from sim.treasure_island.rules import TreasureIslandRules, preset
from sim.treasure_island.tables import SCHEMAS

GAME = "treasure-island"
LINEUP = [("expected-value", {}), ("random", {}), ("stop-at", {"n": 4}), ("bust-threshold", {})]
LABELS = ["expected-value", "random", "stop-at(n=4)", "bust-threshold"]


def rows_tables(
    batch: PlanBatch, rules: TreasureIslandRules, out: Played, labels: Sequence[str]
) -> dict[str, pa.Table]:
    """The tables built row by row from Python values (the columns' definition)."""
    g: dict[str, list[object]] = {f.name: [] for f in SCHEMAS["games"]}
    st: dict[str, list[object]] = {f.name: [] for f in SCHEMAS["seats"]}
    for i, plan in enumerate(batch.plans()):
        n = len(plan.order)
        first, turns, reason, decisions, busts, bonuses = out.game_out[i].tolist()
        seats = out.seat_out[i, :n].tolist()
        game_row = (
            plan.game_id, plan.seed, plan.block, plan.rotation, GAME, rules.preset, rules.hash,
            plan.island, n, first, turns, END_REASONS[reason] == "turn_cap", END_REASONS[reason],
            sum(1 for row in seats if row[1] == 1), decisions, 0, busts, bonuses,
        )  # fmt: skip
        for field, value in zip(SCHEMAS["games"], game_row, strict=True):
            g[field.name].append(value)
        for s, row in enumerate(seats):
            score, rank, cards, kinds, played, busted, banked, bonus, character = row
            seat_row = (
                plan.game_id, n, plan.island, rules.hash, s, plan.order[s],
                labels[plan.order[s]], score, rank, float(out.shares[i, s]),
                CHARACTER_NAMES[character] if character >= 0 else "", cards, kinds, played,
                busted, banked, bonus, 0,
            )  # fmt: skip
            for field, value in zip(SCHEMAS["seats"], seat_row, strict=True):
                st[field.name].append(value)
    return {"games": table_of(g, SCHEMAS["games"]), "seats": table_of(st, SCHEMAS["seats"])}


@pytest.mark.parametrize("characters", [False, True])
@pytest.mark.parametrize("sizes", [(), (2, 3, 4)])
def test_the_tables_from_columns_are_the_tables_from_rows(
    characters: bool, sizes: tuple[int, ...]
) -> None:
    rules = preset("characters" if characters else "standard")
    batch = Schedule(3, 4, "rotate", ("aBc-2", "-", "aBc-2"), sizes).plan_batch(5, 120)
    out = play_batch(batch, rules, LINEUP)
    ours, rows = (
        played_tables(GAME, batch, rules, out, LABELS),
        rows_tables(batch, rules, out, LABELS),
    )
    for name in ("games", "seats"):
        assert ours[name].schema == rows[name].schema
        assert ours[name].equals(rows[name])
        for a, b in zip(ours[name].columns, rows[name].columns, strict=True):
            if pa.types.is_dictionary(a.type):  # the same dictionary, in the same order
                assert a.chunk(0).dictionary.equals(b.chunk(0).dictionary)


def test_an_empty_batch_has_empty_tables() -> None:
    batch = Schedule(3, 3, "rotate", ("-",)).plan_batch(0, 0)
    out = batch_tables(GAME, batch, preset("standard"), LINEUP[:3], LABELS[:3])
    assert out["games"].num_rows == 0 and out["seats"].schema == SCHEMAS["seats"]


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32, 2**64 - 1, 2**100 + 7])
def test_seeds_are_derived_as_derive_seed_derives_them(seed: int) -> None:
    assert derive_many([seed, 5], "seat", 3) == [
        derive_seed(seed, "seat", 3),
        derive_seed(5, "seat", 3),
    ]


def test_only_the_streams_the_engine_reads_are_seeded() -> None:
    batch = Schedule(11, 4, "rotate", ("-",)).plan_batch(0, 8)
    kinds = np.array([[ps.RANDOM, ps.STOP_AT, ps.STOP_AT, -1]] * 8, dtype=np.int64)
    rows = stream_seed_rows(batch, False, kinds)
    for i, seed in enumerate(batch.seed.tolist()):
        assert rows[i].tolist() == [
            derive_seed(seed, "cards"),
            0,
            derive_seed(seed, "seat", 0),
            0,
            0,
            0,
        ]
    with_characters = stream_seed_rows(batch, True, kinds)
    assert with_characters[:, lay.CHARACTERS_STREAM].tolist() == [
        derive_seed(seed, "characters") for seed in batch.seed.tolist()
    ]


@pytest.mark.parametrize("rules_name", ["standard", "characters"])
def test_a_blocks_games_played_together_are_each_played_alone(rules_name: str) -> None:
    # A block's later games copy its first game's setup and seat streams: the same games.
    rules = preset(rules_name)
    lineup: list[Player] = [("random", {}), ("random", {}), ("expected-value", {})]
    batch = Schedule(21, 3, "rotate", ("-",)).plan_batch(0, 30)
    together = play_batch(batch, rules, lineup)
    for i, plan in enumerate(batch.plans()):
        alone = play_batch(PlanBatch.of([plan]), rules, lineup)
        assert alone.game_out[0].tolist() == together.game_out[i].tolist()
        assert alone.seat_out[0].tolist() == together.seat_out[i].tolist()
