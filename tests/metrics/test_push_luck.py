"""The Treasure Island report on a real run: every output, and its figures checked against
the run's own tables and the engine's rules."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.metrics.source import connect, open_run
from pipelines.report.assemble import JSON_KEYS
from pipelines.treasure_island import push_luck


def test_report_of_a_treasure_island_run(ti_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "rep"
    result = CliRunner().invoke(app, ["report", str(ti_run), "--out", str(out)])
    assert result.exit_code == 0, result.output
    obj = json.loads((out / "report.json").read_text())
    assert tuple(obj) == JSON_KEYS and obj["games"] == 2000 and obj["complete"]
    assert obj["game"] == "treasure-island"
    (cohort,) = obj["cohorts"]
    luck = cohort["sections"]["push_your_luck"]
    assert {r["kinds_in_play"] for r in luck["bust_by_kinds"]} >= {0, 1, 2, 3, 4}
    for name in ("bust_by_kinds", "plunder_sizes", "key_chest", "power_use"):
        assert (out / "tables" / f"{name}.parquet").exists()
    summary = (out / "summary.md").read_text()
    assert summary.startswith("# tourney report: Treasure Island")
    assert "Busts show no clear departure from their exact chance" in summary
    # ... with what the check could have seen, in words and in the finding's record.
    assert "each group could have shown a departure of " in summary
    (bust,) = [f for f in obj["findings"] if f["metric"] == "bust_check"]
    assert bust["detectable_effect"] > 0 and bust["games_for_effect"] > 0
    page = (out / "index.html").read_text()
    words = page.replace("Treasure Island", "")
    assert "coins" not in words and "island" not in words.lower()  # this game's own words


def test_bust_rates_match_the_exact_chance_and_the_tables_agree(ti_run: Path) -> None:
    con = connect([open_run(ti_run)])
    rows = push_luck.bust_by_kinds(con).to_pylist()
    assert rows[0]["kinds_in_play"] == 0 and rows[0]["busts"] == 0 and rows[0]["exact"] == 0
    for r in rows:
        assert abs(r["z"]) < 4.5, r
        assert r["low"] <= r["observed"] <= r["high"]
    turns = con.sql("SELECT count(*), sum((reason = 'bust')::INT) FROM turns").fetchall()[0]
    seats = con.sql("SELECT sum(turns_played), sum(busts) FROM seats").fetchall()[0]
    games = con.sql("SELECT sum(turns), sum(busts) FROM games").fetchall()[0]
    assert turns == seats == games
    # Each turn's first card is a forced draw with nothing in play: exactly one per turn.
    first = con.sql(
        "SELECT count(*) FROM draws WHERE kinds_in_play = 0 AND draw != 'draw'"
    ).fetchall()[0][0]
    assert first == turns[0]
    sizes = push_luck.plunder_sizes(con).to_pylist()
    plunders = con.sql("SELECT count(*) FROM turns WHERE reason != 'bust'").fetchall()[0][0]
    assert sum(r["plunders"] for r in sizes) == plunders
    bonus = {r["strategy"]: r for r in push_luck.key_chest(con).to_pylist()}
    assert all(0 < r["share"] < 0.5 and r["mean_cards"] >= 2 for r in bonus.values())
    uses = {(r["strategy"], r["power"]): r["uses"] for r in push_luck.power_use(con).to_pylist()}
    assert all(uses[(s, "pistol")] > 0 and uses[(s, "rum")] > 0 for s in bonus)
    # One count for one event: the bonuses paid are the key_chest uses.
    assert all(uses[(s, "key_chest")] == r["bonuses"] for s, r in bonus.items())
    # Every rate and mean comes with its interval (over seed blocks).
    checks = {
        "turns_by_strategy": (("bust_rate", "low", "high"),
                              *((v, f"{v}_low", f"{v}_high") for v in
                                ("points_per_turn", "cards_placed", "plunder_size"))),
        "turn_endings": (("share", "low", "high"),),
        "plunder_sizes": (("share", "low", "high"),),
        "key_chest": (("share", "low", "high"), ("mean_cards", "mean_cards_low",
                      "mean_cards_high"), ("mean_points", "mean_points_low", "mean_points_high")),
        "power_use": (("per_game", "low", "high"),),
    }  # fmt: skip
    for name, columns in checks.items():
        for r in getattr(push_luck, name)(con).to_pylist():
            for value, low, high in columns:
                assert r[low] <= r[value] <= r[high], (name, value, r)


def test_the_bust_check_counts_every_game_even_when_most_are_cut_off(tmp_path: Path) -> None:
    """With a low turn cap most games stop early; the games that still end naturally are
    those whose pile ran out fast, so testing only their draws is biased. Every draw of
    every game is tested."""
    rules = tmp_path / "short.toml"
    rules.write_text('preset = "standard"\nmax_turns = 12\n')
    run = tmp_path / "short"
    simulate = ["simulate", "--game", "treasure-island", "--games", "1200", "--seed", "16"]
    simulate += ["--engine", "reference"]  # the move log: every draw is tested
    simulate += ["--backend", "serial", "--rules", str(rules), "--out", str(run)]
    made = CliRunner().invoke(app, simulate)
    assert made.exit_code == 0, made.output
    con = connect([open_run(run)])
    capped = con.sql("SELECT count(*) FROM unfinished").fetchall()[0][0]
    assert capped > 600  # most games cut off: the case the bias showed in
    rows = push_luck.bust_by_kinds(con).to_pylist()
    blind = con.sql("SELECT count(*) FROM draws WHERE draw != 'draw_known'").fetchall()[0][0]
    assert sum(r["draws"] for r in rows) == blind
    assert all(abs(r["z"]) < 4.5 for r in rows), rows
