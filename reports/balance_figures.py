"""The figures of a balance study's page, from the plain rows of its result: the objective
over the search (or, with several objectives, the candidates and their Pareto front) and one
figure per parameter's effect on each objective. Every point is drawn with its 95% interval
and says how many games it rests on (the rung it reached)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import seaborn as sns

from reports.figures import _png

Rows = Sequence[dict[str, Any]]


def _colours(rows: Rows) -> tuple[list[Any], dict[int, Any]]:
    games = sorted({int(r["games"]) for r in rows})
    palette = dict(zip(games, sns.color_palette("crest", len(games)), strict=True))
    return [palette[int(r["games"])] for r in rows], palette


def _legend(ax: Any, palette: dict[int, Any]) -> None:
    for games, colour in palette.items():
        ax.scatter([], [], color=colour, label=f"{games:,} games")
    ax.legend(
        fontsize=8,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        frameon=False,
        title="played",
        title_fontsize=8,
    )


def _point(ax: Any, x: float, row: Any, m: int, colour: Any, alpha: float = 1.0) -> None:
    """Candidate ``row``'s objective ``m`` at ``x``, with its 95% interval as error bars."""
    value = row["values"][m]
    ax.errorbar([x], [value], yerr=[[value - row["low"][m]], [row["high"][m] - value]],
                fmt="o", color=colour, capsize=2, markersize=4, alpha=alpha)  # fmt: skip


def search_progress(rows: Rows, m: int, label: str, base: float | None) -> bytes:
    """Objective ``m`` of every candidate in search order with its interval, coloured by
    the games it played, and the best so far among those that played every rung."""
    sns.set_theme(style="whitegrid")
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    colours, palette = _colours(rows)
    xs = [int(r["number"]) + 1 for r in rows]
    for x, r, c in zip(xs, rows, colours, strict=True):
        _point(ax, x, r, m, c)
    if base is not None:
        ax.axhline(base, color="#c0392b", linestyle="--", linewidth=1.2, label="the rulebook")
    _legend(ax, palette)
    ax.set_xlabel("candidate, in the order the search played them")
    ax.set_ylabel(label, fontsize=9)
    # The objective is named on its axis: a long name in the title would run off the figure.
    ax.set_title("The objective over the search, 95% intervals (search seeds)", fontsize=11)
    return _png(fig)


def pareto(rows: Rows, front: set[int], labels: tuple[str, str], base: Any) -> bytes:
    """The first two objectives of every candidate that played every rung, its Pareto
    front joined, the rulebook marked."""
    sns.set_theme(style="whitegrid")
    fig, ax = plt.subplots(figsize=(7, 4.6))
    for r in rows:
        on = int(r["number"]) in front
        ax.errorbar(
            [r["values"][0]],
            [r["values"][1]],
            xerr=[[r["values"][0] - r["low"][0]], [r["high"][0] - r["values"][0]]],
            yerr=[[r["values"][1] - r["low"][1]], [r["high"][1] - r["values"][1]]],
            fmt="o",
            color="#2c7fb8" if on else "#bbbbbb",
            capsize=2,
            markersize=5,
            elinewidth=0.8,
            zorder=3 if on else 2,
        )
    line = sorted((r["values"][0], r["values"][1]) for r in rows if int(r["number"]) in front)
    if line:
        ax.plot(*zip(*line, strict=True), color="#2c7fb8", linewidth=1.2, label="Pareto front")
    if base is not None:
        ax.scatter(
            [base[0]], [base[1]], marker="*", s=180, color="#c0392b", zorder=4, label="the rulebook"
        )
    ax.set_xlabel(labels[0])
    ax.set_ylabel(labels[1])
    ax.legend(fontsize=8, loc="best")
    games = sorted({int(r["games"]) for r in rows})
    ax.set_title(
        f"Candidates that played every rung ({'/'.join(f'{g:,}' for g in games)} games each), "
        "95% intervals",
        fontsize=11,
    )
    return _png(fig)


def parameter_effect(rows: Rows, key: str, labels: Sequence[str], base: Any) -> bytes:
    """Each objective (a panel each) against one parameter's value, every candidate with
    its interval, coloured by the games it played; the rulebook's value a dashed line."""
    sns.set_theme(style="whitegrid")
    k = len(labels)
    fig, axes = plt.subplots(k, 1, figsize=(6.5, 2.6 * k + 0.6), sharex=True, squeeze=False)
    colours, palette = _colours(rows)
    values = [r["params"][key] for r in rows]
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    order = list(dict.fromkeys(sorted(values, key=str) if not numeric else sorted(values)))
    where = {v: (float(v) if numeric else float(i)) for i, v in enumerate(order)}
    for m, ax in enumerate(axes[:, 0]):
        for r, c in zip(rows, colours, strict=True):
            x = where[r["params"][key]]
            _point(ax, x, r, m, c, alpha=0.8)
        if base is not None and base in where:
            ax.axvline(where[base], color="#c0392b", linestyle="--", linewidth=1.2)
        ax.set_ylabel(labels[m], fontsize=9)
    low_ax = axes[-1, 0]
    if not numeric or (all(isinstance(v, int) for v in order) and len(order) <= 12):
        low_ax.set_xticks(list(where.values()), [str(v).lower() for v in order])
    low_ax.set_xlabel(f"{key} (dashed: the rulebook's value)")
    _legend(axes[0, 0], palette)
    axes[0, 0].set_title(f"Effect of {key}, every candidate with its 95% interval", fontsize=11)
    return _png(fig)
