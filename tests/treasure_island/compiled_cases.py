"""Games played through both engines, for the differential tests and scripts/compiled_diff.py:
the reference's ``games`` and ``seats`` tables next to the compiled engine's."""

from __future__ import annotations

from collections.abc import Sequence

from sim.game import GamePlan
from sim.runner.schedule import Schedule
from sim.treasure_island.compiled.tables import tables as compiled_tables
from sim.treasure_island.kind import build
from sim.treasure_island.rules import TreasureIslandRules
from sim.treasure_island.tables import TreasureIslandTableBuilder
from strategies.registry import REGISTRIES, parse_strategy

GAME = "treasure-island"
#: Every compiled player, with its default and other parameters.
PLAYERS = (
    "random",
    "stop-at",
    "stop-at(n=1)",
    "stop-at(n=5)",
    "bust-threshold",
    "bust-threshold(threshold=0.4)",
    "expected-value",
    "expected-value(k=2, tie_weight=0)",
)


def plans_of(
    n_players: int, games: int, seed: int, seating: str = "rotate", sizes: tuple[int, ...] = ()
) -> list[GamePlan]:
    """The first ``games`` games of a run's schedule (a pool when ``sizes`` are given)."""
    schedule = Schedule(seed, n_players, seating, ("-",), sizes)
    return [schedule.plan(i) for i in range(games)]


def mismatches(
    rules: TreasureIslandRules, labels: Sequence[str], plans: Sequence[GamePlan]
) -> list[str]:
    """Every row of ``games`` and ``seats`` in which the engines differ, described (none
    when they agree value for value)."""
    specs = [parse_strategy(label, GAME) for label in labels]
    factories = [spec.factory() for spec in specs]
    builder = TreasureIslandTableBuilder(GAME, list(labels))
    for plan in plans:
        game = build(plan, rules, factories)
        game.play()
        builder.add(plan, game)
    reference = builder.build()
    name_of = {cls: name for name, cls in REGISTRIES[GAME].items()}
    players = [(name_of[spec.cls], dict(spec.params)) for spec in specs]
    compiled = compiled_tables(GAME, plans, rules, players, labels)
    out = []
    for name in ("games", "seats"):
        ours, theirs = compiled[name].to_pylist(), reference[name].to_pylist()
        if len(ours) != len(theirs):
            out.append(f"{name}: {len(ours)} rows, the reference {len(theirs)}")
        for mine, ref in zip(ours, theirs, strict=False):
            if mine != ref:
                diff = {k: (mine[k], ref[k]) for k in ref if mine.get(k) != ref[k]}
                out.append(f"{name} game {ref['game_id']}: (compiled, reference) {diff}")
    return out
