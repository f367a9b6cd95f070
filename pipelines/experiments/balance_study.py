"""A whole balance study from its spec: the lineup (or pool) and base rules made ready (the
engine chosen as ``sweep`` chooses it), the search (:mod:`pipelines.experiments.balance`), the
confirmation (:mod:`pipelines.experiments.balance_confirm`) and the result as one dict,
which :mod:`pipelines.experiments.balance_output` writes and prints."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipelines.experiments import balance, balance_confirm, balance_shape
from pipelines.experiments.balance_objectives import SHAPE, totals_read
from pipelines.experiments.balance_play import player
from pipelines.experiments.balance_spec import BalanceSpec
from pipelines.experiments.progress import Progress
from pipelines.experiments.sweep import SweepSpec, play_chunk
from pipelines.play.outcomes import Lineup, choose_engine
from reports.numbers import counted
from sim.errors import InputError
from sim.runner.games import game_kind


def sweep_spec(spec: BalanceSpec, workers: int | None = None) -> SweepSpec:
    """The study's games as the sweep plays them (no grid: each candidate is a point),
    checked: the players, the islands and the engine (compiled when it can play the rulebook
    and the ends of every range)."""
    from pipelines.experiments.simulate import game_islands
    from pipelines.play.game import check_game, parse_players
    from strategies.registry import parse_strategy

    check_game(spec.game)
    kind = game_kind(spec.game)
    base = kind.load_rules(spec.rules)
    if spec.pool:  # checked on load, members by their canonical names
        lineup = Lineup.of([parse_strategy(m, spec.game) for m in spec.pool], spec.game)
    else:
        try:
            lineup = Lineup.of(parse_players(",".join(spec.players), spec.game), spec.game)
        except InputError as exc:
            raise InputError(f"{spec.path}: players: {exc}") from None
        if not 2 <= len(lineup.labels) <= 8:
            raise InputError(f"{spec.path}: players: give 2 or more strategies")
    shape = any(o.shape for o in spec.objectives)
    choices = any(o.counts_choices for o in spec.objectives)
    if shape:
        first = next(o for o in spec.objectives if o.shape)
        balance_shape.score_events(spec.game, f"{spec.path}: objective {first.metric!r}")
    ends = [
        {d.key: v}
        for d in spec.space
        for v in ((d.low, d.high) if d.kind != "choice" else d.choices)
    ]
    plays = [(lineup, kind.with_overrides(base, e, spec.path)) for e in [{}, *ends]]
    return SweepSpec(
        labels=lineup.labels,
        factories=lineup.factories,
        base=base,
        params=(),
        games=0,
        seed=spec.seed,
        islands=game_islands(kind, spec.islands, "islands", f"{spec.path}: islands"),
        workers=workers or spec.workers,
        seats=lineup.seats,
        engine=choose_engine(
            spec.engine, plays, f"{spec.path}: engine", balance_shape.engine_reason(shape, choices)
        ),
        table_sizes=spec.table_sizes,
        shape=shape,
        choices=choices,
    )


def base_setting(spec: BalanceSpec, sweep: SweepSpec) -> dict[str, Any]:
    """The rulebook's value of every parameter of the space."""
    return {d.key: getattr(sweep.base, d.key) for d in spec.space}


def in_space(spec: BalanceSpec, params: dict[str, Any]) -> bool:
    """Whether the space (and its constraints) holds ``params``."""
    for d in spec.space:
        v = params[d.key]
        if d.kind == "choice" and v not in d.choices:
            return False
        if d.kind != "choice" and not (
            d.low <= v <= d.high and (d.kind != "int" or float(v).is_integer())
        ):
            return False
        if (
            d.kind == "float"
            and d.step
            and abs((v - d.low) / d.step - round((v - d.low) / d.step)) > 1e-9
        ):
            return False
    return spec.allowed(params)


def game_totals(sweep: SweepSpec) -> list[str]:
    """The names of the counts the game keeps per game (its sweep totals), from one game."""
    part = play_chunk((dataclasses.replace(sweep, games=len(sweep.labels)), {}, 0, 1))
    return sorted(next(iter(part["blocks"].values()))["totals"])


def check_totals(spec: BalanceSpec, totals: list[str]) -> None:
    """``InputError`` for an objective naming a total the game does not keep."""
    for k, o in enumerate(spec.objectives):
        if o.total is not None and o.total not in totals:
            raise InputError(
                f"{spec.path}: objective[{k // max(1, len(spec.table_sizes))}]: total = "
                f"{o.total!r} is not allowed (the game's totals: "
                f"{', '.join(t for t in totals if t not in SHAPE) or 'none'})"
            )


def run_study(
    spec: BalanceSpec,
    out: Path,
    sweep: SweepSpec,
    progress: Progress | None = None,
    say: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Search, confirm, and the result (``out`` holds the study's journal)."""
    totals = sorted(set(game_totals(sweep)) | set(totals_read(spec.objectives)))
    check_totals(spec, totals)
    base = base_setting(spec, sweep)
    study = balance.open_study(spec, out)
    n = len(sweep.labels)
    with player(sweep, progress) as play:
        if progress is not None:
            progress.begin(balance.games_expected(spec, n), sweep.workers)
        try:
            records = balance.search(spec, study, play, base if in_space(spec, base) else None, say)
            chosen = balance.candidates(spec, [r for r in records if r["params"] != base])
            confirmation = None
            if chosen and spec.confirm_games > 0:
                chosen_words = counted(len(chosen), "candidate")
                say(f"confirmation: {chosen_words} and the rulebook on fresh seeds")
                settings = [base, *(r["params"] for r in chosen)]
                fresh = balance_confirm.play_fresh(spec, play, settings, totals)
                confirmation = balance_confirm.confirm(spec, base, chosen, fresh)
                confirmation["first_game"] = spec.rung_games(spec.rungs - 1, n)
        finally:
            if progress is not None:
                progress.finish()
    result = {
        "study": spec.path,
        "description": spec.description,
        "game": spec.game,
        "players": [] if spec.pool else list(sweep.labels),
        **(
            {"pool": list(sweep.labels), "table_sizes": list(spec.table_sizes)} if spec.pool else {}
        ),
        "rules": spec.rules,
        "engine": sweep.engine,
        "engine_why": balance_shape.engine_reason(sweep.shape, sweep.choices),
        "rulebook": base,
        "space": [dataclasses.asdict(d) for d in spec.space],
        "constraints": list(spec.constraints),
        "objectives": [
            dataclasses.asdict(o) | {"name": o.name, "words": o.describe()} for o in spec.objectives
        ],
        "budget": {
            k: getattr(spec, k)
            for k in ("seed", "trials", "games", "rungs", "eta", "confirm_games", "confirm_top")
        },
        "rung_games": [spec.rung_games(r, n) for r in range(spec.rungs)],
        "candidates_searched": len(records),
        "search_games": sum(r["games_played"] for r in records),
        "grid_games": None,
        "trials": records,
        "confirmation": confirmation,
    }
    grid = _grid_size(spec)
    if grid is not None:
        result["grid_games"] = grid * spec.rung_games(spec.rungs - 1, n)
    result["headline"] = balance_confirm.headline(spec, result)
    return result


def grid_sweep(spec: BalanceSpec, games: int) -> SweepSpec:
    """Every setting of the study's finite space as one sweep grid, each on the study's first
    ``games`` games: the exhaustive answer a search is checked against."""
    params = tuple((d.key, tuple(d.values())) for d in spec.space)
    return dataclasses.replace(sweep_spec(spec), params=params, games=games)


def _grid_size(spec: BalanceSpec) -> int | None:
    """The settings of the whole space when it is finite (None for a continuous range)."""
    size = 1
    for d in spec.space:
        if d.kind == "float" and d.step is None:
            return None
        size *= len(d.values())
    return size
