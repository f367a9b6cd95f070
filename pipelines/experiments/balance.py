"""``tourney balance``: search a game's rules for balance, then confirm the answer on fresh
seeds.

- **The search.** Optuna's TPE sampler (one or several objectives) proposes rules settings
  from the study's space; a setting that breaks a constraint is refused before any game.
  Every candidate plays the same seed blocks (common random numbers: the games ``0`` to ``G``
  of the study's seed) in rungs of growing size (``games``, then ``eta`` times as many...):
  after each rung it goes on only if it ranks in the best ``1/eta`` of the candidates that
  reached that rung (asynchronous successive halving; several objectives rank by Pareto
  front, then by the sum of ranks). The rulebook setting, when the space holds it, is the
  first candidate. A candidate the search already played is not played again.
- **Resumable.** The study lives in ``OUT/study.journal`` (optuna's journal storage, one
  file): running the same command again after a kill goes on from the last finished
  candidate, and ends with the same answer as a study never stopped (the sampler is seeded
  afresh for each candidate from the study's seed and the candidates finished, and a
  candidate cut short is played again from its start).
- **The answer** is not the search's: the best candidates (or the Pareto front, capped at
  ``confirm_top``) are played again on fresh seed blocks, paired against the rulebook
  (:mod:`pipelines.experiments.balance_confirm`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, cast

import optuna

from pipelines.experiments.balance_objectives import Objective
from pipelines.experiments.balance_play import Player
from pipelines.experiments.balance_spec import BalanceSpec, Dimension
from sim.errors import InputError

#: Settings in a row that may break the constraints before the study gives up.
MAX_REFUSED = 200
#: How optuna names a direction.
StudyDirectionName = Literal["minimize", "maximize"]
#: The study's name inside its journal.
NAME = "balance"


def _seed(spec: BalanceSpec, done: int, attempt: int) -> int:
    """The sampler's seed for a candidate: the same for the same study and place in it."""
    digest = hashlib.sha256(f"{spec.seed}:{done}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def fingerprint(spec: BalanceSpec) -> str:
    """What a study's journal must have been made by to be resumed: everything but the
    number of candidates (more extend the study), the confirmation's budget and the workers
    (which change no game of the search)."""
    fields = dataclasses.asdict(spec)
    for key in ("path", "description", "trials", "confirm_games", "confirm_top", "workers"):
        fields.pop(key)
    if not spec.pool:  # a lineup study's journal from before pools still resumes
        for key in ("pool", "table_sizes"):
            fields.pop(key)
        for objective in fields["objectives"]:
            objective.pop("size")
    return json.dumps(fields, sort_keys=True, default=str)


def open_study(spec: BalanceSpec, out: Path) -> optuna.Study:
    """The study's journal in ``out`` (made when new); ``InputError`` when it holds the
    study of another spec. Candidates a killed run left unfinished are marked failed."""
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "study.journal"
    storage = JournalStorage(JournalFileBackend(str(path)))
    study = optuna.create_study(
        study_name=NAME,
        storage=storage,
        directions=[cast(StudyDirectionName, o.direction) for o in spec.objectives],
        load_if_exists=True,
    )
    mine = fingerprint(spec)
    held = study.user_attrs.get("spec")
    if held is None:
        study.set_user_attr("spec", mine)
    elif held != mine:
        raise InputError(
            f"--out {out}: it holds a study of another spec ({path}); give another --out or "
            "delete the directory"
        )
    for trial in study.get_trials(states=(optuna.trial.TrialState.RUNNING,)):
        study.tell(trial.number, state=optuna.trial.TrialState.FAIL)
    return study


def _suggest(trial: optuna.Trial, d: Dimension) -> Any:
    if d.kind == "int":
        return trial.suggest_int(d.key, int(d.low), int(d.high))
    if d.kind == "float":
        return trial.suggest_float(d.key, d.low, d.high, step=d.step)
    return trial.suggest_categorical(d.key, list(d.choices))


def _ask(
    study: optuna.Study, spec: BalanceSpec, done: int, first: dict[str, Any] | None
) -> tuple[optuna.Trial, dict[str, Any]]:
    """The next candidate: ``first`` when given (the rulebook setting), else the sampler's,
    refusing settings that break a constraint (each refused one is a failed trial, which the
    sampler ignores)."""
    for attempt in range(MAX_REFUSED):
        study.sampler = optuna.samplers.TPESampler(
            seed=_seed(spec, done, attempt),
            n_startup_trials=max(2, min(10, spec.trials // 4)),
            multivariate=True,
        )
        if first is not None and attempt == 0:
            study.enqueue_trial(first)
        trial = study.ask()
        params = {d.key: _suggest(trial, d) for d in spec.space}
        if spec.allowed(params):
            return trial, params
        trial.set_user_attr("refused", True)
        study.tell(trial, state=optuna.trial.TrialState.FAIL)
    raise InputError(
        f"{spec.path}: constraints: {MAX_REFUSED} settings in a row broke them (loosen them "
        "or narrow the space)"
    )


def _ranks(vectors: list[list[float]], objectives: tuple[Objective, ...]) -> list[int]:
    """Each vector's place, best first: by Pareto front (non-dominated sorting, lower is
    better after the directions' signs), then by the sum of its ranks per objective."""
    signed = [[o.sign * v for o, v in zip(objectives, vec, strict=True)] for vec in vectors]
    k = len(signed)
    front = [0] * k
    left = set(range(k))
    level = 0
    while left:
        top = {i for i in left if not any(_dominates(signed[j], signed[i]) for j in left if j != i)}
        for i in top:
            front[i] = level
        left -= top
        level += 1
    rank_sum = [0] * k
    for m in range(len(objectives)):
        for place, i in enumerate(sorted(range(k), key=lambda i: signed[i][m])):
            rank_sum[i] += place
    order = sorted(range(k), key=lambda i: (front[i], rank_sum[i], i))
    return [order.index(i) for i in range(k)]


def _dominates(a: list[float], b: list[float]) -> bool:
    return all(x <= y for x, y in zip(a, b, strict=True)) and a != b


def _promoted(
    records: list[dict[str, Any]], rung: int, mine: list[float], spec: BalanceSpec
) -> bool:
    """Whether a candidate with ``mine`` at ``rung`` ranks in the best 1/eta of every
    candidate that reached that rung (itself included)."""
    peers = [r["rungs"][rung] for r in records if len(r["rungs"]) > rung] + [mine]
    keep = math.ceil(len(peers) / spec.eta)
    return _ranks(peers, spec.objectives)[-1] < keep


def evaluate(
    spec: BalanceSpec, play: Player, params: dict[str, Any], records: list[dict[str, Any]]
) -> dict[str, Any]:
    """A candidate played rung by rung on the study's common seed blocks: its figures at the
    last rung it reached (estimates with 95% intervals) and its values at every rung."""
    n = len(play.sweep.labels)
    where = ", ".join(f"{k}={v}" for k, v in params.items())
    parts: list[dict[str, Any]] = []
    rungs: list[list[float]] = []
    for rung in range(spec.rungs):
        start = sum(p["games"] for p in parts)
        parts += play.play(
            params,
            start,
            spec.rung_games(rung, n),
            f"candidate {len(records) + 1} of {spec.trials} ({where})",
        )
        if spec.pool:
            row, figures = play.pool_row(spec.objectives, params, parts)
        else:
            row, figures = play.figures(spec.objectives, params, parts)
        rungs.append([f[0] for f in figures])
        if rung == spec.rungs - 1 or not _promoted(records, rung, rungs[-1], spec):
            break
    return {
        "params": params,
        "rung": len(rungs) - 1,
        "games": row["games"],
        "values": [f[0] for f in figures],
        "low": [f[1] for f in figures],
        "high": [f[2] for f in figures],
        "rungs": rungs,
        "cut_off": sum(row[k] for k in ("turn_cap", "deadlock", "timeout")),
        "strategy_failures": row["strategy_failures"],
    }


def search(
    spec: BalanceSpec,
    study: optuna.Study,
    play: Player,
    base: dict[str, Any] | None,
    say: Callable[[str], None] = lambda _: None,
) -> list[dict[str, Any]]:
    """Every candidate of the study, in order (those of an earlier run of the same study
    first): the search until ``spec.trials`` candidates are done."""
    done = study.get_trials(states=(optuna.trial.TrialState.COMPLETE,))
    records = [dict(t.user_attrs["record"], number=k) for k, t in enumerate(done)]
    if records:
        say(f"resuming the study: {len(records)} of {spec.trials} candidates done")
    while len(records) < spec.trials:
        first = base if not records and base is not None else None
        trial, params = _ask(study, spec, len(records), first)
        again = next((r for r in records if r["params"] == params), None)
        if again is not None:  # the same rules on the same seeds: the same figures
            record = {**again, "repeat_of": again["number"], "games_played": 0}
        else:
            before = play.played
            record = evaluate(spec, play, params, records)
            record["games_played"] = play.played - before
        record["number"] = len(records)
        trial.set_user_attr("record", record)
        study.tell(trial, record["values"])
        records.append(record)
        if play.progress is not None:
            left = (spec.trials - len(records)) * expected_games(spec, len(play.sweep.labels))
            play.progress.retotal(round(play.played + left) + confirmation_games(spec, play))
    return records


def expected_games(spec: BalanceSpec, players: int) -> float:
    """The games a candidate plays on average when 1/eta of the candidates go on at each
    rung (what successive halving keeps)."""
    games = [spec.rung_games(r, players) for r in range(spec.rungs)]
    return float(
        games[0] + sum((games[r] - games[r - 1]) / spec.eta**r for r in range(1, spec.rungs))
    )


def confirmation_games(spec: BalanceSpec, play: Player) -> int:
    """The most games the confirmation plays: the rulebook and ``confirm_top`` candidates."""
    return (spec.confirm_top + 1) * spec.whole(spec.confirm_games, len(play.sweep.labels))


def candidates(spec: BalanceSpec, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The search's best to confirm, at most ``confirm_top``, among the candidates that
    played every rung (each setting once): for one objective the best few; for several the
    Pareto front, its ends first (the best on each objective, so that a capped front still
    spans the trade-off), then the rest of it by the sum of their ranks."""
    full = [r for r in records if r["rung"] == spec.rungs - 1 and "repeat_of" not in r]
    if not full:  # only the rulebook (left out by the caller) went the whole way
        return []
    ranks = _ranks([r["values"] for r in full], spec.objectives)
    ranked = [r for _, r in sorted(zip(ranks, full, strict=True), key=lambda x: x[0])]
    if len(spec.objectives) == 1:
        return ranked[: spec.confirm_top]
    signed = [
        [o.sign * v for o, v in zip(spec.objectives, r["values"], strict=True)] for r in ranked
    ]
    front = [
        r for r, s in zip(ranked, signed, strict=True) if not any(_dominates(t, s) for t in signed)
    ]
    ends = []
    for m, o in enumerate(spec.objectives):
        place = min(range(len(front)), key=lambda k: (o.sign * front[k]["values"][m], k))
        ends.append(front[place])
    ordered = list({id(r): r for r in [*ends, *front]}.values())
    return ordered[: spec.confirm_top]


def games_expected(spec: BalanceSpec, players: int) -> int:
    """The games a study is expected to play (its progress line's total until the search
    knows better): successive halving's share of every rung, and the most the confirmation
    plays."""
    confirm = (spec.confirm_top + 1) * spec.whole(spec.confirm_games, players)
    return round(spec.trials * expected_games(spec, players)) + confirm
