"""What every game's report shares: computing the common tables of each cohort and the paired
differences of each pairing, the warnings and findings, writing the tables, and assembling
``report.json``, ``summary.md`` and ``index.html`` in one layout from a game's own parts.

A game's report is a :class:`GameReport` (its words, its extra tables, findings, sections and
Markdown); :func:`write_report` does the rest the same way for every game. The page opens
with what was played, then the warnings (anything that could make a figure wrong), then the
findings, then one section per question.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.csv as pacsv

from pipelines import findings as common_findings
from pipelines.metrics import gaps, paired, rating, win_rate
from pipelines.metrics.source import RunInfo, connect
from pipelines.report_data import (
    CohortResult,
    Finding,
    PairResult,
    ReportData,
    RunWarning,
    warning_link,
)
from pipelines.report_files import replace_previous
from pipelines.report_gaps import GAP_NOTE, gap_rows, gap_table
from pipelines.run_groups import (
    Cohort,
    Groups,
    Pairing,
    group_runs,
    lineup_shape,
    rules_name,
    run_label,
)
from pipelines.run_warnings import run_warnings
from reports import documents, figures, numbers
from reports.documents import Column, Section, col
from sim.runner.shard import write_part


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
    #: The game's own sections of the page, after the win rates.
    sections: Callable[[ReportData], list[Section]]
    #: The game's own parts of ``summary.md``.
    markdown: Callable[[ReportData], list[str]]
    #: ``report.json`` sections of a cohort: section -> table names (after ``win_rate``).
    json_sections: dict[str, list[str]]
    #: Games of a pairing worth looking at (columns of ``win_rate.notable_games``), from a
    #: connection over its two runs (A is run 0), or None when the game looks for none.
    pair_notable: Callable[[duckdb.DuckDBPyConnection, Pairing], pa.Table] | None = None


@dataclass
class ReportOutput:
    """Where the report went and what it holds."""

    out_dir: Path
    files: list[Path]
    games: int
    complete: bool
    warnings: int
    #: Files the last report listed but that changed since it wrote them (or that no report
    #: wrote): left in place.
    kept: list[str] = field(default_factory=list)


COMMON_TABLES = [
    "win_rate_by_strategy",
    "strategy_gaps",
    "win_rate_by_seat",
    "win_rate_by_strategy_seat",
    "win_rate_by_opponents",
    "head_to_head",
    "ratings",
    "score_distribution",
    "game_length",
    "notable_games",
]


def common_tables(con: duckdb.DuckDBPyConnection) -> dict[str, pa.Table]:
    """The metric tables every game has: win rates, ratings, scores, length."""
    by_strategy = win_rate.by_strategy(con)
    return {
        "win_rate_by_strategy": by_strategy,
        "strategy_gaps": gaps.adjacent_gaps(con, by_strategy),
        "win_rate_by_seat": win_rate.by_seat(con),
        "win_rate_by_strategy_seat": win_rate.by_strategy_seat(con),
        "win_rate_by_opponents": win_rate.by_opponents(con),
        "head_to_head": win_rate.head_to_head(con),
        "ratings": rating.plackett_luce(con),
        "score_distribution": con.sql(
            """SELECT g.n_players, s.strategy::VARCHAR AS strategy, s.score,
                      count(*)::BIGINT AS seats
               FROM seats s JOIN games g USING (run, game_id)
               GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"""
        ).to_arrow_table(),
        "game_length": win_rate.game_length(con),
        "notable_games": win_rate.notable_games(con),
    }


def compute(
    report: GameReport,
    runs: list[RunInfo],
    include_unfinished: bool,
    allow_mixed_code: bool = False,
) -> ReportData:
    """Group the runs (runs of different code only with ``allow_mixed_code``, each code a
    cohort of its own), compute every cohort's and pairing's tables, the warnings and the
    findings."""
    groups = group_runs(runs, allow_mixed_code)
    cohorts = []
    for cohort in groups.cohorts:
        with connect(list(cohort.runs), include_unfinished) as con:
            tables = common_tables(con)
            tables.update(report.compute(con, cohort))
        cohorts.append(CohortResult(cohort, tables))
    pairs = []
    for pairing in groups.pairings:
        with connect([pairing.a, pairing.b], include_unfinished) as con:
            notable = report.pair_notable(con, pairing) if report.pair_notable else None
            pairs.append(
                PairResult(
                    pairing,
                    paired.differences(con),
                    paired.unpaired_games(con),
                    paired.left_out_unfinished(con),
                    notable,
                )
            )
    with connect(list(runs), include_unfinished) as con:
        warnings = run_warnings(con, groups, include_unfinished)
        games = int(con.sql("SELECT count(*) FROM games_all").fetchall()[0][0])
    for pair in pairs:  # a pairing blind to what its change does to whether games end
        if pair.left_out():
            warnings.append(
                RunWarning(
                    kind="pairs_left_out",
                    run=pair.pairing.title,
                    text=f"Paired comparison ({pair.pairing.title}): {pair.left_out()}",
                    details=(pair.unfinished_counts(),),
                )
            )
    data = ReportData(
        game=report.game,
        groups=groups,
        cohorts=cohorts,
        pairs=pairs,
        games=games,
        complete=all(r.complete for r in runs),
        include_unfinished=include_unfinished,
        warnings=warnings,
    )
    found: list[Finding] = []
    for result in cohorts:
        found += common_findings.strategy_findings(result)
        found += common_findings.gap_findings(result)
        found += common_findings.first_seat_findings(result)
        found += common_findings.other_seat_findings(result)
    found += report.findings(data)
    for result in cohorts:
        found += common_findings.length_findings(result)
    for pair in pairs:
        found += common_findings.pair_findings(pair)
    order = [f"cohort:{c.cohort.index}" for c in cohorts] + [
        f"pairing:{p.pairing.index}" for p in pairs
    ]
    found.sort(key=lambda f: order.index(f.scope) if f.scope in order else len(order))
    data.findings = found
    return data


# -- tables -------------------------------------------------------------------------------


def _tagged(table: pa.Table, name: str, value: int) -> pa.Table:
    return table.add_column(0, name, pa.array([value] * table.num_rows, pa.int32()))


def _concat(tables: list[pa.Table]) -> pa.Table:
    return pa.concat_tables(tables, promote_options="permissive")


def _write_table(table: pa.Table, path: Path) -> None:
    if path.suffix == ".parquet":
        write_part(table, path)
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    pacsv.write_csv(table, tmp)
    os.replace(tmp, path)


def all_tables(data: ReportData) -> dict[str, pa.Table]:
    """Every metric table, the cohorts' stacked with a ``cohort`` column and the pairings'
    with a ``comparison`` column."""
    names: list[str] = []
    for result in data.cohorts:
        names += [n for n in result.tables if n not in names]
    out = {
        name: _concat(
            [
                _tagged(r.tables[name], "cohort", r.cohort.index)
                for r in data.cohorts
                if name in r.tables
            ]
        )
        for name in names
    }
    if data.pairs:
        out["paired_differences"] = _concat(
            [_tagged(p.differences, "comparison", p.pairing.index) for p in data.pairs]
        )
    return out


def write_tables(tables: dict[str, pa.Table], out_dir: Path) -> list[Path]:
    """Every metric table as Parquet and CSV under ``out_dir/tables``."""
    (out_dir / "tables").mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    for name, table in tables.items():
        for suffix in (".parquet", ".csv"):
            path = out_dir / "tables" / f"{name}{suffix}"
            _write_table(table, path)
            files.append(path)
    return files


# -- report.json ----------------------------------------------------------------------------


def _runs_json(groups: Groups) -> list[dict[str, Any]]:
    out = []
    for run in groups.runs:
        spec = run.manifest["spec"]
        out.append(
            {
                "path": run.where,
                "label": run_label(run),
                "game": run.game,
                "rules": rules_name(run),
                "rules_hash": spec.get("rules_hash"),
                "players": list(spec["players"]),
                "pool": spec.get("pool"),
                "table_sizes": spec.get("table_sizes"),
                "seed": spec.get("seed"),
                "games": spec.get("games"),
                "games_per_size": spec.get("games_per_size"),
                "run_id": run.manifest.get("run_id"),
                "complete": run.complete,
                "cohort": groups.cohort_of(run).index,
            }
        )
    return out


def report_json(report: GameReport, data: ReportData) -> dict[str, Any]:
    """The machine-readable report."""
    sections = {"win_rate": COMMON_TABLES, **report.json_sections}
    labels = scope_labels(data)
    return {
        "report": "tourney",
        "game": data.game,
        "runs": _runs_json(data.groups),
        "complete": data.complete,
        "games": data.games,
        "include_unfinished": data.include_unfinished,
        "warnings": [w.record() for w in data.warnings],
        "findings": [f.record(labels.get(f.scope, "")) for f in data.findings],
        "games_to_look_at": [g.record() for g in data.look_at],
        "gaps": [
            {"cohort": r.cohort.index, **g} for r in data.cohorts for g in r.rows("strategy_gaps")
        ],
        "cohorts": [
            {
                "index": r.cohort.index,
                "label": r.cohort.label,
                "runs": [x.where for x in r.cohort.runs],
                "rules": r.cohort.rules,
                "players": list(r.cohort.players),
                "table_sizes": list(r.cohort.table_sizes),
                "sections": {
                    key: {n: r.rows(n) for n in names if n in r.tables}
                    for key, names in sections.items()
                },
            }
            for r in data.cohorts
        ],
        "comparisons": [
            {
                "index": p.pairing.index,
                "title": p.pairing.title,
                "label": p.pairing.label,
                "factor": p.pairing.factor,
                "a": p.pairing.a.where,
                "b": p.pairing.b.where,
                "changes": list(p.pairing.changes),
                "unpaired_games": {"a": p.unpaired[0], "b": p.unpaired[1]},
                "left_out_unfinished": p.unfinished_counts(),
                "differences": p.differences.to_pylist(),
            }
            for p in data.pairs
        ],
    }


# -- the page -------------------------------------------------------------------------------


def cohort_heading(result: CohortResult, data: ReportData, n: int | None = None) -> str:
    """A sub-heading naming the cohort (when there are several) and the player count."""
    parts = []
    if len(data.cohorts) > 1:
        parts.append(result.cohort.label)
    if n is not None:
        parts.append(f"{n} players")
    return documents.subheading(" — ".join(parts)) if parts else ""


def player_counts(result: CohortResult) -> list[int]:
    return sorted({int(r["n_players"]) for r in result.rows("win_rate_by_strategy")})


WIN_COLUMNS = [
    col("strategy", "text"),
    col("games", "count", "seats"),
    col("win share [95% interval]", "share_ci", "win_share", "low", "high"),
    col("fair share", "pct", "fair_share"),
    col("mean score [95% interval]", "mean_ci", "mean_score", "score_low", "score_high"),
]
SEAT_COLUMNS = [
    col("seat", "text", "seat_label"),
    col("games", "count", "games"),
    col("win share [95% interval]", "share_ci", "win_share", "low", "high"),
    col("advantage, points [95% interval]", "points_ci", "advantage", "advantage_low",
        "advantage_high"),
]  # fmt: skip
RATING_COLUMNS = [
    col("strategy", "text"),
    col("rating (Elo scale)", "signed_ci", "rating", "low", "high"),
    col("games (every table size)", "count", "games"),
]
H2H_COLUMNS = [
    col("strategy", "text"),
    col("opponent", "text"),
    col("meetings", "count"),
    col("finishes ahead [95% interval]", "share_ci", "ahead", "low", "high"),
]
OPPONENT_COLUMNS = [
    col("strategy", "text"),
    col("opponents", "text"),
    col("games", "count", "seats"),
    col("win share [95% interval]", "share_ci", "win_share", "low", "high"),
]
LENGTH_COLUMNS = [
    col("players", "text", "n_players"),
    col("games", "count"),
    col("finished", "count"),
    col("in the figures", "count", "reported"),
    col("mean turns [95% interval]", "mean_ci", "mean_turns", "low", "high"),
    col("sd", "num1", "sd_turns"),
    col("min", "count", "min_turns"),
    col("max", "count", "max_turns"),
    col("turn cap", "count", "turn_cap"),
    col("deadlock", "count"),
    col("time limit", "count", "timeout"),
]


def _seat_rows(result: CohortResult, n: int) -> list[dict[str, Any]]:
    rows = [dict(r) for r in result.rows("win_rate_by_seat") if r["n_players"] == n]
    for r in rows:
        r["seat_label"] = f"{int(r['seat']) + 1}" + (" (first)" if r["seat"] == 0 else "")
    return rows


def win_rate_section(report: GameReport, data: ReportData) -> Section:
    """Win shares per cohort and player count, seats, ratings, head to head, length."""
    body = []
    doc = documents
    for result in data.cohorts:
        for n in player_counts(result):
            rows = [r for r in result.rows("win_rate_by_strategy") if r["n_players"] == n]
            fair = 1 / n
            games = sum(int(r["seats"]) for r in rows) // max(1, n)
            body.append(cohort_heading(result, data, n))
            body.append(
                doc.figure(
                    figures.win_share_bars(rows, fair, f"Win share by strategy, {n} players"),
                    f"Bar chart of each strategy's win share in {n}-player games with 95% "
                    "intervals and the fair share line",
                    f"Share of games each strategy won (ties split), best first, over "
                    f"{numbers.count(games)} {n}-player games; whiskers are 95% intervals that "
                    "treat each seed block as one observation; the dashed line is the fair "
                    f"share {numbers.pct(fair, 0)}.",
                )
            )
            body.append(doc.html_table(sorted(rows, key=lambda r: -r["win_share"]), WIN_COLUMNS))
            body.append(gap_table(result, n))
            seat_rows = [r for r in result.rows("win_rate_by_strategy_seat") if r["n_players"] == n]
            body.append(
                doc.figure(
                    figures.seat_shares(seat_rows, fair, f"Win share by seat, {n} players"),
                    f"Line chart of each strategy's win share from each seat, {n} players",
                    "Each strategy's win share from each seat (1 = first to play) with 95% "
                    "intervals; lines above the dashed fair share mean the seat helps.",
                )
            )
            body.append(doc.html_table(_seat_rows(result, n), SEAT_COLUMNS))
        body.append(
            doc.subheading("Ratings")
            + doc.paragraph(
                "Plackett-Luce ratings fitted by maximum likelihood to every game's finishing "
                "order, all table sizes at once (Elo scale, pool mean 0: 100 points apart means "
                "the stronger is chosen first 64% of the time in a head-to-head); 95% intervals "
                "by a bootstrap over chunks of whole seed blocks."
            )
            + doc.html_table(result.rows("ratings"), RATING_COLUMNS)
        )
        for n in player_counts(result):
            rows = [r for r in result.rows("score_distribution") if r["n_players"] == n]
            body.append(
                doc.figure(
                    figures.score_distribution(
                        rows, report.score_unit, f"Final scores, {n} players"
                    ),
                    f"Step histograms of final scores per strategy, {n} players",
                    f"Distribution of each strategy's final score in {report.score_unit} "
                    f"({n}-player games), each strategy normalised to its own games.",
                )
            )
        h2h = result.rows("head_to_head")
        for n in player_counts(result):
            pairs = [r for r in h2h if r["n_players"] == n]
            if len({r["strategy"] for r in pairs}) < 2:
                continue
            body.append(
                doc.figure(
                    figures.matrix(
                        pairs,
                        "strategy",
                        "opponent",
                        "ahead",
                        f"Head to head, {n} players",
                        "finishes ahead of the opponent",
                    ),
                    f"Matrix of how often each strategy finished ahead of each other one in "
                    f"{n}-player games",
                    f"Row strategy against column opponent: the share of the {n}-player games "
                    "they played together in which the row finished ahead (a tie counts a "
                    "half); above 50% (blue) the row does better. Intervals are in the table "
                    "below.",
                )
            )
        body.append(
            doc.folded(
                f"Head to head: how often each strategy finished ahead of each other "
                f"({len(h2h)} pairs)",
                doc.html_table(h2h, [col("players", "text", "n_players"), *H2H_COLUMNS]),
            )
        )
        opp = result.rows("win_rate_by_opponents")
        body.append(
            doc.folded(
                f"Win share by opponent mix ({len(opp)} rows)",
                doc.html_table(opp, [col("players", "text", "n_players"), *OPPONENT_COLUMNS]),
            )
        )
        body.append(
            doc.subheading("Game length")
            + doc.html_table(result.rows("game_length"), LENGTH_COLUMNS)
        )
    return Section(
        "win-rate",
        "Win rate",
        "Who wins, per player count: each strategy's share of the games it played, from each "
        "seat, its rating, and how long games last. Only games that reached their natural end "
        "count.",
        "".join(body),
    )


PAIR_COLUMNS = [
    col("strategy", "text", "group"),
    col("games paired", "count", "pairs"),
    col("win share B - A, points [95% interval]", "points_ci_blocks", "estimate", "low", "high"),
]
PAIR_SCORE_COLUMNS = [
    col("strategy", "text", "group"),
    col("games paired", "count", "pairs"),
    col("mean score B - A [95% interval]", "signed_ci_blocks", "estimate", "low", "high"),
]


def pair_body(pair: PairResult, unit: str) -> str:
    """One pairing: its label, the paired differences figure and tables."""
    doc = documents
    p = pair.pairing
    wins = pair.rows("win_share")
    table_rows = pair.rows("first_seat") + pair.rows("turns")
    changes = "; ".join(p.changes) if p.changes else "nothing recorded"
    # A difference over too few seed blocks has no interval to draw (the table says so).
    bounded = [{**r, "label": r["group"]} for r in wins if r["low"] is not None]
    parts = [doc.paragraph(f"{p.sign}. What differs: {changes}.")]
    if bounded:
        parts.append(
            doc.figure(
                figures.forest(
                    bounded,
                    "label",
                    None,
                    "Change in win share by strategy",
                    "B - A, win share in percentage points (95% interval)",
                    size="pairs",
                    size_word="games paired",
                ),
                f"Dot plot of each strategy's change in win share between A and B: {p.title}",
                "Each strategy's change in win share, in percentage points, with its 95% "
                "interval over seed blocks and the games paired, largest first.",
            )
        )
    parts += [
        doc.html_table(wins, PAIR_COLUMNS),
        doc.html_table(
            pair.rows("score"),
            [
                *PAIR_SCORE_COLUMNS[:2],
                col(
                    f"mean score B - A, {unit} [95% interval]",
                    "signed_ci_blocks",
                    "estimate",
                    "low",
                    "high",
                ),
            ],
        ),
        _whole_table(table_rows),
    ]
    a_only, b_only = pair.unpaired
    if pair.left_out():
        parts.append(doc.paragraph(pair.left_out(), "warning"))
    if a_only or b_only:
        parts.append(
            doc.paragraph(
                f"{numbers.count(a_only)} games of A and {numbers.count(b_only)} of B had no "
                "finished partner on the same seed and are left out of the pairing.",
                "note",
            )
        )
    return "".join(parts)


def _whole_table(rows: list[dict[str, Any]]) -> str:
    shown = []
    for r in rows:
        scale = 100.0 if r["metric"] == "first_seat" else 1.0
        shown.append(
            {
                "what": "first seat's win share (points)"
                if r["metric"] == "first_seat"
                else "game length (turns)",
                "pairs": r["pairs"],
                "v": scale * r["estimate"],
                "lo": None if r["low"] is None else scale * r["low"],
                "hi": None if r["high"] is None else scale * r["high"],
            }
        )
    return documents.html_table(
        shown,
        [
            col("whole table", "text", "what"),
            col("games paired", "count", "pairs"),
            col("B - A [95% interval]", "signed_ci_blocks", "v", "lo", "hi"),
        ],
    )


def comparisons_section(report: GameReport, data: ReportData, skip: set[int]) -> Section | None:
    """The paired comparisons not shown in a game's own section (``skip``: their indices)."""
    shown = [p for p in data.pairs if p.pairing.index not in skip]
    if not shown:
        return None
    body = "".join(
        documents.subheading(p.pairing.title.capitalize()) + pair_body(p, report.score_unit)
        for p in shown
    )
    return Section(
        "comparisons",
        "Paired comparisons",
        "Runs on the same seeds that differ in one factor (rules or one strategy), compared "
        "game by game: B - A with its direction and units, 95% intervals over seed blocks.",
        body,
    )


def summary_section(report: GameReport, data: ReportData) -> Section:
    """What was played, the warnings, the findings."""
    doc = documents
    runs = []
    for run in data.groups.runs:
        spec = run.manifest["spec"]
        state = "complete" if run.complete else "UNFINISHED"
        who = ", ".join(spec["players"])
        games = numbers.count(spec["games"])
        pool, sizes = lineup_shape(run)
        if pool:
            who = f"the pool {who}, every combination at {', '.join(map(str, sizes))} players"
            games += f" ({numbers.count(spec['games_per_size'])} per table size)"
        runs.append(
            f"{run_label(run)} — {run.where}: {games} games of {who} under {rules_name(run)}, "
            f"seed {spec['seed']}, {spec['seating']} seating ({state})"
        )
    parts = [doc.subheading("Runs"), doc.bullet_list(runs, "runs")]
    if data.warnings:
        parts += [
            doc.subheading(f"Warnings ({len(data.warnings)})"),
            doc.warning_list(
                [(w.text, w.command) for w in data.warnings],
                links=[warning_link(w, data.look_at) for w in data.warnings],
            ),
        ]
    else:
        parts.append(
            doc.paragraph(
                "No warnings: every game reached its natural end and no strategy failed.",
                "note",
            )
        )
    parts.append(doc.subheading("Findings"))
    grouped = grouped_findings(data)
    if not grouped:
        parts.append(doc.paragraph(NO_FINDINGS, "note"))
    for label, found in grouped:
        parts.append(doc.paragraph(label, "scope"))
        parts.append(doc.bullet_list([f.text for f in found], "findings"))
    if data.look_at:
        parts += [
            doc.subheading("Games to look at"),
            doc.game_list([(g.text, g.link, g.note, g.command) for g in data.look_at]),
        ]
    return Section(
        "summary",
        "Summary",
        f"{numbers.count(data.games)} games in {len(data.groups.runs)} run(s), "
        f"{len(data.cohorts)} set(s) of tables and {len(data.pairs)} paired comparison(s). "
        "Warnings first, then the findings: each with its 95% interval and the games behind "
        "it; a difference is stated only when its interval excludes no difference, and "
        "beside no clear difference stands the smallest one the run could have detected.",
        "".join(parts),
    )


def scope_labels(data: ReportData) -> dict[str, str]:
    """What each finding's scope is called on the page."""
    labels = {}
    for r in data.cohorts:
        rows = r.rows("game_length")
        games = sum(int(x["reported"]) for x in rows)
        cut = games - sum(int(x["finished"]) for x in rows)
        what = f"games, {numbers.count(cut)} of them unfinished" if cut else "finished games"
        labels[f"cohort:{r.cohort.index}"] = f"{r.cohort.label} ({numbers.count(games)} {what})"
    for p in data.pairs:
        changes = "; ".join(p.pairing.changes)
        labels[f"pairing:{p.pairing.index}"] = (
            f"Paired comparison, {p.pairing.title} [{changes}] ({p.pairing.label})"
        )
    return labels


#: What the findings say when the games support none (say, no game reached its natural end).
NO_FINDINGS = (
    "None: these games support no statement (too few of them reached their natural end, or "
    "there is nothing to compare)."
)


def grouped_findings(data: ReportData) -> list[tuple[str, list[Finding]]]:
    """The findings in the order found, grouped under their scope's label."""
    labels = scope_labels(data)
    groups: list[tuple[str, list[Finding]]] = []
    for f in data.findings:
        label = labels.get(f.scope, "All runs")
        if not groups or groups[-1][0] != label:
            groups.append((label, []))
        groups[-1][1].append(f)
    return groups


def html(report: GameReport, data: ReportData) -> str:
    """The whole page."""
    sections = [summary_section(report, data), win_rate_section(report, data)]
    sections += report.sections(data)
    shown = {int(s) for s in _shown_pairs(sections)}
    extra = comparisons_section(report, data, shown)
    if extra is not None:
        sections.append(extra)
    subtitle = (
        f"{report.title}: {numbers.count(data.games)} games; intervals are 95% and treat each "
        "seed block (the seat rotations of one deal) as one observation."
    )
    return documents.html_page(f"tourney report: {report.title}", subtitle, sections)


def _shown_pairs(sections: list[Section]) -> list[str]:
    """Pairings a game section already shows (marked ``data-pairing="K"``)."""
    import re

    return re.findall(r'data-pairing="(\d+)"', "".join(s.body for s in sections))


def markdown_sections(data: ReportData, parts: list[tuple[str, str, list[Column]]]) -> list[str]:
    """A game's Markdown sections, per cohort: ``(heading, table name, columns)``."""
    out = []
    for result in data.cohorts:
        suffix = f" — {result.cohort.label}" if len(data.cohorts) > 1 else ""
        for heading, name, columns in parts:
            out += [f"## {heading}{suffix}\n", documents.markdown_table(result.rows(name), columns)]
    return out


def markdown(report: GameReport, data: ReportData) -> str:
    """``summary.md``: the warnings, the findings and the headline tables."""
    md = documents.markdown_table
    parts = [f"# tourney report: {report.title}\n", f"{numbers.count(data.games)} games.\n"]
    if data.warnings:
        parts.append("## Warnings\n")
        parts += [
            f"- {w.text}" + (f" Replay one: `{w.command}`" if w.command else "")
            for w in data.warnings
        ]
        parts.append("")
    parts.append("## Findings\n")
    grouped = grouped_findings(data)
    if not grouped:
        parts += [NO_FINDINGS, ""]
    for label, items in grouped:
        parts.append(f"**{label}**\n")
        parts += [f"- {f.text}" for f in items]
        parts.append("")
    if data.look_at:
        parts.append("## Games to look at\n")
        parts += [
            f"- {g.text}"
            + (f" [Replay page]({g.link})." if g.page else f" ({g.note})" if g.note else "")
            + f" Replay it: `{g.command}`"
            for g in data.look_at
        ]
        parts.append("")
    for result in data.cohorts:
        for n in player_counts(result):
            title = f"## Win rate, {n} players"
            if len(data.cohorts) > 1:
                title += f" — {result.cohort.label}"
            rows = [r for r in result.rows("win_rate_by_strategy") if r["n_players"] == n]
            parts += [title + "\n", md(sorted(rows, key=lambda r: -r["win_share"]), WIN_COLUMNS)]
            if gap_rows(result, n):
                parts += [GAP_NOTE + "\n", gap_table(result, n, markdown=True)]
            parts += [md(_seat_rows(result, n), SEAT_COLUMNS)]
        title = "## Ratings, every table size at once (Plackett-Luce, Elo scale)"
        if len(data.cohorts) > 1:
            title += f" — {result.cohort.label}"
        ranked = sorted(result.rows("ratings"), key=lambda r: -r["rating"])
        parts += [title + "\n", md(ranked, RATING_COLUMNS)]
    parts += report.markdown(data)
    for pair in data.pairs:
        parts += [
            f"## Paired: {pair.pairing.title}\n",
            f"{pair.pairing.sign}.\n",
            md(pair.rows("win_share"), PAIR_COLUMNS),
        ]
    return "\n".join(parts)


def write_report(
    report: GameReport,
    runs: list[RunInfo],
    out_dir: Path,
    formats: set[str],
    include_unfinished: bool = False,
    allow_mixed_code: bool = False,
) -> ReportOutput:
    """Compute ``report`` over ``runs`` and write its tables and the chosen ``formats``."""
    from pipelines.report_games import games_to_see, write_pages

    data = compute(report, runs, include_unfinished, allow_mixed_code)
    out_dir.mkdir(parents=True, exist_ok=True)
    data.look_at = games_to_see(data, report.score_unit)
    if "html" in formats:  # the pages the HTML report links to, next to it
        data.look_at = write_pages(data.look_at, out_dir)
    files = write_tables(all_tables(data), out_dir)
    writers: list[tuple[str, str, Callable[[], str]]] = [
        ("json", "report.json", lambda: json.dumps(report_json(report, data), indent=1,
                                                   default=str) + "\n"),
        ("md", "summary.md", lambda: markdown(report, data)),
        ("html", "index.html", lambda: html(report, data)),
    ]  # fmt: skip
    for fmt, name, text in writers:
        if fmt in formats:
            path = out_dir / name
            tmp = path.with_name(f".{name}.{os.getpid()}.tmp")
            tmp.write_text(text())
            os.replace(tmp, path)
            files.append(path)
    pages = [out_dir / g.page for g in data.look_at if g.page]
    kept = replace_previous(out_dir, [*files, *pages])
    return ReportOutput(out_dir, files, data.games, data.complete, len(data.warnings), kept)


__all__ = ["Column", "GameReport", "ReportOutput", "Section", "write_report"]
