"""Ablations: the same rules without one of their parts, for counterfactual runs on the same
seeds (``simulate --ablate`` and ``--twin``, ``compare --ablate``, ``play --ablate``)."""

from __future__ import annotations

from typing import Any

from sim.errors import InputError
from sim.runner.games import kind_of

#: What each ablation takes away: rules keys set to 0.
ABLATIONS: dict[str, dict[str, int]] = {
    "curses": {"curse_count": 0},
    "amulets": {"amulet_count": 0},
}


def ablated(rules: Any, name: str, label: str) -> Any:
    """``rules`` without curses or without amulets; ``label`` starts the error message."""
    if name not in ABLATIONS:
        raise InputError(f"{label} {name!r} is not allowed (curses or amulets)")
    kind = kind_of(rules)
    if not kind.boards:
        raise InputError(f"{label} {name}: ablations are for Tobago, not {kind.title}")
    return kind.with_overrides(rules, ABLATIONS[name], f"{label} {name}")
