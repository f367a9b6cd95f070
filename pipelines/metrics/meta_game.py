"""The meta-game of a strategy pool, per table size: which mix of strategies is stable when
players may switch strategies, with bootstrap intervals over seed blocks.

At 2 players the empirical game is zero-sum: ``A[i, j]`` is i's mean win share against j
minus 50% (both seats, over every game the pair played, made exactly antisymmetric as half
the difference of the two win shares), and the stable mix is its maximum-entropy Nash
equilibrium (:func:`pipelines.stats.equilibrium.nash`); each strategy's payoff against that
mix is its Nash-averaged rating. At 3 and 4 players the game is symmetric: a strategy's
payoff in a profile (the strategies at the table) is its mean win share there, and the mix
is the share of seats each strategy holds under the alpha-Rank stationary distribution over the
profiles played (:func:`pipelines.stats.equilibrium.alpharank`, alpha = :data:`ALPHA` per unit
of win share, populations of :data:`POPULATION`).

Only pool runs have a meta-game: a fixed lineup seats the same strategies at every table,
so no strategy can be swapped for another. A table size is analysed when at least three
strategies play it and, at 2 players, every pair met; at 3 and 4, at least two profiles
connected by one-seat switches (not when every game seats the whole pool).

Intervals: DuckDB sums each seed block's win shares per strategy (one pass, so a million
games cost a few hundred thousand rows), and numpy resamples the blocks
(:data:`REPLICATES` times, a generator seeded by the table size, so a report is a function
of its runs) within each profile, the way the schedule fixes how many blocks each profile
gets; every replicate is solved again, and an interval is the 2.5 and 97.5 percentiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import duckdb
import numpy as np
import pyarrow as pa
import scipy.sparse as sp

from pipelines.stats import equilibrium as eq

#: Bootstrap replicates of every table size's meta-game.
REPLICATES = 200
#: alpha-Rank's selection intensity per unit of win share (a 10-point edge: alpha*D = 1).
ALPHA = 10.0
#: alpha-Rank's population size per seat.
POPULATION = 50
#: The bootstrap resamples at most this many groups of whole seed blocks per profile (each
#: block its own group below that), so a replicate costs the same for a million games.
GROUPS = 256
#: A strategy is in a mix when it holds at least this share of it; "outside" the mix when
#: the upper end of its interval is below it.
IN_MIX = 0.01
#: The mix is "not separated" when the bootstrap's support differs from the estimate's in
#: more than this share of replicates.
SUPPORT_CHANGES = 0.05


@dataclass(frozen=True)
class Blocks:
    """One table size's seed blocks: the strategies (sorted), the profiles played (sorted
    tuples of strategy indices), each block's profile, and per block and strategy the sum
    of win shares and the seats."""

    n_players: int
    strategies: list[str]
    profiles: list[eq.Profile]
    profile: np.ndarray
    wins: np.ndarray
    seats: np.ndarray


def block_sums(con: duckdb.DuckDBPyConnection) -> list[Blocks]:
    """Per table size, the per-block sums of the finished games (one query)."""
    names = [
        r[0] for r in con.sql("SELECT DISTINCT strategy FROM seat_games ORDER BY 1").fetchall()
    ]
    cols = con.sql(
        """
        WITH codes AS (
            SELECT strategy, (row_number() OVER (ORDER BY strategy) - 1)::INTEGER AS code
            FROM (SELECT DISTINCT strategy FROM seat_games)),
        per AS (SELECT run, block, count(*)::BIGINT AS games FROM games GROUP BY 1, 2)
        SELECT s.n_players::INTEGER AS n, s.run::BIGINT AS run, s.block::BIGINT AS block,
               c.code, sum(s.win_share)::DOUBLE AS wins, count(*)::BIGINT AS seats,
               any_value(per.games) AS games
        FROM seat_games s JOIN codes c USING (strategy) JOIN per USING (run, block)
        GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
        """
    ).fetchnumpy()
    out = []
    for n in np.unique(cols["n"]) if len(cols["n"]) else []:
        rows = cols["n"] == n
        out.append(_size_blocks(int(n), names, {k: np.asarray(v[rows]) for k, v in cols.items()}))
    return out


def _size_blocks(n: int, names: list[str], c: dict[str, np.ndarray]) -> Blocks:
    """One table size's rows (sorted by run, block, code) as :class:`Blocks`."""
    used, code = np.unique(c["code"], return_inverse=True)
    k = len(used)
    new = np.ones(len(code), dtype=bool)
    new[1:] = (c["run"][1:] != c["run"][:-1]) | (c["block"][1:] != c["block"][:-1])
    block = np.cumsum(new) - 1
    wins = np.zeros((int(block[-1]) + 1, k))
    seats = np.zeros_like(wins)
    wins[block, code] = c["wins"]
    seats[block, code] = c["seats"]
    # A block's profile as one integer: each strategy's copies at the table in base n + 1.
    copies = (c["seats"] // np.maximum(c["games"], 1)).astype(np.int64)
    keys = np.zeros(len(wins), dtype=np.int64)
    np.add.at(keys, block, copies * (n + 1) ** code.astype(np.int64))
    found, profile = np.unique(keys, return_inverse=True)
    profiles = [_decode(int(key), n, k) for key in found]
    order = sorted(range(len(profiles)), key=lambda i: profiles[i])
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return Blocks(n, [names[int(u)] for u in used], [profiles[i] for i in order],
                  rank[profile], wins, seats)  # fmt: skip


def _decode(key: int, n: int, k: int) -> eq.Profile:
    out: list[int] = []
    for s in range(k):
        out += [s] * (key % (n + 1))
        key //= n + 1
    return tuple(out)


def _payoffs(b: Blocks, member: sp.csr_matrix, pick: np.ndarray | None) -> np.ndarray:
    """Each strategy's mean win share per profile (0 where it does not sit), over the blocks
    ``pick`` (indices into the blocks; all when None)."""
    wins = b.wins if pick is None else b.wins[pick]
    seats = b.seats if pick is None else b.seats[pick]
    total = member @ wins
    count = member @ seats
    return np.asarray(np.divide(total, count, out=np.zeros_like(total), where=count > 0))


@dataclass(frozen=True)
class Solved:
    """One solve of a table size's meta-game: the mix, the Nash-averaged ratings (2 players)
    and the stationary distribution over the profiles (3 and 4 players)."""

    mix: np.ndarray
    rating: np.ndarray | None
    profiles: np.ndarray | None


def solver(b: Blocks) -> tuple[str, np.ndarray | None] | None:
    """What solves ``b``'s meta-game (``"nash"`` with nothing, or ``"alpharank"`` with its
    moves), or None when the table size has none (see the module docstring) or more
    profiles than :data:`pipelines.stats.equilibrium.MAX_PROFILES`."""
    k = len(b.strategies)
    if k < 3:
        return None
    if b.n_players == 2:
        pairs = {p for p in b.profiles if p[0] != p[1]}
        return ("nash", None) if len(pairs) == k * (k - 1) // 2 else None
    if len(b.profiles) > eq.MAX_PROFILES:
        return None
    moves = eq.profile_moves(b.profiles)
    return ("alpharank", moves) if eq.connected(len(b.profiles), moves) else None


def solve(
    b: Blocks,
    how: tuple[str, np.ndarray | None],
    payoff: np.ndarray,
    hint: np.ndarray | None = None,
) -> Solved:
    """The meta-game of ``b`` under per-profile ``payoff``; at 2 players ``hint`` is the
    support to try first (:func:`pipelines.stats.equilibrium.nash`)."""
    k = len(b.strategies)
    if how[0] == "nash":
        a = np.zeros((k, k))
        for row, (i, j) in zip(payoff, b.profiles, strict=True):
            if i != j:
                a[i, j] = (row[i] - row[j]) / 2
                a[j, i] = -a[i, j]
        mix, _ = eq.nash(a, hint)
        return Solved(mix, eq.nash_averaged(a, mix), None)
    assert how[1] is not None
    pi = eq.alpharank(payoff, how[1], ALPHA, POPULATION)
    return Solved(eq.strategy_mix(pi, b.profiles, k), None, pi)


def _groups(b: Blocks) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The blocks summed into at most :data:`GROUPS` groups of whole blocks per profile
    (block ``r`` of a profile, in game order, into group ``r`` mod the groups): each
    group's profile, win shares and seats, sorted by profile."""
    order = np.argsort(b.profile, kind="stable")
    size = np.bincount(b.profile, minlength=len(b.profiles))
    start = np.concatenate([[0], np.cumsum(size)[:-1]])
    per = np.minimum(size, GROUPS)
    first = np.concatenate([[0], np.cumsum(per)[:-1]])
    stratum = b.profile[order]
    rank = np.arange(len(order)) - start[stratum]
    group = first[stratum] + rank % per[stratum]
    n = int(per.sum())
    wins = np.zeros((n, b.wins.shape[1]))
    seats = np.zeros_like(wins)
    np.add.at(wins, group, b.wins[order])
    np.add.at(seats, group, b.seats[order])
    return np.repeat(np.arange(len(b.profiles)), per), wins, seats


def bootstrap(
    b: Blocks,
    how: tuple[str, np.ndarray | None],
    reps: int = REPLICATES,
    hint: np.ndarray | None = None,
) -> list[Solved]:
    """``reps`` solves over the groups of blocks resampled within each profile (``hint``:
    the estimate's support, tried first at 2 players)."""
    stratum, wins, seats = _groups(b)
    size = np.bincount(stratum, minlength=len(b.profiles))
    start = np.concatenate([[0], np.cumsum(size)[:-1]])
    grouped = Blocks(b.n_players, b.strategies, b.profiles, stratum, wins, seats)
    member = _membership(grouped)
    rng = np.random.default_rng([20_180_000, b.n_players])
    out = []
    for _ in range(reps):
        draw = start[stratum] + (rng.random(len(stratum)) * size[stratum]).astype(np.int64)
        out.append(solve(b, how, _payoffs(grouped, member, draw), hint))
    return out


def _membership(b: Blocks) -> sp.csr_matrix:
    n = len(b.profile)
    return sp.csr_matrix((np.ones(n), (b.profile, np.arange(n))), shape=(len(b.profiles), n))


def _summary(
    b: Blocks, how: tuple[str, np.ndarray | None]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One table size's row of ``meta_game`` and its rows of ``meta_game_mix``."""
    point = solve(b, how, _payoffs(b, _membership(b), None))
    reps = bootstrap(b, how, hint=np.flatnonzero(point.mix > 0))
    mixes = np.array([r.mix for r in reps])
    low, high = np.percentile(mixes, 2.5, axis=0), np.percentile(mixes, 97.5, axis=0)
    support = point.mix >= IN_MIX
    changed = float(np.mean([bool(np.any((r.mix >= IN_MIX) != support)) for r in reps]))
    games = round(b.seats.sum() / b.n_players)
    row: dict[str, Any] = {
        "n_players": b.n_players,
        "method": "nash" if how[0] == "nash" else "alpha-rank",
        "strategies": len(b.strategies),
        "profiles": len(b.profiles),
        "blocks": len(b.profile),
        "games": games,
        "replicates": len(reps),
        "support_changes": changed,
        "separated": changed <= SUPPORT_CHANGES,
        "alpha": None if how[0] == "nash" else ALPHA,
        "population": None if how[0] == "nash" else POPULATION,
        "top_profile": None,
        "top_mass": None,
        "top_low": None,
        "top_high": None,
        "top_first": None,
    }
    if point.profiles is not None:
        top = int(np.argmax(point.profiles))
        masses = np.array([r.profiles[top] for r in reps if r.profiles is not None])
        row.update(
            top_profile=", ".join(b.strategies[s] for s in b.profiles[top]),
            top_mass=float(point.profiles[top]),
            top_low=float(min(np.percentile(masses, 2.5), point.profiles[top])),
            top_high=float(max(np.percentile(masses, 97.5), point.profiles[top])),
            top_first=float(
                np.mean([int(np.argmax(r.profiles)) == top for r in reps if r.profiles is not None])
            ),
        )
    ratings = None if point.rating is None else np.array([r.rating for r in reps])
    mix_rows: list[dict[str, Any]] = []
    for s, name in enumerate(b.strategies):
        mix_rows.append(
            {
                "n_players": b.n_players,
                "strategy": name,
                "p": float(point.mix[s]),
                "low": float(min(low[s], point.mix[s])),
                "high": float(max(high[s], point.mix[s])),
                "in_mix": bool(support[s]),
                "outside": bool(high[s] < IN_MIX and point.mix[s] < IN_MIX),
                "rating": None if point.rating is None else float(point.rating[s]),
                "rating_low": None if ratings is None else float(np.percentile(ratings[:, s], 2.5)),
                "rating_high": None
                if ratings is None
                else float(np.percentile(ratings[:, s], 97.5)),
            }
        )
    mix_rows.sort(key=lambda r: (-r["p"], -(r["rating"] or 0.0), str(r["strategy"])))
    return row, mix_rows


SUMMARY_TYPES = {
    "n_players": pa.int8(), "method": pa.string(), "strategies": pa.int64(),
    "profiles": pa.int64(), "blocks": pa.int64(), "games": pa.int64(),
    "replicates": pa.int64(), "support_changes": pa.float64(), "separated": pa.bool_(),
    "alpha": pa.float64(), "population": pa.int64(), "top_profile": pa.string(),
    "top_mass": pa.float64(), "top_low": pa.float64(), "top_high": pa.float64(),
    "top_first": pa.float64(),
}  # fmt: skip
MIX_TYPES = {
    "n_players": pa.int8(), "strategy": pa.string(), "p": pa.float64(), "low": pa.float64(),
    "high": pa.float64(), "in_mix": pa.bool_(), "outside": pa.bool_(),
    "rating": pa.float64(), "rating_low": pa.float64(), "rating_high": pa.float64(),
}  # fmt: skip


def meta_game_tables(con: duckdb.DuckDBPyConnection) -> dict[str, pa.Table]:
    """``meta_game`` (a row per table size with a meta-game: method, sizes, how often the
    bootstrap's support differs, alpha-Rank's first profile) and ``meta_game_mix`` (per table
    size and strategy: its share of the stable mix with its interval, whether it is in the
    mix or outside it, and at 2 players its Nash-averaged rating with its interval)."""
    rows, mix = [], []
    for b in block_sums(con):
        how = solver(b)
        if how is not None:
            row, found = _summary(b, how)
            rows.append(row)
            mix += found
    return {
        "meta_game": pa.table(
            {k: pa.array([r[k] for r in rows], t) for k, t in SUMMARY_TYPES.items()}
        ),
        "meta_game_mix": pa.table(
            {k: pa.array([r[k] for r in mix], t) for k, t in MIX_TYPES.items()}
        ),
    }
