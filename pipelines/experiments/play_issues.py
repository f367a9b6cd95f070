"""What could make a figure of games played on the fly wrong (``compare``, ``sweep``): games
that did not end naturally, by reason, and strategy failures, counted as they are played and
said in words before the figures."""

from __future__ import annotations

from collections.abc import Mapping

from reports import numbers
from sim.outcome import UNFINISHED

#: What is counted: every end reason that is not the natural one, then strategy failures.
ISSUES = (*UNFINISHED, "strategy_failures")

_WORDS = {
    "turn_cap": "stopped at the turn cap (counted with their length and the leader's win)",
    "deadlock": "ended in a deadlock",
    "timeout": "ended when a decision ran past the time limit",
}


def count(end_reason: str, violations: int, counts: dict[str, int]) -> None:
    """Add a played game (its end reason and its strategy failures) to ``counts`` (keys:
    ISSUES)."""
    if end_reason in UNFINISHED:
        counts[end_reason] += 1
    counts["strategy_failures"] += violations


def sentences(counts: Mapping[str, int], games: int, whose: str, where: str) -> list[str]:
    """One sentence per issue counted: ``{n} of {games} games {whose}stopped ...`` and the
    decisions that were strategy failures ``{where}`` (e.g. "in B's games")."""
    out = [
        f"{numbers.count(counts[reason])} of {numbers.count(games)} games {whose}{text}"
        for reason, text in _WORDS.items()
        if counts[reason]
    ]
    if counts["strategy_failures"]:
        out.append(
            f"{numbers.count(counts['strategy_failures'])} decisions {where}were strategy "
            "failures (a strategy crashed or answered illegally, and the fallback played "
            "instead): the figures measure the fallback too"
        )
    return out
