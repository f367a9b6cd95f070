"""Golden playthroughs: one seeded game of every game, as ``tourney play`` prints it.

Each case is a ``tourney play`` command whose text (the setup, every move with its seat, the
end and the scores) is stored in ``tests/golden/<name>.txt``; ``make goldens`` writes them
and the tests compare, so that a game that plays differently shows up as a readable diff.
The built-in games are played in this process; a plug-in game through the console script
with its package on ``PYTHONPATH``, as a user installs it (the test process never sees it).
"""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli.main import app

GOLDEN = Path(__file__).parent
PLUGINS = GOLDEN.parent / "plugins"


@dataclass(frozen=True)
class Playthrough:
    """A seeded game: its golden file's name, the ``tourney play`` arguments as typed, and
    the plug-in folder to put on ``PYTHONPATH`` (None for a built-in game)."""

    name: str
    args: str
    plugin: Path | None = None

    @property
    def game(self) -> str:
        words = self.args.split()
        return words[words.index("--game") + 1]

    @property
    def path(self) -> Path:
        return GOLDEN / f"{self.name}.txt"


#: Every game, with its strategies named (so that a change of a default does not look like
#: a change of the game). Treasure Island deals characters, so that their powers show; its
#: seed was picked for a game that logs every kind of event but a strategy violation (every
#: power, a bust, the Key + Chest bonus, the wrecker's take). Dice Race's has busts, banks
#: and a win.
PLAYTHROUGHS: tuple[Playthrough, ...] = (
    Playthrough(
        "tobago_seed7",
        "--game tobago --players hunter,cartographer,collector,cautious --seed 7 --island aBc-2",
    ),
    Playthrough(
        "treasure_island_seed5",
        "--game treasure-island --rules characters --seed 5 "
        "--players expected-value,bust-threshold,stop-at,random",
    ),
    Playthrough(
        "dice_race_seed8",
        "--game dice-race --players hold-at,random,hold-at(n=25) --seed 8",
        plugin=PLUGINS / "dice_race",
    ),
)


def play_text(case: Playthrough) -> str:
    """The game as ``tourney play`` prints it (``AssertionError`` with its output if the
    command fails)."""
    args = ["play", *case.args.split()]
    if case.plugin is None:
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        return result.stdout
    path = os.pathsep.join(filter(None, [str(case.plugin), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [str(Path(sys.executable).parent / "tourney"), *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def text_diff(want: str, got: str, name: str, most: int = 60) -> str:
    """A unified diff of the golden text and the game played now, at most ``most`` lines."""
    lines = list(
        difflib.unified_diff(
            want.splitlines(), got.splitlines(), f"{name} (golden)", f"{name} (now)", lineterm=""
        )
    )
    if len(lines) > most:
        lines = [*lines[:most], f"... {len(lines) - most} more diff lines"]
    return "\n".join(lines)


def write(case: Playthrough) -> Path:
    """Play the case and store its text as the golden."""
    case.path.write_text(play_text(case))
    return case.path
