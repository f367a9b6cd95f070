"""``tourney tune``: a strategy's parameters searched against a field (see
pipelines.experiments.tune)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pipelines.cli.app import AddressOpt, BoardsOpt, GameOpt, RulesOpt, app, command, echo_json
from pipelines.cli.run_options import EngineOpt
from pipelines.experiments.game_choice import choose_game
from pipelines.play.game import check_game
from sim.errors import InputError

if TYPE_CHECKING:
    from pipelines.experiments.tune import TuneSpec


StrategyArg = Annotated[
    str, typer.Argument(help="The strategy to tune, e.g. expected-value or hunter(take_at=4).")
]
TuneParamOpt = Annotated[
    list[str],
    typer.Option(
        "--param",
        help="NAME=LOW..HIGH (--points values) or NAME=V1,V2,...; give one or more.",
    ),
]
FieldOpt = Annotated[
    str, typer.Option("--field", help="The opponents: 1 to 3 comma-separated strategies.")
]
PointsOpt = Annotated[
    int, typer.Option("--points", min=2, max=64, help="Values per LOW..HIGH range.")
]
RoundGamesOpt = Annotated[
    int,
    typer.Option(
        "--games",
        min=2,
        max=10_000_000,
        help="Games per setting in the first round (doubled each round).",
    ),
]
ConfirmGamesOpt = Annotated[
    int | None,
    typer.Option(
        "--confirm-games",
        min=0,
        max=100_000_000,
        help="Fresh games for the best against the default (default: the last round's).",
    ),
]
TuneSeedOpt = Annotated[int, typer.Option("--seed", min=0, max=2**63 - 1)]
TuneBackendOpt = Annotated[str, typer.Option("--backend", help="ray (default), process or serial.")]
TuneWorkersOpt = Annotated[int, typer.Option("--workers", min=1, max=1024)]
TuneOutOpt = Annotated[
    Path | None,
    typer.Option("--out", help="Where the runs go (default data/tunes/<strategy>)."),
]
WriteOpt = Annotated[
    Path | None,
    typer.Option("--write", help="The spec TOML written (default OUT/tuned.toml)."),
]
ResultJsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]


@command(app, "tune")
def tune_cmd(
    strategy: StrategyArg,
    param: TuneParamOpt,
    field: FieldOpt,
    game: GameOpt = None,
    rules: RulesOpt = None,
    points: PointsOpt = 5,
    games: RoundGamesOpt = 400,
    confirm_games: ConfirmGamesOpt = None,
    seed: TuneSeedOpt = 1,
    islands: BoardsOpt = None,
    backend: TuneBackendOpt = "ray",
    workers: TuneWorkersOpt = 2,
    address: AddressOpt = None,
    out: TuneOutOpt = None,
    write: WriteOpt = None,
    as_json: ResultJsonOpt = False,
    engine: EngineOpt = None,
) -> None:
    """Search a strategy's parameters against a field on paired seeds (successive halving),
    confirm the best against the default on fresh seeds, and write it as a simulate spec."""
    from pipelines.experiments.progress import Progress
    from pipelines.experiments.tune import (
        TuneSpec,
        field_labels,
        param_defaults,
        parse_param,
        tune,
    )
    from pipelines.experiments.tune_runs import simulate_runner
    from sim.runner.backends import BACKENDS, check_address_format, ray_start

    game = choose_game(
        game, players=f"{strategy},{field}", rules=[rules], boards=islands is not None
    )
    check_game(game)
    if backend not in BACKENDS:
        raise InputError(f"--backend {backend!r} is not allowed ({', '.join(BACKENDS)})")
    if address is not None and backend == "ray":
        check_address_format(address)
    defaults = param_defaults(strategy, game)
    grids = tuple(parse_param(p, points, defaults) for p in param)
    names = [g.name for g in grids]
    twice = next((n for k, n in enumerate(names) if n in names[:k]), None)
    if twice is not None:
        raise InputError(f"--param: {twice} is given twice")
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", strategy).strip("-") or "strategy"
    where = out or Path("data") / "tunes" / slug
    spec = TuneSpec(
        game=game,
        strategy=strategy,
        grids=grids,
        field=field_labels(field, game),
        rules=rules,
        games=games,
        seed=seed,
        out=where,
        backend=backend,
        workers=workers,
        address=address,
        islands=islands,
        confirm_games=-1 if confirm_games is None else confirm_games,
        engine=engine or "auto",
    )
    target = write or where / "tuned.toml"
    _check_before_playing(spec, target)

    def say(line: str) -> None:  # progress on stderr, the answer on stdout
        typer.echo(line, err=True)

    started = backend == "ray" and ray_start(workers, address)
    try:
        result = tune(spec, simulate_runner(spec, Progress("tune")), say)
    finally:
        if started:
            import ray

            ray.shutdown()
    _write_result(result, target, where, games, as_json)


def _check_before_playing(spec: TuneSpec, target: Path) -> None:
    """``InputError`` before any game when the outputs cannot be written or the search
    would play more games than a run may hold."""
    from pipelines.experiments.simulate import MAX_GAMES
    from pipelines.experiments.tune import check_budget, settings_of
    from pipelines.experiments.tune_output import check_writable

    check_writable(spec.out, "--out", directory=True)
    check_writable(target, "--write", directory=False)
    check_budget(spec, len(settings_of(spec)), MAX_GAMES)


def _write_result(
    result: dict[str, Any], target: Path, where: Path, games: int, as_json: bool
) -> None:
    """Write the tuned spec and tune.json, and print the result."""
    from pipelines.experiments.tune_output import format_summary, write_spec, write_text

    write_spec(target, result, games)
    result["spec_written"] = str(target)
    write_text(where / "tune.json", json.dumps(result, indent=1) + "\n", "--out")
    if as_json:
        echo_json(result)
        return
    for line in format_summary(result):
        typer.echo(line)
