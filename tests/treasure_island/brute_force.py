"""The true value of a Treasure Island turn by exhaustive enumeration over the real engine.

A *setup* is a small hand-made position at the start of seat 0's turn. Its *worlds* are all
the orders of the draw pile's unknown cards (each equally likely); every shuffle of the
discard (a Candle's reveal, a Key + Chest bonus) is a chance point over every set of cards
it could take. The engine itself plays every world; nothing of the rules is re-implemented
here. Worlds that show the player the same thing (the same move log so far) are one
information set, so the expectimax over them is the best any player could do with what the
seat can see:

- :func:`best_turn_value`: the maximum over every answer at every decision;
- :func:`policy_turn_value`: the exact expected points of one strategy's own answers.

A strategy answers from its view only, so it is asked once per information set and decision:
the worlds of one set get the same answer (a strategy that peeked at the hidden pile would
have given each world its own, and its answer, fitted to one world, falls short of the best
in the others).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sim.treasure_island.cards import N_CARDS
from sim.treasure_island.decisions import Decision
from sim.treasure_island.engine import TreasureIslandGame
from sim.treasure_island.rules import TreasureIslandRules, preset
from sim.treasure_island.view import PlayerView

#: One step of a script: ("d", answer) for a decision, ("c", cards) for a discard shuffle.
Step = tuple[str, Any]


@dataclass(frozen=True)
class Setup:
    """A position at the start of seat 0's turn."""

    rules: TreasureIslandRules
    players: int
    known: tuple[int, ...]  # public top cards of the draw pile, top first
    unknown: tuple[int, ...]  # the rest of the pile, in no order
    discard: tuple[int, ...]
    stashes: tuple[tuple[int, ...], ...]
    character: str = ""

    def orders(self) -> list[tuple[int, ...]]:
        """Every order of the unknown cards."""
        return list(itertools.permutations(self.unknown))


class _Asked:
    """A strategy and its answers so far, by information set (the move log) and decision."""

    def __init__(self, player: Any) -> None:
        self.player = player
        self.answers: dict[tuple[Any, ...], object] = {}


class _Script:
    """Answers and shuffles from a script; notes the first thing needed beyond it."""

    def __init__(self, steps: Sequence[Step], player: _Asked | None) -> None:
        self.steps = list(steps)
        self.player = player
        self.need: tuple[Any, ...] | None = None
        self.game: TreasureIslandGame | None = None

    def decide(self, view: PlayerView, decision: Decision) -> object:
        if self.need is not None:
            return decision.fallback()
        if self.player is not None:  # a strategy's own answer, once per information set
            assert self.game is not None
            key = (tuple(self.game.log), decision.kind, decision.options, decision.value)
            if key not in self.player.answers:
                self.player.answers[key] = self.player.player.decide(view, decision)
            return self.player.answers[key]
        if self.steps:
            tag, answer = self.steps.pop(0)
            assert tag == "d", "a script out of step with the game"
            return answer
        assert self.game is not None
        log = tuple(self.game.log)
        self.need = ("d", log, decision.kind, decision.options, decision.value)
        return decision.fallback()

    def shuffle(self, game: TreasureIslandGame, take: int) -> list[int]:
        pool = sorted(game.discard)
        if self.need is not None:
            return pool[:take]
        if self.steps:
            tag, chosen = self.steps.pop(0)
            assert tag == "c", "a script out of step with the game"
            return list(chosen)
        self.need = ("c", tuple(game.log), tuple(pool), take)
        return pool[:take]


class _ScriptedGame(TreasureIslandGame):
    """The engine, with the discard's shuffles taken from the script."""

    __slots__ = ("script",)
    script: _Script

    def _sample_discard(self, count: int) -> list[int]:
        take = min(count, len(self.discard))
        if take <= 0:
            return []
        cards = self.script.shuffle(self, take)
        for c in cards:
            self.discard.remove(c)
        return cards


def build_game(setup: Setup, order: Sequence[int], player: Any) -> _ScriptedGame:
    """The setup as a real game, with ``order`` under the public top cards; seat 0 is
    ``player``."""
    factories = [lambda rng, p=player: p] + [lambda rng: _Never()] * (setup.players - 1)
    game = _ScriptedGame(setup.rules, factories, seed=0, strict=True)
    game.arrange([*setup.known, *order], list(setup.discard), [list(s) for s in setup.stashes])
    game.known = len(setup.known)
    if setup.character:
        game.characters[0] = setup.character
    game.script = player if isinstance(player, _Script) else _Script([], None)
    return game


class _Never:
    def decide(self, view: PlayerView, decision: Decision) -> object:
        raise AssertionError("only seat 0 plays")


def _run(setup: Setup, order: Sequence[int], steps: Sequence[Step], player: _Asked | None) -> Any:
    script = _Script(steps, player)
    game = build_game(setup, order, script)
    script.game = game
    before = game.points[0]
    game.play_turn(0)
    return game.points[0] - before, script.need


def _expectimax(
    setup: Setup,
    worlds: list[tuple[int, ...]],
    steps: list[Step],
    player: _Asked | None,
    counter: list[int],
) -> float:
    total = 0.0
    groups: dict[tuple[Any, ...], list[tuple[int, ...]]] = {}
    for world in worlds:
        counter[0] += 1
        points, need = _run(setup, world, steps, player)
        if need is None:
            total += points
        else:
            groups.setdefault(need, []).append(world)
    for need, group in groups.items():
        if need[0] == "d":
            value = max(
                _expectimax(setup, group, [*steps, ("d", o)], player, counter) for o in need[3]
            )
        else:
            outcomes = list(itertools.combinations(need[2], need[3]))
            value = sum(
                _expectimax(setup, group, [*steps, ("c", o)], player, counter) for o in outcomes
            ) / len(outcomes)
        total += value * len(group)
    return total / len(worlds)


def best_turn_value(setup: Setup) -> float:
    """The best expected points of the turn over every possible way of answering."""
    return _expectimax(setup, setup.orders(), [], None, [0])


def policy_turn_value(setup: Setup, player: Any) -> float:
    """The exact expected points of the turn when ``player`` gives every answer."""
    return _expectimax(setup, setup.orders(), [], _Asked(player), [0])


CHARACTERS = (
    "navigator",
    "master_gunner",
    "scavenger",
    "mystic",
    "plunderer",
    "treasure_hunter",
    "wrecker",
)


def random_setup(
    rng: random.Random,
    max_unknown: int = 5,
    characters: bool = True,
    rules: TreasureIslandRules | None = None,
) -> Setup:
    """A small random position: a few cards of pile, discard and stashes, random rules."""
    base = rules or preset("standard")
    rules = dataclasses.replace(
        base,
        rum_cards=rng.choice((0, 1, 2, 2)),
        candle_reveal=rng.choice((1, 2, 3, 3)),
        knife_checks_play_area=rng.random() < 0.2,
        key_chest_on_anchored_bust=rng.random() < 0.2,
    )
    character = ""
    if characters and rng.random() < 0.5:
        character = rng.choice(CHARACTERS)
        rules = dataclasses.replace(rules, characters=True)
    players = rng.choice((2, 3))
    cards = list(range(N_CARDS))
    rng.shuffle(cards)
    n_unknown = rng.randint(1, max_unknown)
    n_known = rng.choice((0, 0, 0, 1, 2)) if character == "mystic" else rng.choice((0, 0, 0, 1))
    n_discard = rng.randint(0, 5)
    unknown = tuple(cards[:n_unknown])
    known = tuple(cards[n_unknown : n_unknown + n_known])
    rest = cards[n_unknown + n_known :]
    discard = tuple(rest[:n_discard])
    rest = rest[n_discard:]
    stashes = []
    for _ in range(players):
        size = rng.randint(0, 4)
        stashes.append(tuple(rest[:size]))
        rest = rest[size:]
    return Setup(rules, players, known, unknown, discard, tuple(stashes), character)


def solver_turn_value(setup: Setup, value: Callable[[PlayerView], float]) -> float:
    """``value`` of seat 0's view at the start of the turn (any world: the view is the same)."""
    game = build_game(setup, setup.unknown, _Never())
    return value(game.views[0])
