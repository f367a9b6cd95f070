"""Cluster-robust intervals and the number formats, by hand."""

from __future__ import annotations

import math

import duckdb
import pytest

from pipelines.metrics.clustered import clustered
from pipelines.stats.core import (
    clustered_share,
    normal_cdf,
    normal_quantile,
    ratio_se,
    t_quantile,
    t_sf,
    wilson,
)
from reports import numbers


def test_ratio_se_by_hand() -> None:
    # Clusters (y, n): (2, 2), (0, 2), (1, 2): mean 1/2; residuals 1, -1, 0; Σ² = 2.
    # se = sqrt(2 * 3/2) / 6 = sqrt(3) / 6.
    ys, ns = [2.0, 0.0, 1.0], [2.0, 2.0, 2.0]
    se = ratio_se(
        sum(ys),
        sum(ns),
        sum(y * y for y in ys),
        sum(y * n for y, n in zip(ys, ns, strict=True)),
        sum(n * n for n in ns),
        3,
    )
    assert se == pytest.approx(math.sqrt(3) / 6)
    assert ratio_se(1.0, 1.0, 1.0, 1.0, 1.0, 1) == 0.0  # one cluster: no spread to measure


def test_clustered_share_is_valid_at_the_edges() -> None:
    assert clustered_share(0, 40, 0.0, 10) == pytest.approx(wilson(0, 10))
    low, high = clustered_share(40, 40, 0.0, 10)
    assert high == 1.0 and low == pytest.approx(wilson(10, 10)[0]) and low < 1.0
    # Strongly clustered: the effective size p(1-p)/se² = 0.25 / 0.01 = 25 < 100 rows.
    assert clustered_share(50, 100, 0.1, 20) == pytest.approx(wilson(12.5, 25))
    # Never narrower than independent rows would give.
    assert clustered_share(50, 100, 0.001, 20) == pytest.approx(wilson(50, 100))


def test_clustered_in_duckdb_matches_the_formula() -> None:
    con = duckdb.connect()
    con.execute(
        """CREATE TABLE t AS SELECT * FROM (VALUES
             (0, 0, 'a', 1.0), (0, 0, 'a', 1.0), (0, 1, 'a', 0.0), (0, 1, 'a', 0.0),
             (0, 2, 'a', 1.0), (0, 2, 'a', 0.0), (0, 0, 'b', 0.5)) v(run, block, g, x)"""
    )
    rows = {r["g"]: r for r in clustered(con, "SELECT * FROM t", ["g"], "x", share=True)}
    a = rows["a"]
    assert (a["n"], a["clusters"], a["mean"]) == (6, 3, 0.5)
    assert a["se"] == pytest.approx(math.sqrt(3) / 6)
    assert (a["low"], a["high"]) == pytest.approx(clustered_share(3, 6, a["se"], 3))
    assert rows["b"]["clusters"] == 1 and rows["b"]["se"] == 0.0


def test_numbers_for_people() -> None:
    assert numbers.count(1234567) == "1,234,567"
    assert numbers.pct(0.3551) == "35.5%"
    assert numbers.pct(0.000013, 2) == "< 0.01%" and numbers.pct(0.0) == "0.0%"
    assert numbers.pct(0.00004) == "< 0.1%" and numbers.pct(0.0006) == "0.1%"
    assert numbers.interval(0.354, 0.356) == "[35.4, 35.6]"
    assert numbers.points(0.06) == "+6.0 points" and numbers.points(-0.0164) == "-1.6 points"
    assert numbers.points(0.0004, signed=False) == "< 0.1 points"
    assert numbers.points(0.0, signed=False) == "0.0 points"
    assert numbers.p_value(0.0) == "p < 0.0001" and numbers.p_value(0.66) == "p = 0.66"
    assert numbers.p_value(0.0012) == "p = 0.0012"
    assert numbers.number(float("nan")) == "n/a"


def test_distribution_functions_against_the_table() -> None:
    # Two-sided 5% values of Student's t to eight digits (the table's).
    table = {1: 12.7062047, 2: 4.30265273, 3: 3.18244631, 5: 2.57058184, 29: 2.04522964}
    for dof, value in table.items():
        assert t_quantile(0.975, dof) == pytest.approx(value, abs=1e-7), dof
        assert t_sf(value, dof) == pytest.approx(0.025, abs=1e-9), dof
    assert t_quantile(0.025, 9) == pytest.approx(-2.26215716, abs=1e-7)
    assert normal_quantile(0.975) == pytest.approx(1.95996398, abs=1e-8)
    assert normal_cdf(-1.95996398) == pytest.approx(0.025, abs=1e-9)


def test_a_count_takes_its_noun_in_the_right_number() -> None:
    assert numbers.counted(1, "run") == "1 run"
    assert numbers.counted(2, "run") == "2 runs"
    assert numbers.counted(20_000, "game") == "20,000 games"
    assert numbers.counted(0, "paired comparison") == "0 paired comparisons"
    assert numbers.counted(3, "match", "matches") == "3 matches"
