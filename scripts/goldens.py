"""Regenerate every golden file the tests compare with: each game's playthrough
(``tests/golden/*.txt``). Run it on purpose, after a change that is meant to change a game,
and read the diff before committing it::

    .venv/bin/python -m scripts.goldens      # or: make goldens
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.golden import playthroughs


def main() -> int:
    root = Path(__file__).resolve().parents[1]
    for case in playthroughs.PLAYTHROUGHS:
        print(playthroughs.write(case).relative_to(root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
