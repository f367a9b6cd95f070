"""Ablations: the same rules without one of their parts, for counterfactual runs on the same
seeds (``simulate --ablate`` and ``--twin``, ``compare --ablate``, ``play --ablate``)."""

from __future__ import annotations

from typing import Any

from sim.errors import InputError
from sim.runner.games import kind_of


def ablated(rules: Any, name: str, label: str) -> Any:
    """``rules`` without one of their parts (the game's ablations, e.g. Tobago's curses or
    amulets); ``label`` starts the error message."""
    kind = kind_of(rules)
    if not kind.ablations:
        raise InputError(f"{label} {name}: {kind.title} has no ablations")
    if name not in kind.ablations:
        allowed = " or ".join(kind.ablations)
        raise InputError(f"{label} {name!r} is not allowed ({allowed})")
    return kind.with_overrides(rules, dict(kind.ablations[name]), f"{label} {name}")
