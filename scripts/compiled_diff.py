"""The compiled Treasure Island engine against the reference at scale: plays each lineup's
first ``--games`` games (a run's rotated schedule) through both engines, in chunks, and
counts the ``games`` and ``seats`` rows in which they differ (0 expected), with each
engine's time.

    .venv/bin/python scripts/compiled_diff.py                      # 100,000 games a lineup
    .venv/bin/python scripts/compiled_diff.py --games 20000 --rules characters \\
        --lineup "expected-value,bust-threshold,random"

Exits 1 when any row differs (the first few are printed).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sim.treasure_island.rules import load_rules
from strategies.registry import split_specs
from tests.treasure_island.compiled_cases import mismatches, plans_of

LINEUPS = (
    "expected-value,bust-threshold",
    "stop-at,random,expected-value(k=2, tie_weight=0)",
    "expected-value,bust-threshold(threshold=0.4),stop-at(n=5),random",
)
CHUNK = 10_000


def diff(rules_name: str, lineup: str, games: int, seed: int) -> tuple[int, float]:
    """Rows that differ over ``games`` games of ``lineup``, printed as found; the seconds."""
    rules = load_rules(rules_name)
    labels = split_specs(lineup)
    plans = plans_of(len(labels), games, seed)
    bad = 0
    start = time.perf_counter()
    for first in range(0, games, CHUNK):
        found = mismatches(rules, labels, plans[first : first + CHUNK])
        for line in found[: max(0, 5 - bad)]:
            print("  " + line)
        bad += len(found)
    return bad, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games per lineup")
    parser.add_argument("--rules", action="append", help="rules presets or files (repeatable)")
    parser.add_argument("--lineup", action="append", help="comma-separated players (repeatable)")
    parser.add_argument("--seed", type=int, default=2026, help="the runs' root seed")
    args = parser.parse_args()
    total = 0
    for rules_name in args.rules or ["standard", "characters"]:
        for lineup in args.lineup or LINEUPS:
            bad, seconds = diff(rules_name, lineup, args.games, args.seed)
            total += bad
            print(
                f"{rules_name} [{lineup}]: {args.games:,} games, {bad} rows differ "
                f"({seconds:.0f} s)"
            )
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
