"""A measured prototype of a compiled Tobago engine's hottest part, the clue filter: the
legal clue plays of a hand (``LegalActions._clue_plays``: every card and map whose clue
leaves some but not all of the map's candidates) and the scripted players' scoring of them
(``ScriptedPlayer._best_clue``: cells eliminated, a bonus for locating a treasure near the
ATV, a malus when a rival is nearer, the spread bonus), in numba over cells as words.

It plays the bench's games (the default lineup, a run's rotated schedule), records every
call of the two reference methods with its answer, answers the same positions with the
compiled functions (exit 1 on any difference), and times, in alternating rounds: the
reference game, the reference methods replayed call by call, the compiled functions inside
one compiled loop (what a full port pays) and called once per position from Python (what a
partial port pays). From these: the clue filter's share of a game and Amdahl's whole-game
speed-up. It also gives what a full port would pay around the game: the random draws of each
stream (what a Mersenne-Twister-exact port reproduces) and their cost compiled, the stream
seeds, the deal, and the run's tables built in Python. ``--profile N`` first cProfiles N games
and prints each part's share.

    .venv/bin/python scripts/tobago_compiled_prototype.py              # 600 games, 5 rounds
    .venv/bin/python scripts/tobago_compiled_prototype.py --games 2000 --rounds 7 --profile 1000

See docs/compiled-tobago.md for what the figures mean for a full port.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.tobago_prototype.capture import record, setup_games
from scripts.tobago_prototype.positions import arrays
from scripts.tobago_prototype.profiling import profile_shares
from scripts.tobago_prototype.replay import check, reference_calls
from scripts.tobago_prototype.timing import report, timings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="bench games to record and time")
    parser.add_argument("--rounds", type=int, default=5, help="alternating timed rounds")
    parser.add_argument("--profile", type=int, default=0, help="games to cProfile (0: none)")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} (cores: {os.cpu_count()})")
    if args.profile:
        shares, total = profile_shares(args.profile)
        print(f"cProfile of {args.profile} games ({total:.2f} s profiled):")
        for part, share in shares.items():
            print(f"  {share:6.1%}  {part}")
    rec = record(args.games)
    kind, rules, factories, plans = setup_games(args.games)
    a = arrays(rec)
    replay = reference_calls(rec, rules)
    bad = check(a, rec, replay)
    print(
        f"{args.games} games: {len(rec.plays):,} clue-play listings, {len(rec.best):,} clue "
        f"scorings checked: {len(bad)} differ"
    )
    for line in bad[:5]:
        print("  " + line)
    if bad:
        return 1
    t = timings(args.rounds, rec, a, replay, (kind, rules, factories, plans))
    report(args.games, rec, t)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
