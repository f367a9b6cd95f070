"""What a report knows before it is written: the runs' cohorts and pairings, every cohort's
and pairing's metric tables, the warnings and the findings.

Plain data shared by the metric step, the findings, the warnings and the pages of every game.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import pyarrow as pa

from pipelines.metrics.source import RunInfo
from pipelines.report.run_groups import Cohort, Groups, Pairing
from reports import numbers


@dataclass(frozen=True)
class Finding:
    """One answer in plain language with the numbers behind it.

    ``metric`` names what was estimated, ``group`` for whom (a strategy, a player count, an
    island), ``estimate`` with its 95% interval ``low``..``high`` over ``n`` games (or
    seats, draws: the unit the text names). ``scope`` says which cohort (``cohort:K``) or
    pairing (``pairing:K``) it comes from."""

    metric: str
    group: str
    estimate: float
    low: float
    high: float
    n: int
    text: str
    scope: str = ""
    #: Beside "no clear difference": the smallest effect the run could have detected with
    #: 80% power (two-sided 5%, in the estimate's units), and the games a run like it needs
    #: for ``effect_for_games`` (half of it). None where nothing is said of power.
    detectable_effect: float | None = None
    games_for_effect: int | None = None
    effect_for_games: float | None = None

    def record(self, scope_label: str = "") -> dict[str, Any]:
        """As JSON (with what the scope is called): numbers that are not finite become
        null."""
        out = asdict(self)
        out["scope_label"] = scope_label
        for key in ("estimate", "low", "high"):
            value = out[key]
            if isinstance(value, float) and not math.isfinite(value):
                out[key] = None
        return out


@dataclass(frozen=True)
class RunWarning:
    """Something that could make a figure wrong, said before any figure: which run, what,
    how often, and a command that shows one affected game."""

    kind: str
    run: str
    text: str
    command: str = ""
    details: tuple[dict[str, Any], ...] = ()

    def record(self) -> dict[str, Any]:
        out = asdict(self)
        out["details"] = list(self.details)
        return out


@dataclass
class CohortResult:
    """A cohort and its metric tables."""

    cohort: Cohort
    tables: dict[str, pa.Table]

    def rows(self, name: str) -> list[dict[str, Any]]:
        table = self.tables.get(name)
        return [] if table is None else list(table.to_pylist())


@dataclass
class PairResult:
    """A pairing and its paired differences (``pipelines.metrics.paired``)."""

    pairing: Pairing
    differences: pa.Table
    unpaired: tuple[int, int]
    #: Seed-matched games left out because they did not end naturally in A only, in B only
    #: and in both (:func:`pipelines.metrics.paired.left_out_unfinished`).
    unfinished: tuple[int, int, int] = (0, 0, 0)
    #: Games of the pairing worth looking at (``win_rate.notable_games``' columns; ``run`` 0
    #: is A, 1 is B), when the game's report looks for any.
    notable: pa.Table | None = None

    def rows(self, metric: str) -> list[dict[str, Any]]:
        return [r for r in self.differences.to_pylist() if r["metric"] == metric]

    def unfinished_counts(self) -> dict[str, int]:
        """:attr:`unfinished` by where the games did not end naturally: ``a``, ``b``, ``both``."""
        return dict(zip(("a", "b", "both"), self.unfinished, strict=True))

    def left_out(self) -> str:
        """A sentence on the games :attr:`unfinished` left out of the pairing ("" if none)."""
        a, b, both = self.unfinished
        total = a + b + both
        if not total:
            return ""
        games = "seed-matched game is" if total == 1 else "seed-matched games are"
        return (
            f"{numbers.count(total)} {games} left out of this pairing because "
            f"{'it' if total == 1 else 'they'} did not end naturally (the turn cap or a "
            "deadlock) in A only "
            f"({numbers.count(a)}), in B only ({numbers.count(b)}) or in both "
            f"({numbers.count(both)}): its figures describe only the games that ended in both "
            "runs, which hides whatever the change does to whether games end (report with "
            "--include-unfinished to pair every game)."
        )

    def notable_rows(self) -> list[dict[str, Any]]:
        return [] if self.notable is None else list(self.notable.to_pylist())


@dataclass(frozen=True)
class GameToSee:
    """A game a report points to: what makes it notable, where it is, the command that plays
    it again, and its replay page (a path relative to the report) or why it has none."""

    kind: str
    n_players: int
    text: str
    run: RunInfo
    game_id: int
    command: str
    #: The page's file name under ``games/``.
    name: str
    page: str = ""
    note: str = ""
    #: The seat the game is notable for (a curse's victim, 0-based), -1 for none.
    seat: int = -1
    #: The turn the game is notable for (a strategy's failure), -1 for none.
    turn: int = -1
    #: The replay page's step the link opens at (:mod:`pipelines.report.replay_moments`).
    step: int | None = None

    @property
    def link(self) -> str:
        """The page's address relative to the report, at its step (``#step=N``)."""
        if not self.page:
            return ""
        return self.page + ("" if self.step is None else f"#step={self.step}")

    def record(self) -> dict[str, Any]:
        """As JSON."""
        return {
            "kind": self.kind,
            "n_players": self.n_players,
            "run": self.run.where,
            "game_id": self.game_id,
            "text": self.text,
            "command": self.command,
            "page": self.page or None,
            "step": self.step,
            "note": self.note or None,
        }


@dataclass
class ReportData:
    """Everything a page is written from."""

    game: str
    groups: Groups
    cohorts: list[CohortResult]
    pairs: list[PairResult]
    games: int
    complete: bool
    include_unfinished: bool
    warnings: list[RunWarning] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    #: One to three sentences on top of the report (:mod:`pipelines.report.headline`).
    headline: list[str] = field(default_factory=list)
    #: The games the report points to (``pipelines.report.games``).
    look_at: list[GameToSee] = field(default_factory=list)
    #: Games played again per table size to count choices per decision (0: not counted).
    choice_games: int = 0


#: The kind of game to look at that each kind of warning is about.
WARNED_GAMES = {"strategy_failures": "strategy_failure"}


def warning_link(warning: RunWarning, games: list[GameToSee]) -> str:
    """The replay page a warning links to, at its moment: the game its command replays, of
    the warning's own kind when there are several (a game cut off at the turn cap and a
    strategy's first failure can be the same game, opened at different steps); "" if none."""
    same = [g for g in games if g.page and g.command == warning.command]
    kind = WARNED_GAMES.get(warning.kind, warning.kind)
    mine = [g for g in same if g.kind == kind] or same
    return mine[0].link if mine else ""
