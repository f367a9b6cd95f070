"""Resolving what ``compare`` is asked (by the command line or the notebook API) into a
:class:`~pipelines.experiments.compare.CompareSpec`: which B (rules, an ablation, a strategy), the
metric
and its units, the hypotheses, the field; every bad combination is one ``InputError`` line."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from pipelines.experiments.compare import CompareSpec, check_metric
from pipelines.experiments.game_choice import choose_game
from pipelines.experiments.simulate import game_islands
from pipelines.play.ablation import ablated
from pipelines.play.game import check_game, parse_players
from pipelines.play.outcomes import Lineup, choose_engine
from pipelines.report import verdicts
from sim.errors import InputError
from sim.runner.games import Factory, Rules, game_kind
from strategies.registry import DEFAULT_PLAYERS, StrategySpec, parse_strategy, split_specs


def _rules_name(source: str) -> str:
    """How a rules source is called in the output: a preset's name or a file's name."""
    return Path(source).name if source.endswith(".toml") else source


def compare_spec(
    *,
    b_rules: str | None = None,
    a_rules: str | None = None,
    ablate: str | None = None,
    a_strategy: str | None = None,
    b_strategy: str | None = None,
    b_players: str | None = None,
    game: str | None = None,
    players: str | None = None,
    metric: str | None = None,
    bounds: str | None = None,
    two_sided: bool = False,
    delta: float | None = None,
    max_games: int = 20_000,
    seed: int = 1,
    islands: str | None = None,
    workers: int = 2,
    batch_blocks: int = 50,
    plan_effect: float | None = None,
    engine: str = "auto",
) -> CompareSpec:
    """The comparison the options describe (the ``tourney compare`` options by name); without
    ``game``, the game they fit (:func:`pipelines.experiments.game_choice.choose_game`)."""
    named = ",".join(p for p in (players, a_strategy, b_strategy, b_players) if p)
    game = choose_game(
        game,
        players=named or None,
        rules=[a_rules, b_rules],
        boards=islands is not None,
        ablation=ablate,
    )
    check_game(game)
    kind = game_kind(game)
    strategy_mode = a_strategy is not None or b_strategy is not None
    modes = sum((b_rules is not None, ablate is not None, strategy_mode, b_players is not None))
    if modes != 1:
        raise InputError(
            "compare needs exactly one B: --b-rules FILE, --ablate curses|amulets, "
            "--a-strategy X --b-strategy Y, or --b-players (a whole other lineup)"
        )
    a_source = a_rules or kind.default_rules
    rules_a = kind.load_rules(a_source)
    if strategy_mode:
        side = _strategies_b(game, players, a_strategy, b_strategy, rules_a, a_source, metric)
    elif b_players is not None:
        side = _players_b(game, players, b_players, rules_a, a_source, metric)
    else:
        side = _rules_b(game, players, b_rules, ablate, rules_a, a_source, metric)
    labels = tuple(p.label for p in side.specs)
    check_metric(side.metric, labels, strategy_mode)
    theta0, theta1, delta_value = _hypotheses(
        verdicts.metric_info(side.metric), bounds, two_sided, delta, plan_effect
    )
    lineup_a = Lineup.of(side.specs, game)
    lineup_b = Lineup.of(side.specs_b, game) if side.specs_b is not None else lineup_a
    plays = [(lineup_a, rules_a), (lineup_b, side.rules)]
    return CompareSpec(
        engine=choose_engine(engine, plays, "--engine"),
        seats=lineup_a.seats,
        seats_b=lineup_b.seats if side.specs_b is not None else None,
        labels=labels,
        factories=tuple(p.factory() for p in side.specs),
        rules_a=rules_a,
        rules_b=side.rules,
        factories_b=side.factories,
        metric=side.metric,
        theta0=theta0,
        theta1=theta1,
        delta=delta_value,
        seed=seed,
        islands=game_islands(kind, islands, "--islands", "--islands"),
        max_games=max_games,
        batch_blocks=batch_blocks,
        workers=workers,
        rules_a_name=_rules_name(a_source),
        rules_b_name=side.name,
        candidates=side.candidates,
        lineup_b=side.lineup,
    )


class _B(NamedTuple):
    """What B is: the seats' strategies (A's, or candidate A's with the field), B's rules and
    name, B's own players when they differ, and the metric (defaulted by the kind of B)."""

    specs: list[StrategySpec]
    rules: Rules
    name: str
    metric: str
    factories: tuple[Factory, ...] | None = None
    candidates: tuple[str, str] | None = None
    lineup: tuple[str, ...] | None = None
    #: B's own players (with ``factories``), when they differ from ``specs``.
    specs_b: list[StrategySpec] | None = None


def _rules_b(
    game: str,
    players: str | None,
    b_rules: str | None,
    ablate: str | None,
    rules: Rules,
    a_source: str,
    metric: str | None,
) -> _B:
    """B = the same players under other rules: B's rules file, or A's without a part."""
    specs = parse_players(players, game)
    if ablate is not None:
        name = f"{_rules_name(a_source)} without {ablate}"
        return _B(specs, ablated(rules, ablate, "--ablate"), name, metric or "first-seat")
    assert b_rules is not None
    b = game_kind(game).load_rules(b_rules)
    return _B(specs, b, _rules_name(b_rules), metric or "first-seat")


def _strategies_b(
    game: str,
    players: str | None,
    a_strategy: str | None,
    b_strategy: str | None,
    rules: Rules,
    a_source: str,
    metric: str | None,
) -> _B:
    """B = candidate B in candidate A's seat, against the same field."""
    if a_strategy is None or b_strategy is None:
        raise InputError("a strategy comparison needs both --a-strategy and --b-strategy")
    field_names = split_specs(players) if players else DEFAULT_PLAYERS[game][:3]
    field = [parse_strategy(x, game) for x in field_names]
    cand_a, cand_b = parse_strategy(a_strategy, game), parse_strategy(b_strategy, game)
    specs = [cand_a, *field]
    if not 2 <= len(specs) <= 4:
        raise InputError(f"--players: a field of 1 to 3 opponents, got {len(field)}")
    return _B(
        specs,
        rules,
        _rules_name(a_source),
        metric or "candidate",
        factories=(cand_b.factory(), *(p.factory() for p in field)),
        candidates=(cand_a.label, cand_b.label),
        specs_b=[cand_b, *field],
    )


def _players_b(
    game: str,
    players: str | None,
    b_players: str,
    rules: Rules,
    a_source: str,
    metric: str | None,
) -> _B:
    """B = the same seats under the same rules, every seat played by B's lineup instead: a
    question about the game (first-seat advantage, length) asked of other players."""
    specs = parse_players(players, game)
    asked = split_specs(b_players)
    if len(asked) != len(specs):
        raise InputError(
            f"--b-players: {len(asked)} strategies for a table of {len(specs)} "
            "(give as many as --players)"
        )
    specs_b = parse_players(b_players, game)
    metric = metric or "first-seat"
    if metric not in ("first-seat", "turns"):
        raise InputError(
            f"--metric {metric!r} is not allowed with --b-players (first-seat or turns: "
            "the two lineups have different players)"
        )
    return _B(
        specs,
        rules,
        _rules_name(a_source),
        metric,
        factories=tuple(p.factory() for p in specs_b),
        lineup=tuple(p.label for p in specs_b),
        specs_b=specs_b,
    )


def _hypotheses(
    info: verdicts.Metric,
    bounds: str | None,
    two_sided: bool,
    delta: float | None,
    plan_effect: float | None,
) -> tuple[float, float, float | None]:
    """The one-sided test's H0 and H1 and the two-sided test's smallest difference (None for
    a one-sided test), checked against each other and the metric's units."""
    if plan_effect is not None and (bounds is not None or two_sided or delta is not None):
        raise InputError(
            "--plan estimates a fixed-size test: it takes no --bounds, --two-sided or --delta"
        )
    if two_sided and bounds is not None:
        raise InputError(
            f"--bounds is for a one-sided test; with --two-sided give --delta D (the smallest "
            f"difference either way, in {info.unit})"
        )
    if delta is not None and not two_sided:
        raise InputError(
            f"--delta is for --two-sided; a one-sided test takes --bounds H0,H1 (in {info.unit})"
        )
    theta0, theta1 = (0.0, info.default_delta)
    if bounds is not None:
        theta0, theta1 = verdicts.parse_bounds(bounds, info)
    delta_value = None
    if two_sided:
        delta_value = verdicts.check_delta(info.default_delta if delta is None else delta, info)
    if plan_effect is not None:
        verdicts.check_effect(plan_effect, info)
    return theta0, theta1, delta_value
