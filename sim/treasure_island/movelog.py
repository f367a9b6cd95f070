"""The Treasure Island move log: event codes and the text rendering.

Rows are six ints ``(turn, seat, kind, a, b, c)`` appended to one flat list, the same shape
as Tobago's log, so the runner writes both the same way. Card arguments are card ids
(:mod:`sim.treasure_island.cards`).
"""

from __future__ import annotations

from sim.outcome import END_TEXTS
from sim.treasure_island.cards import KIND_NAMES, card_name
from sim.treasure_island.characters import NAMES as CHARACTER_NAMES
from sim.treasure_island.decisions import KINDS as DECISION_KINDS

#: Event names by code, with the meaning of their arguments.
EVENTS: tuple[tuple[str, str], ...] = (
    ("draw", "a=card b=kinds in play before c=cards of those kinds left in the pile"),
    ("draw_forced", "like draw, for the turn's first card or a card owed to a Rum bottle"),
    ("draw_known", "like draw, for a card made public by a Spyglass"),
    ("place", "a=card b=source (1 helm, 2 knife, 3 candle) c=seat it came from (-1 discard)"),
    ("bust", "a=card"),
    ("anchor_keep", "a=cards kept b=points gained"),
    ("plunder", "a=cards b=points gained c=reason (0 chosen, 1 spyglass, 2 pile empty)"),
    ("bonus", "a=cards b=points gained c=source (-1 discard, else the seat robbed)"),
    ("no_effect", "a=kind whose power had nothing to act on"),
    ("rum", "a=cards required"),
    ("reveal", "a=card b=source (3 candle, 4 spyglass, 5 mystic)"),
    ("spyglass_back", "a=card put back on the pile"),
    ("pistol", "a=card b=victim seat c=where (-1 discard, else the seat it went to)"),
    ("wrecked", "a=cards b=seat that took them"),
    ("draft", "a=character code"),
    ("violation", "a=decision kind code b=fallback used (1)"),
    ("end_turn", "a=outcome (0 plunder, 1 bust) b=cards in stash c=score"),
    ("game_end", "a=end reason: 0 draw pile empty, 1 turn cap, 2 deadlock, 3 timeout"),
    ("score", "a=points b=rank c=cards in stash"),
)
CODE: dict[str, int] = {name: code for code, (name, _) in enumerate(EVENTS)}
_SOURCES = {1: "helm", 2: "knife", 3: "candle", 4: "spyglass", 5: "mystic"}


def describe(kind: int, a: int, b: int, c: int) -> str:
    """What one row says, in words (without its turn and seat)."""
    name = EVENTS[kind][0]
    if name.startswith("draw"):
        how = {"draw": "draws", "draw_forced": "must draw", "draw_known": "draws the known"}
        return f"{how[name]} {card_name(a)} ({b} kinds in play, {c} of them in the pile)"
    if name == "place":
        origin = "the discard" if c < 0 else f"seat {c + 1}'s stash"
        return f"{_SOURCES[b]} places {card_name(a)} from {origin}"
    if name == "bust":
        return f"BUST on {card_name(a)}"
    if name == "anchor_keep":
        return f"anchor keeps {a} card(s), +{b} points"
    if name == "plunder":
        why = ("", " (spyglass)", " (draw pile empty)")[c]
        return f"plunders {a} card(s), +{b} points{why}"
    if name == "bonus":
        origin = "the discard" if c < 0 else f"seat {c + 1}'s stash"
        return f"key + chest bonus: {a} card(s) from {origin}, +{b} points"
    if name == "no_effect":
        return f"{KIND_NAMES[a]}: nothing to act on"
    if name == "rum":
        return f"rum: {a} more card(s) before plundering"
    if name == "reveal":
        return f"{_SOURCES[b]} reveals {card_name(a)}"
    if name == "spyglass_back":
        return f"puts {card_name(a)} back on the pile"
    if name == "pistol":
        where = "the discard" if c < 0 else f"seat {c + 1}'s stash"
        return f"pistol sends seat {b + 1}'s {card_name(a)} to {where}"
    if name == "wrecked":
        return f"seat {b + 1} (wrecker) takes {a} busted card(s)"
    if name == "draft":
        return f"keeps character {CHARACTER_NAMES[a]}"
    if name == "violation":
        return f"strategy violation on {DECISION_KINDS[a]} (fallback used)"
    if name == "end_turn":
        return f"{'busts' if a else 'banks'}: {b} cards in stash, {c} points"
    if name == "game_end":
        return "game over" + ("" if a == 0 else f" ({END_TEXTS[a]})")
    if name == "score":
        return f"score {a}, rank {b}, {c} cards in stash"
    raise AssertionError(name)


def render(flat: list[int]) -> list[str]:
    """The log as readable lines, one per row."""
    lines = []
    last_turn = -1
    for i in range(0, len(flat), 6):
        turn, seat, kind, a, b, c = flat[i : i + 6]
        if turn != last_turn and seat >= 0 and EVENTS[kind][0] != "draft":
            lines.append(f"--- turn {turn}: seat {seat + 1}")
            last_turn = turn
        who = "table" if seat < 0 else f"seat {seat + 1}"
        lines.append(f"{turn:3d} {who:>7}  {describe(kind, a, b, c)}")
    return lines
