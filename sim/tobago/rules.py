"""Tobago rules as data: one frozen object with every parameter and disputed reading.

Defaults are the rulebook (rules spec §12-§13). Named presets live in ``data/rules/*.toml``
(``rulebook``, ``bga``); a user's TOML file names a ``preset`` to start from (default
``rulebook``) and overrides any field. Every key and value is validated; an unknown key or a
value out of range is one :class:`InputError` line naming the file, the key and what is allowed.
:func:`rules_hash` is a stable digest of the resolved rules (with the clue deck's cards, not its
path), stored with every game.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from sim.errors import InputError
from sim.paths import data_dir
from sim.rules_files import (
    NOT_SCALAR,
    check_scalar,
    digest,
    plain_fields,
    read_overrides,
    read_preset,
)
from sim.tobago.clues import ClueDeck, default_deck_path, load_clue_deck

#: Rules spec §11 PROPOSAL: 39 gold cards, 2 to 6 coins.
DEFAULT_TREASURE_VALUES: tuple[int, ...] = (2,) * 8 + (3,) * 8 + (4,) * 8 + (5,) * 8 + (6,) * 7


@dataclass(frozen=True, slots=True)
class TobagoRules:
    """Every rule parameter of Tobago (rules spec §12-§13). Field docs give the source."""

    game: ClassVar[str] = "tobago"

    preset: str = "rulebook"
    #: §5.3 / C2: markers go out once a map has at most this many candidate cells.
    marker_threshold: int = 17
    #: §1 / C10: clue cards in hand; 6 in a 2-player game.
    hand_size: int = 4
    hand_size_two_players: int = 6
    #: §6.1: legs per move action.
    legs_per_move: int = 3
    #: §1 / C1: amulets in the supply (20; one sentence says 21).
    amulet_count: int = 20
    #: §9.3: curse cards shuffled into the lower part of the treasure deck.
    curse_count: int = 2
    #: §9.3: gold cards kept curse-free on top of the treasure deck.
    curse_free_top: int = 12
    #: §1: compass roses per player.
    roses_per_player: int = 15
    #: §4.4: clue-deck file ("default" = data/clues/default.toml).
    clue_deck: str = "default"
    #: §11 PROPOSAL: the coins of the gold cards.
    treasure_values: tuple[int, ...] = DEFAULT_TREASURE_VALUES
    #: §5.2 / C3 (BGA): a clue may eliminate nothing while the map shows no markers.
    bga_allow_non_reducing_without_markers: bool = False
    #: §7.1 / C4 (BGA): raising ends the whole turn, not only movement.
    raise_ends_turn: bool = False
    #: §7.2 step 1 [L]: the raiser puts one of their roses under the map, so a player with
    #: none left cannot raise. No source covers a raiser without roses; ``false`` lets them
    #: raise without one (R then starts at the newest clue's rose).
    raise_needs_rose: bool = True
    #: §7.4 / C5 (BGA): a cursed player with an amulet chooses: the amulet, or the most
    #: valuable treasure card (nothing, if they hold none).
    curse_amulet_optional: bool = False
    #: §3.2 / C11: "next to an object" includes the object's own cell.
    object_next_to_includes_self: bool = False
    #: §9.2 / C6: hex distance between two objects of one kind, at least.
    same_object_min_distance: int = 4
    #: §10.1 / C7: exchanging the whole hand is also a main action (S4's "passare", S21),
    #: not only an amulet power (S1, S2, S3).
    exchange_as_main_action: bool = False
    #: §8.4: amulets may be used between the legs of a normal move.
    amulet_use_between_legs: bool = True
    #: §7.4 PROPOSAL: a curse left over unrevealed is removed from the game, not discarded.
    leftover_curse_removed: bool = True
    #: §10.3 PROPOSAL: "shared" (tied players share the win) or "amulets" (most amulets left
    #: breaks the tie, then share).
    tie_break: str = "shared"
    #: §9.10: who starts: "seat0" or "random".
    first_player: str = "seat0"
    #: Safety cap: a game still running after this many turns ends, flagged truncated.
    max_turns: int = 1000
    _deck: ClueDeck | None = field(default=None, init=False, compare=False, repr=False)
    _hash: str = field(default="", init=False, compare=False, repr=False)

    def hand_size_for(self, n_players: int) -> int:
        """Clue cards in hand for ``n_players``."""
        return self.hand_size_two_players if n_players == 2 else self.hand_size

    @property
    def deck(self) -> ClueDeck:
        """The clue deck these rules play with (loaded and validated once)."""
        if self._deck is None:
            object.__setattr__(self, "_deck", _load_deck(self.clue_deck))
        assert self._deck is not None
        return self._deck

    @property
    def hash(self) -> str:
        """:func:`rules_hash` of these rules (computed once)."""
        if not self._hash:
            object.__setattr__(self, "_hash", rules_hash(self))
        return self._hash

    def to_dict(self) -> dict[str, Any]:
        """The resolved rules as plain JSON-able values (without the cached deck)."""
        return plain_fields(self)


#: The widest spacing of same-kind objects every built-in island can place (7 leaves 8 of the
#: 32 without a legal placement; ``tests/tobago/test_landmarks.py`` checks both facts).
MAX_SAME_OBJECT_DISTANCE = 6

_INT_RANGES: dict[str, tuple[int, int]] = {
    "marker_threshold": (1, 200),
    "hand_size": (1, 12),
    "hand_size_two_players": (1, 12),
    "legs_per_move": (1, 10),
    "amulet_count": (0, 200),
    "curse_count": (0, 10),
    "curse_free_top": (0, 200),
    "roses_per_player": (1, 100),
    "same_object_min_distance": (1, MAX_SAME_OBJECT_DISTANCE),
    # A cap high enough for any real game (the scripted styles end by turn ~60) and low enough
    # that a stuck game costs seconds, not hours.
    "max_turns": (1, 10_000),
}
PRESETS: tuple[str, ...] = ("rulebook", "bga")
_CHOICES: dict[str, tuple[str, ...]] = {
    "tie_break": ("shared", "amulets"),
    "first_player": ("seat0", "random"),
    "preset": PRESETS,
}
_BOOLS = (
    "bga_allow_non_reducing_without_markers",
    "raise_ends_turn",
    "raise_needs_rose",
    "curse_amulet_optional",
    "object_next_to_includes_self",
    "exchange_as_main_action",
    "amulet_use_between_legs",
    "leftover_curse_removed",
)
KEYS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(TobagoRules) if f.name[0] != "_")


@functools.cache
def _load_deck(spec: str) -> ClueDeck:
    path = default_deck_path() if spec == "default" else Path(spec)
    return load_clue_deck(path)


def _check(source: str, key: str, value: Any) -> Any:
    """``value`` converted for ``key``; ``InputError`` naming source, key and allowed values."""

    def bad(allowed: str) -> InputError:
        return InputError(f"{source}: {key} = {value!r} is not allowed ({allowed})")

    if key == "same_object_min_distance" and not (
        type(value) is int and 1 <= value <= MAX_SAME_OBJECT_DISTANCE
    ):
        raise bad(
            f"an integer from 1 to {MAX_SAME_OBJECT_DISTANCE}; a wider spacing leaves some "
            "built-in islands without a legal landmark placement"
        )
    checked = check_scalar(source, key, value, KEYS, _INT_RANGES, _BOOLS, _CHOICES)
    if checked is not NOT_SCALAR:
        return checked
    if key == "treasure_values":
        ok = isinstance(value, list) and 1 <= len(value) <= 500
        if not ok or any(
            isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 99 for v in value
        ):
            raise bad("a list of 1 to 500 integers from 0 to 99")
        return tuple(value)
    if key == "clue_deck":
        if not isinstance(value, str) or not value:
            raise bad('"default" or the path of a clue-deck TOML file')
        if value == "default":
            return value
        path = Path(value)
        if not path.is_absolute() and Path(source).is_file():
            path = Path(source).parent / path  # relative to the rules file
        _load_deck(str(path))  # validate now: a bad deck makes a bad rules file
        return str(path)
    raise AssertionError(key)


def _consistency(source: str, rules: TobagoRules) -> None:
    gold = len(rules.treasure_values)
    if rules.curse_free_top > gold:
        raise InputError(
            f"{source}: curse_free_top = {rules.curse_free_top} is not allowed "
            f"(at most the {gold} treasure_values cards)"
        )


def _apply(base: TobagoRules, raw: dict[str, Any], source: str) -> TobagoRules:
    values = {key: _check(source, key, value) for key, value in raw.items()}
    rules = dataclasses.replace(base, **values)
    _consistency(source, rules)
    return rules


@functools.cache
def preset(name: str) -> TobagoRules:
    """A named preset from ``data/rules/NAME.toml``."""
    path, raw = read_preset(name, PRESETS, data_dir() / "rules")
    return _apply(TobagoRules(), raw, str(path))


def load_rules(spec: str) -> TobagoRules:
    """Rules from a preset name or a TOML file of overrides (``preset`` picks the base)."""
    if spec in PRESETS:
        return preset(spec)
    source, base_name, raw = read_overrides(spec, PRESETS, "rulebook")
    _check(source, "preset", base_name)
    return _apply(preset(base_name), raw, source)


def with_overrides(rules: TobagoRules, overrides: dict[str, Any], source: str) -> TobagoRules:
    """``rules`` with validated ``overrides`` (for example from a spec file or the command line)."""
    return _apply(rules, overrides, source)


def rules_hash(rules: TobagoRules) -> str:
    """A stable 16-hex-digit digest of the resolved rules and the clue deck's cards."""
    payload = rules.to_dict()
    payload.pop("clue_deck")
    payload.pop("preset")
    payload["clue_cards"] = [c.text for c in rules.deck.cards]
    return digest(payload)
