"""Any game of a run, played again exactly: ``tourney play --run RUN --game-id N``.

A game is a pure function of its plan (seed, island, seating) under the run's rules and
strategies, so it is rebuilt from the run's manifest alone: the rules from their resolved
values (their hash must match the one recorded, whatever a rules file says today), the board
the run recorded for an island file, the players from the spec in the game's seat order,
watched by the run's guard (its audit and decision time limit).
The replayed move log is then compared row by row with the rows the run logged for that
game, and a difference is an error: a replay that does not match is no replay.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb

from pipelines.metrics.source import RunInfo, duckdb_path, open_run, recorded_board
from pipelines.play.game import PlayedGame, log_rows
from sim.errors import InputError, RunError
from sim.guard import Guard
from sim.runner.games import NO_ISLAND, game_kind
from sim.runner.run import spec_schedule
from strategies.registry import parse_strategy


def run_rules(run: RunInfo) -> Any:
    """The run's rules rebuilt from the values its manifest recorded, checked by hash."""
    spec = run.manifest["spec"]
    kind = game_kind(run.game)
    resolved = dict(spec.get("resolved_rules") or {})
    preset = str(resolved.pop("preset", spec.get("rules_preset", "")))
    rules = kind.with_overrides(kind.load_rules(preset), resolved, f"{run.where}: resolved_rules")
    if rules.hash != spec.get("rules_hash"):
        raise InputError(
            f"{run.where}: its recorded rules no longer resolve to the hash it played "
            f"({spec.get('rules_hash')} recorded, {rules.hash} now): a rules file it names "
            "has changed"
        )
    return rules


#: A move row as the run logs it: turn, seat, event name, a, b, c.
Row = tuple[int, int, str, int, int, int]


def _query(
    run: RunInfo,
    table: str,
    sql: str,
    game_id: int,
    con: duckdb.DuckDBPyConnection | None = None,
) -> list[tuple[Any, ...]]:
    """``sql`` over the run's recorded part files of ``table`` (named ``t`` in it), for one
    game: a plain scan of the files, no views or joins, so it costs the same in a run of a
    million games (the parts are sorted by game id: DuckDB skips row groups by their
    statistics). On ``con`` when given: a new connection costs about 0.1 s, many times the
    query, which matters to a caller that replays many games."""
    files = ", ".join(duckdb_path(p.path(run.path)) for p in run.parts[table])
    source = f"read_parquet([{files}], hive_partitioning = false)"
    if con is not None:
        found: list[tuple[Any, ...]] = con.execute(sql.replace("{t}", source), [game_id]).fetchall()
        return found
    with duckdb.connect() as own:
        rows: list[tuple[Any, ...]] = own.execute(sql.replace("{t}", source), [game_id]).fetchall()
    return rows


def _logged_rows(
    run: RunInfo, game_id: int, con: duckdb.DuckDBPyConnection | None = None
) -> list[Row]:
    """The run's move rows of one game, as the engine's six ints (event as its code)."""
    rows = _query(
        run,
        "moves",
        "SELECT turn, seat, event::VARCHAR, a, b, c FROM {t} WHERE game_id = ? ORDER BY ply",
        game_id,
        con,
    )
    return [(int(t), int(s), str(e), int(a), int(b), int(c)) for t, s, e, a, b, c in rows]


def replay(
    run_dir: Path | str, game_id: int, observe: Callable[[Any], None] | None = None
) -> tuple[PlayedGame, int]:
    """Play game ``game_id`` of the run at ``run_dir`` (a directory or an ``s3://`` URI)
    again; return it and the number of move rows checked against the run's. ``RunError`` if
    the moves differ. ``observe`` is given the game built and not yet played."""
    return replay_game(open_run(run_dir), game_id, observe)


def replay_game(
    run: RunInfo,
    game_id: int,
    observe: Callable[[Any], None] | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
) -> tuple[PlayedGame, int]:
    """:func:`replay` for a run already opened (and checked); the run's rows are read on
    ``con`` when given (any connection: the query names the run's files)."""
    spec = run.manifest["spec"]
    games = int(spec["games"])
    if not 0 <= game_id < games:
        raise InputError(f"--game-id {game_id}: the run has games 0 to {games - 1}")
    sql = "SELECT seed, island::VARCHAR FROM {t} WHERE game_id = ?"
    found = _query(run, "games", sql, game_id, con)
    if not found:
        raise InputError(f"--game-id {game_id}: the run has not played that game yet")
    logged = _logged_rows(run, game_id, con) if "moves" in run.tables else None
    kind = game_kind(run.game)
    labels = [str(p) for p in spec["players"]]
    plan = spec_schedule(spec).plan(game_id)
    seed, island = found[0]
    if plan.seed != int(seed):
        raise RunError(f"{run.where}: game {game_id} has seed {seed}, its plan says {plan.seed}")
    rules = run_rules(run)
    strategies = [parse_strategy(label, run.game) for label in labels]
    boards = {plan.island: recorded_board(run, str(island))} if kind.boards else None
    # The run's guard, as the run played: without its audit a tampering plug-in would change
    # the replay, and without its time limit a game the run ended as `timeout` never ends.
    guard = Guard.from_dict(spec.get("guard"), f"{run.where}: spec")
    built = kind.build(plan, rules, [s.factory() for s in strategies], boards, guard)
    if observe is not None:
        observe(built)
    built.play()
    seated = [strategies[p] for p in plan.order]
    played = PlayedGame(run.game, built, rules, seated, str(island) if kind.boards else NO_ISLAND)
    if logged is None:  # a compiled run keeps no move log: its games and seats rows instead
        _check_rows(run, game_id, played)
        return played, 0
    events = kind.event_names
    mine: list[Row] = [(t, s, events[k], a, b, c) for t, s, k, a, b, c in log_rows(played)]
    if mine != logged:
        first = next(
            (k for k, (x, y) in enumerate(zip(mine, logged, strict=False)) if x != y),
            min(len(mine), len(logged)),
        )
        raise RunError(
            f"{run.where}: game {game_id} replayed differently from its logged moves (first "
            f"difference at row {first} of {len(logged)}): the code or a strategy changed "
            "since the run"
        )
    return played, len(logged)


def checked_words(checked: int) -> str:
    """What a replay was checked against, in words (``checked``: move rows; 0 for a run that
    kept no move log, whose games and seats rows were compared instead)."""
    if checked:
        return f"its {checked:,} move rows match the run's"
    return "its games and seats rows match the run's (the run kept no move log)"


def _check_rows(run: RunInfo, game_id: int, played: PlayedGame) -> None:
    """``RunError`` unless the replayed game has the run's ``games`` row (turns, end reason)
    and ``seats`` rows (scores): the check of a run that kept no move log."""
    result = played.game.result
    assert result is not None
    sql = "SELECT turns, end_reason::VARCHAR FROM {t} WHERE game_id = ?"
    game = _query(run, "games", sql, game_id)
    scores = _query(run, "seats", "SELECT score FROM {t} WHERE game_id = ? ORDER BY seat", game_id)
    mine = ((result.turns, result.end_reason), [int(x) for x in result.scores])
    theirs = ((int(game[0][0]), str(game[0][1])), [int(r[0]) for r in scores])
    if mine != theirs:
        raise RunError(
            f"{run.where}: game {game_id} replayed differently from its games and seats rows "
            f"(turns and end {mine[0]}, scores {mine[1]}; the run has {theirs[0]}, "
            f"{theirs[1]}): the code changed since the run"
        )
