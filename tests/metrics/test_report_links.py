"""A report's links to replay pages open at the moment that makes each game notable
(``#step=N``, the page's step whose current event is move-log row ``N - 1``): the expected
row is found here in the run's own ``moves`` table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.report.replay_moments import decisive_step, moment

runner = CliRunner()
COMMON = ["simulate", "--backend", "serial", "--shard-size", "12", "--islands", "abc-1,ABC-2"]


def _moves(run: Path, game_id: int) -> list[tuple[Any, ...]]:
    with duckdb.connect() as con:
        rows: list[tuple[Any, ...]] = con.execute(
            f"SELECT ply, seat, event::VARCHAR, a, b FROM read_parquet('{run}/moves/*.parquet') "
            "WHERE game_id = ? ORDER BY ply",
            [game_id],
        ).fetchall()
    return rows


def _report(*runs: Path, out: Path) -> dict[str, Any]:
    result = runner.invoke(app, ["report", *map(str, runs), "--out", str(out)])
    assert result.exit_code == 0, result.output
    obj: dict[str, Any] = json.loads((out / "report.json").read_text())
    return obj


@pytest.fixture(scope="module")
def twin_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Any]]:
    root = tmp_path_factory.mktemp("links")
    base = root / "base"
    args = [*COMMON, "--games", "40", "--seed", "9", "--out", str(base), "--twin", "curses"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    out = root / "rep"
    return base, out, _report(base, root / "base-without-curses", out=out)


def _linked(out: Path, g: dict[str, Any]) -> str:
    """The link to ``g``'s page, found in the HTML and the Markdown alike."""
    link = f"{g['page']}#step={g['step']}"
    assert f'href="{link}"' in (out / "index.html").read_text()
    assert f"[Replay page]({link})" in (out / "summary.md").read_text()
    return link


def test_a_curse_that_changed_the_winner_opens_at_the_curse(
    twin_report: tuple[Path, Path, dict[str, Any]],
) -> None:
    base, out, obj = twin_report
    (g,) = [g for g in obj["games_to_look_at"] if g["kind"] == "curse_winner"]
    _linked(out, g)
    # The victim: "cartographer (seat 4) wins this deal without curses".
    victim = int(g["text"].split("(seat ")[1].split(")")[0]) - 1
    hits = [
        (ply, b if a == 1 else 0)
        for ply, seat, event, a, b in _moves(base, g["game_id"])
        if event == "curse_hit" and seat == victim
    ]
    assert len(hits) >= 2  # the choice is among several hits of the victim
    most = max(lost for _, lost in hits)
    ply = min(p for p, lost in hits if lost == most)
    assert g["step"] == ply + 1 == 138


def test_the_longest_game_opens_at_its_end_and_the_upset_at_its_decisive_take(
    twin_report: tuple[Path, Path, dict[str, Any]],
) -> None:
    base, out, obj = twin_report
    looks = {(g["kind"], g["page"].split("-")[0]): g for g in obj["games_to_look_at"]}
    longest = looks[("longest", "games/c0")]
    _linked(out, longest)
    rows = _moves(base, longest["game_id"])
    (end,) = [ply for ply, _, event, _, _ in rows if event == "game_end"]
    assert longest["step"] == end + 1
    upset = looks[("upset", "games/c0")]
    _linked(out, upset)
    # hunter (seat 1) took the lead for good with a treasure it took: row 57 of game 20.
    ply, seat, event, _, _ = _moves(base, upset["game_id"])[upset["step"] - 1]
    assert (upset["game_id"], ply, seat, event) == (20, 57, 0, "take")


def test_a_cut_off_game_and_a_strategy_failure_open_at_their_moment(tmp_path: Path) -> None:
    rules = tmp_path / "short.toml"
    rules.write_text('preset = "rulebook"\nmax_turns = 30\n')
    run = tmp_path / "short"
    args = [*COMMON, "--games", "24", "--players", "hunter,tests.runner.crashy:Crashy,cautious"]
    result = runner.invoke(app, [*args, "--rules", str(rules), "--out", str(run)])
    assert result.exit_code == 0, result.output
    out = tmp_path / "rep"
    obj = _report(run, out=out)
    looks = {g["kind"]: g for g in obj["games_to_look_at"]}
    capped = looks["turn_cap"]
    capped_link = _linked(out, capped)
    rows = _moves(run, capped["game_id"])
    (end,) = [ply for ply, _, event, a, _ in rows if event == "game_end" and a == 1]
    assert capped["step"] == end + 1
    # The strategy's first exception (the one its warning quotes), at the row recording it.
    with duckdb.connect() as con:
        game_id, turn, seat = con.execute(
            f"SELECT game_id, turn, seat FROM read_parquet('{run}/failures/*.parquet') "
            "WHERE answer = '<raised>' ORDER BY game_id, turn LIMIT 1"
        ).fetchall()[0]
    failed = looks["strategy_failure"]
    failed_link = _linked(out, failed)
    assert failed["game_id"] == game_id
    assert f"(seat {seat + 1}) at turn {turn} of game {game_id}" in failed["text"]
    with duckdb.connect() as con:
        (ply,) = con.execute(
            f"SELECT min(ply) FROM read_parquet('{run}/moves/*.parquet') WHERE game_id = ? "
            "AND turn = ? AND seat = ? AND event::VARCHAR = 'violation'",
            [game_id, turn, seat],
        ).fetchall()[0]
    assert failed["step"] == ply + 1
    # Each warning links to its own game's moment, though both are game 0 here.
    warnings = (out / "index.html").read_text().split("Warnings (")[1].split("Findings")[0]
    assert warnings.index(f'href="{capped_link}"') < warnings.index(f'href="{failed_link}"')


def test_moments_without_scores_or_a_sole_winner() -> None:
    events = [{"name": "move", "seat": 0}, {"name": "game_end", "seat": -1}]
    doc = {"events": events, "frames": [{}, {}, {}], "ranks": [1, 2]}
    assert moment("longest", doc) == 2 and moment("upset", doc) is None
    scored = {**doc, "frames": [{"points": [0, 0]}, {"points": [3, 0]}, {"points": [3, 5]}]}
    assert decisive_step(scored) is None  # the winner is not ahead at the end
    ahead = {**scored, "ranks": [2, 1]}
    assert decisive_step(ahead) == 2
    steady = {**doc, "frames": [{"points": [1, 0]}, {}, {}]}
    assert (
        decisive_step(steady) == 0 and moment("curse_winner", steady, 0, event="curse_hit") is None
    )
