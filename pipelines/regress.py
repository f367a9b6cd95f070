"""``tourney regress``: a fixed suite of seeded cases compared with a stored baseline.

Each case of the suite (TOML, ``ci/nightly.toml``) plays its games (seeded, rotated seating)
and summarises them: every strategy's win share, the first seat's win share and the mean game
length, each with its standard deviation, plus a hash of the move logs of its first few
"golden" games. Against the baseline every statistic gets a two-sample z-test (Bonferroni
over the suite's statistics, family-wise alpha 0.05); the golden hashes must match exactly.

Exit codes: 0 no significant change, 1 a significant change or changed golden games, 2 error.
Outputs: a table on stdout, ``report.json`` and JUnit XML in ``--out``.
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import os
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from pipelines.simulate import game_islands
from reports import numbers
from sim.errors import InputError
from sim.game import DEFAULT_GAME
from sim.runner.games import GAMES, Factory, Rules, play_planned
from sim.runner.schedule import plan_game
from sim.text_input import read_text
from sim.toml_files import read_toml
from strategies.registry import parse_strategy

CASE_KEYS = ("name", "game", "players", "games", "seed", "islands", "rules", "golden_games")
BASELINE_VERSION = 1


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
        game = c.get("game", DEFAULT_GAME)
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


def _play_range(args: tuple[Case, int, int]) -> tuple[list[tuple[Any, ...]], str]:
    """Per game ``(player win shares..., first-seat share, turns)`` and the golden hash part."""
    case, first, last = args
    n = len(case.labels)
    rows: list[tuple[Any, ...]] = []
    digest = hashlib.sha256()
    for game_id in range(first, last):
        plan = plan_game(game_id, case.seed, n, "rotate", case.islands)
        game = play_planned(plan, case.rules, case.factories)
        result = game.result
        assert result is not None
        by_player = [0.0] * n
        for seat, share in enumerate(result.win_shares):
            by_player[plan.order[seat]] += share
        rows.append((*by_player, result.win_shares[0], result.turns))
        if game_id < case.golden_games:
            log = GAMES[case.game].log(game)
            digest.update(json.dumps(log).encode())
    return rows, digest.hexdigest() if first < case.golden_games else ""


def run_case(case: Case, workers: int) -> dict[str, Any]:
    """Play a case and summarise it."""
    chunk = max(1, case.games // (4 * max(1, workers)))
    ranges = [(case, a, min(case.games, a + chunk)) for a in range(0, case.games, chunk)]
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            parts = pool.map(_play_range, ranges)
    else:
        parts = [_play_range(r) for r in ranges]
    rows = [row for part, _ in parts for row in part]
    golden = hashlib.sha256("".join(h for _, h in parts).encode()).hexdigest()
    names = [f"win:{label}" for label in case.labels] + ["first_seat", "turns"]
    assert set(names) == set(case.stat_names())
    stats = {}
    for k, name in enumerate(names):
        values = [r[k] for r in rows]
        # Players sharing a label (two copies of one strategy) pool into one statistic.
        mean = sum(values) / len(values)
        sd = (
            math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
            if len(values) > 1
            else 0.0
        )
        stats[name] = {"mean": mean, "sd": sd, "n": len(values)}
    return {"spec": case.spec(), "rules_hash": case.rules.hash, "stats": stats, "golden": golden}


def compare_to_baseline(
    current: dict[str, dict[str, Any]], baseline: dict[str, Any], alpha: float = 0.05
) -> list[dict[str, Any]]:
    """One check per case statistic and per golden hash, with its verdict."""
    cases = baseline.get("cases", {})
    n_tests = sum(len(c["stats"]) for c in current.values()) or 1
    z_crit = NormalDist().inv_cdf(1 - alpha / (2 * n_tests))
    checks = []
    for name, now in current.items():
        base = cases.get(name)
        if base is None:
            raise InputError(f"baseline has no case {name!r}: run with --update-baseline")
        if base["spec"] != now["spec"]:
            raise InputError(
                f"case {name!r} differs from the baseline's definition: run with --update-baseline"
            )
        for stat, cur in now["stats"].items():
            old = base["stats"].get(stat)
            if old is None:
                raise InputError(
                    f"baseline case {name!r} has no statistic {stat!r}: run with --update-baseline"
                )
            se = math.sqrt(old["sd"] ** 2 / old["n"] + cur["sd"] ** 2 / cur["n"])
            diff = cur["mean"] - old["mean"]
            z = diff / se if se > 0 else (0.0 if diff == 0 else math.inf)
            checks.append(
                {
                    "case": name, "check": stat, "baseline": old["mean"], "current": cur["mean"],
                    "difference": diff, "z": z, "failed": abs(z) > z_crit,
                    **change_words(stat, diff, se, z_crit, alpha / n_tests, cur["n"]),
                }
            )  # fmt: skip
        checks.append(
            {
                "case": name, "check": "golden_games", "baseline": base["golden"],
                "current": now["golden"], "difference": None, "z": None,
                "failed": base["golden"] != now["golden"],
            }
        )  # fmt: skip
    return checks


def change_words(
    stat: str, diff: float, se: float, z_crit: float, alpha: float, games: int
) -> dict[str, Any]:
    """current - baseline in words with its interval at the test's own (Bonferroni) level,
    a direction only when that interval excludes 0 (:mod:`pipelines.claims`); beside "no
    clear change", the smallest change the check could detect with 80% power at that level
    and the games half of it would need."""
    from pipelines import claims, power

    scale, digits, unit = (1.0, 2, "turns") if stat == "turns" else (100.0, 1, "points")

    def amount(x: float) -> str:
        return f"{numbers.number(scale * x, digits)} {unit}"

    low, high = diff - z_crit * se, diff + z_crit * se
    figures = (
        f"{numbers.number(scale * diff, digits, signed=True)} {unit} "
        f"{numbers.signed_interval(low, high, scale=scale, digits=digits)} (current - "
        "baseline, Bonferroni-adjusted interval)"
    )
    shown = claims.claim(diff, low, high) if se > 0 else claims.Claim(0)
    said = claims.phrase(
        shown, f"{stat} rises", f"{stat} falls", amount, f"no clear change in {stat}"
    )
    if shown.direction or se <= 0:
        return {"verdict": f"{said}: {figures}", "detectable_effect": None}
    mde = power.detectable_effect(se, alpha)
    assert mde is not None
    need = power.games_for_effect(mde / 2, se, games, alpha)
    return {
        "verdict": f"{said}: {figures}; the smallest change this check could detect with 80% "
        f"power is {amount(mde)}; {amount(mde / 2)} would need about "
        f"{numbers.count(need or 0)} games",
        "detectable_effect": mde,
        "games_for_effect": need,
        "effect_for_games": mde / 2,
    }


def _figure(check: str, value: float) -> str:
    """A statistic for people: win shares as percentages, game length in turns."""
    return numbers.number(value, 2) if check == "turns" else numbers.pct(value)


def table_lines(checks: list[dict[str, Any]]) -> list[str]:
    """The checks as a table: baseline and current value, z, the unadjusted two-sided
    p-value and the verdict (Bonferroni decides ``CHANGED``)."""
    rows = [["case", "check", "baseline", "current", "z", "p", "verdict"]]
    for c in checks:
        if c["check"] == "golden_games":
            base, cur, z, p = c["baseline"][:8], c["current"][:8], "", ""
        else:
            base, cur = _figure(c["check"], c["baseline"]), _figure(c["check"], c["current"])
            z = numbers.number(c["z"], 2, signed=True)
            p = numbers.p_value(2 * (1 - NormalDist().cdf(abs(c["z"]))))
        rows.append([c["case"], c["check"], base, cur, z, p, "CHANGED" if c["failed"] else "ok"])
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(w) if k in (0, 1, 6) else cell.rjust(w)
            for k, (cell, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in rows
    ]


def junit_xml(checks: list[dict[str, Any]]) -> str:
    """The checks as a JUnit XML test suite (one test case per check)."""
    failures = sum(1 for c in checks if c["failed"])
    cases = []
    for c in checks:
        name = quoteattr(f"{c['case']}.{c['check']}")
        body = ""
        if c["failed"]:
            message = quoteattr(f"baseline {c['baseline']} current {c['current']} z {c['z']}")
            body = f"<failure message={message}>{escape(json.dumps(c, default=str))}</failure>"
        cases.append(f'<testcase classname="tourney.regress" name={name}>{body}</testcase>')
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<testsuite name="tourney-regress" tests="{len(checks)}" failures="{failures}">'
        + "".join(cases)
        + "</testsuite>\n"
    )


def read_baseline(path: Path) -> dict[str, Any]:
    """A stored baseline, checked whole: every case with its spec, golden hash and
    statistics, each statistic a finite mean, a finite non-negative sd and a count of at
    least 1. A damaged baseline is one line naming the file and the first problem (exit 2)
    before any game is played: comparing against it could only mislead."""
    if not path.exists():
        raise InputError(f"{path}: baseline not found (make one with --update-baseline)")
    text = read_text(path, "baseline", max_bytes=64 << 20)
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not a readable baseline ({exc})") from None
    if not isinstance(obj, dict) or obj.get("version") != BASELINE_VERSION or "cases" not in obj:
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
        raise InputError(f"{where}: not an object with mean, sd and n")
    for key in ("mean", "sd"):
        v = values.get(key)
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise InputError(f"{where}: {key} must be a finite number")
    if values["sd"] < 0:
        raise InputError(f"{where}: sd must not be negative")
    n = values.get("n")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError(f"{where}: n must be an integer >= 1")


def write_baseline(path: Path, current: dict[str, dict[str, Any]]) -> None:
    """Store the current results as the baseline."""
    obj = {"version": BASELINE_VERSION, "cases": current}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(obj, indent=1, sort_keys=True) + "\n")
        os.replace(tmp, path)  # a baseline is never left half-written
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise InputError(f"{path}: cannot write the baseline ({exc.strerror})") from None
