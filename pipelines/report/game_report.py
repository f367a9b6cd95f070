"""What a game gives the report: its :class:`GameReport` (its words, its extra tables,
findings, sections and headline clauses), named by the game's kind
(``GameKind.report``); :mod:`pipelines.report.common` does the rest the same way for every
game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import duckdb
import pyarrow as pa

from pipelines.report.data import Finding, ReportData
from pipelines.report.headline import GameClauses
from pipelines.report.run_groups import Cohort, Pairing
from reports.blocks import Section


@dataclass(frozen=True)
class GameReport:
    """One game's part of the report."""

    game: str
    title: str
    #: What a score counts (``coins``, ``points``).
    score_unit: str
    #: The game's own tables of one cohort, from a connection over its runs.
    compute: Callable[[duckdb.DuckDBPyConnection, Cohort], dict[str, pa.Table]]
    #: The game's own findings.
    findings: Callable[[ReportData], list[Finding]]
    #: The game's own sections, after the win rates: on the page, and in ``summary.md``
    #: their open content and brief parts.
    sections: Callable[[ReportData], list[Section]]
    #: ``report.json`` sections of a cohort: section -> table names (after ``win_rate``).
    json_sections: dict[str, list[str]]
    #: The game's clauses of the headline (:data:`pipelines.report.headline.GameClauses`), if any.
    headline: GameClauses | None = None
    #: Notes on the game's figures that hold for the whole page (said once, folded).
    notes: tuple[str, ...] = ()
    #: Games of a pairing worth looking at (columns of ``win_rate.notable_games``), from a
    #: connection over its two runs (A is run 0), or None when the game looks for none.
    pair_notable: Callable[[duckdb.DuckDBPyConnection, Pairing], pa.Table] | None = None
    #: Each seat's score through a game, for the game shape
    #: (:mod:`pipelines.metrics.game_shape`): a SELECT over the connection's views with the
    #: columns ``run, game_id, turn, seat, score`` (a seat's score after the turn, at least
    #: for every turn in which it changed), or None when the game's move log does not say.
    score_events: str | None = None
    #: What one choice is at the game's decisions, said beside the choices per decision.
    choices: str = ""
