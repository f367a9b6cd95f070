"""Synthetic pools with a known meta-game, and the share of studies whose intervals cover it.

A 2-player pool is a zero-sum game ``A`` (``0.5 + A[i, j]`` is the chance that i beats j);
each seed block is a pair's two games, seats swapped. A 3-player pool seats every three of
its strategies, each table's winner drawn from fixed chances; a block is its three games.
The truth is the meta-game of the true chances, solved by the product's own solvers, so a
study checks the intervals, not the solvers (those have tests of their own).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from pipelines.metrics import meta_game as mg
from pipelines.stats import equilibrium as eq


@dataclass(frozen=True)
class Coverage:
    """Per strategy, the share of studies whose interval held the true mix share, and the
    share that called it *outside* the mix; and the share of studies whose mix was
    separated."""

    covered: np.ndarray
    outside: np.ndarray
    separated: float


def rps_with_a_loser() -> np.ndarray:
    """Four strategies: a cycle with a unique interior equilibrium (about 35/22/43%) and a
    fourth that loses 3 to 4 points to each of them (outside every equilibrium)."""
    a = np.zeros((4, 4))
    a[0, 1], a[0, 2], a[1, 2] = 0.10, -0.05, 0.08
    a[3, 0], a[3, 1], a[3, 2] = -0.04, -0.03, -0.04
    return a - a.T


def _two_player_blocks(a: np.ndarray, blocks: int, rng: np.random.Generator) -> mg.Blocks:
    k = len(a)
    profiles: list[tuple[int, ...]] = list(itertools.combinations(range(k), 2))
    profile = np.repeat(np.arange(len(profiles)), blocks)
    wins = np.zeros((len(profile), k))
    seats = np.zeros_like(wins)
    for r, (i, j) in enumerate(profiles):
        rows = slice(r * blocks, (r + 1) * blocks)
        won = rng.binomial(2, 0.5 + a[i, j], blocks)
        wins[rows, i], wins[rows, j] = won, 2 - won
        seats[rows, i] = seats[rows, j] = 2
    return mg.Blocks(2, [f"s{i}" for i in range(k)], profiles, profile, wins, seats)


@dataclass(frozen=True)
class TablePool:
    """A 3-player pool: each table's chances of a win per seat, from strengths and pairwise
    edges (a softmax), so that no strategy's edge is the same at every table."""

    strength: np.ndarray
    edge: np.ndarray

    @property
    def profiles(self) -> list[tuple[int, ...]]:
        return list(itertools.combinations(range(len(self.strength)), 3))

    def chances(self, table: tuple[int, ...]) -> np.ndarray:
        z = np.array([self.strength[i] + sum(self.edge[i, j] for j in table if j != i)
                      for i in table])  # fmt: skip
        e = np.exp(z - z.max())
        out: np.ndarray = e / e.sum()
        return out

    def payoff(self) -> np.ndarray:
        out = np.zeros((len(self.profiles), len(self.strength)))
        for r, table in enumerate(self.profiles):
            out[r, list(table)] = self.chances(table)
        return out


def five_at_three() -> TablePool:
    """Five strategies at 3 players; one of them (s3) weak, so the mix is far from even."""
    edge = np.random.default_rng(1).normal(0.0, 0.25, (5, 5))
    return TablePool(np.array([0.0, 0.15, 0.3, -0.2, 0.1]), edge)


def _table_blocks(pool: TablePool, blocks: int, rng: np.random.Generator) -> mg.Blocks:
    k, profiles = len(pool.strength), pool.profiles
    profile = np.repeat(np.arange(len(profiles)), blocks)
    wins = np.zeros((len(profile), k))
    seats = np.zeros_like(wins)
    for r, table in enumerate(profiles):
        rows = slice(r * blocks, (r + 1) * blocks)
        wins[rows.start : rows.stop, list(table)] = rng.multinomial(3, pool.chances(table), blocks)
        seats[rows.start : rows.stop, list(table)] = 3
    return mg.Blocks(3, [f"s{i}" for i in range(k)], profiles, profile, wins, seats)


def true_mix_2p(a: np.ndarray) -> np.ndarray:
    return eq.nash(a)[0]


def true_mix_3p(pool: TablePool) -> np.ndarray:
    moves = eq.profile_moves(pool.profiles)
    pi = eq.alpharank(pool.payoff(), moves, mg.ALPHA, mg.POPULATION)
    return eq.strategy_mix(pi, pool.profiles, len(pool.strength))


def coverage(game: np.ndarray | TablePool, blocks: int, studies: int, seed: int) -> Coverage:
    """``studies`` meta-games of ``blocks`` seed blocks per table, each summarised as a
    report would (:func:`pipelines.metrics.meta_game._summary`), against the truth."""
    rng = np.random.default_rng(seed)
    if isinstance(game, TablePool):
        truth, k = true_mix_3p(game), len(game.strength)
    else:
        truth, k = true_mix_2p(game), len(game)
    covered, outside, separated = np.zeros(k), np.zeros(k), 0
    for _ in range(studies):
        if isinstance(game, TablePool):
            b = _table_blocks(game, blocks, rng)
        else:
            b = _two_player_blocks(game, blocks, rng)
        how = mg.solver(b)
        assert how is not None
        row, mix = mg._summary(b, how)
        separated += bool(row["separated"])
        for m in mix:
            s = int(str(m["strategy"])[1:])
            covered[s] += m["low"] - 1e-12 <= truth[s] <= m["high"] + 1e-12
            outside[s] += bool(m["outside"])
    return Coverage(covered / studies, outside / studies, separated / studies)
