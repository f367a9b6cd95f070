"""Properties of random games on the compiled path, checked after every turn: the 60 cards
each in exactly one place, stashes' scores and counts consistent, and every power question's
options legal (a Knife never offers a kind of the thief's stash, no pile offered is empty)
with every player's answer one of them."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.treasure_island.cards import TOP_VALUE
from sim.treasure_island.compiled import engine, rng
from sim.treasure_island.compiled import layout as lay
from sim.treasure_island.compiled import strategies as ps
from sim.treasure_island.compiled.rng import new_states
from sim.treasure_island.compiled.tables import stream_seeds
from sim.treasure_island.rules import preset

PLAYERS = [("random", {}), ("stop-at", {"n": 4}), ("bust-threshold", {}), ("expected-value", {})]


def check_cards(g: np.ndarray, n: int) -> None:
    """Every card in exactly one place; scores, counts and kinds match the stashes; the
    pile's make-up and busting count match the pile."""
    seen = [int(c) for c in g[lay.PILE : lay.PILE + g[lay.PILE_LEN]]]
    seen += [int(c) for c in g[lay.DISCARD : lay.DISCARD + g[lay.DISCARD_LEN]]]
    for seat in range(n):
        piles = [int(p) for p in g[lay.STASH + seat * 10 : lay.STASH + seat * 10 + 10]]
        cards = [k * 6 + i for k, p in enumerate(piles) for i in range(6) if p >> i & 1]
        seen += cards
        assert g[lay.POINTS + seat] == sum(TOP_VALUE[k][p] for k, p in enumerate(piles))
        assert g[lay.CARDS + seat] == len(cards)
        assert g[lay.STASH_KINDS + seat] == sum(1 << k for k, p in enumerate(piles) if p)
    assert sorted(seen) == list(range(60))
    pile = [int(c) for c in g[lay.PILE : lay.PILE + g[lay.PILE_LEN]]]
    for k in range(10):
        assert g[lay.PILE_PILES + k] == sum(1 << (c % 6) for c in pile if c // 6 == k)


def check_choices(
    g: np.ndarray,
    rules: np.ndarray,
    streams: np.ndarray,
    seeded: np.ndarray,
    players: np.ndarray,
    params: np.ndarray,
) -> None:
    """Each seat's Knife, Pistol and Helm options are legal, and every answer is one of them
    (asked of copies: a random player's answer draws from its stream)."""
    g, streams = g.copy(), streams.copy()
    n = g[lay.N]
    options = np.empty(64, dtype=np.int64)
    for seat in range(n):
        for knife in (True, False):
            count = engine._opponent_piles(g, rules, seat, knife, options)
            offered = options[:count].tolist()
            for option in offered:
                victim, kind = option >> 4, option & 15
                assert victim != seat and g[lay.STASH + victim * 10 + kind]
                if knife:
                    assert not g[lay.STASH_KINDS + seat] >> kind & 1
            if count:
                decision = ps.D_KNIFE if knife else ps.D_PISTOL
                answer = engine._pick(
                    g, streams, seeded, players, params, seat, decision, options, count
                )
                assert answer in offered
        kinds = [k for k in range(10) if g[lay.STASH_KINDS + seat] >> k & 1]
        if kinds:
            options[: len(kinds)] = kinds
            assert (
                engine._pick(
                    g, streams, seeded, players, params, seat, ps.D_HELM, options, len(kinds)
                )
                in kinds
            )


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    lineup=st.lists(st.integers(0, len(PLAYERS) - 1), min_size=2, max_size=4),
    characters=st.booleans(),
    rum=st.integers(0, 3),
    candle=st.integers(1, 5),
    anchored=st.booleans(),
    knife_area=st.booleans(),
)
def test_compiled_games_conserve_cards_and_use_powers_legally(
    seed: int,
    lineup: list[int],
    characters: bool,
    rum: int,
    candle: int,
    anchored: bool,
    knife_area: bool,
) -> None:
    rules = dataclasses.replace(
        preset("standard"),
        characters=characters,
        rum_cards=rum,
        candle_reveal=candle,
        key_chest_on_anchored_bust=anchored,
        knife_checks_play_area=knife_area,
    )
    row = lay.rules_row(rules)
    n = len(lineup)
    codes = [ps.seat_code(*PLAYERS[p]) for p in lineup]
    players = np.array([c[0] for c in codes] + [0] * (4 - n), dtype=np.int64)
    params = np.array([c[1:] for c in codes] + [(0.0, 0.0)] * (4 - n), dtype=np.float64)
    seeds = np.array(stream_seeds(seed, n), dtype=np.uint64)
    streams = new_states(lay.STREAM_ROWS + len(seeds))
    for k, key in enumerate(seeds):  # each stream as seeded, in the rows after a game's
        rng.seed_u64(streams[lay.STREAM_ROWS + k], key)
    seeded = np.arange(lay.STREAM_ROWS, lay.STREAM_ROWS + len(seeds))
    g = np.zeros(lay.STATE_SIZE, dtype=np.int64)
    pool = lay.character_pool(rules)
    seat = engine.start(g, row, pool, streams, seeded, players, params, n, True)
    check_cards(g, n)
    while g[lay.PILE_LEN]:
        engine.play_turn(g, row, streams, seeded[2:], players, params, seat)
        check_cards(g, n)
        check_choices(g, row, streams, seeded[2:], players, params)
        seat = (seat + 1) % n
        g[lay.TURN] += 1
    assert g[lay.TURN] <= 50 and sum(g[lay.TURNS + s * 4] for s in range(n)) == g[lay.TURN]
