"""Figures from tidy rows (plain column names in, PNG bytes out). Every figure has a title,
labelled axes with units, and draws intervals as given (clipped so that a 0% or 100% share
draws no negative error bar). Knows nothing of the games themselves: terrain colours and
landmark glyphs are looked up by the names the rows carry.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only, never a window

import matplotlib.pyplot as plt
import seaborn as sns
from matplotlib.axes import Axes
from matplotlib.collections import PatchCollection
from matplotlib.patches import Patch, RegularPolygon
from matplotlib.ticker import FuncFormatter, MaxNLocator

Rows = Sequence[dict[str, Any]]

#: Muted terrain colours for island maps (names as the rows carry them).
TERRAIN_COLOURS = {
    "jungle": "#8fbf86",
    "mountain": "#b3a596",
    "scrub": "#d2cf98",
    "beach": "#f1e3b8",
    "river": "#9cc7e0",
    "lake": "#6fa3cf",
}
_PERCENT = FuncFormatter(lambda x, _: f"{100 * x:.0f}%")
# Signed points, but no sign on zero (neither "+0" nor "-0").
_POINTS = FuncFormatter(lambda x, _: f"{100 * x:+.0f}" if round(100 * x) else "0")


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def _errors(rows: Rows, value: str, low: str, high: str) -> list[list[float]]:
    """Error bar lengths below and above, never negative (an interval may end at 0%)."""
    return [
        [max(0.0, float(r[value]) - float(r[low])) for r in rows],
        [max(0.0, float(r[high]) - float(r[value])) for r in rows],
    ]


def win_share_bars(rows: Rows, fair: float, title: str) -> bytes:
    """Win share per strategy, best first, with 95% intervals and the fair share 1/n."""
    sns.set_theme(style="whitegrid")
    items = sorted(rows, key=lambda r: -float(r["win_share"]))
    fig, ax = plt.subplots(figsize=(7, 0.9 + 0.55 * max(1, len(items))))
    names = [str(r["strategy"]) for r in items]
    shares = [float(r["win_share"]) for r in items]
    ax.barh(range(len(items)), shares, color=sns.color_palette()[0], height=0.6)
    ax.errorbar(
        shares,
        range(len(items)),
        xerr=_errors(items, "win_share", "low", "high"),
        fmt="none",
        ecolor="black",
        capsize=4,
    )
    ax.axvline(
        fair, color="#c0392b", linestyle="--", linewidth=1.5, label=f"fair share {100 * fair:.0f}%"
    )
    ax.legend(fontsize=8, loc="lower right")
    ax.set_yticks(range(len(items)), names)
    ax.invert_yaxis()
    ax.set_xlim(0, max(fair * 1.6, max(float(r["high"]) for r in items) * 1.1, 0.05))
    ax.xaxis.set_major_formatter(_PERCENT)
    ax.set_xlabel("win share (share of games won; ties split), 95% interval")
    ax.set_title(title, fontsize=11)
    return _png(fig)


def seat_shares(rows: Rows, fair: float, title: str) -> bytes:
    """Win share by seat, one line per strategy, with the fair share 1/n."""
    sns.set_theme(style="whitegrid")
    fig, ax = plt.subplots(figsize=(7, 3.8))
    seats = sorted({int(r["seat"]) for r in rows})
    for name in sorted({str(r["strategy"]) for r in rows}):
        mine = sorted((r for r in rows if str(r["strategy"]) == name), key=lambda r: r["seat"])
        ax.errorbar(
            [int(r["seat"]) + 1 for r in mine],
            [float(r["win_share"]) for r in mine],
            yerr=_errors(mine, "win_share", "low", "high"),
            marker="o",
            capsize=3,
            label=name,
        )
    ax.axhline(fair, color="#c0392b", linestyle="--", linewidth=1.2, label="fair share")
    ax.set_xticks([s + 1 for s in seats])
    ax.set_xlabel("seat (1 = first to play)")
    ax.yaxis.set_major_formatter(_PERCENT)
    ax.set_ylabel("win share, 95% interval")
    ax.set_title(title, fontsize=11)
    ax.legend(fontsize=8, loc="best")
    return _png(fig)


def score_distribution(rows: Rows, unit: str, title: str) -> bytes:
    """Final scores per strategy, from ``(strategy, score, seats)`` counts."""
    sns.set_theme(style="whitegrid")
    fig, ax = plt.subplots(figsize=(7, 3.8))
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
    ax.set_xlabel(f"final score ({unit})")
    ax.set_ylabel("share of the strategy's games per unit")
    ax.set_title(title, fontsize=11)
    return _png(fig)


def score_trajectory(rows: Rows, unit: str, title: str) -> bytes:
    """Mean score after each tenth of the game (``point`` 1 to 10), one line per ``who``
    (the winner, the others) with its 95% band (``low``, ``high``)."""
    sns.set_theme(style="whitegrid")
    fig, ax = plt.subplots(figsize=(7, 3.8))
    words = {"winner": "eventual winner", "others": "other seats (mean)"}
    for who, colour in (("winner", "#1f77b4"), ("others", "#7f7f7f")):
        mine = sorted((r for r in rows if r["who"] == who), key=lambda r: r["point"])
        x = [10 * int(r["point"]) for r in mine]
        ax.plot(x, [float(r["mean"]) for r in mine], marker="o", color=colour, label=words[who])
        bounded = [r for r in mine if r["low"] is not None]
        ax.fill_between([10 * int(r["point"]) for r in bounded],
                        [float(r["low"]) for r in bounded], [float(r["high"]) for r in bounded],
                        color=colour, alpha=0.2, linewidth=0)  # fmt: skip
    ax.set_xticks(range(10, 101, 10))
    ax.set_xlabel("share of the game's turns played (%)")
    ax.set_ylabel(f"mean score ({unit}), 95% band")
    ax.set_title(title, fontsize=11)
    ax.legend(fontsize=8, loc="upper left")
    return _png(fig)


def forest(
    rows: Rows,
    label: str,
    pooled: tuple[float, float, float] | None,
    title: str,
    xlabel: str,
    points: bool = True,
    size: str | None = None,
    size_word: str = "games",
    by_effect: bool = True,
) -> bytes:
    """One estimate with its interval per row (``estimate``, ``low``, ``high``), a zero line,
    and the pooled estimate as a band; differences of shares are drawn in points. Rows are
    sorted by their estimate, largest at the top (``by_effect=False``: in the given order);
    beside each row its estimate, interval and, with ``size`` (a column of the rows), its
    sample size in ``size_word``."""
    sns.set_theme(style="whitegrid")
    items = sorted(rows, key=lambda r: -float(r["estimate"])) if by_effect else list(rows)
    fig, ax = plt.subplots(figsize=(7, 1.3 + 0.32 * max(2, len(items))))
    ys = list(range(len(items)))
    values = [float(r["estimate"]) for r in items]
    ax.errorbar(
        values,
        ys,
        xerr=_errors(items, "estimate", "low", "high"),
        fmt="o",
        color="#2c3e50",
        ecolor="#7f8c8d",
        capsize=2,
        markersize=4,
    )
    ax.axvline(0, color="black", linewidth=1)
    if pooled is not None:
        estimate, low, high = pooled
        ax.axvspan(low, high, color="#e67e22", alpha=0.25)
        ax.axvline(estimate, color="#e67e22", linewidth=1.5, label="pooled estimate")
        ax.legend(fontsize=8, loc="lower right")
    ax.set_yticks(ys, [str(r[label]) for r in items], fontsize=9)
    # The figures beside the rows, outside the axes: the tight bounding box keeps them whole.
    for y, r in zip(ys, items, strict=True):
        ax.text(
            1.02,
            y,
            _estimate_text(r, points) + (f", {int(r[size]):,} {size_word}" if size else ""),
            transform=ax.get_yaxis_transform(),
            fontsize=8,
            va="center",
        )
    ax.set_ylim(len(items) - 0.5, -0.5)  # first row at the top
    if points:
        ax.xaxis.set_major_formatter(_POINTS)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=11)
    return _png(fig)


def _estimate_text(r: dict[str, Any], points: bool) -> str:
    """``+6.6 [+4.8, +8.4]`` (points for a difference of shares, else two decimals)."""
    scale, digits = (100.0, 1) if points else (1.0, 2)
    text = f"{scale * float(r['estimate']):+.{digits}f}"
    if r.get("low") is None or r.get("high") is None:
        return text
    return f"{text} [{scale * float(r['low']):+.{digits}f}, {scale * float(r['high']):+.{digits}f}]"


def hex_heat(
    cells: Rows,
    values: dict[int, float],
    landmarks: Rows,
    title: str,
    unit: str,
) -> bytes:
    """A hex map of one island (pointy-top axial cells ``q``, ``r``): every cell filled with
    its terrain's colour, an inner hex shaded by ``values`` with a colour bar in ``unit``,
    and landmark glyphs (``kind`` hut/palm/statue, ``cell``, ``strength`` 0..1 how often it
    stood there, optional ``facing``) drawn darker the more often."""
    sns.set_style("white")
    fig, ax = plt.subplots(figsize=(7.2, 6.2))
    centre: dict[int, tuple[float, float]] = {}
    base, fills, inner, shades = [], [], [], []
    for c in cells:
        q, r = int(c["q"]), int(c["r"])
        x, y = math.sqrt(3) * (q + r / 2), -1.5 * r
        centre[int(c["cell"])] = (x, y)
        base.append(RegularPolygon((x, y), numVertices=6, radius=1.0, orientation=0))
        fills.append(TERRAIN_COLOURS.get(str(c["terrain"]), "#dddddd"))
        inner.append(RegularPolygon((x, y), numVertices=6, radius=0.62, orientation=0))
        shades.append(values.get(int(c["cell"]), 0.0))
    ax.add_collection(PatchCollection(base, facecolors=fills, edgecolors="white", linewidths=0.8))
    heat = PatchCollection(inner, cmap="inferno_r", edgecolor="none", alpha=0.9)
    heat.set_array(shades)
    heat.set_clim(0, max(shades, default=0.0) or 1.0)
    ax.add_collection(heat)
    bar = fig.colorbar(heat, ax=ax, shrink=0.7, pad=0.02)
    bar.set_label(unit)
    glyphs = {"hut": "h", "palm": "p", "statue": "s"}
    for lm in landmarks:
        cell = int(lm["cell"])
        if cell not in centre:
            continue
        x, y = centre[cell]
        alpha = 0.25 + 0.75 * min(1.0, max(0.0, float(lm.get("strength", 1.0))))
        ax.text(
            x + 0.45,
            y + 0.45,
            glyphs.get(str(lm["kind"]), "?"),
            fontsize=8,
            fontweight="bold",
            color="#0b3d91",
            alpha=alpha,
            ha="center",
            va="center",
        )
        facing = lm.get("facing")
        if facing is not None and int(facing) >= 0:
            angle = math.radians(-60 * int(facing))  # 0 east, clockwise on screen
            ax.arrow(
                x,
                y,
                0.7 * math.cos(angle),
                0.7 * math.sin(angle),
                width=0.06,
                color="#0b3d91",
                alpha=alpha,
                length_includes_head=True,
            )
    handles = [Patch(facecolor=col, label=name) for name, col in TERRAIN_COLOURS.items()]
    ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(0.0, -0.01),
        ncol=6,
        fontsize=8,
        frameon=False,
        title="terrain (letters: h hut, p palm, s statue)",
        title_fontsize=8,
    )
    ax.autoscale_view()
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title, fontsize=11)
    return _png(fig)


def bust_vs_exact(rows: Rows, title: str) -> bytes:
    """Observed bust rate (95% interval) and the exact chance, by kinds in play."""
    sns.set_theme(style="whitegrid")
    fig, ax = plt.subplots(figsize=(7, 3.8))
    used = [r for r in rows if int(r["kinds_in_play"]) > 0]
    x = [int(r["kinds_in_play"]) for r in used]
    ax.errorbar(
        x,
        [float(r["observed"]) for r in used],
        yerr=_errors(used, "observed", "low", "high"),
        fmt="o",
        capsize=3,
        label="observed (95% interval)",
    )
    ax.plot(x, [float(r["exact"]) for r in used], "-", color="black", label="exact chance")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_formatter(_PERCENT)
    ax.set_xlabel("kinds in the play area before the draw")
    ax.set_ylabel("bust rate of a blind draw")
    ax.set_title(title, fontsize=11)
    ax.legend()
    return _png(fig)


def plunder_sizes(rows: Rows, title: str) -> bytes:
    """Share of plunders by cards banked, one bar group per strategy."""
    sns.set_theme(style="whitegrid")
    fig, ax = plt.subplots(figsize=(7, 3.8))
    sns.barplot(
        x=[int(r["cards"]) for r in rows],
        y=[float(r["share"]) for r in rows],
        hue=[str(r["strategy"]) for r in rows],
        ax=ax,
    )
    ax.yaxis.set_major_formatter(_PERCENT)
    ax.set_xlabel("cards banked by a plunder")
    ax.set_ylabel("share of the strategy's plunders")
    ax.set_title(title, fontsize=11)
    return _png(fig)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _cell(value: object) -> str:
    """A parameter value as a rules file writes it (``true``, ``4``, ``seat0``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def sweep_lines(
    rows: Rows,
    x: str,
    hue: str | None,
    metric: tuple[str, str, str],
    what: str,
    unit: str,
    base: dict[str, Any],
    base_name: str,
    paired: tuple[str, str, str] | None = None,
    points: bool = False,
) -> bytes:
    """A metric over a swept parameter ``x`` with its 95% interval (one series per value of
    ``hue``; ``metric`` names the estimate, low and high columns, ``what`` says what it is, in
    ``unit``; the title gives the rows' ``games`` per point), and below it each point's paired
    difference from the base rules' point (``paired``: its estimate, low and high columns; a
    null interval draws the point alone). ``base`` holds the base rules' value of
    each parameter, ``base_name`` names those rules: their value of ``x`` is a labelled
    vertical line, their series of ``hue`` is named so. Without ``paired`` columns (the grid
    does not hold the base point) the lower panel says so. A whole-number parameter gets
    whole-number ticks, a name or true/false one a tick per value; ``points`` draws shares
    (and their differences) in percentage points."""
    sns.set_theme(style="whitegrid")
    fig, (top, low_ax) = plt.subplots(
        2, 1, figsize=(6.5, 6.2), sharex=True, gridspec_kw={"height_ratios": [3, 2]}
    )
    values = list(dict.fromkeys(r[x] for r in rows))
    numeric = all(_is_number(v) for v in values)
    # A name or true/false is drawn at evenly spaced positions, in the order given.
    if numeric:
        values.sort()
    where = {v: (float(v) if numeric else float(k)) for k, v in enumerate(values)}
    _sweep_series(top, low_ax, rows, x, hue, metric, base, base_name, paired, where, numeric)
    _base_marks(top, low_ax, x, unit, base, base_name, paired is not None, where, numeric)
    if numeric and all(isinstance(v, int) for v in values):
        if len(values) <= 12:
            low_ax.set_xticks([float(v) for v in values], [str(v) for v in values])
        else:
            low_ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    elif not numeric:
        low_ax.set_xticks(list(where.values()), [_cell(v) for v in values])
        low_ax.set_xlim(-0.5, len(values) - 0.5)
    if points:
        for ax in (top, low_ax):
            ax.yaxis.set_major_formatter(_POINTS)
    top.set_ylabel(f"{what}, {unit}")
    low_ax.set_xlabel(x)
    games = sorted({int(r["games"]) for r in rows})
    top.set_title(
        f"{what.capitalize()} by {x}, 95% interval {'band' if numeric else 'bars'}\n"
        f"({'/'.join(f'{g:,}' for g in games)} games per point)",
        fontsize=11,
    )
    if top.get_legend_handles_labels()[0]:
        # Beside the panels, so that it never hides a point.
        top.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return _png(fig)


def _sweep_series(
    top: Axes,
    low_ax: Axes,
    rows: Rows,
    x: str,
    hue: str | None,
    metric: tuple[str, str, str],
    base: dict[str, Any],
    base_name: str,
    paired: tuple[str, str, str] | None,
    where: dict[Any, float],
    numeric: bool,
) -> None:
    """Each series of ``hue``: the metric with its interval on top, and each point's paired
    difference from the base point below in the series' colour (see :func:`sweep_lines`)."""
    groups: dict[object, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(r[hue] if hue else "", []).append(r)
    # Dodge the difference panel's series a little so that their bars do not hide each other.
    gaps = [b - a for a, b in itertools.pairwise(sorted(where.values()))]
    step = 0.08 * min(gaps, default=1.0)
    estimate, low, high = metric
    for k, (key, group) in enumerate(groups.items()):
        items = sorted(group, key=lambda r: where[r[x]])
        xs = [where[r[x]] for r in items]
        label = None
        if hue:
            label = f"{hue}={_cell(key)}" + (f" ({base_name})" if key == base.get(hue) else "")
        shift = (k - (len(groups) - 1) / 2) * step
        if numeric:
            line = top.plot(xs, [r[estimate] for r in items], marker="o", label=label)[0]
            top.fill_between(xs, [r[low] for r in items], [r[high] for r in items], alpha=0.2)
        else:  # nothing lies between two names: no line, no band
            line = top.errorbar(
                [v + shift for v in xs],
                [r[estimate] for r in items],
                yerr=_errors(items, estimate, low, high),
                fmt="o",
                capsize=3,
                label=label,
            ).lines[0]
        if paired is None:
            continue
        d, d_low, d_high = paired
        for r in items:
            bounded = r[d_low] is not None and r[d_high] is not None
            low_ax.errorbar(
                [where[r[x]] + shift],
                [r[d]],
                yerr=_errors([r], d, d_low, d_high) if bounded else None,
                fmt="o",
                color=line.get_color(),
                capsize=3,
                markersize=4,
            )


def _base_marks(
    top: Axes,
    low_ax: Axes,
    x: str,
    unit: str,
    base: dict[str, Any],
    base_name: str,
    paired: bool,
    where: dict[Any, float],
    numeric: bool,
) -> None:
    """The base rules' value of ``x`` as a labelled vertical line, and the lower panel's
    title naming the base point (or, without paired differences, why there are none)."""
    mark = base.get(x)
    if mark is not None and ((numeric and _is_number(mark)) or mark in where):
        at = float(mark) if numeric else where[mark]
        run = "" if mark in where else ", not in the sweep"
        for ax in (top, low_ax) if paired else (top,):
            ax.axvline(at, color="#c0392b", linestyle="--", linewidth=1.2)
        top.plot(
            [], [], color="#c0392b", linestyle="--", label=f"{base_name}: {x}={_cell(mark)}{run}"
        )
    point = ", ".join(f"{k}={_cell(v)}" for k, v in base.items())
    if paired:
        low_ax.axhline(0, color="black", linewidth=1)
        low_ax.set_ylabel(f"B - A, {unit}")
        low_ax.set_title(
            f"B - A: each point minus the {base_name} point ({point}),\n"
            "paired on the same seed blocks, 95% interval",
            fontsize=9,
        )
    else:
        low_ax.text(
            0.5,
            0.5,
            f"No paired differences: the sweep did not run\nthe {base_name} point ({point}).",
            transform=low_ax.transAxes,
            ha="center",
            va="center",
            fontsize=9,
        )
        low_ax.set_yticks([])


def matrix(rows: Rows, row_key: str, col_key: str, value: str, title: str, label: str) -> bytes:
    """A square table of shares as a heat map (``row_key`` by ``col_key``, cells ``value``), each
    cell annotated in percent; a missing pair stays blank."""
    sns.set_theme(style="white")
    names = sorted({str(r[row_key]) for r in rows} | {str(r[col_key]) for r in rows})
    grid = [[math.nan] * len(names) for _ in names]
    for r in rows:
        grid[names.index(str(r[row_key]))][names.index(str(r[col_key]))] = float(r[value])
    size = 1.2 + 0.9 * len(names)
    fig, ax = plt.subplots(figsize=(size + 1.5, size))
    sns.heatmap(
        grid,
        ax=ax,
        vmin=0,
        vmax=1,
        cmap="RdBu",
        annot=[[("" if math.isnan(v) else f"{100 * v:.0f}%") for v in row] for row in grid],
        fmt="",
        xticklabels=names,
        yticklabels=names,
        cbar_kws={"label": label, "format": _PERCENT},
        linewidths=0.5,
        linecolor="white",
    )
    ax.set_xlabel("opponent")
    ax.set_ylabel("strategy")
    ax.set_title(title, fontsize=11)
    return _png(fig)
