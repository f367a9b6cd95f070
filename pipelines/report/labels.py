"""What the findings' scopes are called (a cohort by its short name and games, a pairing by
what it compares) and the findings grouped under them, for every format of the report."""

from __future__ import annotations

from pipelines.report.data import Finding, ReportData
from reports import numbers


def scope_labels(data: ReportData) -> dict[str, str]:
    """What each finding's scope is called on the page."""
    labels = {}
    for r in data.cohorts:
        rows = r.rows("game_length")
        games = sum(int(x["reported"]) for x in rows)
        cut = games - sum(int(x["finished"]) for x in rows)
        what = f"games, {numbers.count(cut)} of them unfinished" if cut else "finished games"
        labels[f"cohort:{r.cohort.index}"] = f"{r.cohort.label} ({numbers.count(games)} {what})"
    for p in data.pairs:
        changes = "; ".join(p.pairing.changes)
        labels[f"pairing:{p.pairing.index}"] = (
            f"Paired comparison, {p.pairing.title} [{changes}] ({p.pairing.label})"
        )
    return labels


#: What the findings say when the games support none (say, no game reached its natural end).
NO_FINDINGS = (
    "None: these games support no statement (too few of them reached their natural end, or "
    "there is nothing to compare)."
)


def grouped_findings(data: ReportData) -> list[tuple[str, list[Finding]]]:
    """The findings in the order found, grouped under their scope's label."""
    labels = scope_labels(data)
    groups: list[tuple[str, list[Finding]]] = []
    for f in data.findings:
        label = labels.get(f.scope, "All runs")
        if not groups or groups[-1][0] != label:
            groups.append((label, []))
        groups[-1][1].append(f)
    return groups
