"""Games played on the fly (``compare``, ``sweep``) by either engine, as outcomes: what those
commands read of a game (win shares, first player, length, end, failures, the game's sweep
totals), the same whichever engine played it.

The compiled engine (:mod:`sim.compiled_engine`) plays a whole batch of plans per call and
gives the reference engine's rows, so an outcome read from its tables is the outcome of the
reference's game; ``auto`` takes it when every lineup of the command compiles under every
rules it plays (and the game reports no sweep totals, which come from the game object).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from pipelines.play.counting import CountingReferee, Tally
from sim.compiled_engine import ENGINES, CompiledSeat
from sim.errors import InputError
from sim.game import Factory, GamePlan, PlanBatch, RulesLike
from sim.runner.engine_choice import compiled_engine, unsupported
from sim.runner.games import game_kind, play_planned
from strategies.registry import StrategySpec, builtin_name

#: The totals a game counted through its referee adds: its decisions and their legal answers.
CHOICE_TOTALS = ("choice_decisions", "choice_count")


@dataclass(frozen=True)
class Lineup:
    """Players as both engines take them: labels, factories and compiled seats."""

    game: str
    labels: tuple[str, ...]
    factories: tuple[Factory, ...]
    seats: tuple[CompiledSeat, ...]

    @classmethod
    def of(cls, specs: Sequence[StrategySpec], game: str) -> Lineup:
        return cls(
            game,
            tuple(s.label for s in specs),
            tuple(s.factory() for s in specs),
            tuple((builtin_name(s, game), s.params) for s in specs),
        )


class Outcome(NamedTuple):
    """What ``compare`` and ``sweep`` read of one played game."""

    plan: GamePlan
    win_shares: tuple[float, ...]
    first_player: int
    turns: int
    end_reason: str
    violations: int
    #: The game's sweep totals (:attr:`sim.game.GameKind.sweep_totals`); empty without.
    totals: Mapping[str, int]


def choose_engine(
    asked: str,
    plays: Sequence[tuple[Lineup, RulesLike]],
    where: str,
    reference_only: str | None = None,
) -> str:
    """The engine that plays every ``(lineup, rules)`` of a command: ``reference`` or
    ``compiled`` (``auto``: compiled when it can play them all); ``InputError`` naming
    ``where`` for an engine not allowed or a compiled engine that cannot. ``reference_only``:
    why the command needs the reference engine whatever the players (it reads what the
    compiled engine does not keep, such as the move log)."""
    if asked not in ENGINES:
        raise InputError(f"{where} {asked!r} is not allowed ({', '.join(ENGINES)})")
    if asked == "reference":
        return "reference"
    why = reference_only
    for lineup, rules in plays:
        if why is None and game_kind(lineup.game).sweep_totals is not None:
            why = "the game's sweep totals are read from the reference engine's games"
        why = why or unsupported(lineup.game, lineup.labels, lineup.seats, rules)
        if why is not None:
            break
    if why is None:
        return "compiled"
    if asked == "compiled":
        raise InputError(f"{where} compiled: {why} (auto plays them on the reference)")
    return "reference"


def outcomes(
    engine: str,
    plans: Sequence[GamePlan],
    rules: RulesLike,
    lineup: Lineup,
    keep: Callable[[GamePlan, Any], None] | None = None,
    count_choices: bool = False,
) -> list[Outcome]:
    """The outcomes of ``plans`` played by ``lineup`` under ``rules`` on ``engine``; ``keep``
    is given each reference game with its plan (a caller reading its move log). With
    ``count_choices`` (the reference engine only), each game is played through a
    :class:`pipelines.play.counting.CountingReferee` and its totals hold its decisions
    (:data:`CHOICE_TOTALS`: ``choice_decisions``) and their legal answers (``choice_count``)."""
    if engine == "compiled":
        if count_choices:
            raise ValueError("choices are counted at the reference engine's referee")
        return _compiled(plans, rules, lineup)
    kind = game_kind(lineup.game)
    totals_of = kind.sweep_totals
    out = []
    for plan in plans:
        tally = Tally()
        if count_choices:
            built: Any = kind.build(plan, rules, lineup.factories)
            # Every game's engine asks its seats through its referee (as a replay counts).
            built.referee = CountingReferee(built.referee, tally)
            built.play()
            game = built
        else:
            game = play_planned(plan, rules, lineup.factories)
        result = game.result
        assert result is not None
        if keep is not None:
            keep(plan, game)
        totals = dict(totals_of(game)) if totals_of is not None else {}
        if count_choices:
            totals[CHOICE_TOTALS[0]] = tally.decisions
            totals[CHOICE_TOTALS[1]] = tally.choices
        out.append(
            Outcome(
                plan,
                result.win_shares,
                result.first_player,
                result.turns,
                result.end_reason,
                len(game.violations),
                totals,
            )
        )
    return out


def _compiled(plans: Sequence[GamePlan], rules: RulesLike, lineup: Lineup) -> list[Outcome]:
    engine = compiled_engine(lineup.game)
    assert engine is not None
    batch = PlanBatch.of(plans)
    tables = engine.play(lineup.game, batch, rules, lineup.seats, lineup.labels)
    games, seats = tables["games"], tables["seats"]
    shares = seats.column("win_share").to_pylist()
    columns = [games.column(c).to_pylist() for c in ("first_player", "turns", "end_reason")]
    violations = games.column("violations").to_pylist()
    out = []
    at = 0
    for i, plan in enumerate(plans):
        n = len(plan.order)
        first, turns, end = (c[i] for c in columns)
        out.append(Outcome(plan, tuple(shares[at : at + n]), first, turns, end, violations[i], {}))
        at += n
    return out
