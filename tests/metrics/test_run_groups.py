"""Which runs are pooled, which are paired, and which are refused, from their manifests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipelines.metrics.source import RunInfo
from pipelines.report.run_groups import group_runs, run_label
from sim.errors import InputError

RULES = {"curse_count": 2, "amulet_count": 10, "hand_size": 4}


def run(path: str, **spec: Any) -> RunInfo:
    base: dict[str, Any] = {
        "game": "tobago",
        "players": ["hunter", "cautious"],
        "games": 100,
        "seed": 1,
        "seating": "rotate",
        "islands": ["abc-1"],
        "rules": "rulebook",
        "rules_hash": "h0",
        "resolved_rules": dict(RULES),
    }
    base.update(spec)
    return RunInfo(Path(path), {"spec": base, "status": "complete"})


def test_runs_of_different_player_counts_are_not_pooled() -> None:
    two = run("two")
    three = run("three", players=["hunter", "cautious", "collector"], seed=1)
    groups = group_runs([two, three])
    assert [len(c.runs) for c in groups.cohorts] == [1, 1] and not groups.pairings
    assert [c.table_sizes for c in groups.cohorts] == [(2,), (3,)]


def test_a_pool_is_pooled_only_with_the_same_pool_at_the_same_table_sizes() -> None:
    four = ["hunter", "cartographer", "collector", "cautious"]
    fixed = run("fixed", players=four)
    pool = run("pool", players=four, pool=four, table_sizes=[2, 3, 4], games=36)
    other_seed = run("pool2", players=four, pool=four, table_sizes=[2, 3, 4], games=36, seed=2)
    fewer_sizes = run("pool3", players=four, pool=four, table_sizes=[3, 4], games=24, seed=3)
    groups = group_runs([fixed, pool, other_seed, fewer_sizes])
    assert [[r.path.name for r in c.runs] for c in groups.cohorts] == [
        ["fixed"],
        ["pool", "pool2"],
        ["pool3"],
    ]
    assert [c.table_sizes for c in groups.cohorts] == [(4,), (2, 3, 4), (3, 4)]
    # The fixed lineup and the pool share the seed but not their lineups: no pairing.
    assert not groups.pairings
    assert run_label(pool) == (
        "rulebook: pool hunter, cartographer, collector, cautious at 2, 3, 4 players"
    )
    ablated = run("pool-nc", players=four, pool=four, table_sizes=[2, 3, 4], games=36,
                  rules_hash="h1", resolved_rules={**RULES, "curse_count": 0})  # fmt: skip
    (pairing,) = group_runs([pool, ablated]).pairings
    assert pairing.factor == "curses"


def test_same_rules_and_players_with_other_seeds_are_pooled() -> None:
    groups = group_runs([run("a"), run("b", seed=2)])
    assert len(groups.cohorts) == 1 and len(groups.cohorts[0].runs) == 2
    assert groups.cohorts[0].label.endswith("(+1 pooled run)")


def test_an_ablation_twin_is_paired_with_its_base_whatever_the_order() -> None:
    base = run("base")
    twin = run(
        "twin",
        rules="rulebook without curses",
        rules_hash="h1",
        resolved_rules={**RULES, "curse_count": 0},
    )
    for given in ([base, twin], [twin, base]):
        groups = group_runs(given)
        assert len(groups.cohorts) == 2
        (pairing,) = groups.pairings
        assert pairing.factor == "curses" and pairing.a is base and pairing.b is twin
        assert pairing.changes == ("curse_count: 2 -> 0",)
        # Short names on the page; the long labels are in the list of runs.
        assert pairing.label == "A = base, B = twin; B - A"


def test_a_rules_variant_and_a_strategy_swap_are_paired_a_new_deal_is_not() -> None:
    base = run("base")
    five = run("five", rules="variants/five.toml", rules_hash="h5",
               resolved_rules={**RULES, "hand_size": 5})  # fmt: skip
    swap = run("swap", players=["hunter", "random"])
    other_seed = run("other", rules_hash="h5", rules="five.toml", seed=9)
    groups = group_runs([base, five, swap, other_seed])
    kinds = {(p.b.path.name, p.factor) for p in groups.pairings}
    assert kinds == {("five", "rules"), ("swap", "strategy")}
    rules_pair = next(p for p in groups.pairings if p.factor == "rules")
    assert rules_pair.changes == ("hand_size: 4 -> 5",)
    assert run_label(five) == "five.toml: hunter, cautious"  # a variant is never "rulebook"
    swap_pair = next(p for p in groups.pairings if p.factor == "strategy")
    assert swap_pair.slot == 1 and swap_pair.title == "random in place of cautious"


def test_the_same_games_twice_are_refused() -> None:
    with pytest.raises(InputError, match="given twice"):
        group_runs([run("a"), run("a")])
    with pytest.raises(InputError, match="hold the same games"):
        group_runs([run("a"), run("b", games=200)])  # the first 100 games are the same


def test_a_recorded_label_wins() -> None:
    labelled = RunInfo(Path("x"), {"spec": run("x").manifest["spec"], "label": "Demo"})
    assert run_label(labelled) == "Demo"
