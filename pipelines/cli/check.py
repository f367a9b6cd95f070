"""``tourney check-game``: the conformance kit of :mod:`pipelines.experiments.check_game` on
the command line (exit 0 and a one-line summary, or exit 1 naming the first check that fails)."""

from __future__ import annotations

from typing import Annotated

import typer

from pipelines.cli.app import app, command
from pipelines.experiments.check_game import ContractError, check_game


@command(app, "check-game")
def check_game_cmd(
    name: Annotated[str, typer.Argument(help="The registered game to check.")],
    games: Annotated[
        int, typer.Option("--games", min=4, max=10_000, help="Games of its default lineup.")
    ] = 24,
) -> None:
    """Prove that a game meets the contract: determinism, its tables and their schema, one
    row set per game, crashing, cheating and slow players recorded, rules round-trip."""
    try:
        passed = check_game(name, games)
    except ContractError as failure:
        typer.echo(f"tourney: {name} fails the '{failure.check}' check: {failure.detail}", err=True)
        raise typer.Exit(1) from None
    typer.echo(passed.summary())
