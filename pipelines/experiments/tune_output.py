"""What ``tourney tune`` writes and prints: the spec TOML of the best setting (written whole
or not at all, its path checked before any game) and the summary, answer first."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from pipelines.experiments.tune_select import points
from sim.errors import InputError


def write_spec(path: Path, result: dict[str, Any], games: int) -> None:
    """A spec TOML for ``tourney simulate``: the best setting against the field."""
    players = [result["best"]["setting"], *result["field"]]
    lines = [
        f"# Written by tourney tune: the best setting of {result['strategy']} against the field.",
        f"description = {_toml_str('tuned ' + result['best']['setting'])}",
        f"game = {_toml_str(result['game'])}",
        "players = [" + ", ".join(_toml_str(p) for p in players) + "]",
        f"games = {games}",
    ]
    if result["rules"]:
        lines.append(f"rules = {_toml_str(str(result['rules']))}")
    if result.get("islands"):
        lines.append(f"islands = {_toml_str(str(result['islands']))}")
    write_text(path, "\n".join(lines) + "\n", "--write")


def write_text(path: Path, text: str, what: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file, then a rename);
    ``InputError`` names ``what`` and the path when it cannot be written."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text)
        tmp.replace(path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise InputError(f"{what} {path}: cannot write it ({exc.strerror or exc})") from None


def check_writable(path: Path, what: str, directory: bool) -> None:
    """``InputError`` unless ``path`` is (or can become) a directory, or a file, as asked:
    checked before any game is played."""
    if directory:
        if path.exists() and not path.is_dir():
            raise InputError(f"{what} {path}: not a directory")
        return
    if path.is_dir():
        raise InputError(f"{what} {path}: a directory (give the spec file's path)")
    parent = path.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise InputError(f"{what} {path}: {parent} is not a directory")


def _toml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _pct(e: dict[str, Any]) -> str:
    low, high = e["interval"]
    if e["mean"] is None:
        return "no games"
    if low is None:
        return f"{100 * e['mean']:.1f}% (one block: no interval)"
    return f"{100 * e['mean']:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def format_summary(result: dict[str, Any]) -> list[str]:
    """The answer first (the best setting, its gain over the default on fresh seeds, where
    the optimum may lie), then the rounds."""
    best, default = result["best"], result["default"]
    lines = []
    if result["unfinished_games"]:
        lines.append(
            f"warning: {result['unfinished_games']:,} games did not end naturally (turn cap, "
            "deadlock or timeout) and are left out of the win shares"
        )
    field_text = ", ".join(result["field"])
    confirmation = result["confirmation"]
    if confirmation is not None and not confirmation.get("confirmed", True):
        lines.append(f"no best setting confirmed against {field_text}")
        lines.append(f"  {confirmation['verdict']}")
    else:
        lines.append(f"best setting: {best['setting']} against {field_text}")
    if confirmation is not None:
        # The figure to quote comes from games the setting was not picked on.
        lines.append(
            f"  win share {_pct(confirmation['best'])} on fresh seeds "
            f"({confirmation['best']['blocks']:,} seed blocks); in the search it was "
            f"{_pct(best)}, optimistic: picked as the best on those games"
        )
    else:
        lines.append(
            f"  win share {_pct(best)} over {best['blocks']:,} seed blocks of the search "
            "(optimistic: picked as the best on those games; no confirmation played)"
        )
    if best["setting"] == default["setting"]:
        lines.append("  the untuned default is the best setting: nothing to confirm")
    elif confirmation is not None:
        lines.append(
            f"  confirmation on fresh seeds ({confirmation['games_per_setting']:,} games each): "
            f"{_pct(confirmation['best'])} against the default's "
            f"{_pct(confirmation['default'])}; {confirmation['default_verdict']}"
        )
        if confirmation.get("runner_up") is not None:
            lines.append(
                f"  against the runner-up {confirmation['runner_up']['setting']} "
                f"({_pct(confirmation['runner_up'])}): best - runner-up "
                f"{points(confirmation['difference_runner_up'])}"
            )
    ranges = result["plausible_ranges"]
    plausible = ", ".join(
        f"{k} in [{v[0]}, {v[1]}]"
        if v and not isinstance(v[0], str)
        else f"{k} in {{{', '.join(map(str, v))}}}"
        for k, v in ranges.items()
    )
    lines.append(
        f"  plausible optimum ({len(result['plausible'])} of {result['settings']} settings not "
        f"shown worse than the best in any round, allowing for the {result['settings'] - 1} "
        "comparisons in each): "
        f"{plausible}"
    )
    for name in result["best_at_edge"]:
        lines.append(
            f"  note: the best {name} is at the edge of its range: the optimum may lie beyond "
            "it (widen the range)"
        )
    for rnd in result["rounds"]:
        lines.append(
            f"round {rnd['round']}: {len(rnd['settings'])} settings x "
            f"{rnd['games_per_setting']:,} games (seed {rnd['seed']})"
        )
        for row in rnd["settings"]:
            lines.append(f"  {row['setting']:<40} {_pct(row)}")
    lines.append(f"spec written: {result.get('spec_written', '-')} (tourney simulate FILE)")
    return lines
