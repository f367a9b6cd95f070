"""The ``tourney`` command line: the typer app with every command registered.

Commands live in small modules by theme (``cli_board``, ``cli_games``, ``cli_compare``);
importing them registers them on :data:`pipelines.cli_app.app`.
"""

from __future__ import annotations

from pipelines import cli_board, cli_compare, cli_games, cli_tune
from pipelines.cli_app import app

__all__ = ["app", "cli_board", "cli_compare", "cli_games", "cli_tune", "main"]


def main() -> None:
    """Entry point of the ``tourney`` console script."""
    app()
