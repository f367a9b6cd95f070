"""The rules and the engine of Dice Race (its :class:`~sim.game.GameKind` is in :mod:`.kind`).

Pig, as a race: on a turn the player rolls a die; a 1 loses the turn's total and ends the
turn, any other face adds to it, and the player then rolls again or banks the total. The
first to reach ``target`` wins at once. A game is a pure function of its seed, its rules and
its players: the dice and each seat draw from their own seeded streams.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from sim.game import Board, Factory, GamePlan
from sim.guard import NO_GUARD, DecisionTimeout, Guard
from sim.outcome import GameResult, Violation, ranks_and_shares
from sim.referee import Referee, seat_game
from sim.rules_files import check_scalar, digest, plain_fields, read_overrides
from sim.sealed import sealed_class
from sim.seeding import stream

#: The move log's events, by code: (a, b) is (face, turn total) for a roll, the points lost
#: for a bust, and (points banked, score) for a bank or the winning roll.
EVENTS = ("roll", "bust", "bank", "win")
ROLL, BUST, BANK, WIN = range(4)


@dataclass(frozen=True)
class DiceRaceRules:
    """Every rule parameter of Dice Race."""

    game: ClassVar[str] = "dice-race"

    preset: str = "standard"
    #: Points that win.
    target: int = 30
    #: Faces of the die.
    sides: int = 6
    #: Whether a 1 busts (the turn's points are lost); false in the ablation ``busts``.
    busts: bool = True
    #: Safety cap on turns.
    max_turns: int = 1000

    @functools.cached_property
    def hash(self) -> str:
        """A stable digest of the resolved rules."""
        return digest({k: v for k, v in self.to_dict().items() if k != "preset"})

    def to_dict(self) -> dict[str, Any]:
        """The resolved rules as plain values."""
        return plain_fields(self)


PRESETS: dict[str, dict[str, int]] = {"standard": {}, "sprint": {"target": 15}}
KEYS = tuple(f.name for f in dataclasses.fields(DiceRaceRules))
_RANGES = {"target": (2, 1000), "sides": (2, 20), "max_turns": (1, 100_000)}


def with_overrides(rules: DiceRaceRules, raw: dict[str, Any], source: str) -> DiceRaceRules:
    """``rules`` with checked overrides (``InputError`` names source, key and range)."""
    choices = {"preset": tuple(PRESETS)}
    values = {
        k: check_scalar(source, k, v, KEYS, _RANGES, ("busts",), choices) for k, v in raw.items()
    }
    return dataclasses.replace(rules, **values)


def load_rules(spec: str) -> DiceRaceRules:
    """A preset by name, or a TOML file of overrides (``preset`` picks its base)."""
    if spec in PRESETS:
        return with_overrides(DiceRaceRules(preset=spec), dict(PRESETS[spec]), spec)
    source, base, raw = read_overrides(spec, tuple(PRESETS), "standard")
    base_rules = with_overrides(DiceRaceRules(), {"preset": base}, source)
    return with_overrides(load_rules(base_rules.preset), raw, source)


#: The answers to a roll decision: bank, or roll again.
ROLL_OPTIONS = (False, True)


@dataclass(frozen=True)
class Decision:
    """Roll again (True) or bank (False)?"""

    kind: str
    seat: int
    turn_total: int

    def fallback(self) -> bool:
        """A strategy that fails banks."""
        return False


class View:
    """What a seat sees: everything (the game has no hidden information)."""

    __slots__ = ("_game", "seat")

    def __init__(self, game: DiceRaceGame, seat: int) -> None:
        self._game = game
        self.seat = seat

    @property
    def scores(self) -> tuple[int, ...]:
        """Every seat's banked points."""
        return tuple(self._game.scores)

    @property
    def turn_total(self) -> int:
        """The points of the turn so far."""
        return self._game.turn_total

    @property
    def target(self) -> int:
        """Points that win."""
        return self._game.rules.target


#: A plug-in's view, with no attribute leading to the game (sim.sealed).
seal_view = sealed_class(View, "SealedView")


class DiceRaceGame:
    """One game: build it, then :meth:`play`."""

    def __init__(
        self,
        rules: DiceRaceRules,
        factories: Sequence[Factory],
        seed: int,
        guard: Guard = NO_GUARD,
    ) -> None:
        if not 2 <= len(factories) <= 4:
            raise ValueError(f"Dice Race takes 2 to 4 players, got {len(factories)}")
        self.rules, self.seed = rules, seed
        self.result: GameResult | None = None
        self.log: list[int] = []
        self.scores = [0] * len(factories)
        self.turn = self.turn_total = 0
        self._dice = stream(seed, "dice")
        self.referee: Referee[Decision] = seat_game(
            seed,
            factories,
            [View(self, i) for i in range(len(factories))],
            seal_view,
            lambda seat, kind: self.turn,
            guard=guard,
        )
        self.violations: list[Violation] = self.referee.violations

    @property
    def decisions(self) -> int:
        """Decisions asked so far."""
        return self.referee.decisions

    def play(self) -> GameResult:
        """Play to the end (a winner, the turn cap, or a decision past the time limit)."""
        n, end = len(self.scores), "turn_cap"
        try:
            while self.turn < self.rules.max_turns:
                self.turn += 1
                if self._turn(self.turn, (self.turn - 1) % n):
                    end = "deck_exhausted"  # the data contract's name for the natural end
                    break
        except DecisionTimeout as exc:
            self.referee.timed_out(exc)
            end = "timeout"
        self.referee.release()
        turn = self.turn
        ranks, shares = ranks_and_shares([(s,) for s in self.scores])
        self.result = GameResult(tuple(self.scores), ranks, shares, turn, end == "turn_cap", 0,
                                 self.rules.preset, self.rules.hash, end)  # fmt: skip
        return self.result

    def _turn(self, turn: int, seat: int) -> bool:
        """One turn; True when it won the game."""
        total, sides, target = 0, self.rules.sides, self.rules.target
        ask = self.referee.asker(seat)
        while True:
            face = self._dice.randrange(sides) + 1
            self.log += (turn, seat, ROLL, face, total, 0)
            if face == 1 and self.rules.busts:
                self.log += (turn, seat, BUST, total, 0, 0)
                return False
            total += face
            if self.scores[seat] + total >= target:
                self.scores[seat] += total
                self.log += (turn, seat, WIN, total, self.scores[seat], 0)
                return True
            self.turn_total = total
            if not ask(Decision("roll", seat, total), ROLL_OPTIONS, 0):
                self.scores[seat] += total
                self.log += (turn, seat, BANK, total, self.scores[seat], 0)
                return False


def build(
    plan: GamePlan,
    rules: DiceRaceRules,
    factories: Sequence[Factory],
    boards: Mapping[str, Board] | None = None,
    guard: Guard = NO_GUARD,
) -> DiceRaceGame:
    """The scheduled game, its seats in the plan's order."""
    return DiceRaceGame(rules, [factories[p] for p in plan.order], plan.seed, guard)


def render(game: DiceRaceGame) -> list[str]:
    """The move log in words."""
    words = {ROLL: "rolls {a}", BUST: "busts, losing {a}", BANK: "banks {a}, score {b}",
             WIN: "reaches {b} and wins"}  # fmt: skip
    log = game.log
    return [
        f"turn {log[i]:>3} seat {log[i + 1] + 1} "
        + words[log[i + 2]].format(a=log[i + 3], b=log[i + 4])
        for i in range(0, len(log), 6)
    ]
