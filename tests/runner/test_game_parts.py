"""A game's one entry point is its kind, which names the parts the layers above load (its
players' catalog, its report part, its commands): each is imported only when asked for, and
one that is missing or broken is refused in one line naming the game and the part."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from types import ModuleType

import pytest

from sim.errors import InputError
from sim.runner import games
from sim.runner.games import GAMES, game_part
from strategies.catalog import StrategyCatalog, load_catalog


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A folder on the import path for the parts of a game ``fake`` (a copy of Tobago's kind
    under another name), registered for this test only."""
    monkeypatch.syspath_prepend(str(tmp_path))
    kind = dataclasses.replace(GAMES["tobago"], name="fake", strategies=None, report=None)
    monkeypatch.setitem(games.GAMES, "fake", kind)
    return tmp_path


def _name(game: str, **parts: str | None) -> None:
    games.GAMES[game] = dataclasses.replace(games.GAMES[game], **parts)  # type: ignore[arg-type]


def test_the_built_in_games_name_every_part_they_bring() -> None:
    assert GAMES["tobago"].named_parts() == {
        "strategies": "strategies.tobago.catalog:CATALOG",
        "report": "pipelines.tobago.report:REPORT",
        "commands": "pipelines.tobago.cli_board",
    }
    assert set(GAMES["treasure-island"].named_parts()) == {"strategies", "report", "compiled"}
    catalog = load_catalog("treasure-island")
    assert catalog is not None and "expected-value" in catalog.strategies


def test_a_part_is_imported_only_when_asked_for(fake: Path) -> None:
    (fake / "fake_players.py").write_text(
        "from strategies.catalog import StrategyCatalog\n"
        "CATALOG = StrategyCatalog(strategies={}, defaults=())\n"
    )
    _name("fake", strategies="fake_players:CATALOG", commands="fake_players")
    assert "fake_players" not in sys.modules
    catalog = game_part("fake", "strategies", StrategyCatalog)
    assert isinstance(catalog, StrategyCatalog) and catalog.defaults == ()
    assert isinstance(game_part("fake", "commands", ModuleType), ModuleType)
    assert game_part("fake", "report", object) is None  # named none
    sys.modules.pop("fake_players", None)


@pytest.mark.parametrize(
    ("part", "target", "message"),
    [
        ("strategies", "fake_nowhere:CATALOG", "cannot be loaded (ModuleNotFoundError: "),
        ("strategies", "fake_broken:CATALOG", "cannot be loaded (RuntimeError: half-installed)"),
        ("strategies", "fake_plain:MISSING", "cannot be loaded (fake_plain has no 'MISSING')"),
        ("strategies", "fake_plain:VALUE", "is not a StrategyCatalog"),
        ("strategies", "fake_plain", "is not module:attribute"),
        ("commands", "fake_plain:VALUE", "is not a module"),
    ],
)
def test_a_missing_or_broken_part_is_one_line_naming_the_game_and_the_part(
    fake: Path, part: str, target: str, message: str
) -> None:
    (fake / "fake_broken.py").write_text("raise RuntimeError('half-installed')\n")
    (fake / "fake_plain.py").write_text("VALUE = 3\n")
    _name("fake", **{part: target})
    expected = ModuleType if part == "commands" else StrategyCatalog
    with pytest.raises(InputError) as err:
        game_part("fake", part, expected)  # type: ignore[arg-type]
    text = str(err.value)
    assert text.startswith(f"game 'fake': its {part} ({target}) ")
    assert message in text and "\n" not in text
    for name in ("fake_broken", "fake_plain"):
        sys.modules.pop(name, None)


def test_a_game_without_players_says_why_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from strategies import registry

    why = "game 'fake': its strategies (fake:CATALOG) cannot be loaded (RuntimeError: x)"
    monkeypatch.setitem(registry.BROKEN_CATALOGS, "fake", why)
    for ask in (
        lambda: registry.DEFAULT_PLAYERS["fake"],
        lambda: registry.parse_strategy("a", "fake"),
    ):
        with pytest.raises(InputError, match=r"^game 'fake': its strategies \(fake:CATALOG\)"):
            ask()
    with pytest.raises(InputError, match=r"^game 'none': its kind names no strategies"):
        registry.DEFAULT_PLAYERS["none"]
    assert registry.DEFAULT_PLAYERS["tobago"] == ("hunter", "cartographer", "collector", "cautious")


def test_a_part_under_a_retired_entry_point_group_is_refused_not_lost(fake: Path) -> None:
    # A package that still registers its report the old way would otherwise be played and
    # reported without it, silently.
    info = fake / "fake_old-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-old\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tourney.reports]\nfake = fake_old.report:REPORT\n")
    with pytest.raises(InputError) as caught:
        game_part("fake", "report", object)
    message = str(caught.value)
    assert "game 'fake'" in message and "'tourney.reports'" in message
    assert "GameKind(report='fake_old.report:REPORT')" in message and "\n" not in message
    assert game_part("fake", "strategies", object) is None  # nothing registered the old way
