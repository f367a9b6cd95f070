"""The bench's games played with the reference's clue filter watched: every call of
``LegalActions._clue_plays`` and ``ScriptedPlayer._best_clue`` with its answer, each game's
clue masks and island distances, and the random draws and stream seeds of each stream."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sim.tobago.deal as deal_module
import sim.tobago.engine as engine_module
from pipelines.play.game import BENCH_SEED
from sim import referee, seeding
from sim.game import GamePlan
from sim.runner.games import game_kind
from sim.runner.schedule import Schedule
from sim.tobago.decisions import ActionKind
from sim.tobago.legal_actions import LegalActions
from sim.tobago.rules import TobagoRules
from strategies.registry import parse_strategy, split_specs
from strategies.tobago.geometry import leg_tables
from strategies.tobago.scripted import ScriptedPlayer

LINEUP = "hunter,cartographer,collector,cautious"
_CLUE = ActionKind.CLUE


@dataclass
class Recorded:
    """The calls of the two reference methods in the games played, with their answers."""

    masks: list[tuple[int, ...]] = field(default_factory=list)  # per game
    islands: list[int] = field(default_factory=list)  # per game, into dists
    dists: list[tuple[list[int], ...]] = field(default_factory=list)  # per island
    #: (game, seat, tag, only_map, hand, cands, roses, plays)
    plays: list[tuple[Any, ...]] = field(default_factory=list)
    #: (game, plays, cands, atvs, map_roses, seat, weights, legs, answer index, score)
    best: list[tuple[Any, ...]] = field(default_factory=list)
    #: random draws (32-bit words) by stream, and streams seeded, over all games
    words: dict[str, int] = field(default_factory=dict)
    seeded: dict[str, int] = field(default_factory=dict)
    drew: dict[str, int] = field(default_factory=dict)  # streams that drew at least once
    derived: int = 0  # stream seeds derived (BLAKE2b)


def setup_games(games: int) -> tuple[Any, TobagoRules, list[Any], list[GamePlan]]:
    """Tobago's kind, its rulebook rules, the lineup's factories and the bench's first
    ``games`` plans (the per-island caches warmed on other seeds)."""
    kind: Any = game_kind("tobago")
    rules = kind.load_rules("rulebook")
    islands = tuple(kind.boards.builtin())
    factories = [parse_strategy(s, "tobago").factory() for s in split_specs(LINEUP)]
    plans = [Schedule(BENCH_SEED, len(factories), "rotate", islands).plan(g) for g in range(games)]
    warm = Schedule(BENCH_SEED + 1, len(factories), "rotate", islands)
    for g in range(min(128, games)):
        kind.play(warm.plan(g), rules, factories)
    return kind, rules, factories, plans


def record(games: int) -> Recorded:
    """Play the bench's first ``games`` games with the two methods and the streams watched."""
    kind, rules, factories, plans = setup_games(games)
    if rules.bga_allow_non_reducing_without_markers:
        raise SystemExit("the prototype covers the rules without the BGA clue flag")
    rec = Recorded()
    island_ids: dict[int, int] = {}
    now = [-1]
    plays_ref = LegalActions._clue_plays
    best_ref = ScriptedPlayer._best_clue

    def plays_watch(self: Any, seat: int, tag: Any, only_map: int = -1) -> Any:
        s = self.state
        key = (now[0], seat, tag, only_map, tuple(s.hands[seat]), tuple(s.map_cand), s.roses[seat])
        out = plays_ref(self, seat, tag, only_map)
        rec.plays.append((*key, tuple((c, m) for _, c, m in out)))
        return out

    def best_watch(self: Any, view: Any, actions: Any) -> Any:
        out = best_ref(self, view, actions)
        prefix = []
        for a in actions:
            if a[0] is not _CLUE:
                break
            prefix.append((a[1], a[2]))
        seat = view.seat
        st = self.style
        atvs = (view.atv(seat), *(view.atv(p) for p in self._rivals))
        s = view._s  # the recorder reads the state the view reads
        index = -1 if out[0] is None else list(actions).index(out[0])
        weights = (st.clue_weight, st.locate_bonus, st.spread_bonus)
        row = (now[0], tuple(prefix), tuple(s.map_cand), atvs, [list(r) for r in s.map_roses])
        rec.best.append((*row, seat, weights, self.legs_per_move, index, out[1]))
        return out

    restore = _watch_streams(rec)
    LegalActions._clue_plays = plays_watch  # type: ignore[method-assign]
    ScriptedPlayer._best_clue = best_watch  # type: ignore[method-assign]
    try:
        for g, plan in enumerate(plans):
            now[0] = g
            game = kind.build(plan, rules, factories)
            island = game.state.island
            if id(island) not in island_ids:
                island_ids[id(island)] = len(rec.dists)
                rec.dists.append(leg_tables(island)[0])
            rec.islands.append(island_ids[id(island)])
            rec.masks.append(game.state.clue_masks)
            game.play()
    finally:
        LegalActions._clue_plays = plays_ref  # type: ignore[method-assign]
        ScriptedPlayer._best_clue = best_ref  # type: ignore[method-assign]
        restore()
    return rec


def _watch_streams(rec: Recorded) -> Callable[[], None]:
    """Count each stream's 32-bit words drawn (``random()`` takes two, ``getrandbits(k)``
    one per 32 bits; ``randrange``, ``choice`` and ``shuffle`` are built on them) and the
    streams seeded; returns what undoes it."""
    names: dict[int, str] = {}
    used: set[int] = set()
    make, derive = seeding.stream, seeding.derive_seed
    cls = seeding.Stream
    random_ref, bits_ref = cls.random, cls.getrandbits

    def named(seed: int, *path: str | int) -> seeding.Stream:
        made = make(seed, *path)
        name = str(path[0])
        names[id(made)] = name
        used.discard(id(made))  # an id freed by a finished game's stream may come again
        rec.seeded[name] = rec.seeded.get(name, 0) + 1
        return made

    def seat_stream(seed: int) -> seeding.Stream:
        made = cls(seed)
        names[id(made)] = "seat"
        used.discard(id(made))
        rec.seeded["seat"] = rec.seeded.get("seat", 0) + 1
        return made

    def derived(seed: int, *path: str | int) -> int:
        rec.derived += 1
        return derive(seed, *path)

    def count(self: Any, words: int) -> None:
        name = names.get(id(self), "other")
        rec.words[name] = rec.words.get(name, 0) + words
        if id(self) not in used:
            used.add(id(self))
            rec.drew[name] = rec.drew.get(name, 0) + 1

    def random_watch(self: Any) -> float:
        count(self, 2)
        return random_ref(self)

    def bits_watch(self: Any, k: int) -> int:
        count(self, max(1, (k + 31) // 32))
        return bits_ref(self, k)

    modules = (seeding, deal_module, engine_module)
    for module in modules:
        module.stream = named  # type: ignore[attr-defined]
    setattr(referee, "Stream", seat_stream)  # noqa: B010 (not exported by sim.referee)
    setattr(referee, "derive_seed", derived)  # noqa: B010
    seeding.derive_seed = derived
    cls.random = random_watch  # type: ignore[method-assign]
    cls.getrandbits = bits_watch  # type: ignore[method-assign]

    def restore() -> None:
        for module in modules:
            module.stream = make  # type: ignore[attr-defined]
        setattr(referee, "Stream", cls)  # noqa: B010
        setattr(referee, "derive_seed", derive)  # noqa: B010
        seeding.derive_seed = derive
        cls.random = random_ref  # type: ignore[method-assign]
        cls.getrandbits = bits_ref  # type: ignore[method-assign]

    return restore
