"""The ``tourney`` typer application, the command decorator and the shared options.

Every command reports bad input as one line on stderr and exits with code 2 (see
:class:`sim.errors.InputError`), and a run that had to stop as one line and exit code 1
(:class:`sim.errors.RunError`); the commands live in ``cli_board``, ``cli_games`` and
``cli_compare``, and :mod:`pipelines.cli` gathers them.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer

from sim.errors import InputError, RunError
from sim.runner.games import GAMES

P = ParamSpec("P")
R = TypeVar("R")


def command(target: typer.Typer, name: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Register a command whose :class:`InputError` becomes one stderr line and exit code 2,
    and whose :class:`RunError` one line and exit code 1."""

    def register(func: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(func)
        def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return func(*args, **kwargs)
            except InputError as exc:
                typer.echo(f"tourney: error: {exc}", err=True)
                raise typer.Exit(2) from None
            except RunError as exc:
                typer.echo(f"tourney: error: {exc}", err=True)
                raise typer.Exit(1) from None

        target.command(name)(guarded)
        return func

    return register


app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    help="Tournament simulator and statistics for treasure-hunt board games.",
)
board_app = typer.Typer(no_args_is_help=True, help="Tobago islands: list, show, export.")
app.add_typer(board_app, name="board")

IslandArg = Annotated[
    str,
    typer.Argument(
        help="A built-in island (aBc-2), generated:SEED, or an island file (.island/.json)."
    ),
]
LandmarkSeed = Annotated[
    int,
    typer.Option(
        "--landmarks",
        min=0,
        help="Seed of the landmark placement (ignored when the island file fixes landmarks).",
    ),
]
DeckOpt = Annotated[
    Path | None,
    typer.Option("--deck", help="Clue-deck TOML file (default: data/clues/default.toml)."),
]


def echo_json(obj: object) -> None:
    typer.echo(json.dumps(obj, indent=None, separators=(",", ":")))


#: The ``--game`` help: the games registered here (plug-ins included).
GAME_HELP = "The game: " + ", ".join(GAMES) + "."
GameOpt = Annotated[str, typer.Option("--game", help=GAME_HELP)]
PlayersOpt = Annotated[
    str | None,
    typer.Option(
        "--players",
        help="Comma-separated strategies, e.g. hunter,cautious(take_at=4),pkg.mod:Class "
        "(default: hunter,cartographer,collector,cautious; for treasure-island "
        "expected-value,bust-threshold,stop-at,random).",
    ),
]
RulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules",
        help="A rules preset (tobago: rulebook, bga; treasure-island: standard, characters) "
        "or a TOML file.",
    ),
]
