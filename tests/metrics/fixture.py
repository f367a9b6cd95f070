"""A tiny hand-made run for metric tests: three games whose answers are computed by hand.

Game 0 (4 players): A 30 (1st), B 20 (2nd), D 15 (3rd), C 10 (4th).
Game 1 (4 players): A 20 and B 20 share the win, D 10 (3rd), C 5 (4th).
Game 2 (2 players): B 12 (1st), A 10 (2nd).
Games 0 and 1 are on island "isle-1" (30 and 40 turns), game 2 on "isle-2" (20 turns).
Every game is its own seed block; a seat's ``player`` is its strategy's letter (A = 0).
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sim.game_tables import FAILURES_SCHEMA, SCHEMA_VERSION
from sim.storage.parts import record_file, records_to_manifest

SEATS = [
    # game, seat, strategy, score, rank, win_share, curse_hits, coins_lost
    (0, 0, "A", 30, 1, 1.0, 0, 0),
    (0, 1, "B", 20, 2, 0.0, 0, 0),
    (0, 2, "C", 10, 4, 0.0, 1, 6),
    (0, 3, "D", 15, 3, 0.0, 1, 0),
    (1, 0, "B", 20, 1, 0.5, 0, 0),
    (1, 1, "C", 5, 4, 0.0, 1, 0),
    (1, 2, "D", 10, 3, 0.0, 0, 0),
    (1, 3, "A", 20, 1, 0.5, 0, 0),
    (2, 0, "A", 10, 2, 0.0, 0, 0),
    (2, 1, "B", 12, 1, 1.0, 0, 0),
]
SEEDS = {0: 100, 1: 101, 2: 102}
# Distributions: game 0 has two (a curse as card 3 of the second), game 1 one (a curse as
# card 1), game 2 one without a curse.
TREASURES = [(0, 0, False, -1), (0, 1, True, 2), (1, 0, True, 0), (2, 0, False, -1)]
# The move log: curse hits (game 0: C lost a 6-coin card, D paid an amulet; game 1: C had
# nothing to lose), raises at cell 5 in games 0 and 1, an amulet at cell 7 in game 0, and
# ATV start cells (A and B at cell 3 in game 0, A at cell 1 in game 2).
MOVES = [
    # game, seat, event, a, b
    (0, 0, "start_cell", 3, -1),
    (0, 1, "start_cell", 3, -1),
    (0, 2, "curse_hit", 1, 6),
    (0, 3, "curse_hit", 0, -1),
    (0, 0, "raise", 0, 5),
    (0, -1, "amulet_appears", 7, 0),
    (1, 1, "curse_hit", 2, -1),
    (1, 2, "raise", 1, 5),
    (2, 0, "start_cell", 1, -1),
]
N_PLAYERS = {0: 4, 1: 4, 2: 2}
ISLAND = {0: "isle-1", 1: "isle-1", 2: "isle-2"}
TURNS = {0: 30, 1: 40, 2: 20}


def write_fixture(
    run_dir: Path,
    game: str = "tobago",
    score_shift: int = 0,
    capped: tuple[int, ...] = (),
    seats_rows: list[tuple[int, int, str, int, int, float, int, int]] | None = None,
) -> Path:
    """Write the fixture run into ``run_dir`` and return it; ``score_shift`` adds that many
    coins to C's score in every game (a counterfactual run on the same seeds); the games in
    ``capped`` end at the turn cap instead of naturally; ``seats_rows`` replace :data:`SEATS`
    (another outcome of the same deals)."""
    rows = SEATS if seats_rows is None else seats_rows
    for table in ("games", "seats", "moves", "treasures", "failures"):
        (run_dir / table).mkdir(parents=True, exist_ok=True)
    seats = pa.table(
        {
            "game_id": pa.array([r[0] for r in rows], pa.int64()),
            "seat": pa.array([r[1] for r in rows], pa.int8()),
            "player": pa.array([ord(r[2]) - ord("A") for r in rows], pa.int8()),
            "strategy": pa.array([r[2] for r in rows]).dictionary_encode(),
            "score": pa.array(
                [r[3] + (score_shift if r[2] == "C" else 0) for r in rows], pa.int16()
            ),
            "rank": pa.array([r[4] for r in rows], pa.int8()),
            "win_share": pa.array([r[5] for r in rows], pa.float64()),
            "curse_hits": pa.array([r[6] for r in rows], pa.int16()),
            "coins_lost": pa.array([r[7] for r in rows], pa.int16()),
            "violations": pa.array([0] * len(rows), pa.int16()),
        }
    )
    games = pa.table(
        {
            "game_id": pa.array(list(N_PLAYERS), pa.int64()),
            "seed": pa.array(list(SEEDS.values()), pa.uint64()),
            "block": pa.array(list(SEEDS), pa.int64()),
            "n_players": pa.array(list(N_PLAYERS.values()), pa.int8()),
            "island": pa.array(list(ISLAND.values())).dictionary_encode(),
            "turns": pa.array(list(TURNS.values()), pa.int32()),
            "truncated": pa.array([g in capped for g in N_PLAYERS], pa.bool_()),
            "end_reason": pa.array(
                ["turn_cap" if g in capped else "deck_exhausted" for g in N_PLAYERS]
            ).dictionary_encode(),
        }
    )
    pq.write_table(seats, run_dir / "seats" / "part-000000.parquet")
    pq.write_table(games, run_dir / "games" / "part-000000.parquet")
    treasures = pa.table(
        {
            "game_id": pa.array([t[0] for t in TREASURES], pa.int64()),
            "distribution": pa.array([t[1] for t in TREASURES], pa.int16()),
            "curse_revealed": pa.array([t[2] for t in TREASURES], pa.bool_()),
            "curse_position": pa.array([t[3] for t in TREASURES], pa.int8()),
        }
    )
    moves = pa.table(
        {
            "game_id": pa.array([m[0] for m in MOVES], pa.int64()),
            "seat": pa.array([m[1] for m in MOVES], pa.int8()),
            "event": pa.array([m[2] for m in MOVES]).dictionary_encode(),
            "a": pa.array([m[3] for m in MOVES], pa.int32()),
            "b": pa.array([m[4] for m in MOVES], pa.int32()),
        }
    )
    pq.write_table(moves, run_dir / "moves" / "part-000000.parquet")
    pq.write_table(treasures, run_dir / "treasures" / "part-000000.parquet")
    pq.write_table(FAILURES_SCHEMA.empty_table(), run_dir / "failures" / "part-000000.parquet")
    manifest = {"schema_version": SCHEMA_VERSION, "spec": {"game": game}, "status": "complete"}
    seal(run_dir, manifest)
    return run_dir


def seal(run_dir: Path, manifest: dict[str, object]) -> None:
    """Record the part files on disk in ``manifest`` (as a run does) and write it."""
    tables = sorted(p.name for p in run_dir.iterdir() if p.is_dir())
    records = {
        t: [record_file(p, t) for p in sorted((run_dir / t).glob("*.parquet"))] for t in tables
    }
    manifest["parts"] = records_to_manifest(records)
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
