"""Sealed views: the window a plug-in strategy gets on a game, with no attribute leading to it.

A game's :class:`PlayerView` reads the live game through a slot (fast: the built-in
strategies make millions of such reads). A plug-in gets a *sealed* view instead: an object
with the same public properties and methods, generated from the view class, that forwards
each of them to the inner view. The inner view sits in a slot whose descriptor is removed
from the sealed class, so no attribute of the sealed view (``dir``, ``vars``, ``getattr``,
``__slots__``, pickling, copying) reaches the inner view, the game or its state; everything
the view returns is an int, a string, an immutable object or a fresh copy.

What this cannot do: Python has no private memory. Code running in the engine's process can
still reach the game deliberately, through frames (``sys._getframe``), the garbage collector
(``gc.get_referrers``) or the internals of functions (``__globals__``, ``__closure__``). The
audit mode (:mod:`sim.guard`, :mod:`sim.codewatch`) detects any change such code makes to a
game or to the engine's and other players' code; reading hidden information that way cannot
be detected in-process, and only isolation (:mod:`sim.isolate`: the plug-in in its own
process) prevents it (see docs/trust.md).

Which strategies are trusted with the direct view: exactly the built-in classes, registered
by :mod:`strategies.registry` with :func:`trust` (a subclass of one is a plug-in).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Strategy classes (exact types) that get the direct view (engines test membership directly:
#: it is on the path of every game's construction).
TRUSTED: set[type] = set()


def trust(*classes: type) -> None:
    """Give strategies of exactly these classes the direct view (the built-in players)."""
    TRUSTED.update(classes)


def _forward_property(name: str, inner: Callable[[Any], Any], doc: str | None) -> property:
    def get(self: Any) -> Any:
        return getattr(inner(self), name)

    get.__name__ = name
    return property(get, doc=doc)


def _forward_method(name: str, inner: Callable[[Any], Any], doc: str | None) -> Any:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(inner(self), name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = doc
    return method


def sealed_class(view_class: type, name: str) -> Callable[[Any], Any]:
    """A constructor ``seal(view) -> sealed view`` for views of ``view_class``: a class named
    ``name`` with every public property, method and slot of ``view_class`` forwarded, read-only,
    to the wrapped view."""
    namespace: dict[str, Any] = {"__slots__": ("_inner",), "__module__": view_class.__module__}
    namespace["__doc__"] = (
        f"A plug-in's view: the public interface of :class:`{view_class.__name__}`, read-only, "
        "with no attribute leading to the game."
    )
    cls = type(name, (), namespace)
    descriptor = cls.__dict__["_inner"]
    inner: Callable[[Any], Any] = descriptor.__get__
    set_inner = descriptor.__set__
    members: dict[str, Any] = {}
    for klass in reversed(view_class.__mro__[:-1]):
        members.update(vars(klass))
    public = [k for k in members if not k.startswith("_")]
    for key in public:
        member = members[key]
        if isinstance(member, property) or type(member).__name__ == "member_descriptor":
            setattr(cls, key, _forward_property(key, inner, getattr(member, "__doc__", None)))
        elif callable(member):
            setattr(cls, key, _forward_method(key, inner, getattr(member, "__doc__", None)))

    def refuse_set(self: Any, key: str, value: Any) -> None:
        raise AttributeError(f"a view is read-only (cannot set {key!r})")

    def refuse_reduce(self: Any) -> Any:
        raise TypeError("a view cannot be pickled or copied")

    def show(self: Any) -> str:
        return f"<{name} of seat {inner(self).seat}>"

    cls.__setattr__ = refuse_set  # type: ignore[assignment]
    cls.__delattr__ = refuse_set  # type: ignore[assignment]

    def reduce_ex(self: Any, protocol: object) -> Any:
        return refuse_reduce(self)

    cls.__reduce_ex__ = reduce_ex  # type: ignore[assignment]
    cls.__repr__ = show  # type: ignore[assignment]
    # The slot stays in the instances; only the functions above (through ``inner``) read it.
    del cls._inner  # type: ignore[attr-defined]

    def seal(view: Any) -> Any:
        sealed: Any = object.__new__(cls)
        set_inner(sealed, view)
        return sealed

    seal.sealed_type = cls  # type: ignore[attr-defined]
    return seal
