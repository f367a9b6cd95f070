"""``tourney check-game NAME``: proves that a registered game meets the contract a run relies on.

A game is a plug-in, and what the runner, the referee and the reports assume of it is checked
here on real games of its default lineup (the first ``games`` games of a run's schedule):

``determinism``
    the same plan played twice gives the same result and the same move log;
``tables``
    the tables built from those games pass the runner's shard check
    (:mod:`sim.runner.shard_check`): every table with its declared schema, exactly one row set
    per scheduled game (no duplicate, no missing row, no foreign ``game_id``), and a sample
    replayed;
``crashing player``, ``cheating player``, ``slow player``
    a seat whose strategy raises at every decision, answers an object that is no legal answer
    (its own ``==`` agrees with everything), or sleeps past a decision time limit: each game
    still ends with a result and a known end reason, the failures are recorded as violations
    of that seat only, and the slow player's game ends as a ``timeout``;
``rules``
    the default rules written as a rules file (every key) and read back are the same rules
    (same hash, same values).

The checks run in that order and the first failure is the answer (:class:`ContractError`).
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.game import NO_ISLAND, AnyKind, GamePlan
from sim.guard import NO_GUARD, Guard
from sim.outcome import END_REASONS
from sim.runner.games import game_kind
from sim.runner.schedule import Schedule
from sim.runner.shard_check import ShardCheck, ShardCheckError
from strategies.catalog import load_catalog
from strategies.registry import parse_strategy

#: The checks, in the order they run.
CHECKS = (
    "determinism",
    "facts",
    "tables",
    "crashing player",
    "cheating player",
    "slow player",
    "rules",
)
#: The root seed of the games checked.
SEED = 20_261_204
#: The decision time limit of the slow-player check, and how long that player sleeps.
LIMIT, SLEEP = 0.05, 1.0


class ContractError(Exception):
    """A check the game does not pass: its name and what was found."""

    def __init__(self, check: str, detail: str) -> None:
        super().__init__(f"{check}: {detail}")
        self.check = check
        self.detail = detail


@dataclass(frozen=True)
class Passed:
    """What a game that meets the contract was checked on."""

    game: str
    games: int
    players: tuple[str, ...]

    def summary(self) -> str:
        """One line."""
        return (
            f"{self.game} meets the contract: {len(CHECKS)} checks passed "
            f"({', '.join(CHECKS)}) on {self.games} games of {', '.join(self.players)}"
        )


class Crashing:
    """Raises at every decision."""

    def __init__(self, rng: random.Random) -> None:
        pass

    def decide(self, view: object, decision: object) -> object:
        raise RuntimeError("a crashing player")


class _Anything:
    """Equal to everything, hashable, and no legal answer of any game."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


class Cheating:
    """Answers an object whose own ``==`` agrees with every legal answer."""

    def __init__(self, rng: random.Random) -> None:
        pass

    def decide(self, view: object, decision: object) -> object:
        return _Anything()


class Slow:
    """Sleeps past any sensible decision time limit, then answers the fallback."""

    def __init__(self, rng: random.Random) -> None:
        pass

    def decide(self, view: Any, decision: Any) -> object:
        time.sleep(SLEEP)
        return decision.fallback()


def check_game(name: str, games: int = 24) -> Passed:
    """Check game ``name`` on the first ``games`` games of its default lineup; the checks it
    passed, or :class:`ContractError` for the first it does not (``InputError`` for an unknown
    game)."""
    kind = game_kind(name)
    catalog = load_catalog(name)
    if catalog is None or not catalog.defaults:
        raise ContractError("determinism", "the game's kind names no strategies (strategies)")
    players = tuple(catalog.defaults)
    factories = [parse_strategy(p, name).factory() for p in players]
    rules = kind.load_rules(kind.default_rules)
    islands = tuple(kind.boards.builtin()) if kind.boards else (NO_ISLAND,)
    schedule = Schedule(SEED, len(players), "rotate", islands)
    plans = [schedule.plan(g) for g in range(games)]

    def play(plan: GamePlan, seats: Sequence[Any] = factories, guard: Guard = NO_GUARD) -> Any:
        return kind.play(plan, rules, seats, None, guard)

    played = _determinism(kind, plans, play)
    _facts(kind, len(players), played)
    _tables(kind, name, list(players), plans, played, play)
    _failing_seat(kind, "crashing player", plans, play, factories, Crashing, NO_GUARD)
    _failing_seat(kind, "cheating player", plans, play, factories, Cheating, NO_GUARD)
    _failing_seat(
        kind, "slow player", plans[:2], play, factories, Slow, Guard(decision_timeout=LIMIT)
    )
    _rules(kind, rules)
    return Passed(name, games, players)


def _facts(kind: AnyKind, n_players: int, played: list[Any]) -> None:
    """The game's games are as it declares: its default lineup seated within its player
    range, declared end reasons known to the tables, and every game ending with one."""
    low, high = kind.facts.players
    if not 1 <= low <= high or not low <= n_players <= high:
        raise ContractError(
            "facts", f"players = ({low}, {high}) does not hold its {n_players}-player lineup"
        )
    unknown = [r for r in kind.facts.end_reasons if r not in END_REASONS]
    if unknown:
        raise ContractError("facts", f"end reason {unknown[0]!r} is not one of {END_REASONS}")
    for game in played:
        reason = game.result.end_reason if game.result is not None else None
        if reason not in kind.facts.end_reasons:
            raise ContractError(
                "facts", f"a game ended by {reason!r}, which the game does not declare"
            )


def _determinism(
    kind: AnyKind, plans: list[GamePlan], play: Callable[[GamePlan], Any]
) -> list[Any]:
    played = []
    for plan in plans:
        first, second = play(plan), play(plan)
        if first.result != second.result or kind.log(first) != kind.log(second):
            raise ContractError(
                "determinism", f"game {plan.game_id} played twice from its plan differs"
            )
        played.append(first)
    return played


def _tables(
    kind: AnyKind,
    name: str,
    labels: list[str],
    plans: list[GamePlan],
    played: list[Any],
    play: Callable[[GamePlan], Any],
) -> None:
    builder = kind.builder(name, labels)
    check = ShardCheck(kind, 0, 0, len(plans), SEED)
    for plan, game in zip(plans, played, strict=True):
        check.saw(plan, game)
        builder.add(plan, game)
    try:
        check.find(builder.build(), play)
    except ShardCheckError as exc:
        raise ContractError("tables", f"{exc.check}: {exc.detail}") from None


def _failing_seat(
    kind: AnyKind,
    check: str,
    plans: list[GamePlan],
    play: Callable[..., Any],
    factories: Sequence[Any],
    bad: type,
    guard: Guard,
) -> None:
    """Seat 0's strategy replaced by ``bad`` in each plan: a result, a known end reason,
    violations recorded for that seat only (the slow player's game: a ``timeout``)."""
    seats = [bad, *factories[1:]]
    for plan in plans:
        try:
            game = play(plan, seats, guard)
        except Exception as exc:
            raise ContractError(
                check, f"game {plan.game_id} raised {type(exc).__name__}: {exc}"
            ) from None
        result = game.result
        if result is None or result.end_reason not in kind.facts.end_reasons:
            raise ContractError(check, f"game {plan.game_id} did not end with a result")
        bad_seat = plan.order.index(0)
        seats_seen = {v.seat for v in game.violations}
        if not game.violations or seats_seen != {bad_seat}:
            raise ContractError(
                check,
                f"game {plan.game_id}: violations recorded for seats "
                f"{sorted(s + 1 for s in seats_seen)}, not for seat {bad_seat + 1} alone",
            )
        if guard.decision_timeout is not None and result.end_reason != "timeout":
            raise ContractError(
                check, f"game {plan.game_id} ended by {result.end_reason}, not timeout"
            )


def _rules(kind: AnyKind, rules: Any) -> None:
    values = rules.to_dict()
    with tempfile.TemporaryDirectory(prefix="tourney-check-") as tmp:
        path = Path(tmp) / "rules.toml"
        path.write_text(rules_toml(values))
        back = kind.load_rules(str(path))
    if back.hash != rules.hash or back.to_dict() != values:
        changed = sorted(k for k in values if back.to_dict().get(k) != values[k])
        raise ContractError("rules", f"written and read back, the rules differ in {changed}")


def rules_toml(values: dict[str, Any]) -> str:
    """Rules values (strings, numbers, booleans and lists of them) as a rules file."""

    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int | float):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list | tuple):
            return "[" + ", ".join(value(x) for x in v) + "]"
        raise TypeError(f"a rules value of type {type(v).__name__} has no file form")

    return "".join(f"{key} = {value(v)}\n" for key, v in values.items())
