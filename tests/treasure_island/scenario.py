"""Hand-made Treasure Island situations: named cards, arranged piles, scripted players."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.treasure_island.cards import KIND_CODE, PARROT, PER_KIND, card_name
from sim.treasure_island.decisions import Decision
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.rules import TreasureIslandRules, preset
from sim.treasure_island.view import PlayerView


def card(text: str) -> int:
    """``card("knife 5")``: the card id of a kind and value."""
    kind_name, value = text.rsplit(" ", 1)
    kind = KIND_CODE[kind_name]
    return kind * PER_KIND + int(value) - (4 if kind == PARROT else 2)


def cards(*texts: str) -> list[int]:
    """Several cards by name."""
    return [card(t) for t in texts]


class Scripted:
    """Answers from a script, in order (then the fallback); remembers what it was asked."""

    def __init__(self, script: Sequence[Any] = ()) -> None:
        self.script = list(script)
        self.asked: list[Decision] = []

    def decide(self, view: PlayerView, decision: Decision) -> object:
        self.asked.append(decision)
        return self.script.pop(0) if self.script else decision.fallback()


def make_game(
    *scripts: Sequence[Any],
    rules: TreasureIslandRules | None = None,
    seed: int = 1,
    strict: bool = True,
) -> tuple[TreasureIslandGame, list[Scripted]]:
    """A game of ``len(scripts)`` scripted players (strict: an illegal answer raises)."""
    players = [Scripted(s) for s in scripts]

    def factory(p: Scripted) -> Any:
        return lambda rng: p

    game = TreasureIslandGame(
        rules or preset("standard"), [factory(p) for p in players], seed, strict=strict
    )
    return game, players


def stash_cards(game: TreasureIslandGame, seat: int) -> list[int]:
    """A seat's stash as sorted card ids."""
    out = []
    for kind, mask in enumerate(game.stash[seat]):
        out += [kind * PER_KIND + i for i in range(PER_KIND) if mask >> i & 1]
    return sorted(out)


def names(ids: Sequence[int]) -> list[str]:
    """Card ids as names, sorted."""
    return sorted(card_name(c) for c in ids)
