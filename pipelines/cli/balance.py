"""``tourney balance STUDY.toml``: search a game's rules for balance and confirm the answer
on fresh seeds (see :mod:`pipelines.experiments.balance`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.app import JsonOpt, app, command, echo_json

StudyArg = Annotated[
    Path, typer.Argument(help="The study: a TOML file (game, lineup or pool, space, objectives).")
]
StudyOutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="Where the study goes (default data/balance/<study file name>); a re-run resumes it.",
    ),
]
StudyWorkersOpt = Annotated[
    int | None,
    typer.Option("--workers", min=1, max=256, help="Worker processes (default: the study's)."),
]


@command(app, "balance")
def balance_cmd(
    study: StudyArg,
    out: StudyOutOpt = None,
    workers: StudyWorkersOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Search the rules for balance (TPE over the study's space, successive halving on common
    seeds), confirm the best against the rulebook on fresh seeds, write the page, JSON and a
    rules file per recommended setting."""
    from pipelines.experiments import balance_shape
    from pipelines.experiments.balance_output import summary_lines, write_outputs
    from pipelines.experiments.balance_spec import load_spec
    from pipelines.experiments.balance_study import run_study, sweep_spec
    from pipelines.experiments.progress import Progress
    from pipelines.experiments.tune_output import check_writable
    from pipelines.report.balance_page import balance_html
    from sim.runner.engine_choice import load_compiled

    spec = load_spec(study)
    where = out or Path("data") / "balance" / study.stem
    check_writable(where, "--out", directory=True)
    sweep = sweep_spec(spec, workers)

    def say(line: str) -> None:  # progress on stderr, the answer on stdout
        typer.echo(line, err=True)

    reason = balance_shape.engine_reason(sweep.shape, sweep.choices)
    why = f" ({reason})" if reason else ""
    say(f"balance on the {sweep.engine} engine{why}, {sweep.workers} workers")
    if sweep.engine == "compiled":
        load_compiled(spec.game, say)
    result = run_study(spec, where, sweep, Progress("balance"), say)
    write_outputs(where, result, sweep.base, balance_html(result))
    if as_json:
        echo_json(result)
        return
    for line in summary_lines(result, where):
        typer.echo(line)
