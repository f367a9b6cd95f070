"""The report's game-shape section: how a game feels, measured from its move logs, per set of
pooled runs and table size: lead changes per game, how often the leader at two thirds of the
game loses (the comeback rate), how early the winner is known, choices per decision, and the
scores of the winner and of the others through the game
(:mod:`pipelines.metrics.game_shape`, :mod:`pipelines.play.choices`); its ``game_shape``
records in ``report.json``.

Every figure stands with its 95% interval and the games behind it, and the words only
describe: no measure is compared with another, so nothing is claimed beyond its interval. A
set of runs that kept no move log (a compiled run) gets one sentence instead; so does a game
whose report part does not say how to read its scores from the move log (then only the
choices per decision are measured).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import duckdb
import pyarrow as pa

from pipelines.metrics import game_shape
from pipelines.play.choices import SAMPLE, choices_per_decision
from pipelines.report.data import CohortResult, ReportData
from pipelines.report.game_report import GameReport
from pipelines.report.run_groups import Cohort
from reports import figures, numbers
from reports.blocks import (
    Block,
    Brief,
    Figure,
    Folded,
    Paragraph,
    Section,
    Subheading,
    Table,
    col,
)

#: The tables of the section, in ``tables/`` and in a cohort's ``report.json`` rows.
TABLES = ("game_shape", "score_trajectory", "choices_per_decision")

#: What a set of runs without move logs is told.
NO_MOVE_LOG = (
    "Not measured: these games were played by the compiled engine, which writes the games "
    "and seats tables only, so the lead through a game and the choices at each decision are "
    "not known. Simulate with --engine reference for them."
)


def move_log_kept(cohort: Cohort) -> bool:
    """Whether every run of ``cohort`` kept its move log."""
    return all("moves" in run.tables for run in cohort.runs)


def no_scores(title: str) -> str:
    """What a game whose report part names no scores in its move log is told."""
    return (
        f"{title}'s report part does not say how to read its scores from the move log, so "
        "lead changes, comebacks, when the winner is known and the score trajectories are "
        "not measured."
    )


def cohort_tables(
    con: duckdb.DuckDBPyConnection, cohort: Cohort, report: GameReport, choice_games: int = SAMPLE
) -> dict[str, pa.Table]:
    """The section's tables of one cohort, choices counted in up to ``choice_games`` games
    per table size (none when 0): none without a move log."""
    if not move_log_kept(cohort):
        return {}
    tables: dict[str, pa.Table] = {}
    if report.score_events is not None:
        tables["game_shape"] = game_shape.shape_by_size(con, report.score_events)
        tables["score_trajectory"] = game_shape.trajectory(con, report.score_events)
    if choice_games:
        tables["choices_per_decision"], _ = choices_per_decision(con, cohort.runs, choice_games)
    return tables


def _measures(result: CohortResult, n: int) -> dict[str, dict[str, Any]]:
    return {r["measure"]: r for r in result.rows("game_shape") if r["n_players"] == n}


def _choices(result: CohortResult, n: int) -> dict[str, Any] | None:
    found = [r for r in result.rows("choices_per_decision") if r["n_players"] == n]
    return found[0] if found else None


def _mean(r: dict[str, Any], digits: int = 2) -> str:
    text = numbers.number(r["estimate"], digits)
    if r["low"] is None:
        return text
    return f"{text} {numbers.interval(r['low'], r['high'], scale=1.0, digits=digits)}"


def _share(r: dict[str, Any]) -> str:
    if r["low"] is None:
        return numbers.pct(r["estimate"])
    return f"{numbers.pct(r['estimate'])} {numbers.interval(r['low'], r['high'])}"


def _choice_words(c: dict[str, Any] | None) -> str:
    if c is None or c["mean"] is None:
        return ""
    r = {"estimate": c["mean"], "low": c["low"], "high": c["high"]}
    return (
        f" A decision offers {_mean(r, 1)} choices on average ({numbers.count(c['decisions'])} "
        f"decisions in {numbers.counted(c['games'], 'game')} played again)."
    )


def headline(result: CohortResult, n: int) -> str:
    """One table size's sentence: every measure with its interval and its games."""
    m = _measures(result, n)
    choices = _choice_words(_choices(result, n))
    if not m:
        return choices.strip()
    lead, back, tied, known = (m[k] for k in game_shape.MEASURES)
    return (
        f"At {n} players the lead changes {_mean(lead)} times a game "
        f"({numbers.counted(lead['games'], 'game')}). The leader after two thirds of the game "
        f"goes on to lose {_share(back)} of the {numbers.count(back['games'])} games that had "
        f"a sole leader then (a tie for the lead there in {_share(tied)}). The winner leads "
        f"alone to the end from {_share(known)} of the game's turns on average." + choices
    )


MEASURE_COLUMNS = [
    col("measure", "text", "what"),
    col("estimate [95% interval]", "text", "value"),
    col("games", "count"),
    col("seed blocks", "count", "blocks"),
]
WORDS = {
    "lead_changes": "lead changes per game",
    "comeback": "leader at two thirds loses (comeback rate)",
    "tied_at_two_thirds": "a tie for the lead at two thirds",
    "decided_at": "winner leads alone to the end from (share of the turns)",
}


def _table(result: CohortResult, n: int) -> Table:
    rows = []
    for name, r in _measures(result, n).items():
        value = _mean(r) if name == "lead_changes" else _share(r)
        rows.append({"what": WORDS[name], "value": value, "games": r["games"],
                     "blocks": r["blocks"]})  # fmt: skip
    c = _choices(result, n)
    if c is not None and c["mean"] is not None:
        value = _mean({"estimate": c["mean"], "low": c["low"], "high": c["high"]})
        rows.append({"what": "choices per decision (games played again)", "value": value,
                     "games": c["games"], "blocks": c["blocks"]})  # fmt: skip
    return Table.of(rows, MEASURE_COLUMNS)


def _figure(report: GameReport, result: CohortResult, n: int) -> Figure | None:
    rows = [r for r in result.rows("score_trajectory") if r["n_players"] == n]
    if not rows:
        return None
    games = max(int(r["games"]) for r in rows)
    return Figure(
        figures.score_trajectory(rows, report.score_unit, f"Scores through the game, {n} players"),
        f"Line chart of the eventual winner's mean score and the other seats' mean score after "
        f"each tenth of the game, {n} players, with 95% bands",
        f"Mean score in {report.score_unit} after each tenth of a game's turns: the eventual "
        f"winner and the mean of the other seats, over {numbers.count(games)} {n}-player games "
        "with a sole winner, with 95% bands over seed blocks. Games are read at tenths of "
        "their own length, so every game counts at every point.",
    )


#: What a cohort whose sampled games no longer replay as logged says instead.
REPLAY_FAILED = (
    "Choices per decision: the sampled games no longer replay as logged (the code or a "
    "strategy changed since the run), so they are not counted."
)

#: What a report made with ``--choices 0`` says instead of the choices per decision.
NOT_COUNTED = (
    "Choices per decision: not counted (the report was made with --choices 0: no game was "
    "played again)."
)


def _counted_in(choice_games: int) -> str:
    if not choice_games:
        return "Choices are not counted in this report (--choices 0)."
    return (
        f"Choices are counted in up to {numbers.count(choice_games)} games per table size, "
        "played again with their strategies (a search player's games cost as much as in the "
        "run: --choices sets how many)."
    )


def _cohort_blocks(report: GameReport, result: CohortResult, data: ReportData) -> list[Block]:
    label = f"{result.cohort.label} — " if len(data.cohorts) > 1 else ""
    if not move_log_kept(result.cohort):
        return [Subheading(f"{label}Game shape"), Paragraph(NO_MOVE_LOG, "note")]
    blocks: list[Block] = []
    sizes = sorted({int(r["n_players"]) for r in result.rows("win_rate_by_strategy")})
    for n in sizes:
        blocks.append(Subheading(f"{label}Game shape, {n} players"))
        said = headline(result, n)
        if said:
            blocks.append(Paragraph(said))
        # What describes is folded (the page stays a few screens long); the table is in the
        # summary all the same.
        figure = _figure(report, result, n)
        detail: list[Block] = [Brief((_table(result, n),))]
        what = "the measures"
        if figure is not None:
            detail.append(figure)
            what += " and the scores through the game (figure)"
        blocks.append(Folded(f"Game shape, {n} players: {what}", tuple(detail)))
    if report.score_events is None:
        blocks.append(Paragraph(no_scores(report.title), "note"))
    note = _choices_note(result, data.choice_games)
    if note is not None:
        blocks.append(Paragraph(note, "note"))
    return blocks


def section(
    report: GameReport, data: ReportData, primary: Callable[[CohortResult], bool]
) -> Section:
    """The game-shape section: per cohort and table size, the sentence, then folded the
    table of measures and the score trajectories; a cohort that is not ``primary`` (a
    pairing's B) folded whole."""
    blocks: list[Block] = []
    for result in data.cohorts:
        inner = _cohort_blocks(report, result, data)
        if primary(result):
            blocks += inner
        else:
            blocks.append(Folded(f"{result.cohort.label}: game shape", tuple(inner)))
    return Section(
        "game-shape",
        "Game shape",
        f"How a game feels, from the move logs: how often the lead changes, how often the "
        f"leader at two thirds of the game loses, how early the winner is known, how many "
        f"choices a decision offers and the scores through the game. {report.choices} "
        f"{_counted_in(data.choice_games)} The "
        f"other measures over every finished game up to {numbers.count(game_shape.MAX_GAMES)} "
        "games a cohort, and beyond that over every k-th batch of games, evenly through the "
        "run (each figure gives its games).",
        tuple(blocks),
    )


def _choices_note(result: CohortResult, choice_games: int) -> str | None:
    """Why a cohort's choices per decision are missing, or None."""
    if not choice_games:
        return NOT_COUNTED
    if not result.rows("choices_per_decision"):
        return REPLAY_FAILED
    return None


def _record(result: CohortResult, n: int, title: str, choice_games: int) -> dict[str, Any]:
    """One table size's ``report.json`` record."""
    keys = ("estimate", "low", "high", "games", "blocks")
    measures = {k: {f: r[f] for f in keys} for k, r in _measures(result, n).items()}
    points = [r for r in result.rows("score_trajectory") if r["n_players"] == n]
    along = ("point", "who", "mean", "low", "high", "games")
    choices = _choices(result, n)
    return {
        "cohort": result.cohort.index,
        "n_players": n,
        **measures,
        "choices_per_decision": None
        if choices is None
        else {k: v for k, v in choices.items() if k != "n_players"},
        "trajectory": [{k: r[k] for k in along} for r in points],
        "text": headline(result, n),
        "note": None if measures else no_scores(title),
        "choices_note": _choices_note(result, choice_games),
    }


def json_records(report: GameReport, data: ReportData) -> list[dict[str, Any]]:
    """``report.json``'s ``game_shape``: per cohort and table size, each measure (estimate,
    ``low``, ``high``, ``games``, ``blocks``), the choices per decision (and, when they are
    missing, why: ``choices_note``), the trajectory and the sentence; a cohort without a move
    log has ``n_players`` null and a ``note``."""
    out: list[dict[str, Any]] = []
    for result in data.cohorts:
        if not move_log_kept(result.cohort):
            out.append({"cohort": result.cohort.index, "n_players": None, "note": NO_MOVE_LOG})
            continue
        sizes = sorted({int(r["n_players"]) for r in result.rows("win_rate_by_strategy")})
        out += [_record(result, n, report.title, data.choice_games) for n in sizes]
    return out
