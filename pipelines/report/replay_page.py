"""Replay pages: one game played again by the engine with a snapshot of its state at every
logged event, written as one self-contained HTML page (``tourney replay``, ``tourney play
--html`` and the games a report links to).

The game is built as ``tourney play`` builds it (or as a run played it, checked against the
run's logged moves), its log is watched, and at every row the game's replay hooks give a
snapshot of the engine's state and the row in words. Consecutive snapshots are stored as
their differences (the keys that changed), so a page holds every step of a game in tens of
kilobytes; :mod:`reports.replay_page` turns the document into the page, which only shows the
frames: no rule is computed again in the browser.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from pipelines.metrics.source import RunInfo
from pipelines.play.game import PlayedGame, play_game
from reports.replay_page import replay_html
from sim.errors import InputError
from sim.runner.games import game_kind
from strategies.registry import StrategySpec


@dataclass
class Recorder:
    """Watches one game's log: the scene once, then a frame and an event at every row.

    ``frames[0]`` is the whole state before the first event; ``frames[k]`` (k >= 1) holds the
    keys that changed by the time row ``k - 1`` was logged."""

    game_name: str
    scene: dict[str, Any] = field(default_factory=dict)
    frames: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    _last: dict[str, Any] = field(default_factory=dict)

    def attach(self, game: Any) -> None:
        """Start watching ``game`` (built, not yet played)."""
        kind = game_kind(self.game_name)
        hooks = kind.replay_hooks()
        snapshot = hooks.snapshot
        describe = hooks.describer(game)
        log = kind.log
        self.scene = hooks.scene(game)
        self._last = snapshot(game)
        self.frames = [dict(self._last)]
        self.events = []

        def on_row(index: int) -> None:
            flat = log(game)
            self.events.append(describe(tuple(flat[6 * index : 6 * index + 6])))
            now = snapshot(game)
            last = self._last
            self.frames.append({k: v for k, v in now.items() if last.get(k) != v})
            self._last = now

        hooks.watch(game, on_row)


def document(played: PlayedGame, recorder: Recorder, source: str) -> dict[str, Any]:
    """What a replay page shows: the game's facts, the scene, the frames and the events.
    ``source`` says where the game comes from (the command that plays it)."""
    g = played.game
    kind = game_kind(played.game_name)
    result = g.result
    assert result is not None
    return {
        "game": played.game_name,
        "title": kind.title,
        "seed": g.seed,
        "island": played.island if kind.boards else None,
        "board": words[0] if (words := kind.board_words()) else None,
        "rules": played.rules.preset,
        "rules_hash": played.rules.hash,
        "players": [p.label for p in played.players],
        "scores": list(result.scores),
        "ranks": list(result.ranks),
        "turns": result.turns,
        "end_reason": result.end_reason,
        "violations": len(g.violations),
        "source": source,
        "scene": recorder.scene,
        "frames": recorder.frames,
        "events": recorder.events,
    }


def record_play(
    seed: int,
    players: list[StrategySpec],
    island: str,
    rules_spec: str | None,
    game: str,
    ablate: str | None = None,
) -> tuple[PlayedGame, dict[str, Any]]:
    """Play one game as ``tourney play`` does, recording it; the game and its document."""
    recorder = Recorder(game)
    played = play_game(seed, players, island, rules_spec, game, ablate, recorder.attach)
    command = _play_command(played, seed, island, rules_spec, ablate)
    return played, document(played, recorder, command)


def record_run_game(run: RunInfo, game_id: int) -> tuple[PlayedGame, dict[str, Any], int]:
    """Game ``game_id`` of an opened run played again, checked against its logged moves
    (``RunError`` if they differ), and recorded: the game, its document and the number of
    move rows checked."""
    from pipelines.play.replay import replay_game
    from pipelines.report.run_warnings import replay_command

    recorder = Recorder(run.game)
    played, checked = replay_game(run, game_id, recorder.attach)
    return played, document(played, recorder, replay_command(run, game_id)), checked


def _play_command(
    played: PlayedGame, seed: int, island: str, rules_spec: str | None, ablate: str | None
) -> str:
    """The ``tourney play`` command that plays the game again."""
    parts = ["tourney", "play", "--game", played.game_name, "--seed", str(seed)]
    parts += ["--players", ",".join(p.label for p in played.players)]
    kind = game_kind(played.game_name)
    if kind.boards:
        parts += ["--island", island]
    parts += ["--rules", rules_spec or kind.default_rules]
    if ablate:
        parts += ["--ablate", ablate]
    return " ".join(shlex.quote(p) for p in parts)


def renderer_script(game: str) -> str:
    """The script of ``game``'s replay page that draws a frame (its replay hooks name it as a
    package resource); ``InputError`` for a game without one or a script that is missing."""
    kind = game_kind(game)
    package, name = kind.replay_hooks().renderer
    try:
        return resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, OSError) as exc:
        raise InputError(
            f"{kind.title}: the replay page's script {package}/{name} cannot be read "
            f"({type(exc).__name__}: {exc})"
        ) from None


def write_page(doc: dict[str, Any], path: Path) -> int:
    """Write the page of ``doc`` to ``path`` (whole or not at all); its size in bytes.
    ``InputError`` names the path when it cannot be written."""
    text = replay_html(doc, renderer_script(str(doc["game"])))
    data = text.encode()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        why = os.strerror(exc.errno) if exc.errno else str(exc)
        raise InputError(f"{path}: cannot write the replay page ({why})") from None
    return len(data)
