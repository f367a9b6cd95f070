"""The headline's sentences claim no more than their 95% intervals: a leader is named only
when the interval that allows for picking it excludes 0, a first-seat advantage only where
its interval excludes 0 (else the effect the run could have detected is said), a paired
effect with its direction and interval; a sweep's from its rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import pyarrow as pa

from pipelines.report import headline as hl
from pipelines.report.data import CohortResult, Finding, PairResult
from reports import documents
from reports.blocks import Paragraph, Section


def _result(
    gaps: Sequence[dict[str, Any]] = (), seats: Sequence[dict[str, Any]] = ()
) -> CohortResult:
    tables = {}
    if gaps:
        tables["strategy_gaps"] = pa.Table.from_pylist(list(gaps))
    if seats:
        tables["win_rate_by_seat"] = pa.Table.from_pylist(list(seats))
    return CohortResult(cast(Any, None), tables)


def _gap(
    n: int, est: float, adj: tuple[float, float], plain: tuple[float, float], **kw: Any
) -> dict[str, Any]:
    return {
        "n_players": n,
        "rank": 1,
        "better": kw.get("better", "cautious"),
        "worse": kw.get("worse", "collector"),
        "estimate": est,
        "low": plain[0],
        "high": plain[1],
        "adjusted_low": adj[0],
        "adjusted_high": adj[1],
        "detectable": 0.02,
    }


def _seat(n: int, adv: float, low: float, high: float, seat: int = 0) -> dict[str, Any]:
    return {"n_players": n, "seat": seat, "advantage": adv, "advantage_low": low,
            "advantage_high": high}  # fmt: skip


def test_the_leader_is_named_with_its_smallest_lead_over_every_table_size() -> None:
    text = hl.strongest_sentence(
        _result(
            [
                _gap(2, 0.12, (0.10, 0.14), (0.11, 0.13)),
                _gap(3, 0.05, (0.02, 0.08), (0.03, 0.07)),
                _gap(4, 0.084, (0.071, 0.097), (0.075, 0.093)),
            ]
        )
    )
    assert text.startswith("cautious is strongest at 2, 3 and 4 players")
    # The weakest lead (3 players) bounds the claim, with the selection-adjusted interval.
    assert "+5.0 points over collector at 3 players, its smallest lead" in text
    assert "[+2.0, +8.0] allowing for the choice of leader" in text


def test_a_lead_that_holds_0_once_the_choice_is_allowed_for_is_not_a_leader() -> None:
    # The plain interval excludes 0, the selection-adjusted one does not: no "strongest".
    text = hl.strongest_sentence(_result([_gap(4, 0.012, (-0.002, 0.026), (0.001, 0.023))]))
    assert "strongest" not in text
    assert text.startswith("At 4 players the top two, cautious and collector, are not separated")
    assert "a gap of 2.0 points would have been found 80% of the time" in text


def test_the_first_seat_is_said_per_table_size_only_where_its_interval_excludes_0() -> None:
    every = hl.seat_sentence(
        _result(seats=[_seat(2, 0.041, 0.035, 0.047), _seat(4, 0.069, 0.06, 0.078)]),
        ["no clear difference between islands"],
    )
    assert every == (
        "The first seat wins more often than its fair share at every table size, from 4.1 "
        "points [3.5, 4.7] at 2 players to 6.9 points [6.0, 7.8] at 4; no clear difference "
        "between islands."
    )
    mixed = hl.seat_sentence(
        _result(seats=[_seat(2, 0.004, -0.01, 0.018), _seat(3, 0.03, 0.01, 0.05)])
    )
    assert "no clear advantage at 2 players (+0.4 points [-1.0, +1.8]; " in mixed
    assert "would have been detected" in mixed
    assert "+3.0 points [+1.0, +5.0] at 3 players" in mixed
    less = hl.seat_sentence(_result(seats=[_seat(4, -0.03, -0.04, -0.02)]))
    assert less.startswith("The first seat wins 3.0 points [2.0, 4.0] less often")


def _pair(factor: str, changes: tuple[str, ...] = ()) -> PairResult:
    pairing = cast(Any, type("P", (), {"index": 0, "factor": factor, "changes": changes}))
    return PairResult(pairing, pa.table({"metric": pa.array([], pa.string())}), (0, 0))


def _found(metric: str, group: str, est: float, low: float, high: float) -> Finding:
    return Finding(metric, group, est, low, high, 1000, "", "pairing:0")


def test_a_pairing_says_what_its_factor_does_to_the_leader_and_the_first_seat() -> None:
    found = [
        _found("paired_win_share", "hunter", 0.07, 0.06, 0.08),
        _found("paired_win_share", "cautious", -0.147, -0.156, -0.139),
        _found("paired_first_seat", "table", -0.011, -0.019, -0.003),
    ]
    text = hl.pair_sentence(_pair("curses"), found, "cautious")
    assert text == (
        "Curses lower the leader cautious's win share by 14.7 points [13.9, 15.6] and the "
        "first seat's by 1.1 points [0.3, 1.9] (paired, 1,000 games)."
    )
    unclear = [_found("paired_first_seat", "table", 0.004, -0.006, 0.014)]
    text = hl.pair_sentence(_pair("strategy", ("hunter -> cautious",)), unclear, None)
    # A strategy keeps its own spelling, even first in a sentence.
    assert text.startswith("cautious in place of hunter has no clear effect on the first seat's")
    assert "would have been detected" in text


def _point(value: int, adv: float, vs: float | None, turns: float) -> dict[str, Any]:
    row: dict[str, Any] = {
        "curse_count": value,
        "games": 400,
        "first_seat_advantage": adv,
        "first_seat_low": adv - 0.01,
        "first_seat_high": adv + 0.01,
        "mean_turns": turns,
        "turns_low": turns - 0.2,
        "turns_high": turns + 0.2,
    }
    if vs is not None:
        row.update(first_seat_vs_base=vs, first_seat_vs_base_low=vs - 0.008,
                   first_seat_vs_base_high=vs + 0.008)  # fmt: skip
        row["verdict"] = "the base rules' point (curse_count=2)" if value == 2 else "against"
    return row


def test_a_sweep_headline_bounds_each_point_and_its_change_against_the_base_rules() -> None:
    rows = [_point(0, 0.07, -0.004, 29.0), _point(2, 0.06, 0.0, 31.0), _point(4, 0.03, -0.03, 33.0)]
    text = hl.sweep_headline(rows, ["curse_count"])
    assert len(text) == 3
    assert "from +3.0 points [+2.0, +4.0] at curse_count=4 to +7.0 points" in text[0]
    assert text[1] == (
        "Against the base rules (curse_count=2), curse_count=4 lowers it most, by 3.0 points "
        "[2.2, 3.8]; 1 of 2 other settings change it clearly."
    )
    flat = [_point(0, 0.06, 0.002, 30.0), _point(2, 0.06, 0.0, 30.0)]
    said = hl.sweep_headline(flat, ["curse_count"])
    assert said[1].startswith("No setting clearly changes it against the base rules")
    assert "would have been detected" in said[1]


def test_the_page_template_escapes_text_and_folds_a_section_that_found_nothing() -> None:
    page = documents.html_page(
        "tourney report: <b>",
        "subtitle",
        [
            Section("a", "Open", "what it answers", (Paragraph("kept"),)),
            Section("b", "Nothing found", "what it asked", (Paragraph("inside"),), folded=True),
        ],
        headline=["x < y by 1.0 points [0.2, 1.8]."],
        notes=["a note"],
    )
    assert "<title>tourney report: &lt;b&gt;</title>" in page
    assert '<div class="headline" id="headline">\n<p>x &lt; y by 1.0 points' in page
    assert '<section id="a"><h2>Open</h2>' in page and "<p>kept</p>" in page
    assert '<section id="b" class="folded"><details><summary>Nothing found</summary>' in page
    assert page.index("headline") < page.index("<nav>") < page.index("a note")


def test_the_last_seat_is_said_only_when_its_interval_excludes_its_fair_share() -> None:
    first = _seat(4, 0.065, 0.059, 0.071)
    clear = hl.seat_sentence(_result(seats=[first, _seat(4, -0.054, -0.06, -0.049, seat=3)]))
    assert clear.endswith("; the last seat wins 5.4 points [4.9, 6.0] less often at 4 players.")
    unclear = hl.seat_sentence(_result(seats=[first, _seat(4, -0.004, -0.01, 0.002, seat=3)]))
    assert "last seat" not in unclear
