"""Isolated seats (``--isolate``): each plug-in strategy plays in its own process.

Under isolation the referee does not build a plug-in's strategy in the game's process. Each
isolated seat has a long-lived child process (one per seat index per worker process, reused
by every game of a shard and shut down at its end, see :func:`isolated_shard`). At the start
of each game the child builds the strategy from the seat's factory (pickled by reference:
an importable class or a ``functools.partial`` of one) with the seat's own derived seed, so
that it draws the very numbers it would draw in-process. For each decision the parent sends
the decision (a small immutable value) and the child calls ``decide`` with a *remote view*:
an object with the sealed view's public properties and methods, each read or call sent to
the parent, which answers it from the real sealed view while it waits. The answer comes back
and the referee checks it as always.

What the child holds is what its view showed it: no frame, object or class of the game's
process is reachable from it, so frame peeking, ``gc`` tricks and monkeypatching other
players' classes or the engine change nothing but the child's own copies.

The parent reads the child's messages with a restricted unpickler that builds no object
but builtin values (no class is looked up, so no code of the child's choosing runs in the
parent) and at most :data:`MAX_MESSAGE` bytes. A child that dies, sends anything else, or
(under a decision time limit) runs past it is a recorded violation of its seat; the seat
then plays the fallbacks until the game ends, and the next game has a fresh child. A child
also ends when its parent does: it watches a pipe whose other end only the parent holds.

Within one decision the game does not change, so the child keeps each immutable value the
view returned (an ``int``, a ``str``, a tuple of them, a frozen object) for the rest of that
decision instead of asking again; mutable results (lists, dicts, sets: fresh copies in-process
too) are asked each time.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import Any

from sim.action_kinds import plain_ints
from sim.outcome import STRATEGY_FAILURES, describe, is_plain

#: The largest message a child may send, in bytes (an answer or a view request is tiny).
MAX_MESSAGE = 1 << 20
#: Mutable results a remote view asks for each time (in-process, each read is a fresh copy).
_MUTABLE = (list, dict, set, bytearray)


class IsolatedSeatError(Exception):
    """An isolated strategy's process died, sent something unreadable, or broke the protocol
    (recorded as the seat's violation)."""


class Reported(Exception):  # noqa: N818
    """An exception the strategy raised in its process, shown as the child described it (so
    that the violation reads as it would in-process)."""

    def __init__(self, shown: str) -> None:
        super().__init__(shown)
        self.shown = shown

    def __repr__(self) -> str:
        return self.shown


class Shown:
    """An answer that was not a plain value, as the child described it: illegal (its type
    fails every check of the referee), and shown as the child showed it."""

    __slots__ = ("shown",)

    def __init__(self, shown: str) -> None:
        self.shown = shown

    def __repr__(self) -> str:
        return self.shown


class _Plain(pickle.Unpickler):
    """Builds builtin values only: any class or function a message names is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"{module}.{name} is not a plain value")


def _plain_loads(data: bytes) -> Any:
    return _Plain(io.BytesIO(data)).load()


def members_of(sealed_type: type) -> dict[str, str]:
    """The public interface of a sealed view class: name -> ``"get"`` (a property) or
    ``"call"`` (a method)."""
    out: dict[str, str] = {}
    for name in dir(sealed_type):
        if name.startswith("_"):
            continue
        member = getattr(sealed_type, name)
        out[name] = "get" if isinstance(member, property) else "call"
    return out


class Child:
    """One isolated seat's process, and the parent's end of its pipes."""

    def __init__(self) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        life_r, life_w = os.pipe()
        code = "import sys; from sim.isolate import child_main; child_main(*map(int, sys.argv[1:]))"
        fds = (to_child_r, from_child_w, life_r)
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, *map(str, fds)],
            pass_fds=fds,
            stdin=subprocess.DEVNULL,
        )
        for fd in fds:
            os.close(fd)
        self.send_conn = Connection(to_child_w, readable=False)
        self.recv_conn = Connection(from_child_r, writable=False)
        #: Only this process holds the write end: its death is the child's end of file.
        self.lifeline = life_w
        self.alive = True
        self.send(("path", list(sys.path)))

    def send(self, message: object) -> None:
        self.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))

    def send_bytes(self, data: bytes) -> None:
        try:
            self.send_conn.send_bytes(data)
        except (OSError, ValueError) as exc:
            self.stop()
            raise IsolatedSeatError(f"its process is gone ({describe(exc)})") from None

    def receive(self) -> Any:
        """The child's next message, as a tuple of plain values; ``IsolatedSeatError`` for anything
        else (the child is then stopped)."""
        try:
            data = self.recv_conn.recv_bytes(MAX_MESSAGE)
        except (EOFError, OSError) as exc:
            self.stop()
            raise IsolatedSeatError(f"its process ended ({describe(exc)})") from None
        try:
            message = _plain_loads(data)
        except Exception as exc:
            self.stop()
            raise IsolatedSeatError(f"it sent an unreadable message ({describe(exc)})") from None
        if type(message) is not tuple or not message or type(message[0]) is not str:
            self.stop()
            raise IsolatedSeatError(f"it sent {describe(message)}, not a message")
        return message

    def stop(self) -> None:
        """End the process (it may be in the middle of a decision) and close the pipes."""
        if not self.alive:
            return
        self.alive = False
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.process.wait(timeout=5)
        for conn in (self.send_conn, self.recv_conn):
            with contextlib.suppress(OSError):
                conn.close()
        with contextlib.suppress(OSError):
            os.close(self.lifeline)


#: This process's isolated seats' children, by seat index.
_children: dict[int, Child] = {}


def child_for(seat: int) -> Child:
    """The live child of ``seat`` (started when there is none, or the last one failed)."""
    child = _children.get(seat)
    if child is None or not child.alive or child.process.poll() is not None:
        if child is not None:
            child.stop()
        child = _children[seat] = Child()
    return child


def shutdown() -> None:
    """Stop every child of this process."""
    for child in list(_children.values()):
        child.stop()
    _children.clear()


atexit.register(shutdown)


@contextlib.contextmanager
def isolated_shard() -> Iterator[None]:
    """Around a shard's games: its isolated seats' children are stopped at its end."""
    try:
        yield
    finally:
        shutdown()


class IsolatedStrategy:
    """The parent's stand-in for a strategy playing in ``child``: its ``decide`` sends the
    decision and answers the child's view requests until the answer comes."""

    __slots__ = ("child", "members", "seat")

    def __init__(self, child: Child, seat: int, members: dict[str, str]) -> None:
        self.child = child
        self.seat = seat
        self.members = members

    def decide(self, view: Any, decision: Any) -> object:
        child = self.child
        if not child.alive:
            raise IsolatedSeatError("its process ended earlier in this game")
        done = False
        try:
            child.send(("decide", decision))
            while True:
                message = child.receive()
                tag = message[0]
                if tag == "answer" and len(message) == 2:
                    done = True
                    return message[1]
                if tag == "raised" and len(message) == 2 and type(message[1]) is str:
                    done = True
                    raise Reported(message[1][:200])
                if tag == "illegal" and len(message) == 2 and type(message[1]) is str:
                    done = True
                    return Shown(message[1][:200])
                reply = self._serve(view, message)
                try:
                    data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
                except Exception as exc:  # a value that cannot travel: the strategy's error
                    data = pickle.dumps(("error", type(exc).__name__, str(exc)[:200]))
                child.send_bytes(data)
        finally:
            # Anything else (a time limit, Ctrl-C, a broken message): the child may be in
            # the middle of the decision, and its next message would be out of step.
            if not done:
                child.stop()

    def _serve(self, view: Any, message: tuple[Any, ...]) -> tuple[Any, ...]:
        """The answer to a view request ``("get", name)`` or ``("call", name, args,
        kwargs)``: ``("value", v)`` or ``("error", exception type name, text)``."""
        tag = message[0]
        name = message[1] if len(message) > 1 else None
        if type(name) is not str or self.members.get(name) != tag:
            self.child.stop()
            raise IsolatedSeatError(f"it sent {describe(message)}, not a view request")
        try:
            if tag == "get" and len(message) == 2:
                value = getattr(view, name)
            elif tag == "call" and len(message) == 4:
                args, kwargs = message[2], message[3]
                if type(args) is not tuple or type(kwargs) is not dict:
                    raise TypeError("bad arguments")
                value = getattr(view, name)(*args, **kwargs)
            else:
                self.child.stop()
                raise IsolatedSeatError(f"it sent {describe(message)}, not a view request")
        except IsolatedSeatError:
            raise
        except Exception as exc:
            return ("error", type(exc).__name__, str(exc)[:200])
        return ("value", value)


def seat_in_child(
    factory: Callable[..., Any], seed: int, seat: int, sealed_type: type
) -> tuple[IsolatedStrategy | None, str, str]:
    """Build ``seat``'s strategy in its child for the game seeded ``seed``: the stand-in, or
    ``None`` with what was built (or ``"<raised>"``) and why it cannot play."""
    members = members_of(sealed_type)
    try:
        child = child_for(seat)
        child.send(("game", factory, seed, seat, members))
        reply = child.receive()
    except IsolatedSeatError as exc:
        return None, "<raised>", f"IsolatedSeatError({str(exc)!r})"[:200]
    except (pickle.PicklingError, TypeError, AttributeError) as exc:
        return None, "<raised>", f"the strategy cannot be sent to its process: {describe(exc)}"
    if reply[0] == "built":
        return IsolatedStrategy(child, seat, members), "", ""
    shown = [str(x)[:200] for x in reply[1:3]] if len(reply) >= 3 else ["<raised>", "?"]
    return None, shown[0], shown[1]


# -- the child's side -----------------------------------------------------------------------------


def _remote_view_class(members: dict[str, str], ask: Callable[[tuple[Any, ...]], Any]) -> type:
    """A view class whose public members are sent to the parent by ``ask``."""
    namespace: dict[str, Any] = {"__slots__": ()}

    def getter(name: str) -> property:
        return property(lambda self: ask(("get", name)))

    def caller(name: str) -> Callable[..., Any]:
        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            return ask(("call", name, args, kwargs))

        method.__name__ = name
        return method

    for name, how in members.items():
        namespace[name] = getter(name) if how == "get" else caller(name)
    namespace["__repr__"] = lambda self: "<remote view>"
    return type("RemoteView", (), namespace)


def _raise(name: str, text: str) -> Any:
    import builtins

    kind = getattr(builtins, name, None)
    if isinstance(kind, type) and issubclass(kind, Exception):
        raise kind(text)
    raise RuntimeError(f"{name}: {text}")


def _watch_parent(fd: int) -> None:
    # The parent holds the only write end: end of file means it is gone.
    with contextlib.suppress(OSError):
        while os.read(fd, 1):
            pass
    os._exit(0)


def child_main(from_parent: int, to_parent: int, lifeline: int) -> None:
    """The child's loop: build a strategy per game, answer decisions, until end of file
    (or a pipe the strategy broke: the parent then records it)."""
    threading.Thread(target=_watch_parent, args=(lifeline,), daemon=True).start()
    with contextlib.suppress(OSError, EOFError):
        _serve_parent(from_parent, to_parent)
    os._exit(0)


def _serve_parent(from_parent: int, to_parent: int) -> None:
    recv = Connection(from_parent, writable=False)
    send = Connection(to_parent, readable=False)
    from sim.seeding import Stream, derive_seed

    def put(message: tuple[Any, ...]) -> None:
        send.send_bytes(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL))

    cache: dict[Any, Any] = {}

    def ask(request: tuple[Any, ...]) -> Any:
        key: Any = request
        try:
            hit = key in cache
        except TypeError:  # unhashable arguments
            key, hit = None, False
        if hit:
            return cache[key]
        put(request)
        reply = pickle.loads(recv.recv_bytes())
        if reply[0] == "error":
            _raise(reply[1], reply[2])
        value = reply[1]
        if key is not None and not isinstance(value, _MUTABLE):
            cache[key] = value
        return value

    strategy: Any = None
    view: Any = None
    view_classes: dict[tuple[tuple[str, str], ...], type] = {}
    while True:
        try:
            message = pickle.loads(recv.recv_bytes())
        except EOFError:
            return
        tag = message[0]
        if tag == "path":
            sys.path[:] = message[1]
        elif tag == "game":
            _, factory, seed, seat, members = message
            key = tuple(sorted(members.items()))
            if key not in view_classes:
                view_classes[key] = _remote_view_class(members, ask)
            view = view_classes[key]()
            strategy = None
            try:
                built = factory(Stream(derive_seed(seed, "seat", seat)))
                decide = getattr(built, "decide", None)
            except STRATEGY_FAILURES as exc:
                put(("failed", "<raised>", describe(exc)))
                continue
            if not callable(decide):
                put(("failed", describe(built), "no decide method"))
                continue
            strategy = built
            put(("built",))
        elif tag == "decide":
            cache.clear()
            put(_decide(strategy, view, message[1]))


def _decide(strategy: Any, view: Any, decision: Any) -> tuple[str, object]:
    """The child's reply to a decision: the answer if it is a plain value, else how it
    looks (illegal), or how the strategy failed."""
    try:
        answer = strategy.decide(view, decision)
    except STRATEGY_FAILURES as exc:
        return ("raised", describe(exc))
    if type(answer) is bool or is_plain(answer):
        # A game's kind members go as the ints they equal: the parent builds builtins only.
        return ("answer", plain_ints(answer))
    return ("illegal", describe(answer))
