"""The ``tourney`` typer application, the command decorator and the shared options.

Every command reports bad input as one line on stderr and exits with code 2 (see
:class:`sim.errors.InputError`), and a run that had to stop as one line and exit code 1
(:class:`sim.errors.RunError`); the commands live in ``pipelines.cli.games`` and ``compare``
(and a game's own, such as :mod:`pipelines.tobago.cli_board`), and :mod:`pipelines.cli.main`
gathers them.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Annotated, ParamSpec, TypeVar

import typer

from sim.errors import InputError, RunError
from sim.runner.games import GAMES
from strategies.registry import DEFAULT_PLAYERS

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


def echo_json(obj: object) -> None:
    typer.echo(json.dumps(obj, indent=None, separators=(",", ":")))


#: The ``--game`` help: the games registered here (plug-ins included).
GAME_HELP = "The game: " + ", ".join(GAMES) + "."
GameOpt = Annotated[
    str | None,
    typer.Option(
        "--game", help=GAME_HELP + " Default: the one the other options fit, if one does."
    ),
]
#: Each game's ablations (what ``--ablate`` and ``--twin`` take), for the help texts.
ABLATIONS = "; ".join(
    f"{g}: {', '.join(kind.ablations)}" for g, kind in GAMES.items() if kind.ablations
)
#: Each game's players when none are named, and its default rules, for the help texts.
_LINEUPS = "; ".join(f"{g}: {','.join(DEFAULT_PLAYERS.get(g, ()))}" for g in GAMES)
_RULES = ", ".join(f"{g}: {kind.default_rules}" for g, kind in GAMES.items())
PlayersOpt = Annotated[
    str | None,
    typer.Option(
        "--players",
        help="Comma-separated strategies, e.g. hunter,cautious(take_at=4),pkg.mod:Class "
        f"(default: the game's lineup; {_LINEUPS}).",
    ),
]
#: The games played on boards, and the boards' noun, for the ``--islands`` help.
_BOARDS = ", ".join(
    f"{g}: {kind.boards.noun[1]}" for g, kind in GAMES.items() if kind.boards is not None
)
BoardsOpt = Annotated[
    str | None,
    typer.Option(
        "--islands",
        help=f"The boards of a game played on them ({_BOARDS or 'none installed'}; default all).",
    ),
]
RulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules",
        help=f"A rules preset of the game or a TOML file (default {_RULES}; an unknown name "
        "lists the presets).",
    ),
]
#: Options several commands share, declared once so their names, bounds and help agree.
WorkersOpt = Annotated[int, typer.Option("--workers", min=1)]
JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON object.")]
AddressOpt = Annotated[str | None, typer.Option("--address", help="Join an existing Ray cluster.")]
#: The seed of the common seeds two variants are played on (compare, sweep).
CommonSeedOpt = Annotated[int, typer.Option("--seed", min=0)]
