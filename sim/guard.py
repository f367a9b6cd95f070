"""Guarded decisions: the audit mode and the per-decision time limit, for untrusted plug-ins.

Both wrap a seat's ``decide`` (so a game without them runs the plain, fast path):

- **Audit** (``audit=True``): before each decision the game's mutable state is pickled, and
  after it (answered or raised) compared; a strategy that changed anything it could reach
  (hands, decks, maps, stashes, generators, the move log, the recorded violations, which
  strategy or view a seat has, the identity of the rules and the board) is recorded as a
  violation ("changed the game during its decision"), the state is put back as it was, and the
  decision's fallback is played. Honest strategies play exactly the same games with and
  without it.
- **Decision time limit** (``decision_timeout`` seconds): a ``SIGALRM`` timer interrupts a
  decision that takes longer. The violation is recorded and the game ends at once with the end
  reason ``timeout`` (left out of win rates and counted, like a deadlock). The alarm repeats
  every :data:`REPEAT` seconds until the decision is over, so a strategy that catches the
  exception is interrupted again. A timer needs the process's main thread, which every backend
  plays in. A ``SIGALRM`` that no time limit set (a strategy sending one to its own process)
  is ignored while a shard plays (:func:`stray_alarms_ignored`).
"""

from __future__ import annotations

import contextlib
import pickle
import random
import signal
import threading
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from sim.errors import InputError

#: Seconds between repeated alarms once a decision is over its limit.
REPEAT = 0.05
#: The largest decision time limit accepted (a day).
MAX_DECISION_TIMEOUT = 86_400.0
#: The smallest (a millisecond): the interval timer cannot honour less, and an alarm that
#: lands while the timer is being set would end every decision.
MIN_DECISION_TIMEOUT = 0.001


@dataclass(frozen=True, slots=True)
class Guard:
    """How a game watches its strategies. The default watches nothing (the fast path)."""

    audit: bool = False
    decision_timeout: float | None = None
    #: Each plug-in strategy plays in its own process (:mod:`sim.isolate`).
    isolate: bool = False

    def __post_init__(self) -> None:
        t = self.decision_timeout
        if t is not None and not MIN_DECISION_TIMEOUT <= t <= MAX_DECISION_TIMEOUT:
            raise InputError(
                f"decision_timeout {t!r} is not allowed (seconds, from "
                f"{MIN_DECISION_TIMEOUT:g} to {MAX_DECISION_TIMEOUT:g})"
            )

    @property
    def active(self) -> bool:
        """Whether decisions are wrapped at all."""
        return self.audit or self.decision_timeout is not None

    def to_dict(self) -> dict[str, Any]:
        """The settings as manifest data (only those that are set)."""
        out: dict[str, Any] = {}
        if self.audit:
            out["audit"] = True
        if self.decision_timeout is not None:
            out["decision_timeout"] = self.decision_timeout
        if self.isolate:
            out["isolate"] = True
        return out

    @property
    def recorded(self) -> bool:
        """Whether any setting is set (the manifest records them: they change a cheater's
        games)."""
        return self.active or self.isolate

    @classmethod
    def from_dict(cls, values: Any, where: str) -> Guard:
        """The guard a manifest recorded (:meth:`to_dict`); ``InputError`` naming ``where``
        for anything else."""
        if values is None:
            return NO_GUARD
        if not isinstance(values, dict) or not set(values) <= {
            "audit",
            "decision_timeout",
            "isolate",
        }:
            raise InputError(
                f"{where}: guard must be a table of audit, decision_timeout and isolate, not "
                f"{type(values).__name__}"
            )
        audit = values.get("audit", False)
        timeout = values.get("decision_timeout")
        isolate = values.get("isolate", False)
        if not isinstance(isolate, bool):
            raise InputError(f"{where}: guard has an isolate of the wrong type")
        if not isinstance(audit, bool) or not (
            timeout is None or (isinstance(timeout, int | float) and not isinstance(timeout, bool))
        ):
            raise InputError(f"{where}: guard has an audit or decision_timeout of the wrong type")
        return cls(
            audit=audit,
            decision_timeout=None if timeout is None else float(timeout),
            isolate=isolate,
        )


NO_GUARD = Guard()


class DecisionTimeout(BaseException):
    """A decision ran past its time limit: the game ends (a ``BaseException``, so that a
    strategy's ``except Exception`` does not swallow it)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"no answer within {seconds:g} s (decision time limit)")
        self.seconds = seconds
        #: The seat and decision kind that ran out of time (set on the way out).
        self.seat = -1
        self.kind: object = ""


class Tampered(Exception):  # noqa: N818
    """The audit found the game changed by a decision."""


@dataclass(frozen=True, slots=True)
class Audited:
    """What an audit compares, for one game: ``fields`` of ``holder`` (pickled: their values),
    ``copied`` fields (long lists that only grow, such as the move log and the violations:
    copied and compared as lists, which costs far less than pickling them at every
    decision), and ``identity``: the identities of objects that must not be rebound (rules and
    boards are built of immutable values, so a changed attribute means a rebinding)."""

    holder: Any
    fields: tuple[str, ...]
    identity: Callable[[], tuple[int, ...]]
    #: Called after a restore (caches derived from the state are dropped).
    after_restore: Callable[[], None] = lambda: None
    copied: tuple[str, ...] = ()
    #: Called after every decision: drops caches the audit does not compare (a strategy's
    #: reads fill them legitimately; dropping them means a poisoned one is never used).
    after_decision: Callable[[], None] = lambda: None

    def snapshot(self) -> Snapshot:
        """The state now."""
        holder = self.holder
        values = tuple(getattr(holder, f) for f in self.fields)
        return Snapshot(
            pickle.dumps(values, protocol=pickle.HIGHEST_PROTOCOL),
            tuple(list(getattr(holder, f)) for f in self.copied),
            self.identity(),
        )

    def restore(self, snap: Snapshot) -> None:
        """Put every field back as it was, in place: the engine holds references to the
        state's lists (a hand, a stash) in its locals, and they must see the restored values."""
        holder = self.holder
        for f, v in zip(self.fields, pickle.loads(snap.pickled), strict=True):
            current = getattr(holder, f)
            restored = restore_into(current, v)
            if restored is not current:
                setattr(holder, f, restored)
        for f, items in zip(self.copied, snap.copied, strict=True):
            getattr(holder, f)[:] = items
        self.after_restore()


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One audit snapshot (compared with ``==``)."""

    pickled: bytes
    copied: tuple[list[Any], ...]
    identity: tuple[int, ...]


def restore_into(current: Any, saved: Any) -> Any:
    """``saved``'s value in ``current`` itself where ``current`` is mutable and of the same
    type (lists, dicts and sets element by element, generators by their state, objects by
    their attributes); otherwise ``saved``. Returns the object that now holds the value."""
    kind = type(current)
    if kind is types.MethodType:  # a cached bound method: it stays bound to ``current``'s owner
        return current
    if kind is not type(saved):
        return saved
    if kind is list:
        if len(current) == len(saved):
            for i, (c, v) in enumerate(zip(current, saved, strict=True)):
                r = restore_into(c, v)
                if r is not c:
                    current[i] = r
        else:
            current[:] = saved
        return current
    if kind is dict:
        current.clear()
        current.update(saved)
        return current
    if kind is set:
        current.clear()
        current.update(saved)
        return current
    if isinstance(current, random.Random):
        current.setstate(saved.getstate())
        return current
    names = getattr(kind, "__slots__", None)
    if names is None and hasattr(current, "__dict__") and kind.__module__.startswith("sim."):
        names = tuple(vars(saved))
    if names and kind.__module__.startswith("sim."):
        for name in names:
            try:
                c = object.__getattribute__(current, name)
                v = object.__getattribute__(saved, name)
            except AttributeError:
                continue
            r = restore_into(c, v)
            if r is not c:
                object.__setattr__(current, name, r)
        return current
    return saved


def ids_of(*objects: object) -> tuple[int, ...]:
    """The identities of ``objects`` and of their attribute values (slots or ``__dict__``)."""
    out: list[int] = []
    for obj in objects:
        out.append(id(obj))
        names = getattr(type(obj), "__slots__", None) or tuple(getattr(obj, "__dict__", ()))
        for name in names:
            try:
                out.append(id(object.__getattribute__(obj, name)))
            except AttributeError:
                out.append(0)
    return tuple(out)


Decide = Callable[[Any, Any], object]


def guarded(
    decide: Decide,
    guard: Guard,
    audited: Audited | None,
    code: Callable[[int], str | None] | None = None,
) -> Decide:
    """``decide`` under ``guard``: audited and/or timed (see the module docstring).

    The timer is armed and disarmed inside the decision's ``try``, and the alarm raises only
    while a decision is under way: however short the limit, an alarm that comes while the
    timer is being set or cancelled still ends the decision as over time (with its seat and
    kind), and none is left armed to go off in the engine's own code.

    ``code(seat)`` (the audit's watch over code, :mod:`sim.codewatch`): after the decision,
    the name of code the seat changed (put back already), or ``None``."""
    timeout = guard.decision_timeout
    audit = audited if guard.audit else None
    if timeout is not None and threading.current_thread() is not threading.main_thread():
        raise InputError("a decision time limit needs the main thread of a process")
    #: Whether a decision is under way (an alarm outside one does nothing).
    asking = [False]

    def on_alarm(signum: int, frame: object) -> None:
        assert timeout is not None
        if not asking[0]:
            return
        signal.setitimer(signal.ITIMER_REAL, REPEAT)
        raise DecisionTimeout(timeout)

    def run(view: Any, decision: Any) -> object:
        before = audit.snapshot() if audit is not None else None
        previous: Any = None
        try:
            try:
                if timeout is not None:
                    previous = signal.signal(signal.SIGALRM, on_alarm)
                    asking[0] = True
                    signal.setitimer(signal.ITIMER_REAL, timeout)
                answer = decide(view, decision)
            finally:
                if timeout is not None:
                    asking[0] = False
                    signal.setitimer(signal.ITIMER_REAL, 0)
                    if previous is not None:
                        signal.signal(signal.SIGALRM, previous)
                if audit is not None and before is not None:
                    changed = audit.snapshot() != before
                    audit.after_decision()
                    recoded = code(decision.seat) if code is not None else None
                    if changed:
                        audit.restore(before)
                        raise Tampered("changed the game during its decision (audit)")
                    if recoded is not None:
                        raise Tampered(f"changed the code of {recoded} (audit)")
        except DecisionTimeout as exc:
            exc.seat, exc.kind = decision.seat, decision.kind
            raise
        return answer

    return run


@contextlib.contextmanager
def stray_alarms_ignored() -> Iterator[None]:
    """While games are played: a ``SIGALRM`` that no decision time limit set (a strategy
    that sends one to its own process) is ignored instead of ending the process; a time
    limit installs its own handler around each decision. Only in a process's main thread
    (signals are delivered there); elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGALRM, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGALRM, previous)
