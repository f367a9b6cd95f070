"""``tourney play``, ``bench``, ``simulate``, ``bench-runner``, ``report`` and ``verify``."""

from __future__ import annotations

import importlib
import json
import os
import shlex
from pathlib import Path
from typing import Annotated, Any

import typer

from pipelines.cli.app import (
    ABLATIONS,
    GAME_HELP,
    AddressOpt,
    GameOpt,
    JsonOpt,
    PlayersOpt,
    RulesOpt,
    app,
    command,
    echo_json,
)
from pipelines.cli.run_options import (
    AuditOpt,
    BackendOpt,
    DecisionTimeoutOpt,
    EngineOpt,
    IslandsOpt,
    IsolateOpt,
    OutOpt,
    PoolOpt,
    ProcessesOpt,
    RootSeedOpt,
    RulesFileOpt,
    RunAblateOpt,
    RunGamesOpt,
    SeatingOpt,
    ShardSizeOpt,
    ShardTimeoutOpt,
    SharedOutOpt,
    SpecArg,
    TableSizesOpt,
    TwinOpt,
)
from pipelines.experiments.game_choice import choose_game
from pipelines.play.game import (
    bench,
    check_game,
    game_json_rows,
    game_text,
    parse_players,
    play_game,
)
from reports import numbers
from sim.errors import InputError
from sim.runner.games import GAMES

# The commands that run tournaments or write reports import their pipelines when called:
# those pull in Ray, pyarrow, DuckDB, Polars and matplotlib, about a second of start-up that
# ``tourney play``, ``bench`` and ``--help`` do not need.


SeedOpt = Annotated[int | None, typer.Option("--seed", min=0, help="The game seed.")]
IslandOpt = Annotated[
    str | None, typer.Option("--island", help="Built-in name, generated:SEED or a file.")
]
AblateOpt = Annotated[
    str | None,
    typer.Option("--ablate", help=f"Play the rules without one of the game's parts ({ABLATIONS})."),
]
RunOpt = Annotated[
    str | None,
    typer.Option(
        "--run", help="Replay a game of this run (directory or s3://) with --game-id, checked."
    ),
]
GameIdOpt = Annotated[
    int | None, typer.Option("--game-id", min=0, help="The game of --run to replay.")
]


def _one_game(
    game: str | None,
    players: str | None,
    seed: int | None,
    island: str | None,
    rules: str | None,
    ablate: str | None,
    run: str | None,
    game_id: int | None,
    record: bool,
) -> tuple[Any, dict[str, Any] | None, int | None]:
    """The game the options name, played (or a run's game replayed and checked): the game,
    its replay document when ``record``, and the move rows checked against the run."""
    if run is not None or game_id is not None:
        from pipelines.metrics.source import open_run
        from pipelines.play.replay import replay

        if run is None or game_id is None:
            raise InputError("--run and --game-id go together: the run and its game to replay")
        options = (
            ("--players", players),
            ("--seed", seed),
            ("--island", island),
            ("--rules", rules),
            ("--ablate", ablate),
        )
        given = [name for name, value in options if value is not None]
        if given:
            raise InputError(f"--run replays the run's own game: {given[0]} cannot be given too")
        if not record:
            played, checked = replay(run, game_id)
            return played, None, checked
        from pipelines.report.replay_page import record_run_game

        return record_run_game(open_run(run), game_id)
    game = choose_game(game, players=players, rules=[rules], boards=island is not None)
    check_game(game)
    specs = parse_players(players, game)
    if not record:
        return play_game(seed or 0, specs, island or "aBc-2", rules, game, ablate), None, None
    from pipelines.report.replay_page import record_play

    played, doc = record_play(seed or 0, specs, island or "aBc-2", rules, game, ablate)
    return played, doc, None


def _write_page(doc: dict[str, Any], path: Path, err: bool = False) -> None:
    """Write the page and say where (on stderr with ``err``: stdout holds JSON lines)."""
    from pipelines.report.replay_page import write_page

    size = write_page(doc, path)
    steps = len(doc["events"])
    typer.echo(f"replay page: {path} ({size / 1024:,.0f} KiB, {steps:,} steps)", err=err)


@command(app, "play")
def play(
    game: GameOpt = None,
    players: PlayersOpt = None,
    seed: SeedOpt = None,
    island: IslandOpt = None,
    rules: RulesOpt = None,
    ablate: AblateOpt = None,
    run: RunOpt = None,
    game_id: GameIdOpt = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="JSON lines: one per event, then the result.")
    ] = False,
    html: Annotated[
        Path | None,
        typer.Option("--html", help="Also write the game's replay page to this file."),
    ] = None,
) -> None:
    """Play one seeded game, or replay a game of a run, and print it, ending with the scores
    and the winner(s)."""
    played, doc, checked = _one_game(
        game, players, seed, island, rules, ablate, run, game_id, html is not None
    )
    _show(played, as_json)
    if checked is not None and not as_json:
        from pipelines.play.replay import checked_words

        typer.echo(f"replayed game {game_id} of {run}: {checked_words(checked)}")
    if doc is not None and html is not None:
        _write_page(doc, html, err=as_json)


@command(app, "replay")
def replay_cmd(
    game: GameOpt = None,
    players: PlayersOpt = None,
    seed: SeedOpt = None,
    island: IslandOpt = None,
    rules: RulesOpt = None,
    ablate: AblateOpt = None,
    run: RunOpt = None,
    game_id: GameIdOpt = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="The page to write (default: GAME-seedN.html, or RUN-gameN.html for --run).",
        ),
    ] = None,
) -> None:
    """Write one game's replay page: a self-contained HTML file that steps through every
    event with the board, hands, maps and scores (Tobago) or play area and stashes (Treasure
    Island) at each step. The game is given as for ``tourney play``."""
    _, doc, checked = _one_game(game, players, seed, island, rules, ablate, run, game_id, True)
    assert doc is not None
    if out is None:
        # The run's last name component, of a path or an s3:// URI alike.
        name = run.rstrip("/").rsplit("/", 1)[-1] if run is not None else ""
        stem = f"{name}-game{game_id}" if run is not None else f"{doc['game']}-seed{seed or 0}"
        out = Path(f"{stem}.html")
    if checked is not None:
        from pipelines.play.replay import checked_words

        typer.echo(f"replayed game {game_id} of {run}: {checked_words(checked)}")
    _write_page(doc, out)


def _show(played: Any, as_json: bool) -> None:
    if as_json:
        for row in game_json_rows(played):
            typer.echo(json.dumps(row, separators=(",", ":")))
        return
    for line in game_text(played):
        typer.echo(line)


def compiled_bench(game: str) -> Any:
    """The ``bench_compiled`` of ``game``'s own analysis package
    (``pipelines.<game>.compiled_bench``); ``InputError`` for a game without one."""
    try:
        module = importlib.import_module(f"pipelines.{game.replace('-', '_')}.compiled_bench")
    except ModuleNotFoundError:
        raise InputError(f"--engine compiled: {game!r} has no compiled engine") from None
    return module.bench_compiled


@command(app, "bench")
def bench_cmd(
    game: GameOpt = None,
    games: Annotated[int, typer.Option("--games", min=1, help="Games to play.")] = 2000,
    players: PlayersOpt = None,
    rules: RulesOpt = None,
    chess_seconds: Annotated[
        float,
        typer.Option(
            "--chess-seconds", min=0, help="Time for the python-chess yardstick (0: skip)."
        ),
    ] = 3.0,
    rounds: Annotated[
        int,
        typer.Option(
            "--rounds",
            min=1,
            help="Alternate the games and the yardstick in this many timed rounds.",
        ),
    ] = 5,
    seating: Annotated[
        str,
        typer.Option(
            "--seating",
            help="The games of a run with this seating: rotate (the default) or random.",
        ),
    ] = "rotate",
    engine: Annotated[
        str,
        typer.Option(
            "--engine",
            help="reference (the default) or compiled (Treasure Island's numba engine, for "
            "the random, stop-at, bust-threshold and expected-value players).",
        ),
    ] = "reference",
    as_json: JsonOpt = False,
) -> None:
    """Play games on one core and print games/s and decisions/s."""
    game = choose_game(game, players=players, rules=[rules])
    check_game(game)
    lineup = parse_players(players, game)
    if engine == "compiled":
        # A game's compiled engine is its own analysis package's (this module names no
        # game), imported when asked for: loading it takes seconds.
        result = compiled_bench(game)(games, lineup, rules, chess_seconds, game, rounds, seating)
    elif engine == "reference":
        result = bench(games, lineup, rules, chess_seconds, game, rounds, seating)
    else:
        raise InputError(f"--engine: {engine!r} is not allowed (reference or compiled)")
    if as_json:
        echo_json(result)
        return
    typer.echo(
        f"{result['games']} games in {result['seconds']:.2f} s: "
        f"{result['games_per_s']:.1f} games/s, {result['decisions_per_s']:.0f} decisions/s "
        f"(fastest of {len(result['rounds'])} rounds: "
        f"{result['best_round_games_per_s']:.1f} games/s)"
    )
    typer.echo(
        "ended by: "
        + ", ".join(f"{reason} {count:,}" for reason, count in result["end_reasons"].items())
    )
    if "chess_random_games_per_s" in result:
        typer.echo(
            f"python-chess random games: {result['chess_random_games_per_s']:.1f}/s "
            f"(fastest round {result['best_round_chess_random_games_per_s']:.1f}/s); ratio "
            f"{result['ratio_to_chess']:.2f}x on the fastest rounds, "
            f"{result['overall_ratio_to_chess']:.2f}x overall"
        )


@command(app, "simulate")
def simulate_cmd(
    spec: SpecArg = None,
    game: Annotated[str | None, typer.Option("--game", help=GAME_HELP)] = None,
    players: PlayersOpt = None,
    pool: PoolOpt = None,
    table_sizes: TableSizesOpt = None,
    games: RunGamesOpt = None,
    seed: RootSeedOpt = None,
    seating: SeatingOpt = None,
    islands: IslandsOpt = None,
    rules: RulesFileOpt = None,
    backend: BackendOpt = None,
    workers: ProcessesOpt = None,
    shard_size: ShardSizeOpt = None,
    address: AddressOpt = None,
    out: OutOpt = None,
    shared_out: SharedOutOpt = None,
    ablate: RunAblateOpt = None,
    twin: TwinOpt = None,
    audit: AuditOpt = None,
    isolate: IsolateOpt = None,
    decision_timeout: DecisionTimeoutOpt = None,
    shard_timeout: ShardTimeoutOpt = None,
    engine: EngineOpt = None,
) -> None:
    """Run a tournament: seeded games in shards, Parquet tables, resumable."""
    from pipelines.experiments.simulate import read_spec, resolve, twin_config

    file_values = read_spec(spec) if spec is not None else {}
    source = str(spec) if spec is not None else "command line"
    flags = {
        "game": game,
        "players": players,
        "pool": pool,
        "table_sizes": table_sizes,
        "games": games,
        "seed": seed,
        "seating": seating,
        "islands": islands,
        "rules": rules,
        "backend": backend,
        "workers": workers,
        "shard_size": shard_size,
        "address": address,
        "out": out,
        "shared_out": shared_out,
        "ablate": ablate,
        "twin": twin,
        "audit": audit,
        "isolate": isolate,
        "decision_timeout": decision_timeout,
        "shard_timeout": shard_timeout,
        "engine": engine,
    }
    config = resolve(file_values, flags, source)
    counterfactual = twin_config(file_values, flags, source)
    _simulate_one(config)
    if counterfactual is None:
        typer.echo(f"report: tourney report {shlex.quote(str(config.run_dir))}")
    else:
        typer.echo(f"twin on the same seeds: {counterfactual.rules_source}")
        _simulate_one(counterfactual)
        both = " ".join(shlex.quote(str(c.run_dir)) for c in (config, counterfactual))
        typer.echo(f"report both: tourney report {both}")


def _on_boards(config: Any) -> str:
    """Where a run plays, for its start line, in its game's words (Tobago: ``on 32
    islands``): nothing for a game without boards."""
    counted = GAMES[config.game].boards_counted(len(config.islands))
    return f" on {counted}" if counted else ""


def _simulate_one(config: Any) -> None:
    """Play one run with progress, then print its win table and its warnings."""
    from pipelines.experiments.pools import describe
    from pipelines.experiments.progress import Progress
    from pipelines.experiments.simulate import at_once, simulate
    from pipelines.metrics.source import open_run
    from pipelines.report.win_table import format_win_table, warning_lines, win_table
    from sim.runner.run import GROWING

    progress = Progress()

    def start(to_play: int, notes: list[str]) -> None:
        # Called once the run directory is held and checked: a growth and what a resume
        # repaired, then what is left to play.
        repairs = [n for n in notes if not n.startswith(GROWING)]
        for note in notes:
            if note.startswith(GROWING):
                typer.echo(note)
        for note in repairs[:3]:
            typer.echo(f"resume: {note}", err=True)
        if len(repairs) > 3:
            typer.echo(f"resume: ... and {len(repairs) - 3} more", err=True)
        typer.echo(
            f"run {config.run_dir}: {describe(config)} ({to_play:,} to play)"
            f"{_on_boards(config)}, backend {config.backend}"
        )
        progress.begin(to_play, at_once(config, to_play))  # the speed: once each has reported

    try:
        report = simulate(config, progress, start)
    except KeyboardInterrupt:
        typer.echo(
            "interrupted: finished shards are kept; run the same command to resume", err=True
        )
        raise typer.Exit(130) from None
    typer.echo(
        f"played {report.games_played} games in {report.seconds:.1f} s "
        f"({report.shards_skipped} shards already done) on the {report.engine} engine"
    )
    opened = open_run(config.run_dir)  # checked once, read twice (a store's run: copied once)
    for line in format_win_table(win_table(opened)):
        typer.echo(line)
    names = ",".join(sorted(opened.tables))
    typer.echo(f"tables: {config.run_dir}/{{{names}}}/*.parquet")
    for line in warning_lines(opened):
        typer.echo(line, err=True)


@command(app, "bench-runner")
def bench_runner_cmd(
    game: GameOpt = None,
    games: Annotated[int, typer.Option("--games", min=1, help="Games per run.")] = 20_000,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Ray workers.")] = 2,
    shard_size: Annotated[int, typer.Option("--shard-size", min=1)] = 1000,
    as_json: JsonOpt = False,
) -> None:
    """Time the runner: one serial worker against Ray workers on the same games."""
    from pipelines.experiments.run_bench import bench_runner
    from pipelines.experiments.simulate import resolve

    flags = {"game": game, "games": games, "shard_size": shard_size, "out": "unused"}
    base = resolve({}, flags, "bench")
    result = bench_runner(base, workers)
    if as_json:
        echo_json(result)
        return
    for name in ("serial", "ray"):
        row = result[name]
        typer.echo(
            f"{name:<6} {row['workers']} worker(s): {row['seconds']:.1f} s, "
            f"{row['games_per_s']:.0f} games/s, logs {100 * row['log_share_of_engine']:.0f}% "
            f"of engine time, peak worker RSS {row['peak_worker_rss_mb']:.0f} MB"
        )
    typer.echo(
        f"Ray speedup {result['ray_speedup']:.2f}x wall clock, "
        f"{result['ray_speedup_after_startup']:.2f}x after Ray's start-up "
        f"({result['ray']['startup_seconds']:.1f} s); moves "
        f"{result['moves_mib_per_million_rows']:.2f} MiB per million rows"
    )


@command(app, "report")
def report_cmd(
    runs: Annotated[list[str], typer.Argument(help="One or more run directories or s3:// URIs.")],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Output directory (default <run>/report; data/reports/<name> for s3://).",
        ),
    ] = None,
    formats: Annotated[
        str, typer.Option("--format", help="Comma-separated: html, md, json.")
    ] = "html,md,json",
    include_unfinished: Annotated[
        bool,
        typer.Option(
            "--include-unfinished",
            help="Count games cut off at the turn cap or by a deadlock in win rates.",
        ),
    ] = False,
    allow_mixed_code: Annotated[
        bool,
        typer.Option(
            "--allow-mixed-code",
            help="Report runs of one lineup played by different code, each code as its own "
            "cohort (refused otherwise).",
        ),
    ] = False,
    choices: Annotated[
        int,
        typer.Option(
            "--choices",
            help="Games played again per table size to count the choices at each decision "
            "(each with its strategies, so a search player's games cost what they did in the "
            "run); 0: not counted.",
        ),
    ] = 40,
) -> None:
    """Write the win-rate, curse-impact and board-fairness report of one or more runs."""
    from pipelines.report.assemble import FORMATS as REPORT_FORMATS
    from pipelines.report.assemble import build_report

    chosen = {f.strip() for f in formats.split(",") if f.strip()}
    unknown = sorted(chosen - set(REPORT_FORMATS))
    if unknown or not chosen:
        raise InputError(
            f"--format {formats!r}: unknown format {unknown[0] if unknown else ''!r} "
            f"(allowed: {', '.join(REPORT_FORMATS)})"
        )
    try:
        result = build_report(
            list(runs), out, chosen, include_unfinished, allow_mixed_code, choices
        )
    except OSError as exc:  # a read-only or full disk under the report directory
        where = exc.filename or out or Path(runs[0]) / "report"
        # The system's words for the errno (pyarrow's own strerror is a paragraph).
        why = os.strerror(exc.errno) if exc.errno else str(exc).splitlines()[0]
        raise InputError(f"{where}: cannot write the report ({why})") from None
    if not result.complete:
        typer.echo("note: unfinished run, reported for the games it has", err=True)
    if result.warnings:
        said = numbers.counted(result.warnings, "warning")
        typer.echo(f"{said}: see the top of the report", err=True)
    if result.kept:
        typer.echo(
            f"note: kept {', '.join(result.kept)}: listed by the last report but changed since "
            "it was written (or not a report's), so not deleted",
            err=True,
        )
    typer.echo(f"report of {result.games} games: {result.out_dir}")
    if "html" in chosen:
        typer.echo(f"open {result.out_dir / 'index.html'}")


@command(app, "verify")
def verify_cmd(
    runs: Annotated[list[str], typer.Argument(help="One or more run directories or s3:// URIs.")],
) -> None:
    """Check runs against their manifests: every part file present, none extra, each with its
    recorded size, row count and sha256. Exit 0 when all are sound, else 2 naming the file."""
    import time

    from pipelines.metrics.source import check_run

    for path in runs:
        start = time.perf_counter()
        info = check_run(path, hashes=True)
        checked = info.checked
        status = info.manifest.get("status", "unknown")
        if status == "running":  # check_run found no writer holding it: its simulate stopped
            status = "unfinished: the simulate writing it stopped"
        left = checked.leftovers
        stray = (
            f"; {len(left)} unrecorded part file{'s' if len(left) != 1 else ''} of unplayed "
            f"shards left by the interrupted simulate ({', '.join(left)}) not read, and "
            "deleted by its next run"
            if left
            else ""
        )
        typer.echo(
            f"{path}: sound ({status}): {checked.games:,} games in {checked.files} part files "
            f"of {len(info.tables)} tables, {checked.bytes / 1e6:,.1f} MB, sizes, row counts "
            f"and sha256 checked in {time.perf_counter() - start:.1f} s{stray}"
        )
