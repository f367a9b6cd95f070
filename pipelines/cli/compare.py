"""``tourney compare``, ``sweep`` and ``regress``: statistics between variants."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pipelines.cli.app import (
    ABLATIONS,
    BoardsOpt,
    CommonSeedOpt,
    GameOpt,
    JsonOpt,
    PlayersOpt,
    RulesOpt,
    WorkersOpt,
    app,
    command,
    echo_json,
)
from pipelines.experiments.game_choice import choose_game
from pipelines.play.game import check_game, parse_players
from sim.errors import InputError
from sim.runner.games import game_kind

if TYPE_CHECKING:
    from pipelines.experiments.sweep import SweepSpec

# Each command imports its pipeline when called (see pipelines.cli.games): the statistics,
# Parquet and plotting libraries they use are a second of start-up the other commands do not
# need.


BRulesOpt = Annotated[str | None, typer.Option("--b-rules", help="Variant B: preset or TOML file.")]
ARulesOpt = Annotated[
    str | None,
    typer.Option("--a-rules", help="Variant A (the base): preset or TOML file."),
]
BAblateOpt = Annotated[
    str | None,
    typer.Option("--ablate", help=f"B = A without one of the game's parts ({ABLATIONS})."),
]
AStrategyOpt = Annotated[
    str | None, typer.Option("--a-strategy", help="Candidate A against the field.")
]
BStrategyOpt = Annotated[
    str | None, typer.Option("--b-strategy", help="Candidate B against the field.")
]
BPlayersOpt = Annotated[
    str | None,
    typer.Option(
        "--b-players",
        help="B = the same seats played by these strategies (as many as --players): "
        "does first-seat advantage or length change with the players?",
    ),
]
MetricOpt = Annotated[
    str | None,
    typer.Option(
        "--metric",
        help="first-seat, turns, win:STRATEGY (default first-seat; "
        "candidate for strategy comparisons).",
    ),
]
BoundsOpt = Annotated[
    str | None,
    typer.Option(
        "--bounds",
        help="One-sided test H0,H1: the B - A difference under each hypothesis, in the "
        "metric's units (points of win share, turns); default 0,2 for win shares, 0,1 for "
        "turns.",
    ),
]
TwoSidedOpt = Annotated[
    bool,
    typer.Option(
        "--two-sided",
        help="Test no difference against a difference of at least --delta either way.",
    ),
]
DeltaOpt = Annotated[
    float | None,
    typer.Option(
        "--delta",
        help="With --two-sided: the smallest difference that matters, in the metric's "
        "units (default 2 points of win share, 1 turn).",
    ),
]
MaxGamesOpt = Annotated[int, typer.Option("--max-games", min=1)]
BatchBlocksOpt = Annotated[int, typer.Option("--batch-blocks", min=1, help="Blocks between looks.")]
PlanOpt = Annotated[
    float | None,
    typer.Option(
        "--plan",
        help="Only estimate the games a fixed two-sided test needs to detect a B - A "
        "difference of EFFECT, in the metric's units.",
    ),
]
PilotBlocksOpt = Annotated[int, typer.Option("--pilot-blocks", min=2)]


def _say(text: str) -> None:
    """A line of progress on stderr (the answer goes to stdout)."""
    typer.echo(f"progress: {text}", err=True)


PlayEngineOpt = Annotated[
    str,
    typer.Option(
        "--engine",
        help="auto: the game's compiled engine when every player compiles, else the "
        "reference; reference; or compiled. The games are the same.",
    ),
]


@command(app, "compare")
def compare_cmd(
    b_rules: BRulesOpt = None,
    a_rules: ARulesOpt = None,
    ablate: BAblateOpt = None,
    a_strategy: AStrategyOpt = None,
    b_strategy: BStrategyOpt = None,
    b_players: BPlayersOpt = None,
    game: GameOpt = None,
    players: PlayersOpt = None,
    metric: MetricOpt = None,
    bounds: BoundsOpt = None,
    two_sided: TwoSidedOpt = False,
    delta: DeltaOpt = None,
    max_games: MaxGamesOpt = 20_000,
    seed: CommonSeedOpt = 1,
    islands: BoardsOpt = None,
    workers: WorkersOpt = 2,
    batch_blocks: BatchBlocksOpt = 50,
    plan_effect: PlanOpt = None,
    pilot_blocks: PilotBlocksOpt = 100,
    as_json: JsonOpt = False,
    engine: PlayEngineOpt = "auto",
) -> None:
    """Compare A and B on common seeds (rules, an ablation, or strategies) with a one-sided or
    two-sided SPRT; the verdict in words, with the estimate and its 95% interval."""
    from pipelines.experiments.compare import compare, plan
    from pipelines.experiments.compare_setup import compare_spec
    from pipelines.experiments.progress import Progress
    from pipelines.report import verdicts

    spec = compare_spec(
        b_rules=b_rules,
        a_rules=a_rules,
        ablate=ablate,
        a_strategy=a_strategy,
        b_strategy=b_strategy,
        b_players=b_players,
        game=game,
        players=players,
        metric=metric,
        bounds=bounds,
        two_sided=two_sided,
        delta=delta,
        max_games=max_games,
        seed=seed,
        islands=islands,
        workers=workers,
        batch_blocks=batch_blocks,
        plan_effect=plan_effect,
        engine=engine,
    )
    if spec.engine == "compiled":
        from sim.runner.engine_choice import load_compiled

        load_compiled(spec.rules_a.game, _say)
    if plan_effect is not None:
        result = plan(spec, pilot_blocks, plan_effect, progress=Progress("compare --plan"))
        text = verdicts.plan_lines(result)
    else:
        result = compare(spec, Progress("compare"))
        text = verdicts.lines(result)
    if as_json:
        echo_json(result)
        return
    for line in text:
        typer.echo(line)


@command(app, "regress")
def regress_cmd(
    suite: Annotated[Path, typer.Argument(help="The suite TOML (see ci/nightly.toml).")],
    baseline: Annotated[Path, typer.Option("--baseline", help="The stored baseline JSON.")],
    update_baseline: Annotated[
        bool, typer.Option("--update-baseline", help="Write a new baseline and stop.")
    ] = False,
    out: Annotated[Path, typer.Option("--out", help="Where report.json and junit.xml go.")] = Path(
        "regress-out"
    ),
    workers: WorkersOpt = 2,
    exact: Annotated[
        bool, typer.Option("--exact", help="Exit 1 on any change, even one within noise.")
    ] = False,
) -> None:
    """Run a fixed suite against a baseline: each statistic reproduced exactly, changed within
    noise or changed significantly (paired over the replayed seeds). Exit 0 unless a
    significant change or changed golden games (1; --exact: any change), 2 on error."""
    from pipelines.experiments.progress import Progress
    from pipelines.experiments.regress import (
        check_cases_in_baseline,
        compare_to_baseline,
        read_baseline,
        read_suite,
        run_cases,
        write_baseline,
    )
    from pipelines.experiments.regress_checks import failing, junit_xml, summary_line, table_lines

    cases = read_suite(suite)
    # The baseline is checked before any game is played: a damaged one fails in a second.
    stored = None if update_baseline else read_baseline(baseline)
    if stored is not None:
        check_cases_in_baseline(cases, stored)
    current = run_cases(cases, workers, Progress("regress"))
    if stored is None:
        write_baseline(baseline, current)
        typer.echo(f"baseline written: {baseline} ({len(current)} cases)")
        return
    checks, cutoff = compare_to_baseline(cases, current, stored)
    for check in checks:
        check["failed"] = failing(check, exact)
    failed = sum(1 for c in checks if c["failed"])
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(
        json.dumps({"suite": str(suite), "baseline": str(baseline), "exact": exact,
                    "summary": summary_line(checks), "cutoff": cutoff.sentence(),
                    "failed": failed, "checks": checks}, indent=1, default=str) + "\n"
    )  # fmt: skip
    (out / "junit.xml").write_text(junit_xml(checks, cutoff, exact))
    for line in table_lines(checks):
        typer.echo(line)
    typer.echo(summary_line(checks))
    typer.echo(cutoff.sentence())
    rule = "any change" if exact else "a significant change or changed golden games"
    typer.echo(f"{failed} checks fail the run (exit 1 on {rule}); report: {out / 'report.json'}")
    if failed:
        raise typer.Exit(1)


ParamOpt = Annotated[
    list[str],
    typer.Option("--param", help="KEY=V1,V2,... a rules key of the game (give one or two)."),
]
PointGamesOpt = Annotated[int, typer.Option("--games", min=2, help="Games per grid point.")]
SweepOutOpt = Annotated[Path, typer.Option("--out", help="Where sweep.csv/json/png go.")]
RowsJsonOpt = Annotated[bool, typer.Option("--json", help="Print the rows as JSON.")]


@command(app, "sweep")
def sweep_cmd(
    param: ParamOpt,
    game: GameOpt = None,
    players: PlayersOpt = None,
    rules: RulesOpt = None,
    games: PointGamesOpt = 2000,
    seed: CommonSeedOpt = 1,
    islands: BoardsOpt = None,
    workers: WorkersOpt = 2,
    out: SweepOutOpt = Path("sweep-out"),
    as_json: RowsJsonOpt = False,
    engine: PlayEngineOpt = "auto",
) -> None:
    """Sweep one or two rule parameters on common seeds: fairness, length, curses, spread."""
    from pipelines.experiments.progress import Progress
    from pipelines.experiments.simulate import game_islands
    from pipelines.experiments.sweep import SweepSpec, engine_of, parse_param, sweep
    from pipelines.play.outcomes import Lineup
    from sim.runner.engine_choice import load_compiled

    keys = [p.partition("=")[0].strip() for p in param]
    game = choose_game(game, players=players, rules=[rules], boards=islands is not None, keys=keys)
    check_game(game)
    kind = game_kind(game)
    if not 1 <= len(param) <= 2:
        raise InputError(f"--param: give one or two parameters, got {len(param)}")
    base = kind.load_rules(rules or kind.default_rules)
    params = tuple((k, tuple(v)) for k, v in (parse_param(p, base) for p in param))
    if len(params) == 2 and params[0][0] == params[1][0]:
        raise InputError(f"--param: give two different keys, not {params[0][0]} twice")
    lineup = Lineup.of(parse_players(players, game), game)
    spec = SweepSpec(
        labels=lineup.labels,
        factories=lineup.factories,
        base=base,
        params=params,
        games=games,
        seed=seed,
        islands=game_islands(kind, islands, "--islands", "--islands"),
        workers=workers,
        seats=lineup.seats,
        engine=engine,
    )
    spec = engine_of(spec)
    typer.echo(f"sweep on the {spec.engine} engine", err=True)
    if spec.engine == "compiled":
        load_compiled(game, _say)
    rows = sweep(spec, Progress("sweep"))
    said, table = _write_sweep(out, rows, spec, rules or kind.default_rules, kind.title)
    if as_json:
        echo_json(rows)
        return
    for line in [*said, "", *table]:  # the headline on top, as in every report
        typer.echo(line)
    typer.echo(f"tables, plots and summary.md: {out}")


def _write_sweep(
    out: Path, rows: list[dict[str, Any]], spec: SweepSpec, base_name: str, title: str
) -> tuple[list[str], list[str]]:
    """Write the sweep's tables, plots and summary.md into ``out``; its headline and table
    lines."""
    from pipelines.experiments.sweep import base_point, table_lines
    from pipelines.report.headline import sweep_headline
    from reports import documents, figures

    params = spec.params
    out.mkdir(parents=True, exist_ok=True)
    (out / "sweep.json").write_text(json.dumps(rows, indent=1) + "\n")
    header = list(rows[0])
    lines = [",".join(header)] + [",".join(str(r[h]) for h in header) for r in rows]
    (out / "sweep.csv").write_text("\n".join(lines) + "\n")
    x = params[0][0]
    hue = params[1][0] if len(params) == 2 else None
    base_values = base_point(spec)
    paired = "first_seat_vs_base" in rows[0]
    (out / "first_seat.png").write_bytes(
        figures.sweep_lines(
            rows,
            x,
            hue,
            ("first_seat_advantage", "first_seat_low", "first_seat_high"),
            "first-seat advantage",
            "points",
            base_values,
            base_name,
            ("first_seat_vs_base", "first_seat_vs_base_low", "first_seat_vs_base_high")
            if paired
            else None,
            points=True,
        )
    )
    (out / "turns.png").write_bytes(
        figures.sweep_lines(
            rows,
            x,
            hue,
            ("mean_turns", "turns_low", "turns_high"),
            "game length",
            "turns",
            base_values,
            base_name,
            ("turns_vs_base", "turns_vs_base_low", "turns_vs_base_high") if paired else None,
        )
    )
    keys = [k for k, _ in params]
    said = sweep_headline(rows, keys)
    table = table_lines(rows, keys, len(spec.labels), base_values)
    (out / "summary.md").write_text(
        documents.markdown_page(
            f"tourney sweep: {', '.join(keys)}",
            f"{title}, {', '.join(spec.labels)}; every figure with its 95% interval.",
            said,
            ["```", *table, "```"],
        )
    )
    return said, table
