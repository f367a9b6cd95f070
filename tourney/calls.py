"""The notebook API's runs themselves, in whichever process plays them: each takes plain
arguments and returns plain, picklable data (:mod:`tourney.api` opens the run it names), so
that it can run in a fresh worker process (:mod:`tourney.worker`) as well as in the caller's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Played:
    """What a tournament run leaves: where its run is, games played now and the seconds."""

    where: str
    games_played: int
    seconds: float


@dataclass(frozen=True)
class GameRecord:
    """One game: its log rows (turn, seat, event, a, b, c) and its result, as ``tourney play
    --json`` prints them, and the same game as text."""

    rows: list[dict[str, Any]]
    result: Mapping[str, Any]
    text: list[str]


def _record(played: Any) -> GameRecord:
    from pipelines.play.game import game_json_rows, game_text

    rows = game_json_rows(played)
    return GameRecord(rows[:-1], dict(rows[-1]), game_text(played))


def simulate(spec: str | None, options: dict[str, Any]) -> Played:
    """``tourney simulate [SPEC] --option value`` (see :func:`tourney.api.simulate`)."""
    from pipelines.experiments.simulate import read_spec, resolve
    from pipelines.experiments.simulate import simulate as run_config

    file_values = read_spec(Path(spec)) if spec is not None else {}
    flags = {k: (str(v) if k == "out" and v is not None else v) for k, v in options.items()}
    config = resolve(file_values, flags, spec if spec is not None else "api")
    done = run_config(config)
    return Played(config.run_dir.uri, done.games_played, done.seconds)


def compare(options: dict[str, Any]) -> dict[str, Any]:
    """``tourney compare --json`` (see :func:`tourney.api.compare`)."""
    from pipelines.experiments.compare import compare as run_compare
    from pipelines.experiments.compare_setup import compare_spec

    return run_compare(compare_spec(**options))


def play(
    seed: int, players: str | None, island: str, rules: str | None, game: str, ablate: str | None
) -> GameRecord:
    """``tourney play`` (see :func:`tourney.api.play`)."""
    from pipelines.play.game import parse_players, play_game

    return _record(play_game(seed, parse_players(players, game), island, rules, game, ablate))


def replay(where: str, game_id: int) -> GameRecord:
    """Game ``game_id`` of the run at ``where`` played again and checked."""
    from pipelines.play.replay import replay as replay_game

    played, _ = replay_game(where, game_id)
    return _record(played)
