"""A tiny balance study's file for the objectives' tests: the template a test fills with a game,
its players, islands and one rules key's range, then appends its ``[[objective]]`` tables."""

from __future__ import annotations

from pathlib import Path

STUDY = """
game = "GAME"
players = PLAYERS
ISLANDS
trials = 3
games = 16
rungs = 1
confirm_games = 16
confirm_top = 1
workers = 1
[space.KEY]
low = LOW
high = HIGH
"""
TOBAGO = {"GAME": "tobago", "PLAYERS": '["hunter", "cautious"]', "ISLANDS": 'islands = "abc-1"',
          "KEY": "curse_count", "LOW": "1", "HIGH": "3"}  # fmt: skip
TI = {"GAME": "treasure-island", "PLAYERS": '["expected-value", "random"]', "ISLANDS": "",
      "KEY": "rum_cards", "LOW": "2", "HIGH": "4"}  # fmt: skip


def write_study(tmp_path: Path, values: dict[str, str], objectives: str, extra: str = "") -> Path:
    """``study.toml`` in ``tmp_path``: ``extra`` lines, the template filled with ``values``,
    then ``objectives``."""
    text = STUDY
    for key, value in values.items():
        text = text.replace(key, value)
    path = tmp_path / "study.toml"
    path.write_text(extra + text + objectives)
    return path
