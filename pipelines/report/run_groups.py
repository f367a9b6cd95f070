"""Which runs given to one report may be pooled, and which form paired comparisons.

Runs are pooled into one **cohort** only when they played the same game under the same
resolved rules (rules hash), with the same lineup on the same islands: the same players, or
the same pool at the same table sizes (a pool run is never pooled with a fixed-lineup run,
even of the same strategies): anything else would mix unlike games in one win rate. Within a
cohort the tables are still split by player count, so a pool's games of different table
sizes are never pooled either (only the ratings are fitted over every size at once, as a
model of finishing orders that holds at any table size).

Runs that share their seeds (the same game, root seed, seating, islands and lineup shape:
number of players, or pool size and table sizes) but differ in exactly one factor are
**paired**: the rules (a variant, or an
ablation such as the same rules without curses) or one player's strategy. The first run of
such a seed-matched family is the reference A and every other member is compared with it as
B (an ablation is always B, the rules it was made from A), game by game on the same seeds.

The same games given twice (one directory twice, or two runs of one spec and seed) would
count every game twice: that is refused.

Runs are pooled only when the same **code** played them (their manifests' code identities
agree: :func:`sim.runner.code_identity.differences`): two versions of a plug-in strategy
or engine under one label would report the average of two players as one. Such runs are
refused, naming the runs and what differs, unless mixed code is allowed: each code is then a
cohort of its own, labelled with its identity.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipelines.metrics.source import RunInfo
from sim.errors import InputError
from sim.runner.code_identity import CodeIdentity, describe, differences
from sim.runner.games import GAMES


@dataclass(frozen=True)
class Cohort:
    """Runs pooled together: one game, one rules hash, one lineup, one island set."""

    index: int
    runs: tuple[RunInfo, ...]
    #: The code that played the runs, for people, when runs of the same lineup were played by
    #: other code too (then in every such cohort's label); empty otherwise.
    code: str = ""

    @property
    def first(self) -> RunInfo:
        return self.runs[0]

    @property
    def game(self) -> str:
        return self.first.game

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(str(p) for p in self.first.manifest["spec"]["players"])

    @property
    def table_sizes(self) -> tuple[int, ...]:
        """The player counts of the cohort's games."""
        return lineup_shape(self.first)[1]

    @property
    def rules(self) -> str:
        return rules_name(self.first)

    @property
    def label(self) -> str:
        """The cohort's name: its first run's short name (with the other runs counted)."""
        more = len(self.runs) - 1
        code = f" [code: {self.code}]" if self.code else ""
        pooled = f" (+{more} pooled run{'s' * (more > 1)})" if more else ""
        return short_label(self.first) + code + pooled


@dataclass(frozen=True)
class Pairing:
    """Two seed-matched runs that differ in one factor: B compared with A on the same seeds."""

    index: int
    a: RunInfo
    b: RunInfo
    #: An ablation's name (one of the game's ``ablations``, Tobago: ``curses``), ``rules``
    #: (a rules variant) or ``strategy``.
    factor: str
    #: What differs, for people: rules keys ``key: a -> b``, or the swapped strategies.
    changes: tuple[str, ...]
    #: For a strategy swap: the player slot that differs (its strategy in A and in B).
    slot: int | None = None

    @property
    def label(self) -> str:
        """``A = ..., B = ...; B - A``."""
        return f"A = {short_label(self.a)}, B = {short_label(self.b)}; B - A"

    @property
    def sign(self) -> str:
        """The one sign convention of the comparison's differences, said once where they are
        shown: ``Differences are B - A: <B> minus <A> ...``."""
        return (
            f"Differences are B - A: {short_label(self.b)} (B) minus {short_label(self.a)} (A), "
            "game by game on the same seeds; a positive value is higher in B"
        )

    @property
    def ablation(self) -> bool:
        """Whether B is A without one of its game's ablatable parts (``factor`` names it)."""
        return self.factor not in ("rules", "strategy") and self.factor in _ablations(self.a)

    @property
    def title(self) -> str:
        if self.ablation:
            return f"what {self.factor} do: {rules_name(self.a)} against the same without them"
        if self.factor == "strategy" and self.slot is not None:
            a = self.a.manifest["spec"]["players"][self.slot]
            b = self.b.manifest["spec"]["players"][self.slot]
            return f"{b} in place of {a}"
        return f"{rules_name(self.b)} against {rules_name(self.a)}"


@dataclass(frozen=True)
class Groups:
    """The cohorts and pairings of the runs given to a report."""

    runs: tuple[RunInfo, ...]
    cohorts: tuple[Cohort, ...]
    pairings: tuple[Pairing, ...]

    def cohort_of(self, run: RunInfo) -> Cohort:
        return next(c for c in self.cohorts if any(r is run for r in c.runs))


def rules_name(run: RunInfo) -> str:
    """The run's rules for people: a preset's name, a rules file's name (never the preset it
    starts from), with an ablation spelt out."""
    source = str(run.manifest["spec"].get("rules", ""))
    base, without, ablation = source.partition(" without ")
    name = Path(base).name if base.endswith(".toml") else base
    return f"{name}{without}{ablation}"


def run_label(run: RunInfo) -> str:
    """The run's label as its manifest records it, or one made from its rules and players."""
    label = run.manifest.get("label")
    if label:
        return str(label)
    players = ", ".join(str(p) for p in run.manifest["spec"]["players"])
    pool, sizes = lineup_shape(run)
    if pool:
        players = f"pool {players} at {', '.join(str(n) for n in sizes)} players"
    return f"{rules_name(run)}: {players}"


def short_label(run: RunInfo) -> str:
    """The run's short name on a page: the last part of where it is (``demo``,
    ``demo-without-curses``); its long label is said once, in the list of runs."""
    return run.where.rstrip("/").rsplit("/", 1)[-1] or run.where


def _spec(run: RunInfo) -> dict[str, Any]:
    spec: dict[str, Any] = run.manifest["spec"]
    return spec


def lineup_shape(run: RunInfo) -> tuple[bool, tuple[int, ...]]:
    """Whether the run's players are a pool, and the player counts of its games."""
    s = _spec(run)
    if s.get("pool"):
        return True, tuple(int(n) for n in s["table_sizes"])
    return False, (len(s["players"]),)


def _same_games_key(run: RunInfo) -> tuple[Any, ...]:
    """Runs with equal keys hold the very same games (one may have more of them)."""
    s = _spec(run)
    return (
        run.game,
        s["rules_hash"],
        tuple(s["players"]),
        lineup_shape(run),
        s["seed"],
        s["seating"],
        tuple(s["islands"]),
    )


def _cohort_key(run: RunInfo) -> tuple[Any, ...]:
    s = _spec(run)
    return (
        run.game,
        s["rules_hash"],
        tuple(s["players"]),
        lineup_shape(run),
        tuple(s["islands"]),
    )


def _family_key(run: RunInfo) -> tuple[Any, ...]:
    """Runs with equal keys played the same deals (seeds, islands and seating) with the same
    lineup shape, so game ``g`` of one seats the same player slots as game ``g`` of the
    other."""
    s = _spec(run)
    return (
        run.game,
        s["seed"],
        s["seating"],
        tuple(s["islands"]),
        len(s["players"]),
        lineup_shape(run),
    )


def rules_changes(a: RunInfo, b: RunInfo) -> tuple[str, ...]:
    """The resolved rules keys that differ, as ``key: a -> b``."""
    ra: dict[str, Any] = _spec(a).get("resolved_rules", {})
    rb: dict[str, Any] = _spec(b).get("resolved_rules", {})
    keys = sorted(k for k in set(ra) | set(rb) if ra.get(k) != rb.get(k))
    return tuple(f"{k}: {ra.get(k)!r} -> {rb.get(k)!r}" for k in keys)


def _ablations(run: RunInfo) -> tuple[str, ...]:
    kind = GAMES.get(run.game)
    return tuple(kind.ablations) if kind is not None else ()


def _ablation(a: RunInfo, b: RunInfo) -> str | None:
    """The game's ablation (Tobago: ``curses``, ``amulets``) that ``b`` is of ``a``: the
    rules differ in exactly that ablation's keys, set to its values in ``b``."""
    ra: dict[str, Any] = _spec(a).get("resolved_rules", {})
    rb: dict[str, Any] = _spec(b).get("resolved_rules", {})
    differ = {k for k in set(ra) | set(rb) if ra.get(k) != rb.get(k)}
    for name, sets in GAMES[a.game].ablations.items():
        if differ == set(sets) and all(rb.get(k) == v for k, v in sets.items()):
            return name
    return None


def _pair(index: int, a: RunInfo, b: RunInfo) -> Pairing | None:
    sa, sb = _spec(a), _spec(b)
    players_a, players_b = list(sa["players"]), list(sb["players"])
    if sa["rules_hash"] != sb["rules_hash"] and players_a == players_b:
        ablated = _ablation(a, b)
        if ablated is not None:
            return Pairing(index, a, b, ablated, rules_changes(a, b))
        backwards = _ablation(b, a)
        if backwards is not None:
            return Pairing(index, b, a, backwards, rules_changes(b, a))
        return Pairing(index, a, b, "rules", rules_changes(a, b))
    if sa["rules_hash"] == sb["rules_hash"]:
        slots = [k for k, (x, y) in enumerate(zip(players_a, players_b, strict=True)) if x != y]
        if len(slots) == 1:
            k = slots[0]
            return Pairing(index, a, b, "strategy", (f"{players_a[k]} -> {players_b[k]}",), slot=k)
    return None


def run_code(run: RunInfo) -> CodeIdentity | None:
    """The code identity the run's manifest records (None for a run that records none)."""
    code = run.manifest.get("code")
    return CodeIdentity.from_json(code) if isinstance(code, dict) else None


def _same_code(a: CodeIdentity | None, b: CodeIdentity | None) -> bool:
    if a is None or b is None:
        return a is b
    return not differences(a, b)


def _by_code(members: list[RunInfo]) -> list[list[RunInfo]]:
    """``members`` split by the code that played them (each group agrees with itself)."""
    groups: list[list[RunInfo]] = []
    for run in members:
        code = run_code(run)
        for group in groups:
            if all(_same_code(code, run_code(other)) for other in group):
                group.append(run)
                break
        else:
            groups.append([run])
    return groups


def _code_label(code: CodeIdentity | None) -> str:
    return code.short() if code is not None else "not recorded"


def _mixed_code(a: RunInfo, b: RunInfo) -> InputError:
    ca, cb = run_code(a), run_code(b)
    if ca is None or cb is None:
        what = "the code of one of them is not recorded"
    else:
        what = f"they differ in {describe(differences(ca, cb), 'in the first', 'in the second')}"
    return InputError(
        f"{a.where} and {b.where} were played by different code ({what}): a report does not "
        "pool them; report them apart, or give --allow-mixed-code to report each code as "
        "its own cohort"
    )


def group_runs(runs: list[RunInfo], allow_mixed_code: bool = False) -> Groups:
    """Cohorts and pairings of ``runs`` (in the order given); ``InputError`` for the same
    games given twice, and for runs of one lineup played by different code unless
    ``allow_mixed_code`` (then each code is a cohort of its own)."""
    paths: dict[Path | str, RunInfo] = {}
    for run in runs:
        # A local run by its resolved directory; a run in an object store by its URI (its
        # local copy is new at every opening).
        where = run.where if run.remote else run.path.resolve()
        if where in paths:
            raise InputError(f"{run.where}: given twice; each run may be reported once")
        paths[where] = run
    cohorts: list[Cohort] = []
    by_key: dict[tuple[Any, ...], list[RunInfo]] = {}
    for run in runs:
        by_key.setdefault(_cohort_key(run), []).append(run)
    code_of: dict[int, int] = {}  # id(run) -> its code group within its cohort key
    for members in by_key.values():
        groups = _by_code(members)
        if len(groups) > 1 and not allow_mixed_code:
            raise _mixed_code(groups[0][0], groups[1][0])
        labels = [_code_label(run_code(g[0])) for g in groups] if len(groups) > 1 else [""]
        for k, group in enumerate(groups):
            # Codes that differ only in what their shards loaded share a digest: numbered.
            label = labels[k] + (f" #{k + 1}" if labels.count(labels[k]) > 1 else "")
            cohorts.append(Cohort(len(cohorts), tuple(group), label))
            code_of.update((id(r), k) for r in group)
    seen: dict[tuple[Any, ...], RunInfo] = {}
    for run in runs:
        key = (*_same_games_key(run), code_of[id(run)])
        if key in seen:
            raise InputError(
                f"{run.where} and {seen[key].where} hold the same games (same game, rules, "
                "players, seed, seating and islands): report one of them"
            )
        seen[key] = run
    pairings: list[Pairing] = []
    families: dict[tuple[Any, ...], list[RunInfo]] = {}
    for run in runs:
        families.setdefault(_family_key(run), []).append(run)
    for members in families.values():
        reference = members[0]
        for other in members[1:]:
            pairing = _pair(len(pairings), reference, other)
            if pairing is not None:
                pairings.append(pairing)
    return Groups(tuple(runs), tuple(cohorts), tuple(pairings))
