"""Clue cards: relations, targets, clue-deck files, and the candidate mask of every card.

Semantics (rules §3.2): with ``S`` the target's cells and ``δ(x)`` the plain grid distance from
island cell ``x`` to the nearest cell of ``S`` (through the ocean too), a card holds at ``x`` iff

====================  ===================
``in``                δ = 0
``not_in``            δ >= 1
``next_to``           δ = 1
``not_next_to``       δ != 1
``within_sight``      δ in {1, 2}
``not_within_sight``  δ = 0 or δ >= 3
====================  ===================

The ocean is every non-island cell, so for island cells δ >= 1 and ``in``/``not_in`` the ocean
are rejected as meaningless. With ``object_next_to_includes_self`` (rules §12 C11) the
``next_to`` relations of hut, palm and statue count the object's own cell as next to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sim.errors import InputError
from sim.tobago.island import Island
from sim.tobago.landmarks import KINDS, Landmarks
from sim.tobago.terrain import TERRAIN_BY_NAME, TERRAIN_NAMES
from sim.toml_files import read_toml

IN = "in"
NOT_IN = "not_in"
NEXT_TO = "next_to"
NOT_NEXT_TO = "not_next_to"
WITHIN_SIGHT = "within_sight"
NOT_WITHIN_SIGHT = "not_within_sight"
#: The six relations, in a fixed order.
RELATIONS: tuple[str, ...] = (IN, NOT_IN, NEXT_TO, NOT_NEXT_TO, WITHIN_SIGHT, NOT_WITHIN_SIGHT)

OCEAN = "ocean"
LARGEST_PREFIX = "largest_"
#: Every target name a card may use.
TARGETS: tuple[str, ...] = (
    *TERRAIN_NAMES,
    *(LARGEST_PREFIX + t for t in TERRAIN_NAMES),
    *KINDS,
    OCEAN,
)


@dataclass(frozen=True, slots=True)
class ClueCard:
    """One card: its id in the deck (position, from 0), relation and target name."""

    id: int
    relation: str
    target: str

    @property
    def text(self) -> str:
        """The card as written in deck files: ``relation target``."""
        return f"{self.relation} {self.target}"

    @property
    def words(self) -> str:
        """The card as people read it: ``next to a hut``, ``not in the largest jungle``."""
        return f"{_RELATION_WORDS[self.relation]} {_target_words(self.target)}"


_RELATION_WORDS = {
    IN: "in",
    NOT_IN: "not in",
    NEXT_TO: "next to",
    NOT_NEXT_TO: "not next to",
    WITHIN_SIGHT: "within sight of",
    NOT_WITHIN_SIGHT: "not within sight of",
}


def _target_words(target: str) -> str:
    if target.startswith(LARGEST_PREFIX):
        return f"the largest {target[len(LARGEST_PREFIX) :]}"
    if target in KINDS:
        return f"a {target}"
    if target == OCEAN:
        return "the ocean"
    return target


@dataclass(frozen=True, slots=True)
class ClueDeck:
    """A clue deck: a name and its cards in file order."""

    name: str
    cards: tuple[ClueCard, ...]


def parse_card(card_id: int, text: str) -> ClueCard:
    """A card from its ``relation target`` text; ``ValueError`` says what is wrong."""
    parts = text.split()
    if len(parts) != 2:
        raise ValueError(f"{text!r} is not 'relation target'")
    relation, target = parts
    if relation not in RELATIONS:
        raise ValueError(f"unknown relation {relation!r} (allowed: {', '.join(RELATIONS)})")
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r} (allowed: {', '.join(TARGETS)})")
    if target == OCEAN and relation in (IN, NOT_IN):
        raise ValueError(f"{relation!r} the ocean is meaningless: no island cell is in the ocean")
    return ClueCard(card_id, relation, target)


def load_clue_deck(path: Path) -> ClueDeck:
    """Read and validate a clue-deck TOML file (see ``data/README.md``)."""
    raw = read_toml(path, "clue deck file")
    unknown = sorted(set(raw) - {"name", "description", "cards"})
    if unknown:
        raise InputError(f"{path}: unknown key {unknown[0]!r} (allowed: name, description, cards)")
    name = raw.get("name", path.stem)
    if not isinstance(name, str) or not name:
        raise InputError(f"{path}: 'name' must be a non-empty string")
    cards_raw = raw.get("cards")
    if not isinstance(cards_raw, list) or not cards_raw:
        raise InputError(f"{path}: 'cards' must be a non-empty list of 'relation target' strings")
    cards = []
    for i, text in enumerate(cards_raw):
        if not isinstance(text, str):
            raise InputError(f"{path}: cards[{i}] must be a string like 'next_to hut'")
        try:
            cards.append(parse_card(i, text))
        except ValueError as exc:
            raise InputError(f"{path}: cards[{i}]: {exc}") from None
    return ClueDeck(name, tuple(cards))


def _distance_bands(
    island: Island, landmarks: Landmarks | None, target: str
) -> tuple[int, int, int]:
    """Island cells with δ = 0, δ <= 1 and δ <= 2 for ``target``."""
    if target == OCEAN:
        return (0, island.coast_mask, island.ocean2_mask)
    if target.startswith(LARGEST_PREFIX):
        area = island.largest_area[TERRAIN_BY_NAME[target[len(LARGEST_PREFIX) :]]]
        s = island.area_mask[area] if area >= 0 else 0
    elif target in TERRAIN_BY_NAME:
        s = island.terrain_mask[TERRAIN_BY_NAME[target]]
    else:
        if landmarks is None:
            raise ValueError(f"target {target!r} needs a landmark placement")
        s = landmarks.mask(target)
    return (s, island.dilate1(s), island.dilate2(s))


def relation_mask(
    island: Island, relation: str, bands: tuple[int, int, int], includes_self: bool = False
) -> int:
    """The island cells where ``relation`` holds, given the target's distance bands."""
    d0, d1, d2 = bands
    full = island.all_mask
    if relation == IN:
        return d0
    if relation == NOT_IN:
        return full & ~d0
    if relation == NEXT_TO:
        return d1 if includes_self else d1 & ~d0
    if relation == NOT_NEXT_TO:
        return full & ~d1 if includes_self else full & ~(d1 & ~d0)
    if relation == WITHIN_SIGHT:
        return d2 & ~d0
    if relation == NOT_WITHIN_SIGHT:
        return full & ~(d2 & ~d0)
    raise ValueError(f"unknown relation {relation!r}")


_static_cache: dict[
    tuple[int, int, bool], tuple[Island, ClueDeck, tuple[int, ...], tuple[ClueCard, ...]]
] = {}


def _static_masks(
    island: Island, deck: ClueDeck, includes_self: bool
) -> tuple[tuple[int, ...], tuple[ClueCard, ...]]:
    """Masks of the cards whose target is not a landmark (-1 for those that are), and the
    landmark cards, cached per island and deck: only landmark cards need recomputing for each
    placement."""
    key = (id(island), id(deck), includes_self)
    hit = _static_cache.get(key)
    if hit is not None and hit[0] is island and hit[1] is deck:
        return hit[2], hit[3]
    bands: dict[str, tuple[int, int, int]] = {}
    out = []
    for card in deck.cards:
        if card.target in KINDS:
            out.append(-1)
            continue
        b = bands.get(card.target)
        if b is None:
            b = bands[card.target] = _distance_bands(island, None, card.target)
        out.append(relation_mask(island, card.relation, b))
    if len(_static_cache) > 256:
        _static_cache.clear()
    masks = tuple(out)
    landmark_cards = tuple(card for card in deck.cards if card.target in KINDS)
    _static_cache[key] = (island, deck, masks, landmark_cards)
    return masks, landmark_cards


def clue_masks(
    island: Island,
    landmarks: Landmarks | None,
    deck: ClueDeck,
    object_next_to_includes_self: bool = False,
) -> tuple[int, ...]:
    """The candidate mask of every card of ``deck``, indexed by card id."""
    static, landmark_cards = _static_masks(island, deck, object_next_to_includes_self)
    if not landmark_cards:
        return static
    bands: dict[str, tuple[int, int, int]] = {}
    out = list(static)
    for card in landmark_cards:
        b = bands.get(card.target)
        if b is None:
            b = bands[card.target] = _distance_bands(island, landmarks, card.target)
        out[card.id] = relation_mask(island, card.relation, b, object_next_to_includes_self)
    return tuple(out)


def default_deck_path() -> Path:
    """The checked-in default deck (the 52-card proposal of rules §4.4)."""
    from sim.paths import data_dir

    return data_dir() / "clues" / "default.toml"


def default_deck() -> ClueDeck:
    """The default clue deck, read and validated from ``data/clues/default.toml``."""
    return load_clue_deck(default_deck_path())
