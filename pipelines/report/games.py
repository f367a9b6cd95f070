"""The games a report points to, and their replay pages.

Per cohort and player count: the longest finished game, the biggest upset, and the first game
cut off at the turn cap or by a deadlock when there are any (``win_rate.notable_games``); per
pairing, the games a game's own report part finds (Tobago: a game where a curse changed the
winner, between a run and its twin without curses), in the words the game declares
(:attr:`sim.game.GameFacts.notable_games`). Each comes with the ``tourney play`` command
that replays it, and an HTML report gets each one's replay page under ``games/`` next to
``index.html`` (:mod:`pipelines.report.replay_page`), linked at the moment that makes it notable
(``#step=N``, :mod:`pipelines.report.replay_moments`). Only these few games are played again, each
checked against its run's logged moves found by game id (row-group statistics skip the rest
of the parts), so a run of a million games costs little more than a small one. A game that no longer
replays as logged (the code changed since the run) gets no page, and the report says why
instead of failing.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pipelines.report.data import GameToSee, ReportData
from pipelines.report.replay_moments import moment
from pipelines.report.replay_page import record_run_game, write_page
from pipelines.report.run_warnings import replay_command
from sim.errors import InputError, RunError
from sim.runner.games import GAMES

#: How each kind of notable game is introduced.
WORDS = {
    "longest": "The longest game",
    "upset": "The biggest upset",
    "turn_cap": "A game stopped at the turn cap",
    "deadlock": "A game ended by a deadlock",
    "timeout": "A game ended by a decision past the time limit",
    "strategy_failure": "A strategy failed",
}


def words(game: str, kind: str) -> str:
    """How a report introduces a notable game of ``kind`` in a run of ``game``: the game's
    own words for the kinds it declares, else the generic ones (else the kind's name)."""
    kind_of_game = GAMES.get(game)
    own = kind_of_game.facts.notable_games.get(kind) if kind_of_game is not None else None
    return own.words if own is not None else WORDS.get(kind, kind)


def moment_event(game: str, kind: str) -> str | None:
    """The move-log event a game declares for a notable game of ``kind`` (None for none)."""
    kind_of_game = GAMES.get(game)
    own = kind_of_game.facts.notable_games.get(kind) if kind_of_game is not None else None
    return own.event if own is not None else None


#: The report's folder of replay pages.
GAMES_DIR = "games"


def games_to_see(data: ReportData, unit: str) -> list[GameToSee]:
    """The notable games of every cohort and pairing, with their replay commands."""
    out: list[GameToSee] = []
    several = len(data.cohorts) > 1
    for result in data.cohorts:
        where = f" in {result.cohort.label}" if several else ""
        prefix = f"c{result.cohort.index}-" if several else ""
        for r in result.rows("notable_games"):
            kind, n, game_id = str(r["kind"]), int(r["n_players"]), int(r["game_id"])
            run = result.cohort.runs[int(r["run"])]
            detail = str(r["detail"]) + (f" {unit}" if kind == "upset" else "")
            said = words(run.game, kind)
            text = f"{said} with {n} players{where}: game {game_id}, {detail}."
            name = f"{prefix}{kind.replace('_', '-')}-{n}p-game{game_id}.html"
            command = replay_command(run, game_id)
            out.append(GameToSee(kind, n, text, run, game_id, command, name))
    for pair in data.pairs:
        prefix = f"p{pair.pairing.index}-" if len(data.pairs) > 1 else ""
        for r in pair.notable_rows():
            kind, n, game_id = str(r["kind"]), int(r["n_players"]), int(r["game_id"])
            run = pair.pairing.a if int(r["run"]) == 0 else pair.pairing.b
            text = (
                f"{words(run.game, kind)} with {n} players (paired: {pair.pairing.title}): "
                f"game {game_id}, {r['detail']}."
            )
            name = f"{prefix}{kind.replace('_', '-')}-{n}p-game{game_id}.html"
            command = replay_command(run, game_id)
            seat = int(r.get("seat", -1))
            out.append(GameToSee(kind, n, text, run, game_id, command, name, seat=seat))
    return out + _failures(data)


def _failures(data: ReportData) -> list[GameToSee]:
    """Per run and failing strategy, the game of its first failure (the one its warning's
    command replays), opened at the failure."""
    out: list[GameToSee] = []
    for w in data.warnings:
        for d in w.details:
            first = d.get("first") if w.kind == "strategy_failures" else None
            if not first:
                continue
            run = data.groups.runs[int(first["run"])]
            game_id, seat, turn = int(first["game_id"]), int(first["seat"]), int(first["turn"])
            n = int(first["n_players"])
            text = (
                f"{WORDS['strategy_failure']} in {w.run}: {d['strategy']} (seat {seat + 1}) at "
                f"turn {turn} of game {game_id}."
            )
            name = f"failure-run{first['run']}-{n}p-game{game_id}-seat{seat + 1}.html"
            command = replay_command(run, game_id)
            out.append(
                GameToSee(
                    "strategy_failure", n, text, run, game_id, command, name, seat=seat, turn=turn
                )
            )
    return out


def write_pages(games: list[GameToSee], out_dir: Path) -> list[GameToSee]:
    """Each game's replay page under ``out_dir/games``; the games with their page's path
    relative to ``out_dir``, or a note saying why there is none."""
    folder = out_dir / GAMES_DIR
    folder.mkdir(parents=True, exist_ok=True)
    done: list[GameToSee] = []
    for game in games:
        try:
            _, doc, _ = record_run_game(game.run, game.game_id)
        except (RunError, InputError) as exc:
            done.append(replace(game, note=f"no replay page: {exc}"))
            continue
        write_page(doc, folder / game.name)
        event = moment_event(game.run.game, game.kind)
        step = moment(game.kind, doc, game.seat, game.turn, event)
        done.append(replace(game, page=f"{GAMES_DIR}/{game.name}", step=step))
    return done
