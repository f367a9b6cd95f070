"""A balance study as a TOML file (``tourney balance STUDY.toml``): the game, the lineup (or a
strategy pool with its table sizes, read as ``tourney simulate`` reads one), the base rules
(the rulebook setting every candidate is measured against), the space of rules parameters
(integer, float or categorical ranges, and constraints between them), the objectives (a
pool's: each at each table size) and the budget. Owns the reading and checking of the file:
every key and value is checked on load, and a bad one is one line naming the file, the key
and what is allowed.

Constraints are expressions over the parameters' names (``hand_size <= 2 * curse_count +
4``), read by a small evaluator of numbers, names, ``+ - * / //``, comparisons, ``and``,
``or`` and ``not``: no ``eval``.
"""

from __future__ import annotations

import ast
import dataclasses
import math
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipelines.experiments.balance_objectives import METRICS, SCORE, Objective
from pipelines.experiments.pools import lineup as pool_lineup
from sim.errors import InputError
from sim.runner.games import Rules, game_kind
from sim.runner.schedule import cycle_games_per_size
from sim.toml_files import read_toml

#: The study's top-level keys and what each holds (for the message naming an unknown key).
KEYS = (
    "description",
    "game",
    "players",
    "pool",
    "table_sizes",
    "rules",
    "islands",
    "engine",
    "seed",
    "trials",
    "games",
    "rungs",
    "eta",
    "confirm_games",
    "confirm_top",
    "workers",
    "constraints",
    "space",
    "objective",
)
#: Bounds of the budget keys (inclusive).
BUDGET = {
    "seed": (0, 2**63 - 1),
    "trials": (1, 10_000),
    "games": (2, 1_000_000),
    "rungs": (1, 8),
    "eta": (2, 8),
    "confirm_games": (0, 10_000_000),
    "confirm_top": (1, 10),
    "workers": (1, 256),
}
DEFAULTS = {
    "seed": 1,
    "trials": 30,
    "games": 200,
    "rungs": 3,
    "eta": 3,
    "confirm_games": 2000,
    "confirm_top": 3,
    "workers": 2,
}


@dataclass(frozen=True)
class Dimension:
    """One rules key of the space: an integer range, a float range (``step`` optional) or
    a list of choices (numbers, true/false or names)."""

    key: str
    kind: str  # "int", "float" or "choice"
    low: float = 0.0
    high: float = 0.0
    step: float | None = None
    choices: tuple[Any, ...] = ()

    def values(self) -> list[Any]:
        """Every value of a discrete dimension (ints, stepped floats, choices)."""
        if self.kind == "int":
            return list(range(int(self.low), int(self.high) + 1))
        if self.kind == "choice":
            return list(self.choices)
        if self.step is None:
            raise ValueError(f"{self.key}: a continuous range has no list of values")
        count = round((self.high - self.low) / self.step)
        return [float(f"{self.low + k * self.step:.10g}") for k in range(count + 1)]


@dataclass(frozen=True)
class BalanceSpec:
    """A whole study, checked."""

    path: str
    game: str
    players: tuple[str, ...]
    rules: str
    islands: str | None
    engine: str
    space: tuple[Dimension, ...]
    constraints: tuple[str, ...]
    objectives: tuple[Objective, ...]
    seed: int
    trials: int
    games: int
    rungs: int
    eta: int
    confirm_games: int
    confirm_top: int
    workers: int
    description: str = ""
    #: A pool's members (``players`` is then empty) and its table sizes, ascending.
    pool: tuple[str, ...] = ()
    table_sizes: tuple[int, ...] = ()

    def whole(self, games: int, players: int) -> int:
        """``games`` rounded up to whole seed blocks of a fixed lineup of ``players``; for a
        pool, ``games`` is per table size, rounded up to whole cycles of its schedule (every
        combination at each size, so every member plays as often at each), the games of
        every size in all."""
        if not self.pool:
            return -(-games // players) * players
        per_size = cycle_games_per_size(len(self.pool), self.table_sizes, "rotate")
        return -(-games // per_size) * per_size * len(self.table_sizes)

    def rung_games(self, rung: int, players: int) -> int:
        """Games a candidate has played after rung ``rung`` (0-based): whole seed blocks (a
        pool's: whole cycles)."""
        return self.whole(self.games * self.eta**rung, players)

    def allowed(self, params: Mapping[str, Any]) -> bool:
        """Whether ``params`` meet every constraint."""
        return all(bool(evaluate(c, params, self.path)) for c in self.constraints)


def load_spec(path: Path) -> BalanceSpec:
    """The study in ``path``, every key and value checked (``InputError`` naming the file
    and key)."""
    raw = read_toml(path, "study file")
    where = str(path)
    unknown = sorted(set(raw) - set(KEYS))
    if unknown:
        raise InputError(f"{where}: unknown key {unknown[0]!r} (allowed: {', '.join(KEYS)})")
    game = _text(raw, "game", where, None)
    if game is None:
        raise InputError(f"{where}: game is missing (one of the installed games)")
    try:
        kind = game_kind(game)
    except InputError as exc:
        raise InputError(f"{where}: game: {exc}") from None
    players, pool, sizes = _lineup(raw, game, where)
    rules = _text(raw, "rules", where, kind.default_rules)
    try:
        base = kind.load_rules(rules)
    except InputError as exc:
        raise InputError(f"{where}: rules = {rules!r}: {exc}") from None
    budget = {k: _int(raw, k, where) for k in BUDGET}
    space = _space(raw.get("space"), base, where)
    constraints = raw.get("constraints", [])
    if not isinstance(constraints, list) or not all(isinstance(c, str) for c in constraints):
        raise InputError(
            f"{where}: constraints = {constraints!r} is not allowed (a list of expressions)"
        )
    names = {d.key for d in space}
    for text in constraints:
        check_expression(text, names, where)
    objectives = _objectives(raw.get("objective"), where)
    if any(o.unit == SCORE for o in objectives):  # in the game's own unit (coins, points)
        unit = score_unit(game)
        objectives = tuple(
            dataclasses.replace(o, unit=unit) if o.unit == SCORE else o for o in objectives
        )
    if pool:  # each objective at each table size: unlike tables are never pooled
        objectives = tuple(dataclasses.replace(o, size=s) for o in objectives for s in sizes)
    return BalanceSpec(
        path=where,
        game=game,
        players=players,
        pool=pool,
        table_sizes=sizes,
        rules=rules,
        islands=_text(raw, "islands", where, None),
        engine=_text(raw, "engine", where, "auto"),
        space=space,
        constraints=tuple(constraints),
        objectives=objectives,
        description=_text(raw, "description", where, ""),
        **budget,
    )


def _lineup(
    raw: dict[str, Any], game: str, where: str
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]:
    """``(players, pool, table_sizes)``: a fixed lineup, or a pool checked as ``tourney
    simulate`` checks one (its members, their count, the table sizes the game seats)."""
    if raw.get("pool") is None:
        players = raw.get("players")
        if raw.get("table_sizes") is not None:
            pool_lineup(raw, {}, game, 1, "rotate", where)  # table_sizes without a pool
        if (
            not isinstance(players, list)
            or not players
            or not all(isinstance(p, str) and p.strip() for p in players)
        ):
            raise InputError(
                f"{where}: players = {players!r} is not allowed (a list of strategies, or "
                "pool = [...] with table_sizes)"
            )
        return tuple(p.strip() for p in players), (), ()
    pool = raw["pool"]
    if not isinstance(pool, list) or not all(isinstance(p, str) for p in pool):
        raise InputError(f"{where}: pool = {pool!r} is not allowed (a list of strategies)")
    try:
        who = pool_lineup(raw, {}, game, 1, "rotate", where)
    except InputError as exc:
        text = str(exc)
        raise InputError(text if text.startswith(where) else f"{where}: pool: {text}") from None
    return (), who.labels, who.table_sizes


def _text(raw: dict[str, Any], key: str, where: str, default: str | None) -> Any:
    value = raw.get(key, default)
    if value is not None and (
        not isinstance(value, str) or (key != "description" and not value.strip())
    ):
        raise InputError(f"{where}: {key} = {value!r} is not allowed (a non-empty string)")
    return value


def _int(raw: dict[str, Any], key: str, where: str) -> int:
    value = raw.get(key, DEFAULTS[key])
    low, high = BUDGET[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(
            f"{where}: {key} = {value!r} is not allowed (an integer from {low:,} to {high:,})"
        )
    return value


def _space(raw: Any, base: Rules, where: str) -> tuple[Dimension, ...]:
    """The ``[space.KEY]`` tables, each checked against the game's rules."""
    kind = game_kind(base.game)
    if not isinstance(raw, dict) or not raw:
        raise InputError(f"{where}: space is missing (a [space.KEY] table per rules key)")
    keys = [
        k
        for k in kind.rules_keys
        if k != "preset" and isinstance(getattr(base, k), bool | int | float | str)
    ]
    out = []
    for key, table in raw.items():
        at = f"{where}: space.{key}"
        if key not in keys:
            raise InputError(
                f"{at}: not a {kind.title} rules key a study can vary (allowed: {', '.join(keys)})"
            )
        if not isinstance(table, dict):
            raise InputError(f"{at}: give a table with low and high, or choices")
        dim = _dimension(key, table, at, isinstance(getattr(base, key), float))
        values = dim.values() if dim.kind != "float" or dim.step else [dim.low, dim.high]
        for value in values:
            # A value the rules refuse: the rules' own one line, naming the study's key.
            kind.with_overrides(base, {key: value}, at)
        out.append(dim)
    return tuple(out)


def _dimension(key: str, table: dict[str, Any], at: str, floats: bool) -> Dimension:
    extra = sorted(set(table) - {"low", "high", "step", "choices"})
    if extra:
        raise InputError(f"{at}: unknown key {extra[0]!r} (allowed: low, high, step, choices)")
    if "choices" in table:
        choices = table["choices"]
        if set(table) != {"choices"} or not isinstance(choices, list) or len(choices) < 2:
            raise InputError(
                f"{at}: choices = {choices!r} is not allowed (a list of two or more "
                "values, without low or high)"
            )
        if len({repr(c) for c in choices}) != len(choices):
            raise InputError(f"{at}: choices = {choices!r} repeats a value")
        return Dimension(key, "choice", choices=tuple(choices))
    low, high, step = table.get("low"), table.get("high"), table.get("step")
    numbers = [v for v in (low, high, step) if v is not None]
    if (
        low is None
        or high is None
        or any(
            isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v)
            for v in numbers
        )
    ):
        raise InputError(f"{at}: give low and high as numbers (and an optional step)")
    if not low < high:
        raise InputError(f"{at}: low = {low!r} must be below high = {high!r}")
    if not floats and all(isinstance(v, int) for v in numbers):
        if step not in (None, 1):
            raise InputError(f"{at}: step = {step!r} is not allowed for an integer key (1)")
        return Dimension(key, "int", low, high)
    if not floats:
        raise InputError(f"{at}: the key takes whole numbers (give integer low and high)")
    if step is not None and (
        step <= 0 or abs((high - low) / step - round((high - low) / step)) > 1e-9
    ):
        raise InputError(f"{at}: step = {step!r} must be positive and divide high - low")
    return Dimension(key, "float", float(low), float(high), None if step is None else float(step))


def score_unit(game: str) -> str:
    """The unit the game's scores are counted in (its report part's: coins, points)."""
    from pipelines.report.assemble import game_report

    return game_report(game).score_unit


def _objectives(raw: Any, where: str) -> tuple[Objective, ...]:
    """The ``[[objective]]`` tables: a metric of the registry, its direction, its options."""
    if not isinstance(raw, list) or not raw or not all(isinstance(o, dict) for o in raw):
        raise InputError(f"{where}: objective is missing (one or more [[objective]] tables)")
    out = []
    for k, table in enumerate(raw):
        at = f"{where}: objective[{k}]"
        metric = table.get("metric")
        if metric not in METRICS:
            raise InputError(
                f"{at}: metric = {metric!r} is not allowed (one of: {', '.join(METRICS)})"
            )
        out.append(METRICS[metric].objective(table, at))
    names = [o.name for o in out]
    twice = next((n for k, n in enumerate(names) if n in names[:k]), None)
    if twice is not None:
        raise InputError(f"{where}: objective {twice!r} is given twice")
    return tuple(out)


# -- constraints ----------------------------------------------------------------------------

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}


def _parse(text: str, where: str) -> ast.expr:
    try:
        return ast.parse(text, mode="eval").body
    except SyntaxError:
        raise InputError(f"{where}: constraint {text!r} is not an expression") from None


def check_expression(text: str, names: set[str], where: str) -> None:
    """``InputError`` unless ``text`` is an expression the evaluator reads over ``names``."""
    for node in ast.walk(_parse(text, where)):
        if isinstance(node, ast.Name) and node.id not in names | {"true", "false"}:
            raise InputError(
                f"{where}: constraint {text!r} names {node.id!r}, which is not a "
                f"parameter of the space ({', '.join(sorted(names))})"
            )
        allowed = (
            ast.Name,
            ast.Constant,
            ast.BinOp,
            ast.UnaryOp,
            ast.BoolOp,
            ast.Compare,
            ast.Load,
            ast.And,
            ast.Or,
            ast.Not,
            ast.USub,
            ast.UAdd,
            *_BINARY,
            *_COMPARE,
        )
        if not isinstance(node, allowed) or (
            isinstance(node, ast.Constant) and not isinstance(node.value, int | float | str)
        ):
            raise InputError(
                f"{where}: constraint {text!r} uses {type(node).__name__}, which is "
                "not allowed (numbers, names, + - * / // %, comparisons, and, or, "
                "not)"
            )


def evaluate(text: str, values: Mapping[str, Any], where: str) -> Any:
    """The value of the expression ``text`` with the parameters' ``values``."""
    return _value(_parse(text, where), values)


def _value(node: ast.expr, values: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return {"true": True, "false": False}.get(node.id, values.get(node.id))
    if isinstance(node, ast.BinOp):
        return _BINARY[type(node.op)](_value(node.left, values), _value(node.right, values))
    if isinstance(node, ast.UnaryOp):
        inner = _value(node.operand, values)
        return (
            (not inner)
            if isinstance(node.op, ast.Not)
            else (-inner if isinstance(node.op, ast.USub) else +inner)
        )
    if isinstance(node, ast.BoolOp):
        parts = [_value(v, values) for v in node.values]
        return all(parts) if isinstance(node.op, ast.And) else any(parts)
    assert isinstance(node, ast.Compare)
    left = _value(node.left, values)
    for op, right_node in zip(node.ops, node.comparators, strict=True):
        right = _value(right_node, values)
        if not _COMPARE[type(op)](left, right):
            return False
        left = right
    return True
