"""Treasure Island rules as data: one frozen object with every parameter and disputed reading.

Defaults are the rulings of the rules spec §9 (preset ``standard``, no characters); the
preset ``characters`` turns the character draft on. A TOML file names a ``preset`` to start
from and overrides any key; an unknown key or a value out of range is one :class:`InputError`
line naming the file, the key and what is allowed. ``hash`` is a stable digest of the resolved
rules, stored with every game.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
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
from sim.treasure_island.characters import NAMES as CHARACTER_NAMES


@dataclass(frozen=True, slots=True)
class TreasureIslandRules:
    """Every rule parameter of Treasure Island. Field docs give the spec section."""

    game: ClassVar[str] = "treasure-island"

    preset: str = "standard"
    #: §4.1 / §8: the full variant with characters (off: the simplified variant).
    characters: bool = False
    #: §8: the characters in the draft (all known ones by default; every one unverified).
    character_pool: tuple[str, ...] = CHARACTER_NAMES
    #: §4.2: characters dealt to each player, who keeps one (fewer when the pool is short).
    characters_dealt: int = 2
    #: §6.6: cards that must follow a Rum bottle before a plunder.
    rum_cards: int = 2
    #: §6.4: cards a Candle reveals from the discard.
    candle_reveal: int = 3
    #: §6.3 / §9.6: pay the Key + Chest bonus when an Anchor keeps both on a bust (the SAP
    #: arena server does; the rulebooks do not).
    key_chest_on_anchored_bust: bool = False
    #: §6.5 / §9.8: the Knife may not take a kind already in the play area either (the
    #: rulebook and SAP FAQ look at the stash only).
    knife_checks_play_area: bool = False
    #: §7: first tie-break, most cards in the stash.
    tie_break_cards: bool = True
    #: §7 / §11.6: second tie-break, most kinds in the stash (the seed's; DMD has none).
    tie_break_kinds: bool = True
    #: §4.5: who starts: "seat0" or "random".
    first_player: str = "seat0"
    #: Safety cap (a game cannot last longer than the 50-card pile; see the engine).
    max_turns: int = 200
    _hash: str = field(default="", init=False, compare=False, repr=False)

    @property
    def hash(self) -> str:
        """A stable 16-hex-digit digest of the resolved rules (computed once)."""
        if not self._hash:
            payload = self.to_dict()
            payload.pop("preset")
            object.__setattr__(self, "_hash", digest(payload))
        return self._hash

    def to_dict(self) -> dict[str, Any]:
        """The resolved rules as plain JSON-able values."""
        return plain_fields(self)


_INT_RANGES: dict[str, tuple[int, int]] = {
    "characters_dealt": (1, 3),
    "rum_cards": (0, 5),
    "candle_reveal": (1, 10),
    "max_turns": (1, 10_000),
}
_BOOLS = (
    "characters",
    "key_chest_on_anchored_bust",
    "knife_checks_play_area",
    "tie_break_cards",
    "tie_break_kinds",
)
PRESETS: tuple[str, ...] = ("standard", "characters")
_CHOICES: dict[str, tuple[str, ...]] = {"first_player": ("seat0", "random"), "preset": PRESETS}
KEYS: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(TreasureIslandRules) if f.name[0] != "_"
)


def _check(source: str, key: str, value: Any) -> Any:
    """``value`` converted for ``key``; ``InputError`` naming source, key and allowed values."""

    def bad(allowed: str) -> InputError:
        return InputError(f"{source}: {key} = {value!r} is not allowed ({allowed})")

    checked = check_scalar(source, key, value, KEYS, _INT_RANGES, _BOOLS, _CHOICES)
    if checked is not NOT_SCALAR:
        return checked
    if key == "character_pool":
        if (
            not isinstance(value, list)
            or not 2 <= len(value) <= len(CHARACTER_NAMES)
            or any(v not in CHARACTER_NAMES for v in value)
            or len(set(value)) != len(value)
        ):
            raise bad("a list of 2 or more different names from " + ", ".join(CHARACTER_NAMES))
        return tuple(value)
    raise AssertionError(key)


def _apply(base: TreasureIslandRules, raw: dict[str, Any], source: str) -> TreasureIslandRules:
    values = {key: _check(source, key, value) for key, value in raw.items()}
    return dataclasses.replace(base, **values)


@functools.cache
def preset(name: str) -> TreasureIslandRules:
    """A named preset from ``data/rules/treasure-island/NAME.toml``."""
    path, raw = read_preset(name, PRESETS, data_dir() / "rules" / "treasure-island")
    return _apply(TreasureIslandRules(), raw, str(path))


def load_rules(spec: str) -> TreasureIslandRules:
    """Rules from a preset name or a TOML file of overrides (``preset`` picks the base)."""
    if spec in PRESETS:
        return preset(spec)
    source, base_name, raw = read_overrides(spec, PRESETS, "standard")
    _check(source, "preset", base_name)
    return _apply(preset(base_name), raw, source)


def with_overrides(
    rules: TreasureIslandRules, overrides: dict[str, Any], source: str
) -> TreasureIslandRules:
    """``rules`` with validated ``overrides``."""
    return _apply(rules, overrides, source)
