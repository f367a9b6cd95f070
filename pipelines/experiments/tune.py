"""``tourney tune``: search a strategy's parameters against a field, on paired seeds.

The method is successive halving (a racing method): every setting of a grid over the
parameters (the untuned default among them) plays the same seeds against the field, the
better half goes on to a round of twice as many games on new seeds, and so on until one is
left. Every game is a real ``simulate`` run (:mod:`pipelines.experiments.simulate`) on the chosen
backend,
so a tune runs on Ray like a tournament, writes its Parquet tables under ``OUT/`` and resumes
after an interruption (run the same command again).

- **Pairing.** In a round, every setting plays the same seeds with the same seat rotations
  (the tuned strategy is player 0, the field the others), so the luck of the deal cancels
  when two settings are compared: a block (one seed under every rotation) is one paired
  observation of a setting's win share.
- **What it reports.** The *plausible set*: every setting that no round shows worse than the
  winner, with a Bonferroni correction over the settings and rounds so that a setting truly
  as good as the winner stays in at least 95% of the time
  (:mod:`pipelines.experiments.tune_select`),
  and per parameter the range of values it spans, which is the interval on where the optimum
  lies; and a **confirmation** on fresh seeds, winner against the default and the runner-up,
  paired: the winner's share is quoted from it (the search's is optimistic, the winner
  having been picked on those games), and the winner is named the best only when the
  confirmation finds it better than both.
- **What it writes.** A spec TOML that ``tourney simulate`` accepts: the winner against the
  field.

Games that did not end naturally (turn cap, deadlock, timeout) are left out of win shares
and counted, as the reports do.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipelines.experiments.tune_select import plausible as is_plausible
from pipelines.experiments.tune_select import points, share_interval, t_bounds, verdict
from pipelines.stats.core import Z95
from sim.errors import InputError
from strategies.registry import Param, parse_strategy, split_specs

#: At most this many settings in a grid (each plays at least one round).
MAX_SETTINGS = 256
_RANGE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+?)\s*\.\.\s*(.+?)\s*$")
_LIST = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+?)\s*$")


@dataclass(frozen=True)
class ParamGrid:
    """The values one parameter takes in the search."""

    name: str
    values: tuple[Param, ...]


def _number(text: str, what: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"--param {what}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise InputError(f"--param {what}: {text!r} is not a finite number")
    return value


def parse_param(text: str, points: int, defaults: dict[str, Any] | None = None) -> ParamGrid:
    """``NAME=LOW..HIGH`` (``points`` values evenly spaced: integers when both ends are and
    the parameter's default, in ``defaults``, is not a float) or ``NAME=V1,V2,...`` (these
    values: numbers, true/false or names)."""
    ranged = _RANGE.match(text)
    if ranged:
        name, low_text, high_text = ranged.groups()
        low, high = _number(low_text, text), _number(high_text, text)
        if not low < high:
            raise InputError(f"--param {text}: LOW must be below HIGH")
        values: list[Param] = []
        default = (defaults or {}).get(name)
        floats = isinstance(default, float)
        if isinstance(low, int) and isinstance(high, int) and not floats:
            span = high - low
            steps = min(points - 1, span)
            for k in range(steps + 1):
                v = low + round(span * k / steps)
                if v not in values:
                    values.append(v)
        else:
            for k in range(points):
                values.append(float(f"{low + (high - low) * k / (points - 1):.10g}"))
        return ParamGrid(name, tuple(values))
    listed = _LIST.match(text)
    if listed and ".." not in listed.group(2):
        name, rest = listed.groups()
        options: list[Param] = []
        for raw in rest.split(","):
            part = raw.strip()
            low_part = part.lower()
            if low_part in ("true", "false"):
                options.append(low_part == "true")
                continue
            try:
                float(low_part)
            except ValueError:
                if re.fullmatch(r"[a-z][a-z0-9-]*", low_part):
                    options.append(low_part)
                    continue
            options.append(_number(part, text))  # a number, or one line saying why not
        return ParamGrid(name, tuple(dict.fromkeys(options)))
    raise InputError(
        f"--param {text!r} is not allowed (NAME=LOW..HIGH, e.g. k=0.5..2, or NAME=V1,V2,...)"
    )


def param_defaults(strategy: str, game: str) -> dict[str, Any]:
    """The default value of each parameter of ``strategy`` (its constructor's keywords, or
    a scripted Tobago style's weights), as far as they can be read."""
    import dataclasses
    import inspect

    cls = parse_strategy(strategy, game).cls
    out: dict[str, Any] = {}
    style = getattr(cls, "default_style", None)
    if style is not None and dataclasses.is_dataclass(style):
        out.update({f.name: getattr(style, f.name) for f in dataclasses.fields(style)})
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return out
    for name, p in signature.parameters.items():
        if p.default is not inspect.Parameter.empty:
            out[name] = p.default
    return out


def _shown(value: Param) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.10g}"
    return str(value)


def setting_label(name: str, params: dict[str, Param]) -> str:
    """A strategy spec: ``name`` or ``name(k=v, ...)``."""
    if not params:
        return name
    inner = ", ".join(f"{k}={_shown(v)}" for k, v in params.items())
    return f"{name}({inner})"


@dataclass(frozen=True)
class TuneSpec:
    """A tune: the base strategy, the grid, the field and how to play."""

    game: str
    strategy: str
    grids: tuple[ParamGrid, ...]
    field: tuple[str, ...]
    rules: str | None
    games: int
    seed: int
    out: Path
    backend: str
    workers: int
    address: str | None = None
    islands: str | None = None
    #: Fresh games for the best against the default (-1: as many as the last round's).
    confirm_games: int = -1
    eta: int = 2
    #: The engine of every run (``simulate``'s ``--engine``: auto, reference or compiled).
    engine: str = "auto"


@dataclass
class Setting:
    """One setting of the grid and its block observations so far, by (round, block)."""

    label: str
    params: dict[str, Param]
    default: bool
    blocks: dict[tuple[int, int], float] = field(default_factory=dict)
    unfinished: int = 0
    games: int = 0
    dropped_in: int = -1


def settings_of(spec: TuneSpec) -> list[Setting]:
    """The grid's settings, the untuned default first (validated by building each one)."""
    base = parse_strategy(spec.strategy, spec.game)
    name = base.label.split("(", 1)[0].strip()
    known = dict(base.params)
    combos: list[dict[str, Param]] = [{}]
    for grid in spec.grids:
        combos = [{**c, grid.name: v} for c in combos for v in grid.values]
    if len(combos) > MAX_SETTINGS:
        raise InputError(
            f"--param: the grid has {len(combos):,} settings (at most {MAX_SETTINGS} allowed: "
            "fewer --points or parameters)"
        )
    # The default's effective values of the tuned parameters: a grid point equal to them is
    # the default itself, played once.
    defaults = param_defaults(spec.strategy, spec.game)
    effective = {g.name: defaults[g.name] for g in spec.grids if g.name in defaults}
    effective.update(known)
    out = [Setting(base.label, effective, True)]
    seen = {base.label, setting_label(name, {**effective})}
    for combo in combos:
        label = setting_label(name, {**known, **combo})
        if label in seen or {**effective, **combo} == effective:
            continue
        seen.add(label)
        parse_strategy(label, spec.game)  # a value the strategy refuses: one line, exit 2
        out.append(Setting(label, {**known, **combo}, False))
    if len(out) < 2:
        raise InputError("--param: the grid gives no setting other than the default")
    return out


@dataclass(frozen=True)
class Estimate:
    """A mean over blocks with its 95% interval and sample size."""

    mean: float
    low: float
    high: float
    blocks: int

    def as_dict(self) -> dict[str, Any]:
        """As JSON wants it: no interval (``null``) from fewer than two blocks."""

        def plain(x: float) -> float | None:
            return None if math.isnan(x) else x

        return {
            "mean": plain(self.mean),
            "interval": [plain(self.low), plain(self.high)],
            "blocks": self.blocks,
        }


def estimate(values: list[float], z: float = Z95) -> Estimate:
    """Mean and normal interval of per-block values (no interval from one block)."""
    k = len(values)
    if k == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = sum(values) / k
    if k < 2:
        return Estimate(mean, math.nan, math.nan, k)
    var = sum((x - mean) ** 2 for x in values) / (k - 1)
    half = z * math.sqrt(var / k)
    return Estimate(mean, mean - half, mean + half, k)


def share_estimate(values: list[float], per_block: int) -> Estimate:
    """A win share from per-block means with its Wilson interval (``share_interval``)."""
    if not values:
        return Estimate(math.nan, math.nan, math.nan, 0)
    low, high = share_interval(values, per_block)
    return Estimate(sum(values) / len(values), low, high, len(values))


def differences(a: Setting, b: Setting) -> list[float]:
    """``b - a`` in win share per block, over the blocks both played."""
    return [b.blocks[k] - a.blocks[k] for k in sorted(set(a.blocks) & set(b.blocks))]


def by_round(a: Setting, b: Setting) -> list[list[float]]:
    """``b - a`` in win share per block, round by round, over the rounds both played."""
    rounds = sorted({r for r, _ in a.blocks} & {r for r, _ in b.blocks})
    return [
        [b.blocks[k] - a.blocks[k] for k in sorted(a.blocks) if k[0] == r and k in b.blocks]
        for r in rounds
    ]


def paired(a: Setting, b: Setting) -> Estimate:
    """``b - a`` in win share over the blocks both played, with its Student-t 95% interval
    (none from fewer than 5 blocks)."""
    d = differences(a, b)
    return Estimate(*t_bounds(d, 0.05), len(d))


Runner = Callable[[list[str], int, int, Path], tuple[dict[int, float], int]]


def rounds_planned(settings: int, eta: int = 2) -> int:
    """How many rounds successive halving plays for ``settings`` settings."""
    rounds = 1
    alive = settings
    while True:
        alive = max(1, math.ceil(alive / eta))
        if alive == 1:
            return rounds
        rounds += 1


def check_budget(spec: TuneSpec, settings: int, most: int) -> None:
    """``InputError`` before any game when a round or the confirmation would play more than
    ``most`` games a setting (found at once, not after the rounds before it)."""
    rounds = rounds_planned(settings, spec.eta)
    last = _round_games(spec, rounds - 1)
    confirm = spec.confirm_games if spec.confirm_games >= 0 else last
    if last > most or confirm > most:
        biggest = max(last, confirm)
        raise InputError(
            f"--games {spec.games:,}: {settings} settings take {rounds} rounds, the biggest "
            f"playing {biggest:,} games a setting (at most {most:,} allowed: fewer --games, "
            "settings or --confirm-games)"
        )


def _round_games(spec: TuneSpec, r: int) -> int:
    n = 1 + len(spec.field)
    games: int = spec.games * int(spec.eta**r)
    return -(-games // n) * n


def tune(
    spec: TuneSpec, play: Runner, say: Callable[[str], None] = lambda _: None
) -> dict[str, Any]:
    """Run the search; ``play(players, games, seed, out)`` plays one run and returns the
    candidate's (player 0's) win share per block and the number of unfinished games."""
    settings = settings_of(spec)
    alive = list(settings)
    r = 0
    rounds: list[dict[str, Any]] = []
    while True:
        ranked = _play_round(spec, play, settings, alive, r, say)
        rounds.append(_round_record(spec, ranked, r))
        keep = max(1, math.ceil(len(ranked) / spec.eta))
        for s in ranked[keep:]:
            s.dropped_in = r + 1
        alive = ranked[:keep]
        if len(alive) == 1:
            break
        r += 1
    best = alive[0]
    default = settings[0]
    runner_up = ranked[1] if len(ranked) > 1 else None
    per_block = 1 + len(spec.field)
    plausible = [
        s
        for s in settings
        if s is best or is_plausible(by_round(best, s), len(settings), len(rounds))
    ]
    best_share = share_estimate(list(best.blocks.values()), per_block)
    confirm = spec.confirm_games if spec.confirm_games >= 0 else _round_games(spec, r)
    confirmation = None
    if confirm > 0 and best is not default:
        confirmation = _confirm(spec, play, settings, (best, default, runner_up), confirm, say)
    return {
        "game": spec.game,
        "strategy": spec.strategy,
        "field": list(spec.field),
        "rules": spec.rules,
        "islands": spec.islands,
        "method": f"successive halving (eta {spec.eta}) on paired seed blocks; plausible set: "
        "every setting whose upper bound on (setting - best) reaches 0 in every round both "
        f"played (paired, Student-t, one-sided 5% Bonferroni-corrected over the "
        f"{len(settings) - 1} other settings and {len(rounds)} rounds); "
        "the best confirmed on fresh seeds against the default and the runner-up",
        "settings": len(settings),
        "rounds": rounds,
        "best": {"setting": best.label, "params": best.params, **best_share.as_dict()},
        "default": {
            "setting": default.label,
            "dropped_in_round": default.dropped_in,
            **share_estimate(list(default.blocks.values()), per_block).as_dict(),
        },
        "runner_up": None if runner_up is None else runner_up.label,
        "best_minus_default": paired(default, best).as_dict(),
        "plausible": [s.label for s in plausible],
        "best_at_edge": _at_edge(spec, best),
        "plausible_ranges": _ranges(spec, plausible),
        "confirmation": confirmation,
        "unfinished_games": sum(s.unfinished for s in settings),
        "games": sum(s.games for s in settings),
    }


def _play_round(
    spec: TuneSpec,
    play: Runner,
    settings: list[Setting],
    alive: list[Setting],
    r: int,
    say: Callable[[str], None],
) -> list[Setting]:
    """Play round ``r`` of the settings still in; they ranked best first."""
    games = _round_games(spec, r)
    seed = spec.seed + r
    say(f"round {r + 1}: {len(alive)} settings, {games:,} games each (seed {seed})")
    for k, s in enumerate(alive):
        blocks, unfinished = play(
            [s.label, *spec.field],
            games,
            seed,
            spec.out / f"round-{r + 1}" / f"setting-{settings.index(s)}",
        )
        for b, share in blocks.items():
            s.blocks[(r, b)] = share
        s.unfinished += unfinished
        s.games += games
        e = share_estimate(list(s.blocks.values()), 1 + len(spec.field))
        say(
            f"  {k + 1}/{len(alive)} {s.label}: win share {100 * e.mean:.1f}% "
            f"[{100 * e.low:.1f}, {100 * e.high:.1f}] over {s.games:,} games"
        )
    return sorted(alive, key=lambda s: (-estimate(list(s.blocks.values())).mean, settings.index(s)))


def _round_record(spec: TuneSpec, ranked: list[Setting], r: int) -> dict[str, Any]:
    """A round in the result: its games and seed, and each setting's win share, best first."""
    return {
        "round": r + 1,
        "games_per_setting": _round_games(spec, r),
        "seed": spec.seed + r,
        "settings": [
            {
                "setting": s.label,
                **share_estimate(list(s.blocks.values()), 1 + len(spec.field)).as_dict(),
            }
            for s in ranked
        ],
    }


def _at_edge(spec: TuneSpec, best: Setting) -> list[str]:
    """The numeric parameters (of more than two values) whose best value ends their range."""
    return [
        g.name
        for g in spec.grids
        if len(g.values) > 2
        and not isinstance(g.values[0], bool | str)
        and best.params.get(g.name) in (g.values[0], g.values[-1])
    ]


def _ranges(spec: TuneSpec, plausible: list[Setting]) -> dict[str, list[Any]]:
    """Per parameter, the values the plausible settings span: [low, high] when numeric,
    else the values shown."""
    ranges: dict[str, list[Any]] = {}
    for grid in spec.grids:
        values = [s.params[grid.name] for s in plausible if grid.name in s.params]
        numeric = [v for v in values if not isinstance(v, bool | str)]
        if numeric and len(numeric) == len(values):
            ranges[grid.name] = [min(numeric), max(numeric)]
        else:
            ranges[grid.name] = sorted({_shown(v) for v in values})
    return ranges


def _confirm(
    spec: TuneSpec,
    play: Runner,
    settings: list[Setting],
    who: tuple[Setting, Setting, Setting | None],
    confirm: int,
    say: Callable[[str], None],
) -> dict[str, Any]:
    """The best against the default and the search's runner-up on fresh seeds, paired: the
    best's figures from games it was not picked on, and whether it is confirmed better."""
    best, default, runner_up = who
    per_block = 1 + len(spec.field)
    seed = spec.seed + 1000
    games = -(-confirm // per_block) * per_block
    others = [default] + ([runner_up] if runner_up not in (None, default) else [])
    names = " and ".join(s.label for s in others)
    say(f"confirmation: {best.label} against {names}, {games:,} games each")
    fresh: dict[str, Setting] = {}
    for s in (default, best, *others[1:]):
        blocks, unfinished = play(
            [s.label, *spec.field],
            games,
            seed,
            spec.out / "confirm" / f"setting-{settings.index(s)}",
        )
        fresh[s.label] = Setting(
            s.label, s.params, s.default, {(0, b): v for b, v in blocks.items()}, unfinished, games
        )

    def shown(s: Setting) -> dict[str, Any]:
        values = list(fresh[s.label].blocks.values())
        return {"setting": s.label, **share_estimate(values, per_block).as_dict()}

    d = paired(fresh[default.label], fresh[best.label])
    out: dict[str, Any] = {
        "seed": seed,
        "games_per_setting": games,
        "default": shown(default),
        "best": shown(best),
        "difference": d.as_dict(),
        "significant": bool(d.low > 0 or d.high < 0),
        "unfinished_games": sum(s.unfinished for s in fresh.values()),
        "runner_up": None,
        "difference_runner_up": None,
    }
    against = [("default", default.label, out["difference"])]
    if len(others) > 1:
        assert runner_up is not None
        out["runner_up"] = shown(runner_up)
        out["difference_runner_up"] = paired(fresh[runner_up.label], fresh[best.label]).as_dict()
        against.append(("runner-up", runner_up.label, out["difference_runner_up"]))
    out["confirmed"], out["verdict"] = verdict(best.label, against)
    # Best - default in words bounded by its interval, with its power beside no difference.
    said = confirmation_verdict(d, games)
    out["default_verdict"] = said.pop("verdict")
    out.update(said)
    return out


def field_labels(text: str, game: str) -> tuple[str, ...]:
    """The field: 1 to 3 strategy specs (checked)."""
    labels = tuple(split_specs(text))
    if not 1 <= len(labels) <= 3:
        raise InputError(
            f"--field {text!r}: give 1 to 3 strategies (the tuned one is the other seat)"
        )
    for label in labels:
        parse_strategy(label, game)
    return labels


def confirmation_verdict(d: Estimate, games: int) -> dict[str, Any]:
    """The confirmation's best - default in words, claiming no more than its interval, with
    what it could have detected when the interval contains 0 (:mod:`pipelines.report.findings`)."""
    from pipelines.report.findings import effect_sentence

    said = f"best - default {points(d.as_dict())}"
    if d.blocks < 2 or math.isnan(d.low):
        return {"verdict": f"{said}: too few blocks to say more"}
    words = ("the best setting wins more than the default",
             "the best setting wins less than the default",
             "no clear difference between the best setting and the default")  # fmt: skip
    text, note, seen = effect_sentence(
        d.mean, d.low, d.high, games, words, lambda x: f"{100 * x:.1f} points"
    )
    return {"verdict": f"{text}: {said}" + (f"; {note}" if note else ""), **seen}
