"""Numbers written for people: percentages with one decimal, intervals in brackets, counts
with thousands separators, p-values that never print as zero.

Every page, table and console line of the product formats its figures here, so that the same
figure reads the same everywhere.
"""

from __future__ import annotations

import math

#: Written instead of an interval for a mean over too few seed blocks to bound it.
TOO_FEW_BLOCKS = "too few blocks for an interval"


def count(n: float) -> str:
    """``1234567`` -> ``1,234,567``."""
    return f"{round(n):,}"


def pct(share: float, digits: int = 1) -> str:
    """A share (0..1) as a percentage: ``0.3551`` -> ``35.5%``; a share that is not zero but
    rounds to it says so (``0.000013`` -> ``< 0.01%`` at two digits), so a rare fault never
    reads as none."""
    floor = 10.0**-digits
    if 0 < 100 * share < floor / 2:
        return f"< {floor:.{digits}f}%"
    return f"{100 * share:.{digits}f}%"


def points(diff: float, digits: int = 1, signed: bool = True) -> str:
    """A difference of shares in percentage points: ``0.06`` -> ``+6.0 points``. A magnitude
    (``signed=False``) that is not zero but rounds to it says so (``< 0.1 points``): an
    effect a run could have detected never reads as none."""
    floor = 10.0**-digits
    if not signed and 0 < abs(100 * diff) < floor / 2:
        return f"< {floor:.{digits}f} points"
    return f"{100 * diff:{'+' if signed else ''}.{digits}f} points"


def interval(low: float, high: float, scale: float = 100.0, digits: int = 1) -> str:
    """``[low, high]`` scaled (shares to percent by default): ``[35.4, 35.6]``."""
    return f"[{scale * low:.{digits}f}, {scale * high:.{digits}f}]"


def number(x: float, digits: int = 2, signed: bool = False) -> str:
    """A plain number with ``digits`` decimals and thousands separators."""
    if math.isnan(x):
        return "n/a"
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    return f"{x:{'+' if signed else ''},.{digits}f}"


def p_value(p: float) -> str:
    """``p = 0.66``, ``p = 0.0012``, ``p < 0.0001``: small values never print as zero."""
    if math.isnan(p):
        return "p = n/a"
    if p < 0.0001:
        return "p < 0.0001"
    if p < 0.01:
        return f"p = {p:.4f}"
    return f"p = {p:.2f}"


def amount(x: float, unit: str, singular: str = "", digits: int = 2) -> str:
    """A quantity with its unit and no trailing zeros, singular for exactly one:
    ``amount(1.0, "turns", "turn")`` -> ``1 turn``; ``amount(2.5, "points")`` -> ``2.5 points``."""
    text = f"{x:,.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text == "-0":
        text = "0"
    return f"{text} {singular if singular and text in ('1', '-1') else unit}"


def counted(n: int, singular: str, plural: str = "") -> str:
    """A count with its noun in the right number: ``counted(1, "run")`` -> ``1 run``,
    ``counted(2, "set", "sets")`` -> ``2 sets`` (the plural defaults to ``singular + "s"``)."""
    return f"{count(n)} {singular if n == 1 else plural or singular + 's'}"


def signed_interval(low: float, high: float, scale: float = 100.0, digits: int = 1) -> str:
    """An interval of differences with signs: ``[-1.7, +0.9]`` (shares to points by default)."""
    return f"[{scale * low:+.{digits}f}, {scale * high:+.{digits}f}]"
