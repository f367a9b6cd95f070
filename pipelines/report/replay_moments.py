"""The moment of a notable game that its replay link opens at (``page.html#step=N``).

A replay page's step ``N`` is the game after its first ``N`` move-log rows: row ``N - 1``
(its ``ply`` in the ``moves`` table) is the event the page marks as current, so a link to
the event at ply ``p`` carries ``#step=p+1``. Per kind of notable game
(:mod:`pipelines.report.games`):

- a kind a game declares with its event (:class:`sim.game.NotableGame`; Tobago: a curse
  that changed the winner, at ``curse_hit``): that event on the notable seat (Tobago: the
  one that wins the deal without curses), the one that cost it most, then the first;
- the biggest upset: the decisive moment, the step from which the winner leads alone to the
  end (in Tobago, a treasure distribution);
- the longest game and a game cut off (turn cap, deadlock, time limit): the game's end;
- a strategy's first failure: the row that records it (``violation``), else the seat's
  first row of that turn.

Computed from the recorded replay document (its events and per-step state), so the page and
the link agree by construction.
"""

from __future__ import annotations

from typing import Any

#: Kinds whose moment is the game's end.
END_KINDS = frozenset({"longest", "turn_cap", "deadlock", "timeout"})
#: The snapshot keys that hold the seats' running scores (Tobago, Treasure Island).
SCORE_KEYS = ("scores", "points")


def moment(
    kind: str, doc: dict[str, Any], seat: int = -1, turn: int = -1, event: str | None = None
) -> int | None:
    """The step of ``doc`` (a replay document) that a link to a game of ``kind`` opens at;
    ``seat`` is the seat the kind is about (the curse's victim, the failing strategy's,
    0-based), ``turn`` the failure's turn, -1 for none, and ``event`` the move-log event the
    game declares for the kind. None when the game has no such moment (the page opens at its
    start)."""
    events: list[dict[str, Any]] = doc["events"]
    if kind == "strategy_failure":
        mine = [k for k, e in enumerate(events) if (e["turn"], e["seat"]) == (turn, seat)]
        flagged = [k for k in mine if events[k]["name"] == "violation"]
        at = flagged or mine
        return at[0] + 1 if at else None
    if event is not None:
        scores = running_scores(doc)
        hits = [k for k, e in enumerate(events) if e["name"] == event and e["seat"] == seat]
        if not hits:
            return None
        # The hit that cost the seat most (its score's drop over the step), then the first.
        lost = [scores[k][seat] - scores[k + 1][seat] if scores else 0 for k in hits]
        return hits[lost.index(max(lost))] + 1
    if kind == "upset":
        return decisive_step(doc)
    if kind in END_KINDS:
        return end_step(events)
    return None


def end_step(events: list[dict[str, Any]]) -> int:
    """The step of the game's end: its ``game_end`` row, else its last row."""
    ends = [k for k, e in enumerate(events) if e["name"] == "game_end"]
    return (ends[-1] if ends else len(events) - 1) + 1


def decisive_step(doc: dict[str, Any]) -> int | None:
    """The first step from which the sole winner's running score stays strictly above every
    other seat's to the end; None without running scores or a sole winner ahead at the end."""
    winners = [s for s, rank in enumerate(doc["ranks"]) if rank == 1]
    steps = running_scores(doc)
    if len(winners) != 1 or not steps:
        return None
    (winner,) = winners
    ahead = [
        all(scores[winner] > v for s, v in enumerate(scores) if s != winner) for scores in steps
    ]
    if not ahead or not ahead[-1]:
        return None
    step = len(ahead) - 1
    while step > 0 and ahead[step - 1]:
        step -= 1
    return step


def running_scores(doc: dict[str, Any]) -> list[list[int]]:
    """Every step's scores by seat, from the frames' differences; [] for a game whose
    snapshot has none of :data:`SCORE_KEYS`."""
    state: dict[str, Any] = {}
    out: list[list[int]] = []
    for frame in doc["frames"]:
        state.update(frame)
        scores = next((state[k] for k in SCORE_KEYS if k in state), None)
        if scores is None:
            return []
        out.append([int(v) for v in scores])
    return out
