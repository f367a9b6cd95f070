"""The ``tourney`` command line (typer).

Every command reports bad input as one line on stderr and exits with code 2 (see
:class:`sim.errors.InputError`); nothing else of ours prints tracebacks at users.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, ParamSpec, TypeVar

import typer

from pipelines.board_bench import measure_board_setup
from pipelines.compare import CompareSpec, check_metric, compare, plan
from pipelines.play import bench, check_game, game_json_rows, game_text, parse_players, play_game
from pipelines.regress import (
    compare_to_baseline,
    junit_xml,
    read_baseline,
    read_suite,
    run_case,
    write_baseline,
)
from pipelines.report import FORMATS as REPORT_FORMATS
from pipelines.report import build_report
from pipelines.run_bench import bench_runner
from pipelines.simulate import (
    ABLATIONS,
    Progress,
    parse_islands,
    read_spec,
    resolve,
    simulate,
)
from pipelines.sweep import SweepSpec, parse_param, sweep
from pipelines.win_table import format_win_table, win_table
from reports import figures
from sim.errors import InputError
from sim.runner.compaction import shards_written
from sim.seeding import stream
from sim.tobago.board_json import board_to_json
from sim.tobago.catalog import builtin_names, resolve_board
from sim.tobago.clues import clue_masks, default_deck, default_deck_path, load_clue_deck
from sim.tobago.island_file import format_island
from sim.tobago.modular import load_island, parse_name
from sim.tobago.render import render_island
from sim.tobago.rules import load_rules, with_overrides
from strategies.registry import parse_strategy, split_specs

P = ParamSpec("P")
R = TypeVar("R")


def command(target: typer.Typer, name: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Register a command whose :class:`InputError` becomes one stderr line and exit code 2."""

    def register(func: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(func)
        def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return func(*args, **kwargs)
            except InputError as exc:
                typer.echo(f"tourney: error: {exc}", err=True)
                raise typer.Exit(2) from None

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


def _echo_json(obj: object) -> None:
    typer.echo(json.dumps(obj, indent=None, separators=(",", ":")))


@command(board_app, "list")
def board_list(
    as_json: Annotated[bool, typer.Option("--json", help="One JSON array.")] = False,
) -> None:
    """The 32 built-in islands with their cell counts."""
    rows = []
    for name in builtin_names():
        island = load_island(name)
        parsed = parse_name(name)
        assert parsed is not None
        faces, arrangement = parsed
        rows.append(
            {
                "island": name,
                "faces": "".join(faces),
                "arrangement": arrangement,
                "cells": island.n,
                "coast_cells": island.coast_mask.bit_count(),
                "inland_cells": island.n - island.coast_mask.bit_count(),
            }
        )
    if as_json:
        _echo_json(rows)
        return
    typer.echo(f"{'island':<8} {'cells':>5} {'coast':>5} {'inland':>6}")
    for row in rows:
        typer.echo(
            f"{row['island']:<8} {row['cells']:>5} {row['coast_cells']:>5} {row['inland_cells']:>6}"
        )


@command(board_app, "show")
def board_show(
    island: IslandArg,
    landmarks: LandmarkSeed = 0,
    deck: DeckOpt = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object: cells, landmarks, clue cells.")
    ] = False,
) -> None:
    """Draw an island with its landmarks and list how many cells each clue card leaves."""
    board = resolve_board(island)
    marks = board.landmarks(stream(landmarks, "landmarks"))
    clue_deck = load_clue_deck(deck) if deck is not None else default_deck()
    if as_json:
        _echo_json(board_to_json(board.island, marks, clue_deck))
        return
    isl = board.island
    typer.echo(f"{isl.name}: {isl.n} cells ({isl.origin}), landmark seed {landmarks}")
    typer.echo(render_island(isl, marks, color=sys.stdout.isatty()))
    masks = clue_masks(isl, marks, clue_deck)
    source = deck if deck is not None else default_deck_path()
    typer.echo(f"\nclue candidates ({clue_deck.name}, {source}): cells left of {isl.n}")
    width = max(len(c.text) for c in clue_deck.cards)
    for start in range(0, len(clue_deck.cards), 3):
        cols = [
            f"{c.id:>2} {c.text:<{width}} {masks[c.id].bit_count():>3}"
            for c in clue_deck.cards[start : start + 3]
        ]
        typer.echo("   ".join(cols))


@command(board_app, "export")
def board_export(island: IslandArg, landmarks: LandmarkSeed = 0) -> None:
    """Print an island (with one landmark placement) as an editable island file."""
    board = resolve_board(island)
    marks = board.landmarks(stream(landmarks, "landmarks"))
    typer.echo(format_island(board.island, marks), nl=False)


@command(board_app, "bench")
def board_bench(
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="Rounds over all islands.")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
) -> None:
    """Time board setup on one core: island tables from scratch, landmarks, clue masks."""
    result = measure_board_setup(builtin_names(), default_deck(), repeat)
    if as_json:
        _echo_json(result)
        return
    for key, label in (("cold_setup", "from scratch"), ("per_game_setup", "per game")):
        row = result[key]
        typer.echo(
            f"{label:<13} mean {row['mean_ms']:.3f} ms  median {row['median_ms']:.3f} ms  "
            f"p99 {row['p99_ms']:.3f} ms  max {row['max_ms']:.3f} ms"
        )
    typer.echo(f"({result['islands']} islands x {result['rounds']} rounds)")


GameOpt = Annotated[str, typer.Option("--game", help="The game (tobago).")]
PlayersOpt = Annotated[
    str | None,
    typer.Option(
        "--players",
        help="Comma-separated strategies, e.g. hunter,cautious(take_at=4),pkg.mod:Class "
        "(default: hunter,cartographer,collector,cautious).",
    ),
]
RulesOpt = Annotated[
    str, typer.Option("--rules", help="A rules preset (rulebook, bga) or a TOML file.")
]


@command(app, "play")
def play(
    game: GameOpt = "tobago",
    players: PlayersOpt = None,
    seed: Annotated[int, typer.Option("--seed", min=0, help="The game seed.")] = 0,
    island: Annotated[
        str, typer.Option("--island", help="Built-in name, generated:SEED or a file.")
    ] = "aBc-2",
    rules: RulesOpt = "rulebook",
    as_json: Annotated[
        bool, typer.Option("--json", help="JSON lines: one per event, then the result.")
    ] = False,
) -> None:
    """Play one seeded game and print it, ending with the scores and the winner(s)."""
    check_game(game)
    played = play_game(seed, parse_players(players), island, rules)
    if as_json:
        for row in game_json_rows(played):
            typer.echo(json.dumps(row, separators=(",", ":")))
        return
    for line in game_text(played):
        typer.echo(line)


@command(app, "bench")
def bench_cmd(
    game: GameOpt = "tobago",
    games: Annotated[int, typer.Option("--games", min=1, help="Games to play.")] = 2000,
    players: PlayersOpt = None,
    rules: RulesOpt = "rulebook",
    chess_seconds: Annotated[
        float,
        typer.Option(
            "--chess-seconds", min=0, help="Time for the python-chess yardstick (0: skip)."
        ),
    ] = 3.0,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
) -> None:
    """Play games on one core and print games/s and decisions/s."""
    check_game(game)
    result = bench(games, parse_players(players), rules, chess_seconds)
    if as_json:
        _echo_json(result)
        return
    typer.echo(
        f"{result['games']} games in {result['seconds']:.2f} s: "
        f"{result['games_per_s']:.1f} games/s, {result['decisions_per_s']:.0f} decisions/s"
    )
    if "chess_random_games_per_s" in result:
        typer.echo(
            f"python-chess random games: {result['chess_random_games_per_s']:.1f}/s "
            f"(ratio {result['ratio_to_chess']:.1f}x)"
        )


@command(app, "simulate")
def simulate_cmd(
    spec: Annotated[
        Path | None, typer.Argument(help="A spec TOML file (see data/specs/demo.toml).")
    ] = None,
    game: Annotated[str | None, typer.Option("--game", help="The game (tobago).")] = None,
    players: PlayersOpt = None,
    games: Annotated[int | None, typer.Option("--games", help="Games to play.")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="The root seed.")] = None,
    seating: Annotated[
        str | None, typer.Option("--seating", help="rotate (duplicate format) or random.")
    ] = None,
    islands: Annotated[
        str | None,
        typer.Option("--islands", help="A name, a comma list, all, or generated:N."),
    ] = None,
    rules: Annotated[
        str | None, typer.Option("--rules", help="A rules preset or TOML file.")
    ] = None,
    backend: Annotated[
        str | None, typer.Option("--backend", help="ray (default), process or serial.")
    ] = None,
    workers: Annotated[int | None, typer.Option("--workers", help="Worker processes.")] = None,
    shard_size: Annotated[
        int | None, typer.Option("--shard-size", help="Games per task (default 1000).")
    ] = None,
    address: Annotated[
        str | None, typer.Option("--address", help="Join an existing Ray cluster.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Run directory (default data/runs/<id>).")
    ] = None,
    ablate: Annotated[
        str | None,
        typer.Option("--ablate", help="The same seeds without: curses or amulets."),
    ] = None,
) -> None:
    """Run a tournament: seeded games in shards, Parquet tables, resumable."""
    file_values = read_spec(spec) if spec is not None else {}
    source = str(spec) if spec is not None else "command line"
    flags = {
        "game": game,
        "players": players,
        "games": games,
        "seed": seed,
        "seating": seating,
        "islands": islands,
        "rules": rules,
        "backend": backend,
        "workers": workers,
        "shard_size": shard_size,
        "address": address,
        "out": str(out) if out is not None else None,
        "ablate": ablate,
    }
    config = resolve(file_values, flags, source)
    written = shards_written(config.run_dir) if config.run_dir.exists() else set()
    missing = sum(
        min(config.shard_size, config.games - k * config.shard_size)
        for k in range(config.n_shards())
        if k not in written
    )
    typer.echo(
        f"run {config.run_dir}: {config.games} games ({missing} to play) of "
        f"{', '.join(config.labels)} on {len(config.islands)} islands, backend {config.backend}"
    )
    try:
        report = simulate(config, Progress(missing))
    except KeyboardInterrupt:
        typer.echo(
            "interrupted: finished shards are kept; run the same command to resume", err=True
        )
        raise typer.Exit(130) from None
    typer.echo(
        f"played {report.games_played} games in {report.seconds:.1f} s "
        f"({report.shards_skipped} shards already done)"
    )
    for line in format_win_table(win_table(config.run_dir)):
        typer.echo(line)
    typer.echo(f"tables: {config.run_dir}/{{games,seats,moves,treasures}}/*.parquet")


@command(app, "bench-runner")
def bench_runner_cmd(
    games: Annotated[int, typer.Option("--games", min=1, help="Games per run.")] = 20_000,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Ray workers.")] = 2,
    shard_size: Annotated[int, typer.Option("--shard-size", min=1)] = 1000,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
) -> None:
    """Time the runner: one serial worker against Ray workers on the same games."""
    base = resolve({}, {"games": games, "shard_size": shard_size, "out": "unused"}, "bench")
    result = bench_runner(base, workers)
    if as_json:
        _echo_json(result)
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
    runs: Annotated[list[Path], typer.Argument(help="One or more run directories.")],
    out: Annotated[
        Path | None, typer.Option("--out", help="Output directory (default <run>/report).")
    ] = None,
    formats: Annotated[
        str, typer.Option("--format", help="Comma-separated: html, md, json.")
    ] = "html,md,json",
) -> None:
    """Write the win-rate, curse-impact and board-fairness report of one or more runs."""
    chosen = {f.strip() for f in formats.split(",") if f.strip()}
    unknown = sorted(chosen - set(REPORT_FORMATS))
    if unknown or not chosen:
        raise InputError(
            f"--format {formats!r}: unknown format {unknown[0] if unknown else ''!r} "
            f"(allowed: {', '.join(REPORT_FORMATS)})"
        )
    result = build_report(list(runs), out, chosen)
    if not result.complete:
        typer.echo("note: unfinished run, reported for the games it has", err=True)
    typer.echo(f"report of {result.games} games: {result.out_dir}")
    if "html" in chosen:
        typer.echo(f"open {result.out_dir / 'index.html'}")


@command(app, "compare")
def compare_cmd(
    b_rules: Annotated[
        str | None, typer.Option("--b-rules", help="Variant B: preset or TOML file.")
    ] = None,
    a_rules: Annotated[
        str, typer.Option("--a-rules", help="Variant A (the base): preset or TOML file.")
    ] = "rulebook",
    ablate: Annotated[
        str | None, typer.Option("--ablate", help="B = A without: curses or amulets.")
    ] = None,
    a_strategy: Annotated[
        str | None, typer.Option("--a-strategy", help="Candidate A against the field.")
    ] = None,
    b_strategy: Annotated[
        str | None, typer.Option("--b-strategy", help="Candidate B against the field.")
    ] = None,
    game: GameOpt = "tobago",
    players: PlayersOpt = None,
    metric: Annotated[
        str | None,
        typer.Option(
            "--metric",
            help="first-seat, turns, win:STRATEGY (default first-seat; "
            "candidate for strategy comparisons).",
        ),
    ] = None,
    bounds: Annotated[
        str,
        typer.Option("--bounds", help="H0,H1: the B-A difference under each hypothesis."),
    ] = "0,0.02",
    max_games: Annotated[int, typer.Option("--max-games", min=1)] = 20_000,
    seed: Annotated[int, typer.Option("--seed", min=0)] = 1,
    islands: Annotated[str, typer.Option("--islands")] = "all",
    workers: Annotated[int, typer.Option("--workers", min=1)] = 2,
    batch_blocks: Annotated[
        int, typer.Option("--batch-blocks", min=1, help="Blocks between looks.")
    ] = 50,
    plan_effect: Annotated[
        float | None,
        typer.Option("--plan", help="Only estimate the games a fixed test needs for EFFECT."),
    ] = None,
    pilot_blocks: Annotated[int, typer.Option("--pilot-blocks", min=2)] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
) -> None:
    """Compare A and B (rule variants, an ablation, or two strategies against a field) on
    common seeds with rotated seating: an SPRT on paired blocks."""
    check_game(game)
    strategy_mode = a_strategy is not None or b_strategy is not None
    modes = sum((b_rules is not None, ablate is not None, strategy_mode))
    if modes != 1:
        raise InputError(
            "compare needs exactly one B: --b-rules FILE, --ablate curses|amulets, "
            "or --a-strategy X --b-strategy Y"
        )
    rules_a = load_rules(a_rules)
    rules_b = rules_a
    factories_b = None
    if strategy_mode:
        if a_strategy is None or b_strategy is None:
            raise InputError("a strategy comparison needs both --a-strategy and --b-strategy")
        field = (
            [parse_strategy(x) for x in split_specs(players)]
            if players
            else [parse_strategy(x) for x in ("hunter", "cartographer", "collector")]
        )
        cand_a, cand_b = parse_strategy(a_strategy), parse_strategy(b_strategy)
        specs = [cand_a, *field]
        if not 2 <= len(specs) <= 4:
            raise InputError(f"--players: a field of 1 to 3 opponents, got {len(field)}")
        factories_b = (cand_b.factory(), *(p.factory() for p in field))
        metric = metric or "candidate"
    else:
        specs = parse_players(players)
        metric = metric or "first-seat"
        if ablate is not None:
            if ablate not in ABLATIONS:
                raise InputError(f"--ablate {ablate!r} is not allowed (curses or amulets)")
            rules_b = with_overrides(rules_a, ABLATIONS[ablate], f"--ablate {ablate}")
        else:
            assert b_rules is not None
            rules_b = load_rules(b_rules)
    labels = tuple(p.label for p in specs)
    check_metric(metric, labels)
    try:
        theta0, theta1 = (float(x) for x in bounds.split(","))
    except ValueError:
        raise InputError(f"--bounds {bounds!r}: give two numbers, H0,H1") from None
    if theta0 == theta1:
        raise InputError(f"--bounds {bounds!r}: H0 and H1 must differ")
    spec = CompareSpec(
        labels=labels,
        factories=tuple(p.factory() for p in specs),
        rules_a=rules_a,
        rules_b=rules_b,
        factories_b=factories_b,
        metric=metric,
        theta0=theta0,
        theta1=theta1,
        seed=seed,
        islands=parse_islands(islands, "--islands"),
        max_games=max_games,
        batch_blocks=batch_blocks,
        workers=workers,
    )
    result = plan(spec, pilot_blocks, plan_effect) if plan_effect is not None else compare(spec)
    if as_json:
        _echo_json(result)
        return
    if plan_effect is not None:
        typer.echo(
            f"{metric}: sd {result['sd_per_block']:.4f} per block over {pilot_blocks} pilot "
            f"blocks; a fixed test for a difference of {plan_effect} needs {result['blocks']} "
            f"blocks = {result['games']} games"
        )
        return
    low, high = result["interval"]
    typer.echo(
        f"{metric} (B - A): {result['difference']:+.4f} [{low:+.4f}, {high:+.4f}] over "
        f"{result['blocks']} blocks ({result['games']} games); "
        f"SPRT H0={theta0} vs H1={theta1}: {result['decision']} (LLR {result['llr']:+.2f})"
    )


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
    workers: Annotated[int, typer.Option("--workers", min=1)] = 2,
) -> None:
    """Run a fixed suite against a baseline: exit 0 unchanged, 1 regression, 2 error."""
    cases = read_suite(suite)
    current = {case.name: run_case(case, workers) for case in cases}
    if update_baseline:
        write_baseline(baseline, current)
        typer.echo(f"baseline written: {baseline} ({len(current)} cases)")
        return
    checks = compare_to_baseline(current, read_baseline(baseline))
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(
        json.dumps({"suite": str(suite), "baseline": str(baseline), "checks": checks},
                   indent=1, default=str) + "\n"
    )  # fmt: skip
    (out / "junit.xml").write_text(junit_xml(checks))
    typer.echo(f"{'case':<16} {'check':<24} {'baseline':>10} {'current':>10} {'z':>7}  verdict")
    for c in checks:
        if c["check"] == "golden_games":
            base, cur, z = c["baseline"][:8], c["current"][:8], ""
        else:
            base, cur, z = f"{c['baseline']:.4f}", f"{c['current']:.4f}", f"{c['z']:+.2f}"
        verdict = "CHANGED" if c["failed"] else "ok"
        typer.echo(f"{c['case']:<16} {c['check']:<24} {base:>10} {cur:>10} {z:>7}  {verdict}")
    failed = sum(1 for c in checks if c["failed"])
    typer.echo(f"{failed} of {len(checks)} checks changed; report: {out / 'report.json'}")
    if failed:
        raise typer.Exit(1)


@command(app, "sweep")
def sweep_cmd(
    param: Annotated[list[str], typer.Option("--param", help="KEY=V1,V2,... (give one or two).")],
    players: PlayersOpt = None,
    rules: RulesOpt = "rulebook",
    games: Annotated[int, typer.Option("--games", min=2, help="Games per grid point.")] = 2000,
    seed: Annotated[int, typer.Option("--seed", min=0)] = 1,
    islands: Annotated[str, typer.Option("--islands")] = "all",
    workers: Annotated[int, typer.Option("--workers", min=1)] = 2,
    out: Annotated[Path, typer.Option("--out", help="Where sweep.csv/json/png go.")] = Path(
        "sweep-out"
    ),
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows as JSON.")] = False,
) -> None:
    """Sweep one or two rule parameters on common seeds: fairness, length, curses, spread."""
    if not 1 <= len(param) <= 2:
        raise InputError(f"--param: give one or two parameters, got {len(param)}")
    params = tuple((k, tuple(v)) for k, v in (parse_param(p) for p in param))
    specs = parse_players(players)
    spec = SweepSpec(
        labels=tuple(p.label for p in specs),
        factories=tuple(p.factory() for p in specs),
        base=load_rules(rules),
        params=params,
        games=games,
        seed=seed,
        islands=parse_islands(islands, "--islands"),
        workers=workers,
    )
    rows = sweep(spec)
    out.mkdir(parents=True, exist_ok=True)
    (out / "sweep.json").write_text(json.dumps(rows, indent=1) + "\n")
    header = list(rows[0])
    lines = [",".join(header)] + [",".join(str(r[h]) for h in header) for r in rows]
    (out / "sweep.csv").write_text("\n".join(lines) + "\n")
    x = params[0][0]
    hue = params[1][0] if len(params) == 2 else None
    (out / "first_seat.png").write_bytes(
        figures.sweep_lines(
            rows, x, hue, "first_seat_advantage", "first_seat_low", "first_seat_high"
        )
    )
    (out / "turns.png").write_bytes(
        figures.sweep_lines(rows, x, hue, "mean_turns", "turns_low", "turns_high")
    )
    if as_json:
        _echo_json(rows)
        return
    keys = [k for k, _ in params]
    typer.echo(
        " ".join(f"{k:>10}" for k in keys)
        + f" {'1st seat':>9} {'interval':>17} {'turns':>6} {'hits/g':>7} {'spread':>7}"
    )
    for r in rows:
        typer.echo(
            " ".join(f"{r[k]!s:>10}" for k in keys)
            + f" {r['first_seat_advantage']:+9.3f} [{r['first_seat_low']:+.3f}, "
            f"{r['first_seat_high']:+.3f}] {r['mean_turns']:6.1f} "
            f"{r['curse_hits_per_game']:7.2f} {r['strategy_spread']:7.3f}"
        )
    typer.echo(f"tables and plots: {out}")


def main() -> None:
    """Entry point of the ``tourney`` console script."""
    app()
