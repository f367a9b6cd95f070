"""Growing a run: the same spec with more games plays only the new ones, leaves every part of
the games it had as it is (byte for byte, checked against the manifest's hashes) and ends
with the tables a run made at full size in one go has. Only the code that played a run's
games resumes or grows it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipelines.cli.main import app
from pipelines.experiments.simulate import resolve
from sim.runner.code_identity import CodeIdentity, code_identity, run_entry_points
from sim.runner.run import read_manifest, run
from sim.runner.shard import ShardSummary
from sim.storage.parts import file_sha256
from tests.runner.test_pools import pool_values
from tests.runner.test_runs import fingerprint, small

runner = CliRunner()


def recorded(run_dir: Path) -> dict[str, list[dict[str, Any]]]:
    manifest = read_manifest(run_dir)
    assert manifest is not None
    parts: dict[str, list[dict[str, Any]]] = manifest["parts"]
    return parts


def snapshot(run_dir: Path) -> dict[str, bytes]:
    """Every part file's bytes, by table/file."""
    return {
        f"{t}/{p['file']}": (run_dir / t / p["file"]).read_bytes()
        for t, ps in recorded(run_dir).items()
        for p in ps
    }


def cli(values: dict[str, object]) -> list[str]:
    return ["simulate", *[f"--{k.replace('_', '-')}={v}" for k, v in values.items()]]


def test_a_grown_run_keeps_its_first_games_and_equals_a_run_made_at_full_size(
    tmp_path: Path,
) -> None:
    out = tmp_path / "grown"
    # 66 games in shards of 4: 17 shards, the last of 2 games, compacted into 8 pairs and a
    # single part (shard 16) that the new extent's first shard (17) must not be merged with.
    first = runner.invoke(app, cli(small(out, games=66, shard_size=4)))
    assert first.exit_code == 0, first.output
    before = recorded(out)
    assert len(before["games"]) == 9  # compacted
    kept = snapshot(out)
    grown = runner.invoke(app, cli(small(out, games=140, shard_size=4)))
    assert grown.exit_code == 0, grown.output
    assert "growing the run from 66 games to 140 games: only the 74 new games are played" in (
        grown.stdout
    )
    assert "played 74 games" in grown.stdout
    after = recorded(out)
    for table, parts in before.items():
        for part in parts:  # recorded as before, and the bytes on disk are the recorded ones
            assert part in after[table], (table, part)
            assert file_sha256(out / table / part["file"]) == part["sha256"]
    assert {k: v for k, v in snapshot(out).items() if k in kept} == kept
    manifest = read_manifest(out)
    assert manifest is not None
    assert manifest["status"] == "complete" and manifest["extents"] == [66, 140]
    games_parts = [(p["first"], p["last"]) for p in manifest["parts"]["games"]]
    assert (16, 16) in games_parts and (17, 18) in games_parts  # compacted per extent
    assert manifest["spec"]["games"] == 140
    once = tmp_path / "once"
    assert runner.invoke(app, cli(small(once, games=140, shard_size=4))).exit_code == 0
    assert fingerprint(out) == fingerprint(once)
    # The same command again has nothing to play; a smaller one is refused.
    again = runner.invoke(app, cli(small(out, games=140, shard_size=4)))
    assert again.exit_code == 0 and "played 0 games" in again.stdout
    smaller = runner.invoke(app, cli(small(out, games=100, shard_size=4)))
    assert smaller.exit_code == 2
    (line,) = smaller.stderr.strip().splitlines()
    assert "holds 140 games, more than the 100 games asked for; a run grows but never shrinks" in (
        line
    )
    # Anything else that differs is refused as before.
    other = runner.invoke(app, cli(small(out, games=200, shard_size=4, seed=6)))
    assert other.exit_code == 2 and "differs in: seed" in other.stderr
    assert runner.invoke(app, ["verify", str(out)]).exit_code == 0


def test_a_pool_grows_by_whole_cycles(tmp_path: Path) -> None:
    out = tmp_path / "pool"
    run(resolve(pool_values(out, games=12, shard_size=10), {}, "test"))
    kept = snapshot(out)
    report = run(resolve(pool_values(out, games=30, shard_size=10), {}, "test"))
    assert report.games_played == 3 * 36 - 36  # 30 per size rounds up to 36: 108 in all
    assert {k: v for k, v in snapshot(out).items() if k in kept} == kept
    once = tmp_path / "once"
    run(resolve(pool_values(once, games=36, shard_size=10), {}, "test"))
    assert fingerprint(out) == fingerprint(once)


def test_an_interrupted_growth_is_an_unfinished_run_until_resumed(tmp_path: Path) -> None:
    out = tmp_path / "r"
    run(resolve(small(out, games=24, shard_size=6), {}, "test"))
    bigger = resolve(small(out, games=48, shard_size=6), {}, "test")

    def stop(summary: ShardSummary) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(bigger, stop)
    manifest = read_manifest(out)
    assert manifest is not None and manifest["status"] == "partial"
    reported = runner.invoke(app, ["report", str(out), "--format", "json"])
    assert reported.exit_code == 0 and "unfinished run" in reported.stderr
    done = run(bigger)
    assert done.complete and done.games_played == 18
    once = tmp_path / "once"
    run(resolve(small(once, games=48, shard_size=6), {}, "test"))
    assert fingerprint(out) == fingerprint(once)


def test_a_lost_part_of_the_first_extent_is_repaired_after_growth(tmp_path: Path) -> None:
    out = tmp_path / "r"
    run(resolve(small(out, games=72, shard_size=4), {}, "test"))  # 18 shards: 9 pairs
    run(resolve(small(out, games=144, shard_size=4), {}, "test"))
    lost = recorded(out)["seats"][1]
    assert (lost["first"], lost["last"]) == (2, 3)
    (out / "seats" / lost["file"]).unlink()
    grown_parts = [p for p in recorded(out)["games"] if p["first"] >= 18]
    repaired = run(resolve(small(out, games=144, shard_size=4), {}, "test"))
    assert repaired.games_played == 8 and repaired.complete
    assert [p for p in recorded(out)["games"] if p["first"] >= 18] == grown_parts
    once = tmp_path / "once"
    run(resolve(small(once, games=144, shard_size=4), {}, "test"))
    assert fingerprint(out) == fingerprint(once)
    assert runner.invoke(app, ["verify", str(out)]).exit_code == 0


def _stopped_run(out: Path) -> dict[str, object]:
    """A run of 24 games in shards of 6 stopped (Ctrl-C) after its first shard; its spec."""
    values = small(out, games=24, shard_size=6)

    def stop(summary: ShardSummary) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(resolve(values, {}, "test"), stop)
    return values


def _mine() -> CodeIdentity:
    """This process's identity for a Tobago run of built-in players."""
    return code_identity((), run_entry_points("tobago"))


def _other_code(monkeypatch: pytest.MonkeyPatch) -> CodeIdentity:
    """Make this process's code identity another one (as after editing a strategy)."""
    other = CodeIdentity(code_identity().version, "f" * 64)
    monkeypatch.setattr("sim.runner.prepare.code_identity", lambda *args: other)
    return other


def test_other_code_never_resumes_or_grows_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "r"
    values = _stopped_run(out)
    manifest = read_manifest(out)
    assert manifest is not None and manifest["status"] == "partial"
    # Recorded when the run was created, before any shard: a killed run says it too.
    assert manifest["code"]["digest"] == _mine().digest
    before = (out / "manifest.json").read_bytes(), snapshot(out)
    _other_code(monkeypatch)
    resumed = runner.invoke(app, cli(values))
    assert resumed.exit_code == 2
    (line,) = resumed.stderr.strip().splitlines()
    assert f"its games were played by tourney {code_identity().version}, sources" in line
    assert "ffffffffffff, which differ in sources; a run holds the games of one code" in line
    assert ((out / "manifest.json").read_bytes(), snapshot(out)) == before  # nothing touched
    monkeypatch.undo()
    assert run(resolve(values, {}, "test")).complete
    # A complete run: other code may not grow it; asked for what it holds, nothing is played
    # and it says whose games they are.
    _other_code(monkeypatch)
    grown = runner.invoke(app, cli(small(out, games=48, shard_size=6)))
    assert grown.exit_code == 2 and "only that code resumes or grows it" in grown.stderr
    same = runner.invoke(app, cli(values))
    assert same.exit_code == 0, same.output
    assert "nothing was left to play, so nothing changed" in same.output
    assert runner.invoke(app, ["verify", str(out)]).exit_code == 0


def test_a_run_that_two_codes_played_is_refused_everywhere(tmp_path: Path) -> None:
    out = tmp_path / "r"
    values = small(out, games=24, shard_size=6)
    run(resolve(values, {}, "test"))
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    # As older versions wrote a run resumed by edited code: a second execution that played
    # games with another digest (and the run's own code not recorded).
    executions = manifest["executions"]
    executions.append({**executions[0], "code": {**executions[0]["code"], "digest": "e" * 64}})
    del manifest["code"]
    path.write_text(json.dumps(manifest))
    for command in (["verify", str(out)], ["report", str(out), "--format", "json"], cli(values)):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, (command, result.output)
        (line,) = result.stderr.strip().splitlines()
        assert "its games were played by different code (tourney" in line, line
        assert "so its tables mix them" in line


def test_a_run_with_no_record_of_its_code_is_not_resumed(tmp_path: Path) -> None:
    out = tmp_path / "r"
    values = _stopped_run(out)
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    # What an older tourney left when killed: parts recorded, no code, no execution.
    del manifest["code"]
    manifest["executions"] = []
    path.write_text(json.dumps(manifest))
    resumed = runner.invoke(app, cli(values))
    assert resumed.exit_code == 2
    assert "the code that played its games is not recorded" in resumed.stderr
