"""Every shard's tables are checked before they are written (:mod:`sim.runner.shard_check`):
a game plug-in whose table builder duplicates, drops or shifts rows, writes a column of
another type, or whose engine plays differently when played again, fails the run with one
line naming the game, the shard and the check (exit 1), and nothing of that shard is written.
The broken games are Dice Race variants (``tests/plugins/broken_dice``), each run as a user
runs it: the console script, with the plug-ins on ``PYTHONPATH``."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pytest

from sim.errors import RunError
from sim.game import GamePlan
from sim.game_tables import BASIC_SCHEMAS, BASIC_TABLES
from sim.runner.games import NO_ISLAND, game_kind, play_planned
from sim.runner.schedule import Schedule
from sim.runner.shard_check import SAMPLE, ShardCheck, sample_ids
from sim.storage.parts import part_name
from strategies.registry import DEFAULT_PLAYERS, parse_strategy

PLUGINS = Path(__file__).parents[1] / "plugins"
TOURNEY = Path(sys.executable).parent / "tourney"
TABLES = ("games", "seats", "moves", "failures")


def tourney(*args: str) -> subprocess.CompletedProcess[str]:
    paths = [str(PLUGINS / "dice_race"), str(PLUGINS / "broken_dice")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*paths, os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [str(TOURNEY), *args], capture_output=True, text=True, check=False, env=env
    )


def simulate(game: str, out: Path, backend: str = "serial") -> subprocess.CompletedProcess[str]:
    """400 games in 4 shards of 100 (the broken builders break the shard of game 150)."""
    return tourney("simulate", "--game", game, "--players", "hold-at,random", "--games", "400",
                   "--seed", "4", "--shard-size", "100", "--backend", backend, "--workers", "2",
                   "--out", str(out))  # fmt: skip


def error(done: subprocess.CompletedProcess[str]) -> str:
    """The run's one-line error (the last line on stderr, after any progress lines)."""
    lines = done.stderr.strip().splitlines()
    assert [line for line in lines if "error" in line] == lines[-1:], done.stderr
    return lines[-1].removeprefix("tourney: error: ")


def parts(run: Path) -> dict[str, list[str]]:
    return {t: sorted(p.name for p in (run / t).glob("*.parquet")) for t in TABLES}


@pytest.mark.parametrize(
    ("game", "check", "detail"),
    [
        ("dice-race-duplicate", "games rows", "game 103 has 2 games rows"),
        ("dice-race-drop", "games rows", "game 103 has no games row"),
        ("dice-race-shift", "games rows", "game 200 has a games row but is not a game of this"),
        ("dice-race-type", "schema", "table seats: column 'score' has type int32, declared int16"),
        ("dice-race-seat", "seat rows", "game 102 seats 2 players and has seats rows for seats [0"),
        ("dice-race-foreign", "game ids", "table moves has rows of game 10000, not of this shard"),
    ],
)  # fmt: skip
def test_a_broken_shard_fails_the_run_unwritten(
    game: str, check: str, detail: str, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    done = simulate(game, run)
    assert done.returncode == 1, done.stdout + done.stderr
    line = error(done)
    assert line.startswith(f"{game} shard 1 (games 100-199) fails the {check!r} check: {detail}")
    assert "nothing of the shard was written" in line
    # The shard before it is whole; of the broken shard, no table has a part file.
    assert parts(run) == {t: [part_name(0)] for t in TABLES}


def test_a_game_that_plays_otherwise_when_played_again_fails_the_run(tmp_path: Path) -> None:
    run = tmp_path / "run"
    done = simulate("dice-race-random", run)
    assert done.returncode == 1, done.stdout + done.stderr
    line = error(done)
    assert line.startswith("dice-race-random shard 0 (games 0-99) fails the 'replay' check: game 0")
    assert "depends on something besides its seed, rules and players" in line
    assert parts(run) == {t: [] for t in TABLES}


def test_a_worker_process_fails_the_run_the_same_way(tmp_path: Path) -> None:
    done = simulate("dice-race-duplicate", tmp_path / "run", backend="process")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "fails the 'games rows' check: game 103 has 2 games rows" in error(done)
    assert part_name(1) not in parts(tmp_path / "run")["games"]


def test_an_honest_game_is_written_whole(tmp_path: Path) -> None:
    run = tmp_path / "run"
    done = simulate("dice-race", run)
    assert done.returncode == 0, done.stderr
    assert "sound (complete): 400 games" in tourney("verify", str(run)).stdout


def test_the_replayed_sample_is_the_first_game_and_one_from_the_seed() -> None:
    for shard, first in ((0, 0), (7, 7000)):
        picked = sample_ids(11, shard, first, 1000)
        assert picked[0] == first and len(picked) <= SAMPLE
        assert all(first <= g < first + 1000 for g in picked)
        assert picked == sample_ids(11, shard, first, 1000)
    assert sample_ids(11, 3, 30, 1) == (30,)
    # Across shards the second game falls anywhere in its shard, not at a fixed offset.
    offsets = {sample_ids(5, k, 100 * k, 100)[-1] - 100 * k for k in range(20)}
    assert len(offsets) > 10


def played(game: str, first: int = 20, n: int = 6) -> tuple[ShardCheck, dict[str, pa.Table]]:
    """Shard ``first .. first + n - 1`` of a built-in game played in this process: the check
    that watched it and the tables its builder built."""
    kind = game_kind(game)
    rules = kind.load_rules(kind.default_rules)
    names = list(DEFAULT_PLAYERS[game])
    factories = tuple(parse_strategy(name, game).factory() for name in names)
    islands = kind.boards.builtin()[:1] if kind.boards else (NO_ISLAND,)
    schedule = Schedule(3, len(names), "rotate", islands)
    check = ShardCheck(kind, 2, first, n, 3)
    builder = kind.builder(game, names)
    for game_id in range(first, first + n):
        plan = schedule.plan(game_id)
        done = play_planned(plan, rules, factories)
        check.saw(plan, done)
        builder.add(plan, done)
    return check, builder.build()


def replayer(game: str) -> Callable[[GamePlan], object]:
    kind = game_kind(game)
    rules = kind.load_rules(kind.default_rules)
    factories = tuple(parse_strategy(n, game).factory() for n in DEFAULT_PLAYERS[game])
    return lambda plan: play_planned(plan, rules, factories)


@pytest.mark.parametrize("game", ["tobago", "treasure-island"])
def test_a_built_in_game_passes_and_its_declared_schema_is_exact(game: str) -> None:
    check, tables = played(game)
    check.check(tables, replayer(game))
    # Declared schemas hold every column: one the game did not declare fails.
    games = tables["games"]
    extra = {**tables, "games": games.append_column("extra", pa.array([0] * games.num_rows))}
    head = f"^{game} shard 2 \\(games 20-25\\) fails the 'schema' check: "
    with pytest.raises(RunError, match=head + "table games: column 'extra' is not declared"):
        check.check(extra, replayer(game))
    moves = tables["moves"]
    i = moves.schema.get_field_index("turn")
    wider = {**tables, "moves": moves.set_column(i, "turn", moves.column(i).cast(pa.int64()))}
    with pytest.raises(RunError, match="table moves: column 'turn' has type int64, declared int32"):
        check.check(wider, replayer(game))


def test_the_basic_schemas_are_the_basic_tables() -> None:
    assert set(BASIC_SCHEMAS) == set(BASIC_TABLES)


def test_a_declared_schema_must_begin_with_the_common_columns() -> None:
    _, tables = played("treasure-island")
    games = tables["games"].drop(["winners"])
    declared = {name: t.schema for name, t in tables.items()} | {"games": games.schema}
    kind = dataclasses.replace(game_kind("treasure-island"), schemas=lambda: declared)
    check = ShardCheck(kind, 2, 20, 6, 3)
    check.players = [len(DEFAULT_PLAYERS["treasure-island"])] * 6
    with pytest.raises(RunError, match="table games: column 14 is 'decisions', declared 'winners'"):
        check.check({**tables, "games": games}, replayer("treasure-island"))
