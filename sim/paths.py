"""Where the checked-in data files live.

The data folder is the repository's ``data/`` next to the packages (the project is installed
in editable mode); ``TOURNEY_DATA`` points elsewhere, for example at a copy a user edits.
"""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The folder holding islands, clue decks, rules presets and baselines."""
    override = os.environ.get("TOURNEY_DATA")
    if override:
        return Path(override)
    return Path(__file__).resolve().parent.parent / "data"
