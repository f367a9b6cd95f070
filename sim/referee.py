"""The referee: the one place that stands between every strategy and every game.

An engine plays the rules; the referee owns everything about the players:

- **the seats**: each strategy built from its factory with its own random stream (a built-in
  player's stream is made lazily from the game seed; a plug-in's is seeded at once from its
  own derived seed, so that nothing it holds reveals the game seed or lets it derive any
  other stream), the view it reads (the direct view for the built-in players, a sealed one
  for plug-ins, see :mod:`sim.sealed`), and the guard's audit and decision time limit
  (:mod:`sim.guard`);
- **asking**: every decision goes through one of the seat's askers, which counts it, calls
  the strategy, checks the answer's exact type and value against the legal answers the
  engine gives, and on a failure records a :class:`~sim.outcome.Violation`, has the engine
  log it, and returns the decision's documented fallback (strict mode raises
  :class:`~sim.outcome.StrategyError` instead);
- **the end of a game by the time limit**: :meth:`Referee.timed_out` records the decision
  that ran out of time.

Legal answers are plain values: an ``int``, a ``str``, a ``bool`` or a tuple of ``int`` and
``str``, compared with the engine's list of legal answers (``options``) or, for an ``int``,
with a bitmask of legal values (``cells``). An answer of any other type (a subclass, a
NumPy number, an object with its own ``==``) is illegal without running its code. A
decision's options are all ``bool`` or none (``True == 1``: a ``bool`` never passes for an
``int``, nor the reverse).

Speed: an engine asks tens to hundreds of times a game, so each seat's askers are closures
built once per game over the seat's strategy, view and checks (a call costs what the
engine's own inline code cost). A built-in player class may also answer the game's commonest
yes/no question and some choices by function (:data:`Shortcuts`), without a decision object
and its dispatch; those answers are checked the same way. Not under a guard, which watches
every answer through ``decide``. A game's yes/no question is asked by a function per seat
made once a game (:attr:`Referee.yeses`), and :meth:`Referee.pick` asks a choice without an
asker: a referee makes per game only what its game asks.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from sim.guard import NO_GUARD, Audited, DecisionTimeout, Guard, guarded
from sim.outcome import STRATEGY_FAILURES, StrategyError, Violation, describe, is_plain
from sim.sealed import TRUSTED
from sim.seeding import LazyStream, Stream, derive_seed

if TYPE_CHECKING:
    from sim.codewatch import CodeWatch


class Question(Protocol):
    """What the referee reads of any game's decision: its ``kind`` is a string or a game's
    kind member (:mod:`sim.action_kinds`), recorded by its ``str``."""

    @property
    def kind(self) -> Hashable: ...

    @property
    def seat(self) -> int: ...

    def fallback(self) -> Any:
        """The documented answer played when the strategy fails."""
        ...


Q = TypeVar("Q", bound=Question)
Q_contra = TypeVar("Q_contra", bound=Question, contravariant=True)


class Strategy(Protocol[Q_contra]):
    """A player of any game: answers each decision from its view."""

    def decide(self, view: Any, decision: Q_contra) -> object: ...


#: Builds a seat's strategy from the seat's own random generator.
Factory = Callable[[random.Random], Any]
#: ``ask(decision, options, cells)``: the seat's checked answer to ``decision``.
Ask = Callable[[Q, Sequence[Any], int], Any]
#: A yes/no shortcut ``keep(player, view)`` (true: yes) and choice shortcuts
#: ``choose(player, view, options)`` by decision kind.
Keep = Callable[[Any, Any], object]
Choose = Callable[[Any, Any, tuple[Any, ...]], Any]
Shortcuts = tuple[Keep | None, Mapping[Hashable, Choose]]
#: A game's yes/no question, asked by :attr:`Referee.yeses`: per seat its decision, and the
#: options (no, then yes).
YesQuestion = tuple[Sequence[Q], tuple[Any, Any]]
#: The shortcuts of a class that has none (read only).
NO_SHORTCUTS: Shortcuts = (None, {})
#: The shortcuts of each built-in player class, asked once a process.
_shortcuts_of: dict[type, Shortcuts] = {}


class FallbackPlayer:
    """Stands in for a strategy that could not be built: always the documented fallback."""

    def decide(self, view: object, decision: Question) -> object:
        """The decision's fallback answer."""
        return decision.fallback()


def seat_stream(seed: int, seat: int, lazy: bool) -> random.Random:
    """The random generator of ``seat``'s strategy in the game seeded ``seed``, seeded from
    the seat's own derived seed, so that it holds nothing from which the game seed or another
    stream could be read. ``lazy`` (a built-in player of a game whose players seldom draw):
    made on first use instead, the same numbers; it holds the game seed, which only the
    built-in players' own code sees."""
    if lazy:
        return LazyStream(seed, "seat", seat)  # type: ignore[return-value]
    return Stream(derive_seed(seed, "seat", seat))


def built_in(factories: Sequence[Factory]) -> bool:
    """Whether every factory builds a built-in player (a trusted class, or a
    ``functools.partial`` of one): only such a game may use what the engines keep between
    the games of a seed block (a deal), since no module state may hold hidden information
    while a plug-in plays."""
    return all((f.func if type(f) is functools.partial else f) in TRUSTED for f in factories)


def _build(
    factory: Factory, seed: int, seat: int, strict: bool, violations: list[Violation], lazy: bool
) -> Any:
    """``factory(rng)`` with the seat's stream; a factory that raises, or builds something
    without a ``decide`` method, is a violation and the seat plays the fallbacks (strict
    mode: :class:`StrategyError`). A factory is a built-in player's when it is a trusted
    class, or a ``functools.partial`` of one (the registry's factories)."""
    made = factory.func if type(factory) is functools.partial else factory
    # seat_stream, inlined (a game builds up to four seats).
    if lazy and made in TRUSTED:
        rng: Any = LazyStream(seed, "seat", seat)
    else:
        rng = Stream(derive_seed(seed, "seat", seat))
    try:
        built = factory(rng)
        decide = getattr(built, "decide", None)
    except STRATEGY_FAILURES as exc:
        if strict:
            raise StrategyError(f"seat {seat + 1} could not be built: {describe(exc)}") from exc
        violations.append(Violation(0, seat, "create", "<raised>", describe(exc)))
        return FallbackPlayer()
    if not callable(decide):
        if strict:
            raise StrategyError(f"seat {seat + 1}: {describe(built)} has no decide method")
        violations.append(Violation(0, seat, "create", describe(built), "no decide method"))
        return FallbackPlayer()
    return built


def _build_isolated(
    factory: Factory,
    seed: int,
    seat: int,
    strict: bool,
    violations: list[Violation],
    lazy: bool,
    view: Any,
    seal: Callable[[Any], Any],
) -> Any:
    """Under isolation: a built-in player is built here as always; a plug-in is built in
    the seat's own process (:mod:`sim.isolate`) and played through its stand-in, or, if it
    cannot be built there, recorded as :func:`_build` records it."""
    made = factory.func if type(factory) is functools.partial else factory
    if made in TRUSTED:
        return _build(factory, seed, seat, strict, violations, lazy)
    from sim.isolate import seat_in_child

    sealed_type = getattr(seal, "sealed_type", None) or type(seal(view))
    stand_in, answer, error = seat_in_child(factory, seed, seat, sealed_type)
    if stand_in is not None:
        return stand_in
    if strict:
        raise StrategyError(f"seat {seat + 1} could not be built: {error}")
    violations.append(Violation(0, seat, "create", answer, error))
    return FallbackPlayer()


class Referee(Generic[Q]):
    """The referee of one game: its seats, their askers, the violations and the count of
    decisions asked.

    ``record(seat, kind)`` is the engine's: it logs a violation of ``seat`` on a decision of
    ``kind`` (the decision's own kind) in the game's move log and returns the turn it happened
    in. A :class:`~sim.outcome.Violation` records the kind by its ``str``."""

    __slots__ = (
        "_record",
        "_yes_question",
        "askers",
        "deciders",
        "decisions",
        "pickers",
        "strategies",
        "strict",
        "trusted",
        "views",
        "violations",
        "yeses",
    )

    def __init__(
        self,
        strategies: Sequence[Any],
        views: Sequence[Any],
        record: Callable[[int, Any], int],
        *,
        strict: bool = False,
        violations: list[Violation] | None = None,
        yes: YesQuestion[Q] | None = None,
    ) -> None:
        """A referee over strategies already built (see :func:`seat_game` for a scheduled
        game's seats): ``views`` are the direct views, sealed here for every strategy that is
        not a built-in player. ``yes``: the game's yes/no question, asked by :attr:`yeses`."""
        self.strict = strict
        self.violations: list[Violation] = [] if violations is None else violations
        self.decisions = 0
        self._record = record
        self.strategies = list(strategies)
        self.views = list(views)
        #: Per seat, whether its strategy is a built-in player's (:data:`sim.sealed.TRUSTED`).
        self.trusted: list[bool] = []
        #: Per seat, what an asker calls: the strategy's bound decide (guarded under a guard)
        #: and the seat's view.
        self.deciders: list[tuple[Callable[[Any, Q], object], Any]] = []
        #: Per seat, its asker once made (:meth:`asker`).
        self.askers: list[Ask[Q] | None] = []
        self._yes_question = yes
        #: Per seat, ``yes()``: the seat's checked answer to the game's yes/no question, true
        #: for yes (none without a question).
        self.yeses: list[Callable[[], bool]] = []
        self.pickers: list[Mapping[Hashable, Choose]] = []
        self._arm(shortcuts=True)

    def reseat(self, seat: int, strategy: Any) -> None:
        """Give ``seat`` another built strategy (analysis and tests: a position played on by
        other players), read through the seat's view as it is (a referee without a guard)."""
        self.strategies[seat] = strategy
        self._arm(shortcuts=True)

    def seal(self, seal: Callable[[Any], Any]) -> None:
        """Give every plug-in seat the sealed form of its view (``seal(view)``)."""
        for i, trusted in enumerate(self.trusted):
            if not trusted:
                self.views[i] = seal(self.views[i])
        self._arm(shortcuts=True)

    def watch(
        self,
        guard: Guard,
        audited: Callable[[], Audited] | None,
        code: CodeWatch | None = None,
    ) -> None:
        """Put every seat under ``guard`` (``audited()`` says what its audit compares; ``code``
        watches the code of the game and its players, made here when not given): every answer
        then goes through ``decide``, with no shortcuts. The audit compares the code around
        the plug-ins' decisions (the built-in players' code changes nothing)."""
        if not guard.active:
            return
        audit = audited() if guard.audit and audited is not None else None
        if audit is not None and code is None:
            code = watch_code(self._record, [type(x) for x in self.strategies])
        self._arm(shortcuts=False)
        self.deciders = [
            (guarded(f, guard, audit, None if code is None or trusted else code.changed_by), v)
            for (f, v), trusted in zip(self.deciders, self.trusted, strict=True)
        ]

    def _arm(self, shortcuts: bool) -> None:
        # Once a game (more only when seats are sealed, watched or reseated), so one loop
        # does it all: the askers are made on first use (a seat of a built-in player may
        # answer every question of a game by its shortcuts).
        strategies, views = self.strategies, self.views
        n = len(strategies)
        self.askers = [None] * n
        trusted = self.trusted = [False] * n
        pickers = self.pickers = [NO_SHORTCUTS[1]] * n
        keeps: list[Keep | None] = [None] * n
        deciders = self.deciders = []
        for i, built in enumerate(strategies):
            # Bound here, as the game starts: code that rewrites a player's class during a
            # game changes what its decide does from the next game on.
            deciders.append((built.decide, views[i]))
            cls = type(built)
            if cls in TRUSTED:
                trusted[i] = True
                if shortcuts:
                    keeps[i], pickers[i] = _shortcuts_of.get(cls) or shortcuts_of(cls)
        if self._yes_question is not None:
            self.yeses = self._yes_askers(self._yes_question, keeps)

    def _yes_askers(
        self, question: YesQuestion[Q], keeps: Sequence[Keep | None]
    ) -> list[Callable[[], bool]]:
        """Per seat, ``yes()``: by the player's yes/no shortcut if it has one (counted, and
        checked for a raise: its truth is strategy code too), else through its asker.

        Made once a game and called many times a turn: every value each needs is bound as a
        default argument, read as a local (cheaper than a closure's cells or the referee's
        lists), and none takes an argument."""
        decisions, options = question
        yes_answer = options[1]
        yeses: list[Callable[[], bool]] = []
        for seat, keep in enumerate(keeps):
            decision = decisions[seat]
            if keep is None:

                def by_asking(
                    referee: Referee[Q] = self,
                    seat: int = seat,
                    decision: Q = decision,
                    options: tuple[Any, Any] = options,
                    yes: Any = yes_answer,
                ) -> bool:
                    return bool(referee.asker(seat)(decision, options, 0) == yes)

                yeses.append(by_asking)
                continue

            def by_shortcut(
                referee: Referee[Q] = self,
                keep: Keep = keep,
                me: Any = self.strategies[seat],
                view: Any = self.views[seat],
                decision: Q = decision,
                yes: Any = yes_answer,
            ) -> bool:
                referee.decisions += 1
                try:
                    return True if keep(me, view) else False  # noqa: SIM210
                except STRATEGY_FAILURES as exc:
                    return bool(referee.raised(decision, exc) == yes)

            yeses.append(by_shortcut)
        return yeses

    # -- asking ---------------------------------------------------------------------------------

    def asker(self, seat: int) -> Ask[Q]:
        """The seat's asker, ``ask(decision, options, cells)``: the decision counted, asked,
        its answer checked (exact types, so that no strategy code runs in the comparison),
        the fallback after a violation. An engine takes it once per turn and calls it for
        each decision (a closure over the seat: cheaper than a method looking the seat up)."""
        made = self.askers[seat]
        if made is None:
            made = self.askers[seat] = self._asker(seat)
        return made

    def _asker(self, seat: int) -> Ask[Q]:
        decide, view = self.deciders[seat]
        trusted = self.trusted[seat]
        raised, illegal = self.raised, self.illegal
        referee = self

        def ask(decision: Q, options: Sequence[Any], cells: int = 0) -> Any:
            referee.decisions += 1
            try:
                # Any: read only by the exact-type checks below.
                answer: Any = decide(view, decision)
            except STRATEGY_FAILURES as exc:
                return raised(decision, exc)
            t = type(answer)
            if t is tuple:
                if trusted:  # a built-in player's tuples are the engine's own actions
                    if answer in options:
                        return answer
                elif is_plain(answer) and answer in options:
                    # The engine's own tuple equal to it (one with a kind written as the plain
                    # int it equals, say): engines may then tell kinds apart by identity.
                    return options[options.index(answer)]
            elif t is int:
                if answer >= 0 and (cells >> answer) & 1:
                    return answer
                # Options are all bools or none (True == 1).
                if answer in options and type(options[0]) is not bool:
                    return answer
            elif t is str:
                if answer in options:
                    return answer
            elif t is bool and answer in options and type(options[0]) is bool:
                return answer
            return illegal(decision, answer)

        return ask

    def ask(self, decision: Q, options: Sequence[Any], cells: int = 0) -> Any:
        """The checked answer of ``decision``'s seat: one of ``options``, or an ``int`` whose
        bit is set in ``cells``; the fallback after a violation."""
        return self.asker(decision.seat)(decision, options, cells)

    def pick(
        self,
        kind: Hashable,
        seat: int,
        options: tuple[Any, ...],
        value: int,
        question: Callable[[Any, int, tuple[Any, ...], int], Q],
    ) -> Any:
        """``seat``'s checked choice among ``options`` on a decision of ``kind`` about
        ``value`` (the decision is built by ``question(kind, seat, options, value)`` only when
        it is needed): by the player's shortcut for ``kind`` if it has one, else by its
        ``decide``, checked as an asker checks a plug-in's answer (a built-in player's tuples
        too: a shortcut is asked without a decision object, and checked all the same). A
        single option is no choice: it is the answer, and nothing is asked.

        The asker, inlined: a game may ask a few such choices of a seat and nothing else of
        it, and making its asker would cost more than asking."""
        if len(options) == 1:
            return options[0]
        choose = self.pickers[seat].get(kind)
        self.decisions += 1
        decision: Q | None = None
        if choose is not None:
            try:
                answer = choose(self.strategies[seat], self.views[seat], options)
            except STRATEGY_FAILURES as exc:
                return self.raised(question(kind, seat, options, value), exc)
        else:
            decision = question(kind, seat, options, value)
            decide, view = self.deciders[seat]
            try:
                answer = decide(view, decision)
            except STRATEGY_FAILURES as exc:
                return self.raised(decision, exc)
        t = type(answer)
        if t is tuple:
            # Any player's, a shortcut's too: a (seat, kind) pair checked inline, any other
            # tuple by is_plain.
            pair: tuple[Any, ...] = answer
            if len(pair) == 2 and type(pair[0]) is int and type(pair[1]) is int:
                if answer in options:
                    return answer
            elif is_plain(answer) and answer in options:
                return answer
        elif t is int or t is str:
            # Options are all bools or none (True == 1).
            if answer in options and type(options[0]) is not bool:
                return answer
        elif t is bool and answer in options and type(options[0]) is bool:
            return answer
        if decision is None:
            decision = question(kind, seat, options, value)
        return self.illegal(decision, answer)

    # -- failures -------------------------------------------------------------------------------

    def raised(self, decision: Q, exc: BaseException) -> Any:
        """The fallback for a strategy that raised (strict mode: :class:`StrategyError`)."""
        if self.strict:
            raise StrategyError(
                f"seat {decision.seat + 1} failed on {decision.kind}: {describe(exc)}"
            ) from exc
        return self._violation(decision, "<raised>", describe(exc))

    def illegal(self, decision: Q, answer: object) -> Any:
        """The fallback for an illegal answer (strict mode: :class:`StrategyError`)."""
        if self.strict:
            raise StrategyError(
                f"seat {decision.seat + 1} answered {describe(answer)} to {decision.kind}: illegal"
            )
        return self._violation(decision, describe(answer), "illegal answer")

    def _violation(self, decision: Q, answer: str, error: str) -> Any:
        turn = self._record(decision.seat, decision.kind)
        self.violations.append(
            Violation(turn, decision.seat, str(decision.kind), answer[:200], error[:200])
        )
        return decision.fallback()

    def timed_out(self, exc: DecisionTimeout) -> None:
        """Record the decision that ran past the time limit (the engine then ends the game
        with the end reason ``timeout``)."""
        turn = self._record(exc.seat, exc.kind)
        kind = str(exc.kind)
        self.violations.append(Violation(turn, exc.seat, kind, "<no answer>", str(exc)[:200]))

    def release(self) -> None:
        """Drop the askers once the game is over: they and the engine's callback point back
        at the referee and the game, and breaking those cycles frees a finished game at once
        instead of by the cycle collector (a measurable share of a run's time). The
        strategies, the views and the violations stay readable."""
        self.views = []
        self.deciders = []
        self.askers = []
        self.yeses = []
        self.pickers = []
        self._record = _released


def seat_game(
    seed: int,
    factories: Sequence[Factory],
    views: Sequence[Any],
    seal: Callable[[Any], Any],
    record: Callable[[int, Any], int],
    *,
    strict: bool = False,
    guard: Guard = NO_GUARD,
    audited: Callable[[], Audited] | None = None,
    lazy_streams: bool = False,
    yes: YesQuestion[Any] | None = None,
) -> Referee[Any]:
    """The referee of a scheduled game seeded ``seed``: each seat's strategy built from its
    factory and stream, its view (``views[seat]``, sealed by ``seal`` for a plug-in), and
    the guard over them all (``audited()`` says what the audit compares; called only when
    the guard audits). ``lazy_streams``: the built-in players' streams are made on first use
    (see :func:`seat_stream`; cheaper where most never draw, dearer where they do); ``yes``:
    the game's yes/no question (see :attr:`Referee.yeses`)."""
    violations: list[Violation] = []
    if guard is NO_GUARD or not guard.recorded:  # the fast path: every run without a guard
        built = [
            _build(f, seed, i, strict, violations, lazy_streams) for i, f in enumerate(factories)
        ]
        plain: Referee[Any] = Referee(
            built, views, record, strict=strict, violations=violations, yes=yes
        )
        if not all(plain.trusted):
            plain.seal(seal)
        return plain
    built, code = _guarded_seats(
        seed, factories, views, seal, record, strict, guard, violations, lazy_streams
    )
    referee: Referee[Any] = Referee(
        built,
        views,
        record,
        strict=strict,
        violations=violations,
        yes=yes,
    )
    if not all(referee.trusted):
        referee.seal(seal)
    if guard.active:
        referee.watch(guard, audited, code)
    return referee


def _guarded_seats(
    seed: int,
    factories: Sequence[Factory],
    views: Sequence[Any],
    seal: Callable[[Any], Any],
    record: Callable[[int, Any], int],
    strict: bool,
    guard: Guard,
    violations: list[Violation],
    lazy_streams: bool,
) -> tuple[list[Any], CodeWatch | None]:
    """The seats of a game under a guard: isolated plug-ins under ``--isolate``, and under
    ``--audit`` the code watched around each constructor (one that rewrites code not its own
    is a violation and the seat plays the fallbacks); the code watch, if any."""
    code = None
    if guard.audit:
        made = [f.func if type(f) is functools.partial else f for f in factories]
        code = watch_code(record, [m if isinstance(m, type) else None for m in made])
    built = []
    for i, f in enumerate(factories):
        if guard.isolate:
            player = _build_isolated(f, seed, i, strict, violations, lazy_streams, views[i], seal)
        else:
            player = _build(f, seed, i, strict, violations, lazy_streams)
        changed = code.changed_by(i) if code is not None else None
        if changed is not None:  # the constructor rewrote code that is not its own
            error = f"changed the code of {changed} (audit)"
            if strict:
                raise StrategyError(f"seat {i + 1} could not be built: {error}")
            violations.append(Violation(0, i, "create", "<raised>", error[:200]))
            player = FallbackPlayer()
        built.append(player)
    return built, code


def watch_code(record: Callable[[int, Any], int], classes: Sequence[type | None]) -> CodeWatch:
    """The audit's watch over the code of a game whose engine logs violations by ``record``
    (a bound method: its package is the engine's) and of the seats' strategy classes."""
    from sim.codewatch import CodeWatch

    engine = type(getattr(record, "__self__", None)).__module__
    return CodeWatch(engine.rpartition(".")[0] or engine, classes)


def shortcuts_of(cls: type) -> Shortcuts:
    """The shortcuts of a built-in player class: its ``shortcuts()`` (a class method), asked
    once a process; none for a class without one. Each must answer exactly what ``decide``
    answers to the same question and draw the same random numbers (trusted only of the
    built-in players)."""
    found = _shortcuts_of.get(cls)
    if found is None:
        shortcuts = getattr(cls, "shortcuts", None)
        found = _shortcuts_of[cls] = NO_SHORTCUTS if shortcuts is None else shortcuts()
    return found


def _released(seat: int, kind: Any) -> int:
    raise RuntimeError("the game is over: its referee asks no more decisions")
