"""``tourney regress``: a fixed suite of seeded cases compared with a stored baseline.

Each case of the suite (TOML, ``ci/nightly.toml``) plays its games (seeded, rotated seating)
and summarises them: every strategy's win share, the first seat's win share and the mean game
length, each with its standard deviation and its sum over every seed block (the ``n`` games
of one deal), plus a hash of the move logs of its first few "golden" games. The baseline
(format version 2) stores the same; the per-block sums let each statistic be compared paired
over the replayed seeds (``pipelines.experiments.regress_checks`` gives the states and the words).

Exit codes: 0 no significant change, 1 a significant change or changed golden games (with
``--exact``: any change), 2 error. Outputs: a table on stdout, ``report.json`` and JUnit XML.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import multiprocessing
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipelines.experiments.progress import Progress
from pipelines.experiments.regress_checks import Cutoff, check_golden, check_statistic
from pipelines.experiments.simulate import game_islands
from sim.errors import InputError
from sim.runner.games import GAMES, UNNAMED_GAME, Factory, Rules, play_planned
from sim.runner.schedule import plan_game
from sim.text_input import read_text
from sim.toml_files import read_toml
from strategies.registry import parse_strategy

CASE_KEYS = ("name", "game", "players", "games", "seed", "islands", "rules", "golden_games")
#: Version 2 added the per-block sums that the paired checks need.
BASELINE_VERSION = 2


@dataclass(frozen=True)
class Case:
    """One case of the suite, resolved."""

    name: str
    game: str
    labels: tuple[str, ...]
    factories: tuple[Factory, ...]
    games: int
    seed: int
    islands: tuple[str, ...]
    rules_source: str
    rules: Rules
    golden_games: int

    def spec(self) -> dict[str, Any]:
        """What defines the case (stored with the baseline)."""
        return {
            "game": self.game,
            "players": list(self.labels),
            "games": self.games,
            "seed": self.seed,
            "islands": list(self.islands),
            "rules": self.rules_source,
            "golden_games": self.golden_games,
        }

    def stat_names(self) -> list[str]:
        """The statistics the case measures (players sharing a label share one)."""
        wins = dict.fromkeys(f"win:{label}" for label in self.labels)
        return [*wins, "first_seat", "turns"]


def check_cases_in_baseline(cases: list[Case], baseline: dict[str, Any]) -> None:
    """``InputError`` unless the baseline holds every case of the suite, defined as the suite
    defines it now, with every statistic the case measures: checked before any game is
    played, so a baseline that cannot answer fails in a second, not after the suite."""
    stored = baseline.get("cases", {})
    for case in cases:
        base = stored.get(case.name)
        if base is None:
            raise InputError(f"baseline has no case {case.name!r}: run with --update-baseline")
        if base["spec"] != case.spec():
            raise InputError(
                f"case {case.name!r} differs from the baseline's definition: run with "
                "--update-baseline"
            )
        for stat in case.stat_names():
            if stat not in base["stats"]:
                raise InputError(
                    f"baseline case {case.name!r} has no statistic {stat!r}: run with "
                    "--update-baseline"
                )
        blocks = -(-case.games // len(case.labels))  # without listing a billion blocks
        for stat in case.stat_names():
            stored_stat = base["stats"][stat]
            if stored_stat["n"] != case.games or len(stored_stat["blocks"]) != blocks:
                raise InputError(
                    f"baseline case {case.name!r} statistic {stat!r}: n = "
                    f"{stored_stat['n']} over {len(stored_stat['blocks'])} blocks, but the "
                    f"case plays {case.games} games in {blocks} blocks: run with "
                    "--update-baseline"
                )


def read_suite(path: Path) -> list[Case]:
    """The cases of a suite file, validated."""
    raw = read_toml(path, "suite file")
    cases_raw = raw.get("case")
    if not isinstance(cases_raw, list) or not cases_raw:
        raise InputError(f"{path}: needs one or more [[case]] tables")
    cases = []
    seen: set[str] = set()
    for k, c in enumerate(cases_raw):
        where = f"{path}: case[{k}]"
        unknown = sorted(set(c) - set(CASE_KEYS))
        if unknown:
            raise InputError(
                f"{where}: unknown key {unknown[0]!r} (allowed: {', '.join(CASE_KEYS)})"
            )
        name = c.get("name")
        if not isinstance(name, str) or not name or name in seen:
            raise InputError(f"{where}: 'name' must be a unique non-empty string")
        seen.add(name)
        players = c.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 4:
            raise InputError(f"{where}: 'players' must list 2 to 4 strategies")
        game = c.get("game", UNNAMED_GAME)
        if game not in GAMES:
            raise InputError(f"{where}: game = {game!r} is not allowed ({', '.join(GAMES)})")
        kind = GAMES[game]
        specs = [parse_strategy(str(p), game) for p in players]
        games = c.get("games", 1000)
        seed = c.get("seed", 1)
        golden = c.get("golden_games", 3)
        for key, value, low in (
            ("games", games, 1),
            ("seed", seed, 0),
            ("golden_games", golden, 0),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise InputError(f"{where}: {key} = {value!r} is not allowed (an integer >= {low})")
        rules_source = str(c.get("rules", kind.default_rules))
        if rules_source.endswith(".toml") and not Path(rules_source).is_absolute():
            rules_source = str(path.parent / rules_source)
        cases.append(
            Case(
                name=name,
                game=game,
                labels=tuple(s.label for s in specs),
                factories=tuple(s.factory() for s in specs),
                games=games,
                seed=seed,
                islands=game_islands(kind, c.get("islands"), where, f"{where}: islands"),
                rules_source=rules_source,
                rules=kind.load_rules(rules_source),
                golden_games=min(golden, games),
            )
        )
    return cases


def _play_range(args: tuple[Case, int, int]) -> tuple[list[tuple[float, ...]], str]:
    """Per game ``(block, each label's win share, first-seat share, turns)`` and the golden
    hash part. Players sharing a label (two copies of one strategy) pool into one statistic,
    the mean of their shares."""
    case, first, last = args
    n = len(case.labels)
    labels = list(dict.fromkeys(case.labels))
    copies = [case.labels.count(label) for label in labels]
    rows: list[tuple[float, ...]] = []
    digest = hashlib.sha256()
    for game_id in range(first, last):
        plan = plan_game(game_id, case.seed, n, "rotate", case.islands)
        assert plan.block == game_id // n  # the blocks of block_sizes
        game = play_planned(plan, case.rules, case.factories)
        result = game.result
        assert result is not None
        by_label = [0.0] * len(labels)
        for seat, share in enumerate(result.win_shares):
            by_label[labels.index(case.labels[plan.order[seat]])] += share
        shares = [s / k for s, k in zip(by_label, copies, strict=True)]
        rows.append((plan.block, *shares, result.win_shares[0], result.turns))
        if game_id < case.golden_games:
            log = GAMES[case.game].log(game)
            digest.update(json.dumps(log).encode())
    return rows, digest.hexdigest() if first < case.golden_games else ""


def _summary(values: list[float], blocks: list[int], n_blocks: int) -> dict[str, Any]:
    """A statistic's mean, sd, count and per-block sums (summed in game order, so a replay
    reproduces every digit)."""
    sums = [0.0] * n_blocks
    for block, v in zip(blocks, values, strict=True):
        sums[block] += v
    mean = sum(sums) / len(values)
    sd = (
        math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
        if len(values) > 1
        else 0.0
    )
    return {"mean": mean, "sd": sd, "n": len(values), "blocks": sums}


def run_case(
    case: Case, workers: int, progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Play a case and summarise it; ``progress`` hears the games played after each chunk."""
    chunk = max(1, case.games // (4 * max(1, workers)))
    ranges = [(case, a, min(case.games, a + chunk)) for a in range(0, case.games, chunk)]
    parts = []
    played: Iterator[tuple[list[tuple[float, ...]], str]]
    with contextlib.ExitStack() as stack:
        if workers > 1:
            pool = stack.enter_context(multiprocessing.get_context("spawn").Pool(workers))
            played = pool.imap(_play_range, ranges)  # in order, each as soon as it is done
        else:
            played = map(_play_range, ranges)
        for part, (_, _, last) in zip(played, ranges, strict=True):
            parts.append(part)
            if progress is not None:
                progress(last)
    rows = [row for part, _ in parts for row in part]
    golden = hashlib.sha256("".join(h for _, h in parts).encode()).hexdigest()
    names = case.stat_names()
    blocks = [int(r[0]) for r in rows]
    n_blocks = len(block_sizes(case))
    stats = {
        name: _summary([r[k + 1] for r in rows], blocks, n_blocks) for k, name in enumerate(names)
    }
    return {"spec": case.spec(), "rules_hash": case.rules.hash, "stats": stats, "golden": golden}


def run_cases(cases: list[Case], workers: int, progress: Progress) -> dict[str, dict[str, Any]]:
    """Play every case in order, ``progress`` told the suite's games played so far."""
    current: dict[str, dict[str, Any]] = {}
    before = 0
    progress.begin(sum(case.games for case in cases), workers)
    try:
        for k, case in enumerate(cases):

            def played(games: int, case: Case = case, k: int = k, before: int = before) -> None:
                where = f"case {k + 1} of {len(cases)} ({case.name})"
                progress.update(before + games, where)

            current[case.name] = run_case(case, workers, played)
            before += case.games
    finally:
        progress.finish()
    return current


def block_sizes(case: Case) -> list[int]:
    """Games in each seed block of a case: seats rotate over a block of one deal, one game per
    player, so the blocks are ``n`` consecutive games (the last may be short)."""
    n = len(case.labels)
    full, rest = divmod(case.games, n)
    return [n] * full + ([rest] if rest else [])


def compare_to_baseline(
    cases: list[Case], current: dict[str, dict[str, Any]], baseline: dict[str, Any]
) -> tuple[list[dict[str, Any]], Cutoff]:
    """One check per case statistic (paired over the replayed seed blocks) and per golden hash,
    with its state, and the cut-off that decided them."""
    check_cases_in_baseline(cases, baseline)
    cutoff = Cutoff(sum(len(c["stats"]) for c in current.values()))
    checks = []
    for case in cases:
        now, base = current[case.name], baseline["cases"][case.name]
        sizes = block_sizes(case)
        for stat, cur in now["stats"].items():
            checks.append(check_statistic(case.name, stat, base["stats"][stat], cur, sizes, cutoff))
        checks.append(check_golden(case.name, base["golden"], now["golden"], case.golden_games))
    return checks, cutoff


def read_baseline(path: Path) -> dict[str, Any]:
    """A stored baseline, checked whole: every case with its spec, golden hash and
    statistics, each statistic a finite mean, a finite non-negative sd, a count of at
    least 1 and its per-block sums, which must add up to the mean. A damaged baseline is one
    line naming the file and the first problem (exit 2) before any game is played: comparing
    against it could only mislead."""
    if not path.exists():
        raise InputError(f"{path}: baseline not found (make one with --update-baseline)")
    text = read_text(path, "baseline", max_bytes=64 << 20)
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not a readable baseline ({exc})") from None
    version = obj.get("version") if isinstance(obj, dict) else None
    if isinstance(version, int) and not isinstance(version, bool) and version < BASELINE_VERSION:
        raise InputError(
            f"{path}: baseline format version {version} has no per-block sums for the paired "
            f"checks (this tourney reads version {BASELINE_VERSION}): refresh it with "
            "--update-baseline"
        )
    if not isinstance(obj, dict) or version != BASELINE_VERSION or "cases" not in obj:
        raise InputError(f"{path}: not a tourney baseline (version {BASELINE_VERSION})")
    cases = obj["cases"]
    if not isinstance(cases, dict) or not cases:
        raise InputError(f"{path}: 'cases' must map case names to their results (none found)")
    for name, case in cases.items():
        where = f"{path}: case {name!r}"
        if not isinstance(case, dict):
            raise InputError(f"{where}: not an object with spec, stats and golden")
        if not isinstance(case.get("spec"), dict):
            raise InputError(f"{where}: 'spec' is missing or not an object")
        if not isinstance(case.get("golden"), str) or not case["golden"]:
            raise InputError(f"{where}: 'golden' is missing or not a hash")
        stats = case.get("stats")
        if not isinstance(stats, dict) or not stats:
            raise InputError(f"{where}: 'stats' is missing or empty")
        for stat, values in stats.items():
            _check_stat(f"{where}: statistic {stat!r}", values)
    return obj


def _check_stat(where: str, values: Any) -> None:
    if not isinstance(values, dict):
        raise InputError(f"{where}: not an object with mean, sd, n and blocks")
    for key in ("mean", "sd"):
        v = values.get(key)
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise InputError(f"{where}: {key} must be a finite number")
    if values["sd"] < 0:
        raise InputError(f"{where}: sd must not be negative")
    n = values.get("n")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError(f"{where}: n must be an integer >= 1")
    blocks = values.get("blocks")
    if (
        not isinstance(blocks, list)
        or not blocks
        or not all(isinstance(b, int | float) and not isinstance(b, bool) for b in blocks)
        or not all(math.isfinite(b) for b in blocks)
    ):
        raise InputError(f"{where}: blocks must be a non-empty list of finite per-block sums")
    if not math.isclose(sum(blocks) / n, values["mean"], rel_tol=1e-9, abs_tol=1e-12):
        # An edited mean would otherwise be compared with blocks it no longer summarises.
        raise InputError(
            f"{where}: mean {values['mean']!r} disagrees with its per-block sums (their mean "
            f"is {sum(blocks) / n!r}): refresh the baseline with --update-baseline"
        )


def write_baseline(path: Path, current: dict[str, dict[str, Any]]) -> None:
    """Store the current results as the baseline."""
    obj = {"version": BASELINE_VERSION, "cases": current}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(_compact_lists(json.dumps(obj, indent=1, sort_keys=True)) + "\n")
        os.replace(tmp, path)  # a baseline is never left half-written
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise InputError(f"{path}: cannot write the baseline ({exc.strerror})") from None


def _compact_lists(text: str) -> str:
    """Lists of numbers (the per-block sums) on one line each, so that the baseline stays a
    file a person can read and diff statistic by statistic."""
    return re.sub(
        r"\[\n\s*(-?[0-9][-+0-9.eE,\s]*?)\n\s*\]",
        lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",")) + "]",
        text,
    )
