"""Figures from tidy tables (plain column names in, PNG bytes out): win shares with intervals,
win share by seat, and hex-map heat maps. Knows nothing of the games themselves."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only, never a window

import matplotlib.pyplot as plt
import seaborn as sns
from matplotlib.collections import PatchCollection
from matplotlib.patches import RegularPolygon

Rows = Sequence[dict[str, Any]]


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def win_share_bars(rows: Rows, label: str = "strategy") -> bytes:
    """Mean win share per group with its interval as error bars."""
    sns.set_theme(style="whitegrid")
    fig, ax = plt.subplots(figsize=(6, 0.6 + 0.5 * max(1, len(rows))))
    names = [str(r[label]) for r in rows]
    shares = [float(r["win_share"]) for r in rows]
    errors = [
        [s - float(r["low"]) for s, r in zip(shares, rows, strict=True)],
        [float(r["high"]) - s for s, r in zip(shares, rows, strict=True)],
    ]
    sns.barplot(x=shares, y=names, ax=ax, color=sns.color_palette()[0], orient="h")
    ax.errorbar(shares, range(len(names)), xerr=errors, fmt="none", ecolor="black", capsize=3)
    ax.set_xlabel("win share (95% interval)")
    ax.set_ylabel("")
    return _png(fig)


def seat_shares(rows: Rows) -> bytes:
    """Win share by seat, one line per strategy."""
    sns.set_theme(style="whitegrid")
    fig, ax = plt.subplots(figsize=(6, 3.5))
    sns.lineplot(
        x=[int(r["seat"]) for r in rows],
        y=[float(r["win_share"]) for r in rows],
        hue=[str(r["strategy"]) for r in rows],
        marker="o",
        ax=ax,
    )
    ax.set_xlabel("seat (0 = first player)")
    ax.set_ylabel("win share")
    return _png(fig)


def score_distribution(rows: Rows) -> bytes:
    """Final scores per strategy, from ``(strategy, score, seats)`` counts."""
    sns.set_theme(style="whitegrid")
    fig, ax = plt.subplots(figsize=(6, 3.5))
    sns.histplot(
        x=[int(r["score"]) for r in rows],
        weights=[int(r["seats"]) for r in rows],
        hue=[str(r["strategy"]) for r in rows],
        element="step",
        stat="density",
        common_norm=False,
        binwidth=2,
        ax=ax,
    )
    ax.set_xlabel("final score (coins)")
    return _png(fig)


def sweep_lines(rows: Rows, x: str, hue: str | None, y: str, low: str, high: str) -> bytes:
    """A metric over a swept parameter, with its interval band (one line per ``hue``)."""
    sns.set_theme(style="whitegrid")
    fig, ax = plt.subplots(figsize=(6, 3.5))
    groups: dict[object, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(r[hue] if hue else "", []).append(r)
    for key, group in groups.items():
        items = sorted(group, key=lambda r: r[x])
        xs = [r[x] for r in items]
        label = f"{hue}={key}" if hue else None
        ax.plot(xs, [r[y] for r in items], marker="o", label=label)
        ax.fill_between(xs, [r[low] for r in items], [r[high] for r in items], alpha=0.2)
    ax.set_xlabel(x)
    ax.set_ylabel(y.replace("_", " "))
    if hue:
        ax.legend()
    return _png(fig)


def hex_heat(cells: Rows, values: dict[int, float], title: str) -> bytes:
    """A hex map of one island (pointy-top axial cells) shaded by ``values`` per cell id."""
    fig, ax = plt.subplots(figsize=(5, 5))
    patches = []
    shades = []
    top = max(values.values(), default=0.0) or 1.0
    for c in cells:
        q, r = int(c["q"]), int(c["r"])
        x = math.sqrt(3) * (q + r / 2)
        y = -1.5 * r
        patches.append(RegularPolygon((x, y), numVertices=6, radius=0.98, orientation=0))
        shades.append(values.get(int(c["cell"]), 0.0) / top)
    collection = PatchCollection(patches, cmap="YlOrRd", edgecolor="grey", linewidth=0.4)
    collection.set_array(shades)
    collection.set_clim(0, 1)
    ax.add_collection(collection)
    ax.autoscale_view()
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title, fontsize=9)
    return _png(fig)


def bust_vs_exact(rows: Rows) -> bytes:
    """Observed bust rate (95% interval) and the exact chance, by kinds in play."""
    sns.set_theme(style="whitegrid")
    fig, ax = plt.subplots(figsize=(6, 3.5))
    used = [r for r in rows if int(r["kinds_in_play"]) > 0]
    x = [int(r["kinds_in_play"]) for r in used]
    observed = [float(r["observed"]) for r in used]
    errors = [
        [o - float(r["low"]) for o, r in zip(observed, used, strict=True)],
        [float(r["high"]) - o for o, r in zip(observed, used, strict=True)],
    ]
    ax.errorbar(x, observed, yerr=errors, fmt="o", capsize=3, label="observed (95% interval)")
    ax.plot(x, [float(r["exact"]) for r in used], "-", color="black", label="exact chance")
    ax.set_xlabel("kinds in the play area before the draw")
    ax.set_ylabel("bust rate of a blind draw")
    ax.legend()
    return _png(fig)


def plunder_sizes(rows: Rows) -> bytes:
    """Share of plunders by cards banked, one bar group per strategy."""
    sns.set_theme(style="whitegrid")
    fig, ax = plt.subplots(figsize=(6, 3.5))
    sns.barplot(
        x=[int(r["cards"]) for r in rows],
        y=[float(r["share"]) for r in rows],
        hue=[str(r["strategy"]) for r in rows],
        ax=ax,
    )
    ax.set_xlabel("cards banked by a plunder")
    ax.set_ylabel("share of the strategy's plunders")
    return _png(fig)
