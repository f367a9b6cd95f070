"""``tourney report`` end to end on small real runs: every output, runs that must not be
pooled, a run and its twin without curses, warnings that cannot be missed, shares of 0% and
100%, and the documents' escaping."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.report.assemble import JSON_KEYS
from reports import documents, figures
from reports.blocks import Section, Table, col
from tests.metrics.fixture import seal

runner = CliRunner()
COMMON = ["simulate", "--backend", "serial", "--shard-size", "12", "--islands", "abc-1,ABC-2"]


def _simulate(out: Path, *extra: str) -> None:
    result = runner.invoke(app, [*COMMON, "--out", str(out), *extra])
    assert result.exit_code == 0, result.output


def _report(*runs: Path, out: Path, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    result = runner.invoke(app, ["report", *map(str, runs), "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    obj: dict[str, Any] = json.loads((out / "report.json").read_text())
    return obj


def test_report_writes_every_output(small_run: Path, tmp_path: Path) -> None:
    rep = tmp_path / "rep"
    obj = _report(small_run, out=rep)
    assert (rep / "index.html").is_file() and (rep / "summary.md").is_file()
    assert tuple(obj) == JSON_KEYS  # stable top-level keys, in order
    assert obj["games"] == 48 and obj["complete"] is True and obj["game"] == "tobago"
    # The headline: one to three sentences with numbers, first in summary.md too.
    assert 1 <= len(obj["headline"]) <= 3 and all("[" in s for s in obj["headline"])
    head = (rep / "summary.md").read_text().split("\n\n")
    assert head[0] == "# tourney report: Tobago"
    assert head[1 : 1 + len(obj["headline"])] == [f"**{s}**" for s in obj["headline"]]
    (cohort,) = obj["cohorts"]
    rows = cohort["sections"]["win_rate"]["win_rate_by_strategy"]
    assert {r["strategy"] for r in rows} == {"hunter", "cartographer", "collector", "cautious"}
    assert all(r["n_players"] == 4 for r in rows)
    assert abs(sum(r["win_share"] for r in rows) - 1.0) < 1e-9  # one win shared out per game
    assert {"island_fairness", "island_heterogeneity"} <= set(cohort["sections"]["board_fairness"])
    # Findings: structured records with their interval and sample size.
    kinds = {f["metric"] for f in obj["findings"]}
    assert {"win_share", "first_seat_advantage", "turns"} <= kinds
    for f in obj["findings"]:
        assert set(f) >= {"metric", "group", "estimate", "low", "high", "n", "text"}
        if f["metric"] == "win_share":
            assert f["low"] <= f["estimate"] <= f["high"] and f["n"] == 48
    table = pq.read_table(rep / "tables" / "win_rate_by_strategy.parquet")
    assert table.column_names[0] == "cohort"
    assert (rep / "tables" / "cell_heat.csv").is_file()
    # Games to look at, each with its replay page next to the report, linked from it.
    look = obj["games_to_look_at"]
    assert {g["kind"] for g in look} == {"longest", "upset"}
    page = (rep / "index.html").read_text()
    summary = (rep / "summary.md").read_text()
    for g in look:
        assert g["page"].startswith("games/") and g["note"] is None
        replay = (rep / g["page"]).read_text()
        assert f"--game-id {g['game_id']}" in replay and 'id="replay-data"' in replay
        link = f"{g['page']}#step={g['step']}"  # opened at its moment
        assert f'href="{link}"' in page and f"[Replay page]({link})" in summary
    page = (rep / "index.html").read_text()
    assert page.count("data:image/png;base64,") >= 5 and "http" not in page.split("<body>")[1]
    summary = (rep / "summary.md").read_text()
    assert "## Findings" in summary and "0.0000" not in summary
    assert "beside no clear difference stands the smallest one the run could have detected" in (
        page
    )


def test_player_counts_are_never_pooled(tmp_path: Path) -> None:
    two, three = tmp_path / "two", tmp_path / "three"
    _simulate(two, "--games", "24", "--players", "hunter,cautious", "--seed", "3")
    _simulate(three, "--games", "24", "--players", "hunter,cautious,collector", "--seed", "3")
    obj = _report(two, three, out=tmp_path / "rep")
    assert len(obj["cohorts"]) == 2 and obj["comparisons"] == []
    for cohort, n in zip(obj["cohorts"], (2, 3), strict=True):
        rows = cohort["sections"]["win_rate"]["win_rate_by_strategy"]
        assert {r["n_players"] for r in rows} == {n}
        assert abs(sum(r["win_share"] for r in rows) - 1.0) < 1e-9
    texts = " ".join(f["text"] for f in obj["findings"])
    assert "of its 2-player games" in texts and "of its 3-player games" in texts
    page = (tmp_path / "rep" / "index.html").read_text()
    assert "2 players" in page and "3 players" in page


def test_a_run_and_its_twin_give_the_labelled_paired_curse_effect(tmp_path: Path) -> None:
    base = tmp_path / "base"
    result = runner.invoke(
        app, [*COMMON, "--games", "40", "--seed", "9", "--out", str(base), "--twin", "curses"]
    )
    assert result.exit_code == 0, result.output
    twin = tmp_path / "base-without-curses"
    assert f"report both: tourney report {base} {twin}" in result.output
    manifest = json.loads((twin / "manifest.json").read_text())
    assert manifest["spec"]["resolved_rules"]["curse_count"] == 0
    assert manifest["spec"]["rules"] == "rulebook without curses"
    out = tmp_path / "rep"
    obj = _report(twin, base, out=out)  # either order: the ablation is B
    (pairing,) = obj["comparisons"]
    assert pairing["factor"] == "curses" and pairing["a"] == str(base) and pairing["b"] == str(twin)
    assert pairing["label"] == "A = base, B = base-without-curses; B - A"
    assert pairing["changes"] == ["curse_count: 2 -> 0"]
    wins = [d for d in pairing["differences"] if d["metric"] == "win_share"]
    assert {d["group"] for d in wins} == {"hunter", "cartographer", "collector", "cautious"}
    assert all(d["pairs"] == 40 for d in wins)
    # Ten seed blocks: Student's t on 9 degrees of freedom (2.262 standard errors each way).
    assert all(d["blocks"] == 10 and d["low"] < d["estimate"] < d["high"] for d in wins)
    assert abs(sum(d["estimate"] for d in wins)) < 1e-9  # one win per game either way
    paired = [f for f in obj["findings"] if f["scope"] == "pairing:0"]
    assert all(
        f["text"].startswith(("Removing curses ", "No clear effect of removing curses"))
        for f in paired
    )
    # Beside every "no clear effect", what the run could have detected, in text and JSON.
    for f in paired:
        if f["text"].startswith("No clear effect"):
            assert "the smallest difference this run could detect with 80% power" in f["text"]
            assert f["detectable_effect"] > 0 and f["games_for_effect"] > f["n"]
    assert all(f["scope_label"].startswith("Paired comparison, what curses do") for f in paired)
    page = (out / "index.html").read_text()
    curse = page.split('<section id="curse-impact">')[1].split("</section>")[0]
    assert 'data-pairing="0"' in curse and "What curses do" in curse
    assert curse.index("What curses do") < curse.index("How often curses strike")
    # A game where a curse changed the winner, if the pairing has one, is replayed from the
    # run with curses.
    for g in obj["games_to_look_at"]:
        if g["kind"] == "curse_winner":
            assert g["run"] == str(base) and (out / g["page"]).is_file()

    # Reported again into the same directory without the twin: nothing of the pairing (its
    # tables, its pages) is left beside the new report; a file of the user's stays.
    (out / "notes.txt").write_text("mine")
    paired_tables = sorted(p.name for p in (out / "tables").glob("paired_*"))
    assert paired_tables
    alone = _report(base, out=out)
    assert alone["comparisons"] == [] and not list((out / "tables").glob("paired_*"))
    pages = {g["page"] for g in alone["games_to_look_at"] if g.get("page")}
    assert {f"games/{p.name}" for p in (out / "games").iterdir()} == pages
    # A Markdown-only report leaves no HTML or JSON of the last one behind.
    md = runner.invoke(app, ["report", str(base), "--out", str(out), "--format", "md"])
    assert md.exit_code == 0, md.output
    assert (out / "summary.md").is_file() and (out / "notes.txt").read_text() == "mine"
    assert not (out / "index.html").exists() and not (out / "report.json").exists()
    assert not list((out / "games").iterdir())


def test_cut_off_games_and_a_crashing_plug_in_are_warned_about(tmp_path: Path) -> None:
    rules = tmp_path / "short.toml"
    rules.write_text('preset = "rulebook"\nmax_turns = 30\n')
    bad = tmp_path / "bad"
    players = "hunter,tests.runner.crashy:Crashy,cautious"
    result = runner.invoke(
        app,
        [*COMMON, "--games", "24", "--players", players, "--rules", str(rules), "--out", str(bad)],
    )
    assert result.exit_code == 0, result.output
    assert "warning: " in result.stderr and "stopped at the turn cap" in result.stderr
    assert "replay one: tourney play" in result.stderr
    obj = _report(bad, out=tmp_path / "rep")
    warnings = {w["kind"]: w for w in obj["warnings"]}
    assert set(warnings) == {"turn_cap", "strategy_failures"}
    capped = warnings["turn_cap"]
    assert "stopped at the turn cap" in capped["text"] and "left out of win rates" in capped["text"]
    assert "RuntimeError('strategy bug')" in warnings["strategy_failures"]["text"]
    # The replay command plays the very game that was cut off.
    argv = shlex.split(capped["command"])
    assert argv[:2] == ["tourney", "play"]
    played = runner.invoke(app, [*argv[1:], "--json"])
    assert played.exit_code == 0, played.output
    end = json.loads(played.output.strip().splitlines()[-1])
    assert end["truncated"] is True
    # Win rates count finished games only, and say so.
    cut = sum(d["games"] for d in capped["details"]) // 3
    (cohort,) = obj["cohorts"]
    rows = cohort["sections"]["win_rate"]["win_rate_by_strategy"]
    assert all(r["seats"] == 24 - cut for r in rows)
    length = cohort["sections"]["win_rate"]["game_length"][0]
    assert length["turn_cap"] == cut and length["finished"] == 24 - cut
    page = (tmp_path / "rep" / "index.html").read_text()
    summary = page.split('<section id="summary">')[1]
    assert summary.index("Warnings (2)") < summary.index("Findings")
    # The first game cut off is a game to look at, with its replay page, linked from the
    # warning too.
    (stalled,) = [g for g in obj["games_to_look_at"] if g["kind"] == "turn_cap"]
    assert (
        stalled["command"] == capped["command"] and (tmp_path / "rep" / stalled["page"]).is_file()
    )
    warning = summary.split("Warnings (2)")[1].split("Findings")[0]
    assert f'href="{stalled["page"]}#step={stalled["step"]}"' in warning
    every = _report(bad, out=tmp_path / "all", extra=("--include-unfinished",))
    rows = every["cohorts"][0]["sections"]["win_rate"]["win_rate_by_strategy"]
    assert all(r["seats"] == 24 for r in rows)


def test_shares_of_zero_and_one_render() -> None:
    rows = [
        {"strategy": "never", "win_share": 0.0, "low": 0.0, "high": 0.09},
        {"strategy": "always", "win_share": 1.0, "low": 0.91, "high": 1.0},
    ]
    png = figures.win_share_bars(rows, 0.5, "Win share")
    assert png.startswith(b"\x89PNG")
    seats = [{**r, "seat": k} for k, r in enumerate(rows)]
    assert figures.seat_shares(seats, 0.5, "By seat").startswith(b"\x89PNG")


def test_user_text_is_escaped() -> None:
    rows = [{"strategy": "<script>alert(1)</script>", "win_share": 0.5}]
    table = Table.of(rows, [col("strategy", "text"), col("win_share", "pct")])
    page = documents.html_page("a & b", "sub", [Section("x", "<h>", "cap <b>", (table,))])
    assert "<script>" not in page and "&lt;script&gt;" in page and "50.0%" in page
    assert "a &amp; b" in page and "&lt;h&gt;" in page and "cap &lt;b&gt;" in page


def test_unfinished_run_is_reported_and_flagged(small_run: Path, tmp_path: Path) -> None:
    manifest = json.loads((small_run / "manifest.json").read_text())
    partial = tmp_path / "partial"
    partial.mkdir()
    for table in ("games", "seats", "moves", "treasures", "failures"):
        (partial / table).mkdir()
        first = sorted((small_run / table).glob("*.parquet"))[0]
        (partial / table / first.name).write_bytes(first.read_bytes())
    manifest["status"] = "partial"
    seal(partial, manifest)
    result = runner.invoke(app, ["report", str(partial), "--format", "json,md"])
    assert result.exit_code == 0, result.output
    obj = json.loads((partial / "report" / "report.json").read_text())
    assert obj["complete"] is False and 0 < obj["games"] < 48
    assert obj["warnings"][0]["kind"] == "unfinished_run"
    assert "unfinished run" in (partial / "report" / "summary.md").read_text()
    assert not (partial / "report" / "index.html").exists()


def test_missing_part_file_is_named(small_run: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "manifest.json").write_text((small_run / "manifest.json").read_text())
    for table in ("games", "seats", "moves", "treasures", "failures"):
        (broken / table).mkdir()
        for part in sorted((small_run / table).glob("*.parquet")):
            if table == "moves" and part.name == "part-000001.parquet":
                continue
            (broken / table / part.name).write_bytes(part.read_bytes())
    result = runner.invoke(app, ["report", str(broken)])
    assert result.exit_code == 2
    assert "moves/part-000001.parquet: missing part file (the manifest records it)" in (
        result.stderr
    )


def test_the_same_run_twice_is_refused(small_run: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", str(small_run), str(small_run)])
    assert result.exit_code == 2 and "given twice" in result.stderr


def test_the_same_run_gives_the_same_report_bytes(ti_run: Path, tmp_path: Path) -> None:
    """Two reports of one run are byte-identical: every table and report.json. (With several
    DuckDB threads, sums of floating-point shares are added in whatever order the threads
    finish, and the last digits of a 2,000-game report differed from one run to the next.)"""
    outs = [tmp_path / "first", tmp_path / "second"]
    for out in outs:
        _report(ti_run, out=out, extra=("--format", "json"))
    files = sorted(p.relative_to(outs[0]) for p in outs[0].rglob("*") if p.is_file())
    assert Path("report.json") in files and len(files) > 20
    for rel in files:
        first, second = (out / rel for out in outs)
        text = [first.read_bytes(), second.read_bytes().replace(b"second", b"first")]
        assert text[0] == text[1], rel


def test_a_pairing_of_too_few_blocks_gives_no_interval(tmp_path: Path) -> None:
    """Two seed blocks: every paired difference says so instead of an interval (null bounds
    in report.json), never a "+0.0 [0.0, 0.0]"."""
    base = tmp_path / "base"
    _simulate(base, "--games", "8", "--seed", "9", "--twin", "curses")
    out = tmp_path / "rep"
    obj = _report(base, tmp_path / "base-without-curses", out=out)
    (pairing,) = obj["comparisons"]
    assert pairing["differences"]
    for d in pairing["differences"]:
        assert d["blocks"] == 2 and d["low"] is None and d["high"] is None
    paired = [f for f in obj["findings"] if f["scope"] == "pairing:0"]
    assert paired and all(f["low"] is None and f["high"] is None for f in paired)
    assert all("(too few blocks for an interval)" in f["text"] for f in paired)
    page = (out / "index.html").read_text()
    effect = page.split('data-pairing="0"')[1].split("</div>")[0]
    assert "too few blocks for an interval" in effect and "[0.0, 0.0]" not in effect
    assert "Dot plot of each strategy's change" not in effect  # no intervals to draw
