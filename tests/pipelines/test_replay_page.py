"""Replay pages (``tourney replay``, ``tourney play --html``): every frame is the engine's own
state at its step, watching a game does not change it, the page is one self-contained file
under 1 MB, and bad input is one line with exit code 2."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.play.game import log_rows, parse_players, play_game
from pipelines.report.replay_page import record_play
from reports.replay_page import compact_events
from sim.runner.games import game_kind
from sim.watched_log import WatchedRows
from tests.pipelines.replay_helpers import game_at
from tests.pipelines.test_data_files import one_line_exit_2

runner = CliRunner()


def _full_frames(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step's whole state, rebuilt from the differences as the page rebuilds them."""
    out: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    for delta in doc["frames"]:
        current = {**current, **delta}
        out.append(current)
    return out


@pytest.mark.parametrize("game", ["tobago", "treasure-island"])
def test_every_frame_is_the_engines_state_at_its_step(game: str) -> None:
    played, doc = record_play(7, parse_players(None, game), "aBc-2", None, game)
    rows = log_rows(played)
    assert len(doc["events"]) == len(rows) and len(doc["frames"]) == len(rows) + 1
    frames = _full_frames(doc)
    snapshot = game_kind(game).replay_hooks().snapshot
    # The first, the last and steps spread over the game, from games stopped there.
    for step in sorted({0, 1, 2, len(rows) // 3, len(rows) // 2, len(rows) - 1, len(rows)}):
        assert frames[step] == snapshot(game_at(game, 7, step)), step
    assert [e["turn"] for e in doc["events"]] == [r[0] for r in rows]
    assert [e["seat"] for e in doc["events"]] == [r[1] for r in rows]


def test_tobago_frames_hold_what_the_page_shows() -> None:
    _, doc = record_play(7, parse_players(None, "tobago"), "aBc-2", None, "tobago")
    frames = _full_frames(doc)
    step = next(k for k, e in enumerate(doc["events"], 1) if e["name"] == "raise")
    g = game_at("tobago", 7, step)
    s = g.state
    f = frames[step]
    assert f["atv"] == s.atv and f["scores"] == [sum(t) for t in s.treasures]
    assert f["dist_roses"] == s.dist_roses and len(f["dist_roses"]) > 0
    for m in range(4):
        if s.map_cards[m]:
            assert f[f"map{m}"]["count"] == s.map_cand[m].bit_count()
            assert len(f[f"map{m}"]["candidates"]) == f[f"map{m}"]["count"]
    drawn = [e for e in doc["events"] if e["name"] == "draw"]
    assert drawn and all(e["secret"] == e["seat"] and e["masked"] for e in drawn)
    assert len(doc["scene"]["cells"]) == s.island.n
    assert doc["scene"]["clues"][0] == "in jungle"


def test_treasure_island_draws_carry_their_exact_bust_chance() -> None:
    _, doc = record_play(7, parse_players(None, "treasure-island"), "", None, "treasure-island")
    draws = [e for e in doc["events"] if e["name"].startswith("draw")]
    assert draws[0]["chance"] == [0, 50]  # the first card of the game: 50 cards, none busts
    for e in draws:
        busting, size = e["chance"]
        assert 0 <= busting <= size
        if not e.get("known"):
            assert f"bust chance {busting}/{size} = " in e["text"]
    busts = [e for e in doc["events"] if e["name"] == "bust"]
    assert busts and all(isinstance(e["card"], int) for e in busts)


@pytest.mark.parametrize("game", ["tobago", "treasure-island"])
def test_watching_a_game_does_not_change_it(game: str) -> None:
    players = parse_players(None, game)
    plain = play_game(11, players, "abc-1", None, game)
    rows_seen: list[int] = []
    watched = play_game(
        11,
        players,
        "abc-1",
        None,
        game,
        None,
        lambda g: game_kind(game).replay_hooks().watch(g, rows_seen.append),
    )
    assert log_rows(watched) == log_rows(plain)
    assert rows_seen == list(range(len(log_rows(plain))))


def test_watched_rows_call_back_once_per_whole_row() -> None:
    seen: list[int] = []
    rows = WatchedRows(seen.append)
    rows.extend((1, 2, 3, 4, 5, 6))
    rows += (7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18)
    for v in range(6):
        rows.append(v)
    assert seen == [0, 1, 2, 3] and len(rows) == 24
    with pytest.raises(TypeError):
        rows.insert(0, 1)


def _page(path: Path) -> tuple[str, dict[str, Any]]:
    text = path.read_text()
    match = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', text)
    assert match
    return text, json.loads(match.group(1))


@pytest.mark.parametrize(("game", "island"), [("tobago", "aBc-2"), ("treasure-island", None)])
def test_replay_writes_one_self_contained_page(tmp_path: Path, game: str, island: str) -> None:
    out = tmp_path / "page.html"
    args = ["replay", "--game", game, "--seed", "7", "--out", str(out)]
    result = runner.invoke(app, args + (["--island", island] if island else []))
    assert result.exit_code == 0, result.output
    assert f"replay page: {out}" in result.stdout
    text, doc = _page(out)
    assert out.stat().st_size < 1_000_000
    # Nothing is fetched: no external script, style, font, image or frame.
    assert not re.search(r"<(script|link|img|iframe)[^>]*\b(src|href)=", text)
    assert "@import" not in text and "url(http" not in text and "@font-face" not in text
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in text
    steps = len(doc["events"]["rows"])
    assert doc["game"] == game and doc["seed"] == 7 and len(doc["frames"]) == steps + 1
    assert "tourney play --game" in doc["source"]


def test_events_travel_compactly_and_read_back() -> None:
    events = [
        {"turn": 0, "seat": 1, "name": "leg", "text": "a", "secret": -1, "cells": [1, 2]},
        {"turn": 0, "seat": 1, "name": "draw", "text": "5 coins", "secret": 1, "masked": "?"},
        {"turn": 1, "seat": -1, "name": "leg", "text": "b", "secret": -1},
    ]
    assert compact_events(events) == {
        "names": ["leg", "draw"],
        "rows": [
            [0, 1, 0, "a", -1, {"cells": [1, 2]}],
            [0, 1, 1, "5 coins", 1, {"masked": "?"}],
            [1, -1, 0, "b"],
        ],
    }


def test_play_html_prints_the_game_and_writes_its_page(tmp_path: Path) -> None:
    out = tmp_path / "g.html"
    result = runner.invoke(app, ["play", "--game", "tobago", "--seed", "3", "--html", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Tobago, seed 3, island aBc-2")
    assert "replay page: " in result.stdout
    _, doc = _page(out)
    assert doc["seed"] == 3 and doc["island"] == "aBc-2"
    # With --json, stdout stays JSON lines; the page's line goes to stderr.
    result = runner.invoke(
        app, ["play", "--game", "tobago", "--seed", "3", "--json", "--html", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert all(json.loads(line) for line in result.stdout.splitlines())
    assert "replay page: " in result.stderr


def test_a_run_game_replays_into_a_page_named_after_it(
    small_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["replay", "--run", str(small_run), "--game-id", "5"])
    assert result.exit_code == 0, result.output
    assert "move rows match the run's" in result.stdout
    _, doc = _page(tmp_path / f"{small_run.name}-game5.html")
    assert doc["source"] == f"tourney play --run {small_run} --game-id 5"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--island", "nowhere-9"], "nowhere-9"),
        (["--players", "hunter"], "--players: Tobago takes 2 to 4 players, got 1"),
        (["--game", "chess"], "unknown game 'chess'"),
        (["--game-id", "3"], "--run and --game-id go together"),
        (["--game", "tobago", "--out", "/x/y.html"], "/x/y.html: cannot write"),
    ],
)
def test_bad_replay_input_is_one_line(args: list[str], message: str) -> None:
    line = one_line_exit_2(["replay", *args])
    assert message in line


def test_a_missing_game_of_a_run_is_one_line(small_run: Path) -> None:
    line = one_line_exit_2(["replay", "--run", str(small_run), "--game-id", "999"])
    assert "--game-id 999: the run has games 0 to 47" in line
    line = one_line_exit_2(["replay", "--run", str(small_run), "--game-id", "1", "--seed", "2"])
    assert "--seed cannot be given too" in line
