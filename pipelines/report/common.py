"""What every game's report shares: computing the common tables of each cohort and the paired
differences of each pairing, the warnings, findings and headline, writing the tables and
``report.json``, and writing ``index.html`` and ``summary.md`` from the same sections
(:mod:`pipelines.report.page`), a game's own among them.

A game's report is a :class:`GameReport` (its words, its extra tables, findings, sections
and headline clauses); :func:`write_report` does the rest the same way for every
game. The page opens with the headline, then what was played, the warnings (anything that
could make a figure wrong), the findings, then one section per question.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.csv as pacsv

from pipelines.metrics import gaps, paired, rating, win_rate
from pipelines.metrics.source import RunInfo, connect
from pipelines.play.choices import SAMPLE
from pipelines.report import findings as common_findings
from pipelines.report import game_shape, meta_game
from pipelines.report.data import (
    CohortResult,
    Finding,
    PairResult,
    ReportData,
    RunWarning,
)
from pipelines.report.files import replace_previous
from pipelines.report.game_report import GameReport
from pipelines.report.headline import headline
from pipelines.report.labels import scope_labels
from pipelines.report.run_groups import (
    Groups,
    group_runs,
    rules_name,
    run_label,
    short_label,
)
from pipelines.report.run_warnings import run_warnings
from reports.blocks import Column, Section
from sim.runner.shard import write_part


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
    choice_games: int = SAMPLE,
) -> ReportData:
    """Group the runs (runs of different code only with ``allow_mixed_code``, each code a
    cohort of its own), compute every cohort's and pairing's tables, the warnings and the
    findings; choices per decision counted in ``choice_games`` games per table size."""
    groups = group_runs(runs, allow_mixed_code)
    cohorts = []
    for cohort in groups.cohorts:
        with connect(list(cohort.runs), include_unfinished) as con:
            tables = common_tables(con)
            tables.update(report.compute(con, cohort))
            tables.update(meta_game.cohort_tables(con, cohort))
            tables.update(game_shape.cohort_tables(con, cohort, report, choice_games))
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
        choice_games=choice_games,
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
    data.headline = headline(data, report.headline)
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
                "name": short_label(run),
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
                "engine": spec.get("engine") or "reference",
                "tables": list(run.tables),
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
        "headline": data.headline,
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
        "meta_game": meta_game.json_records(data),
        "game_shape": game_shape.json_records(report, data),
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


def write_report(
    report: GameReport,
    runs: list[RunInfo],
    out_dir: Path,
    formats: set[str],
    include_unfinished: bool = False,
    allow_mixed_code: bool = False,
    choice_games: int = SAMPLE,
) -> ReportOutput:
    """Compute ``report`` over ``runs`` and write its tables and the chosen ``formats``."""
    from pipelines.report.games import games_to_see, write_pages
    from pipelines.report.page import html, markdown, sections

    data = compute(report, runs, include_unfinished, allow_mixed_code, choice_games)
    out_dir.mkdir(parents=True, exist_ok=True)
    data.look_at = games_to_see(data, report.score_unit)
    if "html" in formats:  # the pages the HTML report links to, next to it
        data.look_at = write_pages(data.look_at, out_dir)
    files = write_tables(all_tables(data), out_dir)
    # Both documents render the same sections, made once (they hold the figures).
    shown = functools.cache(lambda: sections(report, data))
    writers: list[tuple[str, str, Callable[[], str]]] = [
        ("json", "report.json", lambda: json.dumps(report_json(report, data), indent=1,
                                                   default=str) + "\n"),
        ("md", "summary.md", lambda: markdown(report, data, shown())),
        ("html", "index.html", lambda: html(report, data, shown())),
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
