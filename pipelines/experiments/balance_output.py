"""What ``tourney balance`` writes and prints: ``balance.json`` (the whole result),
``trials.csv`` (a row per candidate of the search), one rules TOML per recommended setting
under ``rules/`` (a file ``tourney simulate --rules`` takes: the base rules' preset, what the
study's base rules change in it, and the setting), the page (``balance.html``) and the
summary on stdout, answer first. Every file is written whole or not at all."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pipelines.experiments.balance_confirm import setting
from pipelines.experiments.tune_output import write_text
from sim.runner.games import Rules, game_kind


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def rules_text(base: Rules, params: dict[str, Any], study: str) -> str:
    """A rules file of ``params`` over ``base``: its preset, the keys ``base`` sets apart
    from that preset, and ``params``."""
    preset = game_kind(base.game).load_rules(base.preset).to_dict()
    mine = base.to_dict()
    keys = {k: v for k, v in mine.items() if k != "preset" and preset.get(k) != v}
    keys.update(params)
    lines = [
        f"# Written by tourney balance from {study}:",
        f"# {setting(params)}, confirmed on fresh seeds against the base rules.",
        f"preset = {_toml(base.preset)}",
        *(f"{k} = {_toml(v)}" for k, v in keys.items()),
    ]
    return "\n".join(lines) + "\n"


def rules_name(params: dict[str, Any]) -> str:
    """A file name for a setting: ``hand_size-5_curse_count-1.toml``."""
    text = "_".join(f"{k}-{_toml(v).strip(chr(34))}" for k, v in params.items())
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text) + ".toml"


def trials_csv(result: dict[str, Any]) -> str:
    """A row per candidate: its number, setting, rung, games and each objective with its
    interval."""
    keys = [d["key"] for d in result["space"]]
    names = [o["name"] for o in result["objectives"]]
    header = ["number", *keys, "rung", "games", "repeat_of"]
    header += [f"{n}{s}" for n in names for s in ("", "_low", "_high")]
    lines = [",".join(header)]
    for r in result["trials"]:
        cells = [
            r["number"],
            *(r["params"][k] for k in keys),
            r["rung"] + 1,
            r["games"],
            r.get("repeat_of", ""),
        ]
        for m in range(len(names)):
            cells += [r["values"][m], r["low"][m], r["high"][m]]
        lines.append(",".join(_toml(c).strip('"') if c != "" else "" for c in cells))
    return "\n".join(lines) + "\n"


def write_outputs(out: Path, result: dict[str, Any], base: Rules, page: str) -> list[Path]:
    """Every file of the study into ``out``; the rules files written."""
    written = []
    conf = result["confirmation"]
    for c in conf["candidates"] if conf else []:
        if c["recommended"]:
            path = out / "rules" / rules_name(c["params"])
            write_text(path, rules_text(base, c["params"], result["study"]), "--out")
            c["rules_file"] = str(path)
            written.append(path)
    write_text(out / "balance.json", json.dumps(result, indent=1) + "\n", "--out")
    write_text(out / "trials.csv", trials_csv(result), "--out")
    write_text(out / "balance.html", page, "--out")
    return written


def summary_lines(result: dict[str, Any], out: Path) -> list[str]:
    """The answer first, then the confirmed table and where the files are."""
    lines = list(result["headline"])
    conf = result["confirmation"]
    names = [o["name"] for o in result["objectives"]]
    lines.append("")
    lines.append(
        f"search: {result['candidates_searched']} candidates, {result['search_games']:,} games "
        f"on the same seed blocks (rungs of {', '.join(f'{g:,}' for g in result['rung_games'])} "
        "games)"
        + (
            f"; the whole grid at the last rung would take {result['grid_games']:,}"
            if result["grid_games"]
            else ""
        )
    )
    if conf:
        lines.append(f"confirmation: {conf['method']}")
        for c in conf["candidates"]:
            lines.append(
                f"  {setting(c['params'])}: "
                + ("recommended" if c["recommended"] else "not separated from the rulebook")
            )
            for m, p in enumerate(c["objectives"]):
                low, high = p["interval"]
                rlow, rhigh = p["rulebook_interval"]
                dlow, dhigh = p["difference_interval"]
                lines.append(
                    f"    {names[m]}: {p['value']:.2f} [{low:.2f}, {high:.2f}] against the "
                    f"rulebook's {p['rulebook']:.2f} [{rlow:.2f}, {rhigh:.2f}]; difference "
                    f"{p['difference']:+.2f} [{dlow:+.2f}, {dhigh:+.2f}]"
                )
    for c in conf["candidates"] if conf else []:
        if c.get("rules_file"):
            lines.append(f"rules file: {c['rules_file']} (tourney simulate --rules FILE)")
    lines.append(f"page, balance.json, trials.csv: {out}")
    return lines
