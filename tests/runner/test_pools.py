"""Strategy pools end to end: a pool run records its pool, plays balanced tables, is
reported per table size with pooled ratings, takes plug-ins, and is refused in one line when
its spec is wrong (the schedule itself: ``test_schedule.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments.simulate import resolve
from sim.runner.run import read_manifest, run

FOUR = ("hunter", "cartographer", "collector", "cautious")

runner = CliRunner()


def pool_values(out: Path, **extra: object) -> dict[str, object]:
    values: dict[str, object] = {
        "pool": ",".join(FOUR),
        "table_sizes": "2,3,4",
        "games": 24,
        "shard_size": 20,
        "seed": 11,
        "islands": "abc-1,ABC-2",
        "backend": "serial",
        "out": str(out),
    }
    values.update(extra)
    return values


@pytest.fixture(scope="module")
def pool_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pools") / "pool"
    result = runner.invoke(
        app,
        ["simulate", *[f"--{k.replace('_', '-')}={v}" for k, v in pool_values(out).items()]],
    )
    assert result.exit_code == 0, result.output
    assert "24 games per table size, 72 in all" in result.stdout
    return out


def test_a_pool_run_records_its_pool_and_plays_balanced_tables(pool_run: Path) -> None:
    manifest = read_manifest(pool_run)
    assert manifest is not None and manifest["status"] == "complete"
    spec = manifest["spec"]
    assert spec["pool"] == list(FOUR) and spec["players"] == list(FOUR)
    assert spec["table_sizes"] == [2, 3, 4]
    assert (spec["games"], spec["games_per_size"]) == (72, 24)
    with duckdb.connect() as con:
        seats = f"read_parquet('{pool_run}/seats/*.parquet')"
        rows = con.execute(
            f"""SELECT n_players, strategy::VARCHAR, seat, count(*) FROM {seats}
                GROUP BY ALL ORDER BY ALL"""
        ).fetchall()
        lineups = con.execute(
            f"""SELECT n_players, count(DISTINCT names) FROM (
                    SELECT any_value(n_players) AS n_players,
                           list_sort(list(strategy::VARCHAR)) AS names
                    FROM {seats} GROUP BY game_id) GROUP BY 1 ORDER BY 1"""
        ).fetchall()
    # 24 games per size: each strategy sits in each seat 24 / 4 times at every size.
    assert {(n, s) for n, _, s, _ in rows} == {(n, s) for n in (2, 3, 4) for s in range(n)}
    assert {c for *_, c in rows} == {6}
    assert len(rows) == 4 * (2 + 3 + 4)
    assert lineups == [(2, 6), (3, 4), (4, 1)]


def test_the_report_of_a_pool_is_per_table_size_with_pooled_ratings(pool_run: Path) -> None:
    out = pool_run.parent / "report"
    result = runner.invoke(app, ["report", str(pool_run), "--out", str(out), "--format", "json,md"])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text())
    (cohort,) = report["cohorts"]
    win = cohort["sections"]["win_rate"]
    by_strategy = win["win_rate_by_strategy"]
    finished = {int(r["n_players"]): 0 for r in by_strategy}
    for r in by_strategy:
        finished[int(r["n_players"])] += int(r["seats"])
    assert sorted(finished) == [2, 3, 4]
    assert {(r["n_players"], r["strategy"]) for r in by_strategy} == {
        (n, s) for n in (2, 3, 4) for s in FOUR
    }
    for r in by_strategy:
        assert r["fair_share"] == pytest.approx(1 / r["n_players"])
    shares = {n: sum(r["win_share"] * r["seats"] for r in by_strategy if r["n_players"] == n)
              for n in (2, 3, 4)}  # fmt: skip
    games = {n: finished[n] / n for n in (2, 3, 4)}
    assert all(shares[n] == pytest.approx(games[n]) for n in (2, 3, 4))  # one win per game
    h2h = win["head_to_head"]
    for n in (2, 3, 4):
        pairs = {(r["strategy"], r["opponent"]) for r in h2h if r["n_players"] == n}
        assert pairs == {(a, b) for a in FOUR for b in FOUR if a != b}  # a full round robin
    ratings = win["ratings"]
    assert {r["strategy"] for r in ratings} == set(FOUR)
    assert sum(r["games"] for r in ratings) == sum(finished.values())  # every size at once
    assert all(r["low"] <= r["rating"] <= r["high"] for r in ratings)
    (listed,) = report["runs"]
    assert listed["pool"] == list(FOUR) and listed["table_sizes"] == [2, 3, 4]
    summary = (out / "summary.md").read_text()
    for n in (2, 3, 4):
        assert f"## Win rate, {n} players" in summary
    assert "## Ratings, every table size at once" in summary


def test_a_plug_in_may_be_in_a_pool_and_games_are_replayable(tmp_path: Path) -> None:
    pool = "strategies.examples.greedy:Greedy(take_at=3),hunter,cautious"
    config = resolve(pool_values(tmp_path / "g", pool=pool, table_sizes="2,3", games=6), {}, "test")
    assert config.games == 12 and config.table_sizes == (2, 3)  # lcm(3 x 2, 1 x 3) = 6
    run(config)
    with duckdb.connect() as con:
        names = con.execute(
            f"SELECT DISTINCT strategy::VARCHAR FROM read_parquet('{tmp_path}/g/seats/*.parquet')"
        ).fetchall()
    assert {n for (n,) in names} == {"strategies.examples.greedy:Greedy(take_at=3)", "hunter",
                                     "cautious"}  # fmt: skip
    for game_id in (0, 7):  # a 2-player and a 3-player game
        replayed = runner.invoke(
            app, ["play", "--run", str(tmp_path / "g"), "--game-id", str(game_id)]
        )
        assert replayed.exit_code == 0, replayed.output
        assert "move rows match the run's" in replayed.stdout


def test_same_seed_pool_runs_on_any_backend_are_identical(tmp_path: Path) -> None:
    from tests.runner.test_runs import fingerprint

    serial = resolve(pool_values(tmp_path / "s", games=12, shard_size=5), {}, "test")
    process = resolve(
        pool_values(tmp_path / "p", games=12, shard_size=7, backend="process", workers=2),
        {},
        "test",
    )
    run(serial)
    run(process)
    assert fingerprint(tmp_path / "s") == fingerprint(tmp_path / "p")


@pytest.mark.parametrize(
    ("spec", "flags", "message"),
    [
        ('pool = ["hunter", "cautious"]\nplayers = ["hunter", "cautious"]\n', [],
         "players and pool cannot both be given"),
        ("", ["--pool", "hunter,cautious", "--players", "hunter,cautious"],
         "players and pool cannot both be given"),
        ("table_sizes = [2, 3]\n", [], "table_sizes = [2, 3] is for a pool"),
        ('pool = ["hunter", "cautious", "collector"]\ntable_sizes = [2, 4]\n', [],
         "table_sizes = [2, 4] is not allowed (distinct player counts from 2 to 3"),
        ('pool = ["hunter", "cautious"]\ntable_sizes = "2,2"\n', [],
         "table_sizes = '2,2' is not allowed"),
        ('pool = ["hunter", "cautious"]\ntable_sizes = 2.5\n', [],
         "table_sizes = 2.5 is not allowed"),
        ('pool = ["hunter", "hunter"]\n', [], "pool names 'hunter' twice"),
        ('pool = ["hunter(take_at=4)", "cautious", "hunter( take_at = 4 )"]\n', [],
         "pool names 'hunter(take_at=4)' and 'hunter( take_at = 4 )', which are one member "
         "(hunter(take_at=4))"),
        ('pool = ["hunter(chase_legs=6,take_at=4)", "hunter(take_at=4)"]\n', [],
         "which are one member (hunter(take_at=4))"),
        ('pool = ["hunter(take_at=3)", "strategies.tobago.styles:Hunter"]\n', [],
         "which are one member (hunter)"),
        ('pool = ["hunter", "stop-at"]\n', [],
         "unknown strategy 'stop-at' of tobago ('stop-at' is a strategy of treasure-island)"),
        ('pool = ["hunter", "strategies.treasure_island.stopping:StopAt"]\n', [],
         "strategy 'strategies.treasure_island.stopping:StopAt' is a strategy of "
         "treasure-island, not of tobago"),
        ('game = "treasure-island"\npool = ["stop-at", "strategies.examples.greedy:Greedy"]\n',
         [], "'strategies.examples.greedy:Greedy' is a strategy of tobago, not of "
         "treasure-island"),
        ('pool = ["hunter"]\n', [], "pool = ['hunter'] is not allowed (2 to 16 strategy names"),
        ('pool = ["hunter", "ghost"]\n', [], "unknown strategy 'ghost'"),
        ("pool = 3\n", [], "pool = 3 is not allowed (a string or a list of strings)"),
    ],
)  # fmt: skip
def test_bad_pools_are_one_line_exit_2(
    tmp_path: Path, spec: str, flags: list[str], message: str
) -> None:
    path = tmp_path / "spec.toml"
    path.write_text(spec + 'backend = "serial"\ngames = 4\n')
    result = runner.invoke(app, ["simulate", str(path), "--out", str(tmp_path / "x"), *flags])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_pool_members_are_recorded_by_their_canonical_names(tmp_path: Path) -> None:
    pool = ["hunter( take_at = 4 )", "cautious(reserve=1,marker_legs=3)", "collector(take_at=4)"]
    config = resolve({"pool": pool, "out": str(tmp_path / "x")}, {}, "api")
    assert config.labels == ("hunter(take_at=4)", "cautious(marker_legs=3, reserve=1)", "collector")
    again = ["collector", "cautious( marker_legs=3, reserve=1)", "hunter(take_at=4)"]
    assert set(resolve({"pool": again}, {}, "api").labels) == set(config.labels)
    # A plug-in nothing ties to one game (annotated with typing.Any) may play either.
    for game, member in (("tobago", "hunter"), ("treasure-island", "stop-at")):
        mixed = resolve({"game": game, "pool": [member, "tests.runner.hostile:Widener"]}, {}, "t")
        assert mixed.labels == (member, "tests.runner.hostile:Widener")


def test_the_command_line_lineup_replaces_the_spec_files(tmp_path: Path) -> None:
    spec = tmp_path / "spec.toml"
    spec.write_text('pool = ["hunter", "cautious", "collector"]\ntable_sizes = [2, 3]\n')
    from pipelines.experiments.simulate import read_spec

    fixed = resolve(read_spec(spec), {"players": "hunter,cautious"}, str(spec))
    assert fixed.table_sizes == () and fixed.labels == ("hunter", "cautious")
    pooled = resolve(read_spec(spec), {"table_sizes": "3"}, str(spec))
    assert pooled.table_sizes == (3,) and pooled.games == 20_001  # 3 rotations a cycle
    default_sizes = resolve({"pool": ["hunter", "cautious", "collector"]}, {}, "api")
    assert default_sizes.table_sizes == (2, 3)
