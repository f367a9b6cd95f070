"""The options of ``tourney simulate``: what a run plays and how (see
:func:`pipelines.experiments.simulate.resolve`, which also reads them from a spec file)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pipelines.cli.app import ABLATIONS

SpecArg = Annotated[
    Path | None, typer.Argument(help="A spec TOML file (see data/specs/demo.toml).")
]
PoolOpt = Annotated[
    str | None,
    typer.Option(
        "--pool",
        help="Instead of --players: strategies every combination of which is played at "
        "each of --table-sizes (balanced per table size).",
    ),
]
TableSizesOpt = Annotated[
    str | None,
    typer.Option(
        "--table-sizes",
        help="A pool's player counts, e.g. 2,3,4 (default: 2 to 4, as the pool allows).",
    ),
]
RunGamesOpt = Annotated[
    int | None,
    typer.Option(
        "--games",
        help="Games to play (a pool: per table size, rounded up to balanced cycles); "
        "more games than a run has grows it.",
    ),
]
RootSeedOpt = Annotated[int | None, typer.Option("--seed", help="The root seed.")]
SeatingOpt = Annotated[
    str | None, typer.Option("--seating", help="rotate (duplicate format) or random.")
]
IslandsOpt = Annotated[
    str | None,
    typer.Option("--islands", help="A name, a comma list, all, or generated:N."),
]
RulesFileOpt = Annotated[str | None, typer.Option("--rules", help="A rules preset or TOML file.")]
BackendOpt = Annotated[
    str | None, typer.Option("--backend", help="ray (default), process or serial.")
]
ProcessesOpt = Annotated[int | None, typer.Option("--workers", help="Worker processes.")]
ShardSizeOpt = Annotated[
    int | None, typer.Option("--shard-size", help="Games per task (default 1000).")
]
OutOpt = Annotated[
    str | None,
    typer.Option(
        "--out",
        help="Run directory, or s3://BUCKET/PREFIX (default data/runs/<id>).",
    ),
]
SharedOutOpt = Annotated[
    bool | None,
    typer.Option(
        "--shared-out",
        help="With --address: the --out path is on a filesystem every node mounts there.",
    ),
]
RunAblateOpt = Annotated[
    str | None,
    typer.Option("--ablate", help=f"The same seeds without one of the game's parts ({ABLATIONS})."),
]
TwinOpt = Annotated[
    str | None,
    typer.Option(
        "--twin",
        help=f"Also play the same seeds without one of the game's parts ({ABLATIONS}), "
        "into <out>-without-X.",
    ),
]
AuditOpt = Annotated[
    bool | None,
    typer.Option(
        "--audit",
        help="For untrusted plug-ins: check after every decision that the game is "
        "unchanged (a change is a violation and is undone). Slower.",
    ),
]
IsolateOpt = Annotated[
    bool | None,
    typer.Option(
        "--isolate",
        help="For untrusted plug-ins: each plays in its own process, which sees only its "
        "view (no frame, class or engine of the game's process). Slower.",
    ),
]
DecisionTimeoutOpt = Annotated[
    float | None,
    typer.Option(
        "--decision-timeout",
        help="Seconds a decision may take; a strategy past it is recorded and its game "
        "ends (end reason timeout). Off by default.",
    ),
]
EngineOpt = Annotated[
    str | None,
    typer.Option(
        "--engine",
        help="auto (default): the game's compiled engine when every player has a compiled "
        "version and no guard is asked for, else the reference; reference; or compiled. The "
        "games are the same; a compiled run keeps no move log (its manifest says so).",
    ),
]
ShardTimeoutOpt = Annotated[
    float | None,
    typer.Option(
        "--shard-timeout",
        help="Seconds a shard may take before the run stops with exit 1 (process and "
        "ray backends). Off by default.",
    ),
]
