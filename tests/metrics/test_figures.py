"""The figures' structure, read from the drawn axes (never their pixels): dot plots sorted by
effect with their figures beside the rows, sweep plots with whole-number ticks, points, the
base rules' value marked and the paired differences against it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure

from reports import figures


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Callable[[], bytes]], Figure]]:
    """Draw a figure and keep it (instead of its PNG bytes) to read its axes."""
    kept: list[Figure] = []

    def keep(fig: Figure) -> bytes:
        kept.append(fig)
        return b""

    monkeypatch.setattr(figures, "_png", keep)

    def draw(make: Callable[[], bytes]) -> Figure:
        make()
        return kept[-1]

    yield draw
    for fig in kept:
        plt.close(fig)


def _labels(ticks: list[Any]) -> list[str]:
    return [t.get_text() for t in ticks]


def _forest_rows() -> list[dict[str, Any]]:
    return [
        {"label": "hunter", "estimate": 0.01, "low": -0.01, "high": 0.03, "pairs": 1000},
        {"label": "cautious", "estimate": 0.05, "low": 0.03, "high": 0.07, "pairs": 1000},
        {"label": "collector", "estimate": -0.02, "low": -0.04, "high": 0.0, "pairs": 1000},
    ]


def test_a_dot_plot_is_sorted_by_effect_with_interval_and_sample_size(
    drawn: Callable[[Callable[[], bytes]], Figure],
) -> None:
    rows = _forest_rows()
    fig = drawn(lambda: figures.forest(rows, "label", None, "t", "x", size="pairs"))
    ax = fig.axes[0]
    # Largest first, at the top (the first tick is the top row).
    assert _labels(ax.get_yticklabels()) == ["cautious", "hunter", "collector"]
    bottom, top = ax.get_ylim()
    assert top < bottom
    beside = [t.get_text() for t in ax.texts]
    assert beside == [
        "+5.0 [+3.0, +7.0], 1,000 games",
        "+1.0 [-1.0, +3.0], 1,000 games",
        "-2.0 [-4.0, +0.0], 1,000 games",
    ]
    kept = drawn(lambda: figures.forest(rows, "label", None, "t", "x", by_effect=False))
    assert _labels(kept.axes[0].get_yticklabels()) == ["hunter", "cautious", "collector"]


def _sweep_rows(xs: list[Any], base: Any, paired: bool = True) -> list[dict[str, Any]]:
    rows = []
    for k, x in enumerate(xs):
        row = {
            "legs": x,
            "games": 400,
            "adv": 0.05 - 0.01 * k,
            "adv_low": 0.01 - 0.01 * k,
            "adv_high": 0.09 - 0.01 * k,
        }
        if paired:
            d = 0.0 if x == base else -0.01 * k + 0.01
            row.update({"d": d, "d_low": d - 0.02, "d_high": d + 0.02})
        rows.append(row)
    return rows


def test_a_sweep_plot_has_whole_ticks_points_the_base_value_and_paired_differences(
    drawn: Callable[[Callable[[], bytes]], Figure],
) -> None:
    rows = _sweep_rows([2, 3, 4], 3)
    fig = drawn(
        lambda: figures.sweep_lines(
            rows,
            "legs",
            None,
            ("adv", "adv_low", "adv_high"),
            "first-seat advantage",
            "points",
            {"legs": 3},
            "rulebook",
            ("d", "d_low", "d_high"),
            points=True,
        )
    )
    top, low = fig.axes
    fig.canvas.draw()
    assert _labels(low.get_xticklabels()) == ["2", "3", "4"]
    # Shares in percentage points, signed, never fractions.
    assert all(t.get_text()[0] in "+-" or t.get_text() == "0" for t in top.get_yticklabels())
    assert "+4" in _labels(top.get_yticklabels())
    # The base rules' value: a dashed line at 3 in both panels, named in the legend.
    for ax in (top, low):
        assert [3.0, 3.0] in [np.asarray(line.get_xdata()).tolist() for line in ax.get_lines()]
    legend = top.get_legend()
    assert legend is not None
    assert "rulebook: legs=3" in [t.get_text() for t in legend.get_texts()]
    # The lower panel: each point's paired difference with its interval, the base point at 0.
    drawn_points = {
        (float(np.asarray(line.get_xdata())[0]), float(np.asarray(line.get_ydata())[0]))
        for line in low.get_lines()
        if line.get_marker() == "o"
    }
    assert drawn_points == {(2.0, 0.01), (3.0, 0.0), (4.0, -0.01)}
    assert "B - A: each point minus the rulebook point (legs=3)" in low.get_title()
    assert "400 games per point" in top.get_title()


def test_a_sweep_without_the_base_point_says_so_and_names_are_ticks(
    drawn: Callable[[Callable[[], bytes]], Figure],
) -> None:
    rows = _sweep_rows(["seat0", "random"], "last", paired=False)
    fig = drawn(
        lambda: figures.sweep_lines(
            rows,
            "legs",
            None,
            ("adv", "adv_low", "adv_high"),
            "game length",
            "turns",
            {"legs": "last"},
            "standard",
        )
    )
    top, low = fig.axes
    fig.canvas.draw()
    assert _labels(low.get_xticklabels()) == ["seat0", "random"]
    assert [t.get_text() for t in low.texts] == [
        "No paired differences: the sweep did not run\nthe standard point (legs=last)."
    ]
    # A base value that is a name not in the sweep has no place on the axis: no line.
    assert top.get_legend() is None


def test_a_whole_number_base_value_outside_the_grid_is_still_marked(
    drawn: Callable[[Callable[[], bytes]], Figure],
) -> None:
    rows = _sweep_rows([2, 4], 3, paired=False)
    fig = drawn(
        lambda: figures.sweep_lines(
            rows,
            "legs",
            None,
            ("adv", "adv_low", "adv_high"),
            "game length",
            "turns",
            {"legs": 3},
            "rulebook",
        )
    )
    top, low = fig.axes
    fig.canvas.draw()
    assert _labels(low.get_xticklabels()) == ["2", "4"]
    legend = top.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == ["rulebook: legs=3, not in the sweep"]
