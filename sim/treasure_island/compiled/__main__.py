"""``python -m sim.treasure_island.compiled``: compile the engine into numba's cache now (a
set-up step: ``make setup`` runs it, so the first run on a machine does not wait for it)."""

from __future__ import annotations

import time

from sim.treasure_island.compiled.kind import ENGINE


def main() -> None:
    start = time.perf_counter()
    ENGINE.load()
    print(f"compiled Treasure Island engine ready in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
