"""The page of a balance study (``balance.html``): the headline (the confirmed answer, or
that the rulebook is within noise of the best found), the confirmed table (each candidate
and objective against the rulebook on fresh seeds, every figure with its interval and
games), the search (the objective over the candidates, or their Pareto front), one figure per
parameter's effect, and the study itself. Rendered by the report's own templates
(:func:`reports.documents.html_page`)."""

from __future__ import annotations

from typing import Any

from reports import balance_figures
from reports.blocks import Bullets, Cell, Figure, Paragraph, Section, Table
from reports.documents import html_page


def axis_label(objective: dict[str, Any]) -> str:
    """An objective as a table column or an axis names it: its name, what a target makes of
    it and its unit ("game length: distance from 30, turns", not "game length, turns", for
    an objective whose value is the distance)."""
    name = str(objective["name"])
    at = objective.get("at")
    if at is not None:  # a trajectory measure's tenth: "score gap after 5/10 of the game"
        name = name.replace(f":{at}", f" after {at}/10 of the game", 1)
    name = name.replace("_", " ")
    target = objective.get("target")
    if target is not None:
        name += f": distance from {target:g}"
    return f"{name}, {objective['unit']}"


def _fig(value: float, low: float, high: float) -> str:
    return f"{value:.2f} [{low:.2f}, {high:.2f}]"


def _confirmed(result: dict[str, Any]) -> Section:
    conf = result["confirmation"]
    labels = [axis_label(o) for o in result["objectives"]]
    if conf is None:
        return Section(
            "answer",
            "Confirmed answer",
            "Nothing to confirm.",
            (Paragraph("The search's best setting is the rulebook's own."),),
            folded=True,
        )
    rows = []
    for c in conf["candidates"]:
        where = ", ".join(f"{k}={v}" for k, v in c["params"].items())
        said = "recommended" if c["recommended"] else "not recommended"
        for m, p in enumerate(c["objectives"]):
            verdict = "better" if p["better"] else "worse" if p["worse"] else "within noise"
            low, high = p["difference_interval"]
            c_low, c_high = p["difference_interval_corrected"]
            rows.append(
                (
                    Cell(where, said) if m == 0 else "",
                    labels[m],
                    _fig(p["value"], *p["interval"]),
                    _fig(p["rulebook"], *p["rulebook_interval"]),
                    Cell(
                        f"{p['difference']:+.2f} [{low:+.2f}, {high:+.2f}]",
                        f"corrected [{c_low:+.2f}, {c_high:+.2f}]",
                    ),
                    Cell(verdict, f"detectable: {p['detectable']:.2f}"),
                )
            )
    table = Table(
        (
            "setting",
            "objective",
            "candidate, 95%",
            "rulebook, 95%",
            "candidate - rulebook, 95%",
            "verdict",
        ),
        tuple(rows),
    )
    return Section(
        "answer",
        "Confirmed answer",
        f"The search's best, played again on {conf['games']:,} fresh games a setting "
        f"({conf['blocks']:,} seed blocks the search never saw), paired against the rulebook.",
        (
            table,
            Paragraph(
                f"Corrected: the interval at alpha 0.05 / {conf['tests']} (Bonferroni over "
                "every candidate and objective confirmed), which decides the verdict; "
                "detectable: the difference the confirmation would have detected 80% of the "
                "time (two-sided 5%).",
                "note",
            ),
            Paragraph(conf["method"], "note"),
        ),
    )


def _search(result: dict[str, Any]) -> Section:
    objectives = result["objectives"]
    labels = [axis_label(o) for o in objectives]
    rows = [r for r in result["trials"] if "repeat_of" not in r]
    full = [r for r in rows if r["rung"] == len(result["rung_games"]) - 1]
    base = next((r for r in full if r["params"] == result["rulebook"]), None)
    blocks: list[Any] = [
        Paragraph(
            f"{result['candidates_searched']} candidates, {result['search_games']:,} games, every "
            f"candidate on the same seed blocks; rungs of "
            f"{', '.join(f'{g:,}' for g in result['rung_games'])} games, a candidate going on only "
            f"when it ranks in the best 1/{result['budget']['eta']} of those that reached its "
            "rung (successive halving). Search figures are optimistic for the best: they picked it."
        )
    ]
    if len(objectives) >= 2:
        front = {int(r["number"]) for r in _front(full, objectives)}
        png = balance_figures.pareto(
            full, front, (labels[0], labels[1]), None if base is None else base["values"][:2]
        )
        blocks.append(
            Figure(
                png,
                "Pareto front of the search",
                "Every candidate that played "
                "every rung; blue: the Pareto front; star: the rulebook.",
            )
        )
    for m, label in enumerate(labels):
        png = balance_figures.search_progress(
            rows, m, label, None if base is None else base["values"][m]
        )
        blocks.append(
            Figure(
                png,
                f"{label} over the search",
                "Each candidate at the last rung it reached; darker: more games.",
            )
        )
    return Section("search", "The search", "What the search played and found.", tuple(blocks))


def _front(rows: list[dict[str, Any]], objectives: list[dict[str, Any]]) -> list[dict[str, Any]]:
    sign = [1.0 if o["direction"] == "minimize" else -1.0 for o in objectives]
    signed = [[s * v for s, v in zip(sign, r["values"], strict=True)] for r in rows]

    def dominated(a: list[float]) -> bool:
        return any(all(x <= y for x, y in zip(b, a, strict=True)) and b != a for b in signed)

    return [r for r, s in zip(rows, signed, strict=True) if not dominated(s)]


def _parameters(result: dict[str, Any]) -> Section:
    labels = [axis_label(o) for o in result["objectives"]]
    rows = [r for r in result["trials"] if "repeat_of" not in r]
    blocks = tuple(
        Figure(
            balance_figures.parameter_effect(
                rows, d["key"], labels, result["rulebook"].get(d["key"])
            ),
            f"effect of {d['key']}",
            f"Every candidate of the search against {d['key']}.",
        )
        for d in result["space"]
    )
    return Section(
        "parameters", "Each parameter's effect", "Search figures, on the search's seeds.", blocks
    )


def who(result: dict[str, Any], long: bool = False) -> str:
    """The study's players: its lineup, or its pool and table sizes."""
    if not result.get("pool"):
        players = ", ".join(result["players"])
        return f"players: {players} (every seat rotation of each deal)" if long else players
    sizes = ", ".join(str(s) for s in result["table_sizes"])
    pool = f"pool of {len(result['pool'])} ({', '.join(result['pool'])}) at {sizes} players"
    if not long:
        return pool
    return (
        f"{pool} (every combination of its members at each table size, every seat rotation of "
        "each deal; each objective measured at each table size apart)"
    )


def _study(result: dict[str, Any]) -> Section:
    space = []
    for d in result["space"]:
        if d["kind"] == "choice":
            space.append(f"{d['key']}: one of {', '.join(map(str, d['choices']))}")
        else:
            step = f" in steps of {d['step']:g}" if d.get("step") else ""
            space.append(f"{d['key']}: {d['kind']} from {d['low']:g} to {d['high']:g}{step}")
    items = (
        f"study file: {result['study']}",
        f"game: {result['game']}; {who(result, long=True)}; base rules: {result['rules']}; "
        f"engine: {result['engine']}"
        + (f" ({result['engine_why']})" if result.get("engine_why") else ""),
        *space,
        *(f"constraint: {c}" for c in result["constraints"]),
        *(f"objective: {o['words']}" for o in result["objectives"]),
        "budget: " + ", ".join(f"{k} {v:,}" for k, v in result["budget"].items()),
    )
    return Section("study", "The study", "What was asked.", (Bullets(items, "runs"),))


def balance_html(result: dict[str, Any]) -> str:
    """The whole page."""
    title = f"tourney balance: {result['description'] or result['study']}"
    subtitle = (
        f"{result['game']}, {who(result)}; the search's figures are on its own "
        "seeds, the answer's on fresh ones; every interval 95%."
    )
    sections = [_confirmed(result), _search(result), _parameters(result), _study(result)]
    return html_page(title, subtitle, sections, result["headline"])
