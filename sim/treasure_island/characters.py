"""Characters (DMD traits): the permanent abilities the rules spec could confirm (§8).

Only 7 of the 17 printed characters are known. Each entry says where it comes from and how
sure that is; the engine implements each as a check at one power hook (Candle, Pistol,
Spyglass, the Key + Chest bonus, a bust). Characters are off by default (the simplified
variant, §4.1) and every one of them is marked unverified.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Character:
    """One character card: its name, ability, source and confidence (M or L)."""

    name: str
    ability: str
    source: str
    confidence: str


CHARACTERS: tuple[Character, ...] = (
    Character(
        "navigator",
        "Candle: pick any card of the discard instead of one of 3 random ones (the discard "
        "is reshuffled afterwards).",
        "DMD physical trait (brettspielguru.de)",
        "M",
    ),
    Character(
        "master_gunner",
        "Pistol: the target's whole pile goes to the discard, not only its top card.",
        "DMD physical trait 'Meisterschütze' (brettspielguru.de)",
        "M",
    ),
    Character(
        "scavenger",
        "Pistol: the cards it would discard go to your stash instead.",
        "DMD physical trait 'Resteverwerter' (brettspielguru.de)",
        "M",
    ),
    Character(
        "mystic",
        "Spyglass: see the top 3 cards of the draw pile before choosing (only the top one "
        "can be placed).",
        "DMD digital trait (Steam review)",
        "L",
    ),
    Character(
        "plunderer",
        "Key + Chest: the bonus cards come from opponents' stashes (the top card of a pile "
        "you choose, one at a time) instead of the discard.",
        "DMD digital trait (Steam review)",
        "L",
    ),
    Character(
        "treasure_hunter",
        "Key + Chest: the bonus is tripled (3 cards per card plundered).",
        "DMD digital trait (Steam review)",
        "L",
    ),
    Character(
        "wrecker",
        "An opponent's bust: the cards that would go to the discard go to your stash.",
        "DMD digital trait, unnamed there (Steam review); the name is ours",
        "L",
    ),
)
NAMES: tuple[str, ...] = tuple(c.name for c in CHARACTERS)
BY_NAME: dict[str, Character] = {c.name: c for c in CHARACTERS}
NAVIGATOR, MASTER_GUNNER, SCAVENGER, MYSTIC, PLUNDERER, TREASURE_HUNTER, WRECKER = NAMES
