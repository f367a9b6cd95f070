"""The game-shape section of a game whose report part does not say how to read its scores
(Dice Race names no report part): a sentence says so, and the choices per decision are still
counted, exactly: every Dice Race decision is roll or bank."""

from __future__ import annotations

import json
from pathlib import Path

from tests.plugins.test_dice_race import PLAYERS, ok


def test_dice_race_gets_choices_and_a_sentence_for_the_rest(tmp_path: Path) -> None:
    ok("simulate", "--game", "dice-race", "--players", PLAYERS, "--games", "60", "--seed", "2",
       "--backend", "serial", "--out", str(tmp_path / "run"))  # fmt: skip
    ok("report", str(tmp_path / "run"), "--out", str(tmp_path / "rep"))
    doc = json.loads((tmp_path / "rep" / "report.json").read_text())
    (record,) = doc["game_shape"]
    assert record["n_players"] == 3 and "lead_changes" not in record
    assert record["note"].startswith("Dice Race's report part does not say how to read")
    c = record["choices_per_decision"]
    assert c["games"] == 40 and c["decisions"] > 0
    assert c["choices"] == 2 * c["decisions"] and c["mean"] == c["low"] == c["high"] == 2.0
    summary = (tmp_path / "rep" / "summary.md").read_text().split("## Game shape", 1)[1]
    assert "Dice Race's report part does not say how to read its scores" in summary
