"""The ``tourney`` command line: the typer app with every command registered.

Commands live in small modules by theme (:mod:`pipelines.cli.games`, ``compare``, ``tune``,
``balance``, ``check``); importing them registers them on :data:`pipelines.cli.app.app`. A
game's own commands (Tobago's ``tourney board``) are modules its kind names
(``GameKind.commands``), imported here the same way, so that the command line names no game.
"""

from __future__ import annotations

import sys
from types import ModuleType

from pipelines.cli import balance as cli_balance
from pipelines.cli import check as cli_check
from pipelines.cli import compare as cli_compare
from pipelines.cli import games as cli_games
from pipelines.cli import tune as cli_tune
from pipelines.cli.app import app
from sim.errors import InputError
from sim.runner.games import GAMES, game_part

__all__ = ["app", "cli_balance", "cli_check", "cli_compare", "cli_games", "cli_tune", "main"]


def _load_game_commands() -> None:
    for game in sorted(GAMES):
        try:
            game_part(game, "commands", ModuleType)
        except InputError as exc:  # a broken plug-in loses its commands, not the others
            print(f"warning: {exc}; its commands are missing", file=sys.stderr)


_load_game_commands()


def main() -> None:
    """Entry point of the ``tourney`` console script."""
    app()
