"""Every metric query gives its stored answer over the golden runs (``make goldens`` writes
them on purpose), and the comparison itself finds what differs and only that."""

from __future__ import annotations

import inspect
from collections.abc import Iterator

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipelines.metrics import clustered, gaps, paired, rating, win_rate
from pipelines.tobago import cells, curses, fairness
from pipelines.treasure_island import push_luck
from tests.golden.metric_answers import (
    ANSWERS,
    COMMON,
    PAIRED,
    TOBAGO,
    TREASURE_ISLAND,
    Case,
    GoldenRuns,
    cases,
    differences,
    make_runs,
    normalised,
)

#: The queries reached through another: a helper's pair of tables, a query that needs
#: another's answer, a tuple of counts, a Polars twin of a DuckDB query.
INDIRECT: set[object] = {
    fairness.island_tables,
    gaps.adjacent_gaps,
    paired.unpaired_games,
    paired.left_out_unfinished,
    win_rate.by_strategy_polars,
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GoldenRuns]:
    played = GoldenRuns(make_runs(tmp_path_factory.mktemp("golden-runs")))
    yield played
    played.close()


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_the_query_gives_its_stored_answer(case: Case, runs: GoldenRuns) -> None:
    stored = pq.read_table(case.path)
    diff = differences(stored, runs.answer(case))
    assert not diff, (
        f"{case.name} answers differently (regenerate on purpose with `make goldens`):\n"
        + "\n".join(diff)
    )


def test_every_query_over_a_run_has_a_stored_answer() -> None:
    modules = (clustered, gaps, paired, rating, win_rate, cells, curses, fairness, push_luck)
    direct: set[object] = {
        *COMMON.values(),
        *TOBAGO.values(),
        *PAIRED.values(),
        *TREASURE_ISLAND.values(),
    }
    for module in modules:
        for name, f in inspect.getmembers(module, inspect.isfunction):
            if name.startswith("_") or f.__module__ != module.__name__:
                continue
            params = list(inspect.signature(f).parameters.values())
            reads_a_run = params and params[0].annotation in (
                duckdb.DuckDBPyConnection,
                "duckdb.DuckDBPyConnection",
            )
            needs_more = any(p.default is p.empty for p in params[1:])
            if reads_a_run and not needs_more:
                assert f in direct or f in INDIRECT, f"{module.__name__}.{name} has no golden"


def test_the_stored_answers_are_the_cases_and_small() -> None:
    stored = {p.name for p in ANSWERS.glob("*.parquet")}
    assert stored == {c.path.name for c in cases()}
    assert sum(p.stat().st_size for p in ANSWERS.glob("*.parquet")) < 200_000


def _table(**columns: list[object]) -> pa.Table:
    return pa.table(columns)


def test_the_comparison_ignores_row_order_and_last_digits_only() -> None:
    want = _table(n=[2, 3], name=["a", "b"], share=[0.25, 1 / 3])
    assert differences(want, _table(n=[3, 2], name=["b", "a"], share=[1 / 3, 0.25])) == []
    close = _table(n=[2, 3], name=["a", "b"], share=[0.25 * (1 + 1e-12), 1 / 3])
    assert differences(want, close) == []
    off = _table(n=[2, 3], name=["a", "b"], share=[0.25 * (1 + 1e-6), 1 / 3])
    assert differences(want, off) == [
        f"row 0 (n=2, name='a'): share stored 0.25, now {0.25 * (1 + 1e-6)!r}"
    ]
    renamed = _table(n=[2, 3], name=["a", "c"], share=[0.25, 1 / 3])
    assert differences(want, renamed) == ["row 1 (n=3): name stored 'b', now 'c'"]
    assert differences(want, _table(n=[2], name=["a"], share=[0.25])) == ["2 rows stored, 1 now"]
    retyped = pa.table(
        {"n": pa.array([2, 3], pa.int8()), "name": ["a", "b"], "share": [0.25, 1 / 3]}
    )
    assert differences(want, retyped)[0].startswith("columns differ")


def test_nulls_and_dictionaries_are_normalised() -> None:
    coded = pa.table({"s": pa.array(["b", None, "a"]).dictionary_encode(), "x": [1.0, None, 2.0]})
    plain = normalised(coded)
    assert plain.schema.field("s").type == pa.string()
    assert plain.to_pylist() == [{"s": None, "x": None}, {"s": "a", "x": 2.0}, {"s": "b", "x": 1.0}]
    assert differences(coded, pa.table({"s": ["a", "b", None], "x": [2.0, 1.0, None]})) == []
