"""The search players side by side: each one's own time per decision, then paired seat-swapped
comparisons of ``ismcts`` with ``pimc`` and with the best scripted player of each game, as a
user runs them (``tourney compare``), at full size.

    .venv/bin/python scripts/ismcts_bench.py time --games 20
    .venv/bin/python scripts/ismcts_bench.py compare --max-games 2400 --workers 2
    .venv/bin/python scripts/ismcts_bench.py compare --ismcts 'ismcts(iterations=85)' --only 1
    .venv/bin/python scripts/ismcts_bench.py tune --max-games 800

``time`` plays games with the search player in seat 0 (4-player Tobago against cautious,
cartographer and collector on abc-1; 2-player Treasure Island against expected-value) and
times its own decisions (CPU time of the process, so that other load on the machine does not
count), through the direct view as a built-in plays. ``compare`` is where
the figures of docs/strategies.md ("ismcts") come from, on seed 1; ``tune`` tries the
exploration constant on seed 7, a seed range the reported comparisons never use. The default
tests play the same players in tiny games (tests/tobago/test_ismcts.py,
tests/treasure_island/test_ismcts.py).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from sim.sealed import trust
from sim.tobago.catalog import resolve_board
from sim.tobago.engine import TobagoGame
from sim.tobago.rules import preset as tobago_rules
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.rules import preset as treasure_island_rules
from strategies.registry import parse_strategy

TOURNEY = str(Path(sys.executable).parent / "tourney")
TOBAGO_FIELD = "cautious,cartographer,collector"
#: (game, A, B, field): B - A in the candidate's win share against the field.
COMPARISONS = (
    ("tobago", "cautious", "ismcts", TOBAGO_FIELD),
    ("tobago", "pimc", "ismcts", TOBAGO_FIELD),
    ("treasure-island", "expected-value", "ismcts", "expected-value"),
    ("treasure-island", "pimc", "ismcts", "expected-value"),
)


def own_time(game: str, spec: str, games: int) -> tuple[float, int, int]:
    """Seconds the player spent deciding, its decisions and the searched ones (> 2 ms)."""
    factory = parse_strategy(spec, game).factory()
    spent = [0.0, 0, 0]

    class Timed:
        def __init__(self, rng: Any) -> None:
            self.inner = factory(rng)

        def decide(self, view: Any, decision: Any) -> object:
            start = time.process_time()
            answer = self.inner.decide(view, decision)
            took = time.process_time() - start
            spent[0] += took
            spent[1] += 1
            spent[2] += took > 0.002
            return answer

    trust(Timed)  # the direct view, as the built-in player reads the game
    for seed in range(1000, 1000 + games):
        if game == "tobago":
            field = [parse_strategy(s, game).factory() for s in TOBAGO_FIELD.split(",")]
            board = resolve_board("abc-1")
            TobagoGame(tobago_rules("rulebook"), board, [Timed, *field], seed).play()
        else:
            other = parse_strategy("expected-value", game).factory()
            TreasureIslandGame(treasure_island_rules("standard"), [Timed, other], seed).play()
    return spent[0], int(spent[1]), int(spent[2])


def compare(game: str, a: str, b: str, field: str, max_games: int, seed: int, workers: int) -> None:
    command = [TOURNEY, "compare", "--game", game, "--a-strategy", a, "--b-strategy", b,
               "--players", field, "--two-sided", "--max-games", str(max_games),
               "--seed", str(seed), "--workers", str(workers)]  # fmt: skip
    print("$ tourney " + " ".join(command[1:]), flush=True)
    subprocess.run(command, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("time", "compare", "tune"))
    parser.add_argument("--games", type=int, default=20, help="games per player (time)")
    parser.add_argument("--max-games", type=int, default=2400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--ismcts",
        default="ismcts",
        help="the tree player as specified (e.g. 'ismcts(iterations=85)': a budget matched to "
        "pimc's time per decision)",
    )
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated numbers of the comparisons to run (1 to 4; default all)",
    )
    args = parser.parse_args(argv)
    tree = args.ismcts
    if args.what == "time":
        for game in ("tobago", "treasure-island"):
            for spec in ("pimc", tree):
                spent, decisions, searched = own_time(game, spec, args.games)
                print(
                    f"{game} {spec}: {spent / args.games:.2f} s a game, {decisions} decisions, "
                    f"{searched} searched, {1000 * spent / max(searched, 1):.0f} ms a searched "
                    f"decision, {decisions / spent:.0f} decisions/s"
                )
    elif args.what == "compare":
        chosen = {int(k) for k in args.only.split(",") if k} or set(range(1, 5))
        for k, (game, a, b, field) in enumerate(COMPARISONS, start=1):
            if k in chosen:
                compare(game, a, tree if b == "ismcts" else b, field, args.max_games, 1,
                        args.workers)  # fmt: skip
    else:
        for game, a, _, field in COMPARISONS[::2]:
            for c in ("0.35", "0.7", "1.4"):
                compare(game, a, f"ismcts(c={c})", field, args.max_games, 7, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
