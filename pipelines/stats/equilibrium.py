"""Equilibria of empirical games: the maximum-entropy Nash equilibrium of a two-player
zero-sum game (linear programming), and the alpha-Rank stationary distribution over the profiles
of a symmetric many-player game.

Pure functions over payoff arrays; nothing here knows of runs or strategies' names.

**Nash.** The row player's optimal mix of a zero-sum game ``A`` (row ``i`` against column
``j`` gets ``A[i, j]``) solves the linear program max v s.t. Aᵀp ≥ v, Σp = 1, p ≥ 0 (scipy's
HiGHS). The optimal mixes form a polytope; Nash averaging (Balduzzi et al., 2018) takes the
one of maximum entropy, unique, and invariant to adding copies of a strategy (copies split
its share). Most empirical games have a single optimal mix, and :func:`nash` checks that
first (a nonsingular system on the supports of both players' optimal mixes); only where it
fails does it find every strategy some optimal mix uses (one LP each) and maximise the
entropy over them.

**alpha-Rank** (Omidshafiei et al., 2019), multi-population form on a symmetric game: the states
are the profiles (which strategies sit at a table, as a multiset) and a mutation replaces
one seat's strategy by another, which then takes over that seat's population of ``m`` with
the fixation probability of a Moran process at selection intensity ``alpha``:
rho(D) = (1 - exp(-alpha D)) / (1 - exp(-m alpha D)), D the newcomer's payoff in the new
profile minus the replaced strategy's in the old one (1/m when D = 0). Only moves between
the profiles given are made, so a pool of distinct members is the game in which a seat may
switch to any member not yet at the table. The stationary distribution of that Markov chain
ranks the profiles; it is unique when the profiles given are connected by moves.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
from scipy.optimize import linprog, minimize

#: Below this a probability counts as zero when supports are compared inside the solvers.
_TOL = 1e-9
#: The most profiles alpha-Rank is solved over: its chain is a dense linear system, solved
#: again for every bootstrap replicate (about 10 ms at 330 profiles, so 200 replicates stay
#: within seconds). A pool of 11 at 4 players has 330, of 13 at 3 players 286.
MAX_PROFILES = 330


def _optimal_mix(a: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """One optimal mix of the row player of ``a``, the game's value, and the column
    player's optimal mix (the LP's duals)."""
    k, c = a.shape
    # Variables p_1..p_k, v; maximise v: minimise -v.
    cost = np.zeros(k + 1)
    cost[-1] = -1.0
    upper = np.hstack([-a.T, np.ones((c, 1))])  # v - (Aᵀp)_j <= 0
    equal = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * k + [(None, None)]
    res = linprog(cost, A_ub=upper, b_ub=np.zeros(c), A_eq=equal, b_eq=[1.0], bounds=bounds,
                  method="highs")  # fmt: skip
    if res.status != 0:
        raise ValueError(f"the zero-sum LP failed: {res.message}")
    p = np.clip(res.x[:k], 0.0, None)
    q = np.clip(-np.asarray(res.ineqlin.marginals), 0.0, None)
    return p / p.sum(), float(res.x[-1]), q / q.sum() if q.sum() > 0 else q


def _unique(a: np.ndarray, value: float, q: np.ndarray) -> bool:
    """Whether the row player has a single optimal mix: every optimal mix plays only rows
    that are best responses to ``q`` and equalises the columns ``q`` plays, and that linear
    system has one solution."""
    rows = np.flatnonzero(a @ q >= value - 1e-9)
    cols = np.flatnonzero(q > _TOL)
    system = np.vstack([a[np.ix_(rows, cols)].T, np.ones((1, len(rows)))])
    return bool(np.linalg.matrix_rank(system, tol=1e-9) == len(rows))


def _max_entropy(a: np.ndarray, value: float) -> np.ndarray:
    """The optimal mix of maximum entropy: on the strategies some optimal mix plays (one LP
    each), the entropy maximised from the centre of those mixes."""
    k = a.shape[0]
    guard = value - 1e-9
    corners = []
    for i in range(k):
        cost = np.zeros(k)
        cost[i] = -1.0
        res = linprog(cost, A_ub=-a.T, b_ub=-np.full(a.shape[1], guard),
                      A_eq=np.ones((1, k)), b_eq=[1.0], bounds=[(0.0, None)] * k,
                      method="highs")  # fmt: skip
        corners.append(np.clip(res.x, 0.0, None))
    centre = np.mean(corners, axis=0)
    used = np.flatnonzero(centre > _TOL)
    sub = a[used]

    def neg_entropy(x: np.ndarray) -> float:
        return float(np.sum(x * np.log(np.maximum(x, 1e-300))))

    def gradient(x: np.ndarray) -> np.ndarray:
        return np.asarray(np.log(np.maximum(x, 1e-300)) + 1.0)

    res = minimize(
        neg_entropy,
        centre[used] / centre[used].sum(),
        jac=gradient,
        method="SLSQP",
        bounds=[(1e-15, 1.0)] * len(used),
        constraints=[
            {"type": "eq", "fun": lambda x: float(x.sum() - 1.0)},
            {"type": "ineq", "fun": lambda x: sub.T @ x - guard},
        ],
        options={"ftol": 1e-12, "maxiter": 500},
    )
    p = np.zeros(k)
    p[used] = np.clip(res.x, 0.0, None) if res.success else centre[used]
    p[p < 1e-8] = 0.0
    return np.asarray(p / p.sum())


def _on_support(a: np.ndarray, support: np.ndarray) -> np.ndarray | None:
    """The equilibrium of the antisymmetric game ``a`` on ``support`` (the mix that makes
    every strategy there equal), when it is the single optimal mix; else None."""
    k = a.shape[0]
    system = np.vstack([a[np.ix_(support, support)].T, np.ones((1, len(support)))])
    rhs = np.zeros(len(support) + 1)
    rhs[-1] = 1.0
    solved, *_ = np.linalg.lstsq(system, rhs, rcond=None)
    if np.abs(system @ solved - rhs).max() > 1e-9 or solved.min() < -1e-12:
        return None
    p = np.zeros(k)
    p[support] = np.clip(solved, 0.0, None)
    if (a.T @ p).min() < -1e-12 or not _unique(a, 0.0, p):
        return None
    return p


def nash(a: np.ndarray, support: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """The row player's maximum-entropy optimal mix of the zero-sum game ``a`` and the
    game's value (0 for an antisymmetric ``a``). For an antisymmetric ``a``, ``support``
    (strategy indices) is tried first: when the mix that equalises them is the game's only
    equilibrium no linear program is solved (a bootstrap replicate usually keeps the
    support of the estimate)."""
    a = np.asarray(a, dtype=float)
    if support is not None and len(support) and np.allclose(a, -a.T, atol=1e-12):
        found = _on_support(a, np.asarray(support))
        if found is not None:
            return found, 0.0
    p, value, q = _optimal_mix(a)
    if _unique(a, value, q):
        p[p < _TOL] = 0.0
        return p / p.sum(), value
    return _max_entropy(a, value), value


def nash_averaged(a: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Each row strategy's payoff against the mix ``p`` of columns: the Nash-averaged
    rating (0 for every strategy in the support of an antisymmetric game's equilibrium,
    below 0 outside it)."""
    return np.asarray(np.asarray(a, dtype=float) @ p)


# -- alpha-Rank ---------------------------------------------------------------------------------


def fixation(delta: np.ndarray, alpha: float, m: int) -> np.ndarray:
    """The probability that one mutant takes over a population of ``m`` when its payoff is
    ``delta`` above the residents' (Moran process, selection intensity ``alpha``); computed
    without overflow for any ``delta``."""
    x = alpha * np.asarray(delta, dtype=float)
    out = np.full(x.shape, 1.0 / m)
    pos = x > 1e-12
    neg = x < -1e-12
    out[pos] = -np.expm1(-x[pos]) / -np.expm1(-m * x[pos])
    y = -x[neg]  # the mutant is worse: (e^y - 1) / (e^{m y} - 1) = e^{-(m-1)y} (…)
    out[neg] = np.exp(-(m - 1) * y) * (-np.expm1(-y)) / (-np.expm1(-m * y))
    return out


Profile = tuple[int, ...]


def profile_moves(profiles: Sequence[Profile]) -> np.ndarray:
    """The mutations between ``profiles`` (sorted tuples of strategy indices, a multiset),
    one row each: from, to, leaving strategy, arriving strategy, and the copies of the
    leaving strategy at the table (each of its seats may mutate)."""
    where = {p: k for k, p in enumerate(profiles)}
    moves = []
    strategies = sorted({s for p in profiles for s in p})
    for k, p in enumerate(profiles):
        for leaving in sorted(set(p)):
            rest = list(p)
            rest.remove(leaving)
            for arriving in strategies:
                if arriving == leaving:
                    continue
                target = tuple(sorted([*rest, arriving]))
                if target in where:
                    moves.append((k, where[target], leaving, arriving, p.count(leaving)))
    return np.array(moves, dtype=np.int64).reshape(-1, 5)


def connected(n_profiles: int, moves: np.ndarray) -> bool:
    """Whether every profile reaches every other by ``moves`` (moves go both ways)."""
    if n_profiles < 2:
        return False
    seen = {0}
    frontier = [0]
    links: dict[int, list[int]] = {}
    for a, b in moves[:, :2].tolist():
        links.setdefault(a, []).append(b)
    while frontier:
        for b in links.get(frontier.pop(), []):
            if b not in seen:
                seen.add(b)
                frontier.append(b)
    return len(seen) == n_profiles


def alpharank(payoff: np.ndarray, moves: np.ndarray, alpha: float, m: int) -> np.ndarray:
    """The stationary distribution over the profiles of the alpha-Rank chain. ``payoff[k, s]``
    is strategy ``s``'s payoff in profile ``k`` (any value where it does not sit);
    ``moves`` from :func:`profile_moves` over at most :data:`MAX_PROFILES` connected
    profiles."""
    n = payoff.shape[0]
    if n > MAX_PROFILES:
        raise ValueError(f"alpha-Rank is solved over at most {MAX_PROFILES} profiles, not {n}")
    src, dst, leaving, arriving, copies = moves.T
    delta = payoff[dst, arriving] - payoff[src, leaving]
    rate = fixation(delta, alpha, m) * copies
    # pi Q = 0 with Q the generator: its transpose, the last equation replaced by sum = 1.
    # A move's (from, to) pair is unique (one leaver, one newcomer), so rates are set, not
    # added.
    system = np.zeros((n, n))
    system[dst, src] = rate
    system[np.arange(n), np.arange(n)] -= np.bincount(src, weights=rate, minlength=n)
    system[n - 1, :] = 1.0
    rhs = np.zeros(n)
    rhs[-1] = 1.0
    pi = np.clip(np.linalg.solve(system, rhs), 0.0, None)
    return np.asarray(pi / pi.sum())


def strategy_mix(pi: np.ndarray, profiles: Sequence[Profile], k: int) -> np.ndarray:
    """The share of seats each of ``k`` strategies holds under the distribution ``pi`` over
    ``profiles`` (sums to 1)."""
    mix = np.zeros(k)
    for weight, p in zip(pi, profiles, strict=True):
        for s in p:
            mix[s] += weight / len(p)
    return mix


def all_profiles(k: int, n: int, repeats: bool) -> list[Profile]:
    """Every profile of ``n`` seats from ``k`` strategies (with or without a strategy seated
    twice), in lexicographic order."""
    pick = itertools.combinations_with_replacement if repeats else itertools.combinations
    return [tuple(p) for p in pick(range(k), n)]


__all__ = [
    "MAX_PROFILES",
    "all_profiles",
    "alpharank",
    "connected",
    "fixation",
    "nash",
    "nash_averaged",
    "profile_moves",
    "strategy_mix",
]
