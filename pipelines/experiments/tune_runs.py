"""The games of a tune: each setting's round played as a ``simulate`` run, and its win shares
per seed block read back from the run's Parquet tables."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipelines.experiments.progress import Progress
    from pipelines.experiments.tune import Runner, TuneSpec


def simulate_runner(spec: TuneSpec, progress: Progress | None = None) -> Runner:
    """``play`` for :func:`tune`: each call is a ``simulate`` run into ``out`` (resumed when
    it exists with the same spec), read back from its Parquet tables; ``progress`` shows
    each run's games as ``simulate`` does."""
    from pipelines.experiments.simulate import at_once, resolve
    from sim.runner.run import run

    def play(players: list[str], games: int, seed: int, out: Path) -> tuple[dict[int, float], int]:
        flags = {
            "game": spec.game,
            "games": games,
            "seed": seed,
            "seating": "rotate",
            "rules": spec.rules,
            "islands": spec.islands,
            "backend": spec.backend,
            "workers": spec.workers,
            "address": spec.address,
            "out": str(out),
            "engine": spec.engine,
        }
        config = resolve({"players": players}, flags, "tune")
        if progress is None:
            run(config)
            return read_blocks(out)

        def start(to_play: int, _: list[str]) -> None:
            assert progress is not None
            progress.begin(to_play, at_once(config, to_play))

        try:
            run(config, progress, start, progress.in_shard, progress.stage)
        finally:
            progress.finish()
        return read_blocks(out)

    return play


def read_blocks(run_dir: Path) -> tuple[dict[int, float], int]:
    """Player 0's mean win share per seed block over the games that ended naturally, and
    how many games did not (the run's recorded parts only, checked as ``report`` does)."""
    import duckdb

    from pipelines.metrics.source import duckdb_path, open_run
    from sim.outcome import UNFINISHED

    run = open_run(run_dir)

    def source(table: str) -> str:
        files = ", ".join(duckdb_path(p.path(run.path)) for p in run.parts[table])
        return f"read_parquet([{files}], hive_partitioning = false)"

    unfinished = ", ".join(f"'{r}'" for r in UNFINISHED)
    with duckdb.connect() as con:
        con.execute("SET threads = 1")  # float sums in one order: the same means every time
        rows = con.execute(
            f"""
            SELECT g.block,
                   avg(s.win_share) FILTER (WHERE g.end_reason::VARCHAR NOT IN ({unfinished})),
                   count(*) FILTER (WHERE g.end_reason::VARCHAR IN ({unfinished}))
            FROM {source("seats")} s JOIN {source("games")} g USING (game_id)
            WHERE s.player = 0
            GROUP BY g.block
            """
        ).fetchall()
    blocks = {int(b): float(share) for b, share, _ in rows if share is not None}
    return blocks, sum(int(u) for _, _, u in rows)
