"""The exact expected value of the rest of a Treasure Island turn, under optimal play.

:class:`TurnSolver` is an expectimax over the turn as the engine plays it (rules spec §5-§6,
§9), built from one seat's view alone: every draw takes a uniformly random card of the draw
pile's known make-up (§9.15) unless its top cards are public (a Spyglass or the Mystic showed
them); every power applies with all its forced steps: the Helm's pile of your own stash, the
Knife's steal, the Pistol's shot, the Candle's random cards of the discard, the Spyglass's
peek, the Rum bottle's owed cards, the Anchor's keep, the Key + Chest bonus drawn at random
from the discard, and the characters' changes to those powers (Navigator, Master gunner,
Scavenger, Mystic, Plunderer, Treasure hunter; the Wrecker changes nothing on its own turn).
A choice point takes the best answer, a chance point the exact average.

The objective is the points the turn adds to this seat's score, and only those: the game
beyond the turn (what a Spyglass put back tells the next player, what a Pistol costs a rival)
is not valued, which is what makes a player built on it a *reference* for the turn.

**The state** is split in two, a hot int and an interned context: see
:mod:`strategies.treasure_island.turn_state`.

Two facts keep the search small and exact: cards of the pile of kinds in play all bust alike,
so only their number counts; and the value less ``bank`` never rises as ``bank`` rises with
all else equal, so once plundering is best at some bank it is best at every higher one.
"""

from __future__ import annotations

from typing import Any

from sim.treasure_island.cards import (
    ANCHOR,
    CANDLE,
    CARD_GAIN,
    CHEST,
    HELM,
    KEY,
    KIND,
    KNIFE,
    N_CARDS,
    N_KINDS,
    PER_KIND,
    PISTOL,
    RUM,
    TOP_INDEX,
    TOP_VALUE,
    VALUE,
)
from sim.treasure_island.view import PlayerView
from strategies.treasure_island.turn_bounds import draw_bound, reach_bounds
from strategies.treasure_island.turn_powers import helm, knife, pistol, power
from strategies.treasure_island.turn_state import (
    ABOVE,
    ACTIVE,
    ALL_KINDS,
    BANK_AT,
    BANK_MASK,
    BUSTS,
    CANON_AT,
    CANON_MASK,
    KEPT_AT,
    KEPT_MASK,
    KINDS_OF,
    NORM,
    PAIR,
    PLAIN,
    RUM_AT,
    RUM_MASK,
    RUM_ONE,
    SAFE_AT,
    SAFE_MASK,
    SHAPE,
    TAKEN_AT,
    TAKEN_ONE,
    TOP1,
    TOP2,
    Context,
    State,
    discard_bonus,
    normalised_values,
    order_statistic_mean,
)


class TurnSolver:
    """The optimal expected points of the rest of the turn, from ``view``'s seat.

    ``shown``: cards out of the discard only for the moment (a Candle's reveal being chosen
    from), which go back to it. ``exact=False`` (``optimal``'s default) values two things
    approximately, both named in docs/strategies.md: the Key + Chest bonus (drawn from the
    discard and compared with the piles as they stood at the turn's first decision), and an
    Anchor's keep followed by a Helm forced to take a pile of the kept kind, which it can
    overvalue.
    """

    __slots__ = (
        "_classes",
        "_contexts",
        "_increments",
        "_memo",
        "_powers",
        "_stops",
        "anchored_bonus",
        "base",
        "bonus_discard",
        "busting_of",
        "character",
        "counts",
        "exact",
        "hi",
        "knife_area",
        "lo",
        "movable",
        "normalise",
        "opponents",
        "reveal",
        "rum_cards",
        "unknown",
        "unknown_size",
        "victims",
    )

    def __init__(self, view: PlayerView, shown: tuple[int, ...] = (), exact: bool = True) -> None:
        rules = view.rules
        self.exact = exact
        self.rum_cards = rules.rum_cards
        self.reveal = rules.candle_reveal
        self.knife_area = rules.knife_checks_play_area
        self.anchored_bonus = rules.key_chest_on_anchored_bust
        self.character = view.characters[view.seat] if rules.characters else ""
        self.opponents = tuple(o for o in range(view.n) if o != view.seat)
        known = view.known_cards
        piles = list(view.pile_piles)
        for c in known:
            piles[KIND[c]] &= ~(1 << (c % PER_KIND))
        self.unknown = tuple(piles)
        self.counts = tuple(m.bit_count() for m in piles)
        self.unknown_size = sum(self.counts)
        #: Unknown cards of the kinds of each kind mask (before any is taken).
        self.busting_of = tuple(
            sum(self.counts[k] for k in KINDS_OF[m]) for m in range(1 << N_KINDS)
        )
        # The window of values that can still matter, per kind (see the module docstring).
        mine = view.my_stash
        discard = view.discard_mask
        for c in shown:
            discard |= 1 << c
        #: The discard the bonus is drawn from when not ``exact`` (see the class docs).
        self.bonus_discard = discard
        #: This seat's pile tops at the turn's first decision (the default bonus's piles).
        self.base = tuple(TOP_VALUE[k][mine[k]] for k in range(N_KINDS))
        self.lo: list[int] = []
        self.hi: list[int] = []
        #: Whether value nibbles are cut to the window the state can still read (see
        #: :meth:`_normalised`): in default mode only the Scavenger's are ever wider than one.
        self.normalise = not exact and self.character == "scavenger"
        for k in range(N_KINDS):
            pile = mine[k]
            if not exact and not self.normalise:
                # Values are not kept: every card counts as at most this pile's top.
                self.lo.append(TOP_VALUE[k][pile])
                self.hi.append(TOP_VALUE[k][pile])
                continue
            second = pile & ~(1 << TOP_INDEX[pile]) if pile else 0
            self.lo.append(TOP_VALUE[k][second])
            high = TOP_VALUE[k][pile]
            if exact:
                # The exact bonus compares its cards with the play area's own.
                for i in range(PER_KIND):
                    if discard >> (k * PER_KIND + i) & 1:
                        high = max(high, VALUE[k * PER_KIND + i])
            if exact or self.character == "scavenger":
                # Up to the highest card a Scavenger's shot could add to the pile (and, for
                # the exact bonus, a steal could bring).
                for o in self.opponents:
                    high = max(high, TOP_VALUE[k][view.stash_pile(o, k)])
            self.hi.append(high)
        # The kinds an Anchor keeps matter only where this seat's pile of that kind can still
        # move (a Helm's forced bust, a Scavenger's shot) or the bonus is paid on a bust.
        # Once the Helm and the Pistol are both spent nothing moves, and the kinds kept by an
        # Anchor stop splitting states that differ in nothing else.
        late = ALL_KINDS if self.anchored_bonus else 0
        shot = 0
        if self.character == "scavenger":
            for o in self.opponents:
                shot |= sum(1 << k for k in range(N_KINDS) if view.stash_pile(o, k))
        # A shot can start a pile the Helm then takes: while the Helm is to come, its piles
        # are this seat's and the ones a shot could start.
        helm = shot | sum(1 << k for k in range(N_KINDS) if mine[k])
        #: The kinds an Anchor's keep can still matter for, by which of the Helm (bit 0) and
        #: the Pistol (bit 1) are in play.
        self.movable = (late | helm | shot, late | shot, late | helm, late)
        #: Opponent seat -> its stash's index in the last :meth:`state`'s context.
        self.victims: dict[int, int] = {}
        self._memo: dict[int, float] = {}
        self._stops: dict[int, int] = {}
        self._powers: dict[int, float] = {}
        self._contexts: dict[tuple[Any, ...], Context] = {}
        #: Per stash: every card's :meth:`increment`; per kind, the pile's unknown cards
        #: grouped by it: ((representative card, how many, hot increment), ...).
        self._increments: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._classes: dict[tuple[int, ...], list[tuple[tuple[int, int, int], ...]]] = {}

    # -- states ------------------------------------------------------------------------------

    def canon(self, card: int) -> int:
        """``card``'s value clamped into the window where it can still matter."""
        k = KIND[card]
        return min(max(VALUE[card], self.lo[k]), self.hi[k])

    def increment(self, card: int, cur: tuple[int, ...]) -> int:
        """What placing ``card`` (not busting) adds to the hot int, before its power."""
        k = KIND[card]
        return (
            (1 << k) | CARD_GAIN[card][cur[k]] << BANK_AT | self.canon(card) << (CANON_AT + 4 * k)
        )

    def increments(self, c: Context) -> tuple[int, ...]:
        """Set and return ``c.inc``: :meth:`increment` of every card, on ``c``'s stash."""
        cur = c.cur
        inc = self._increments.get(cur)
        if inc is None:
            inc = tuple(self.increment(card, cur) for card in range(N_CARDS))
            self._increments[cur] = inc
        c.inc = inc
        return inc

    def context(
        self,
        h: int,
        cur: tuple[int, ...],
        opp: tuple[tuple[int, ...], ...],
        discard: int,
        dsize: int,
        known: tuple[int, ...],
        incoming: int = -1,
        pending: int = 0,
    ) -> Context:
        """The interned context, with what the hot state ``h`` says can no longer matter
        dropped. ``incoming``: a card on its way to the play area (a Helm's, a Knife's, a
        Candle's pick); ``pending``: kinds in play whose power is still to be chosen."""
        kinds = h & ALL_KINDS
        used = kinds & ~pending
        cur = tuple(map(TOP1 if used >> HELM & 1 else TOP2, cur))
        opp = self._reachable(opp, used)
        if used >> CANDLE & 1 and not self.exact:
            discard = dsize = 0  # the bonus reads the discard as it was (see the class docs)
        elif used >> CANDLE & 1:
            arriving = kinds | (1 << KIND[incoming] if incoming >= 0 else 0)
            if self.character == "plunderer" or not self._bonus_possible(
                arriving, used, cur, opp, known
            ):
                discard = dsize = 0
            else:
                # A card at most the lowest the pile of its kind can end at never counts.
                keep = 0
                for k in range(N_KINDS):
                    floor = self.lo[k]
                    if kinds >> k & 1:
                        floor = max(floor, h >> (CANON_AT + 4 * k) & 15)
                    keep |= ABOVE[k][floor]
                discard &= keep
        key = (cur, opp, discard, dsize, known)
        ctx = self._contexts.get(key)
        if ctx is None:
            ctx = Context(len(self._contexts), cur, opp, discard, dsize, known)
            self._contexts[key] = ctx
        return ctx

    def _reachable(
        self, opp: tuple[tuple[int, ...], ...], used: int
    ) -> tuple[tuple[int, ...], ...]:
        """The opponents' stashes cut to the cards this turn can still reach, in no order:
        whose a pile is never matters to this seat's points, and a pile's card below the
        top is reached only by a Knife and a Pistol both still to come (or a Master
        gunner's Pistol, which takes the whole pile)."""
        knife = not used >> KNIFE & 1
        pistol = not used >> PISTOL & 1
        if not knife and not pistol and self.character != "plunderer":
            return ()
        if pistol and self.character == "master_gunner":
            return tuple(sorted(opp))
        cut = TOP2 if knife and pistol else TOP1
        return tuple(sorted(tuple(map(cut, stash)) for stash in opp))

    def _bonus_possible(
        self,
        kinds: int,
        used: int,
        cur: tuple[int, ...],
        opp: tuple[tuple[int, ...], ...],
        known: tuple[int, ...],
    ) -> bool:
        """Whether a Key and a Chest can both still be in the play area, the Candle spent
        (``kinds``: in play or arriving; ``used``: the powers already spent)."""
        for k in (KEY, CHEST):
            if kinds >> k & 1:
                continue
            if self.counts[k] or any(c >= 0 and KIND[c] == k for c in known):
                continue
            if not used >> HELM & 1 and cur[k]:
                continue
            if not used >> KNIFE & 1 and any(stash[k] for stash in opp):
                continue
            return False
        return True

    def state(
        self, view: PlayerView, shown: tuple[int, ...] = (), pick: int = -1, pending: int = 0
    ) -> State:
        """The solver's state for what ``view`` shows now (``shown``: a Candle's revealed
        cards, back in the discard but for ``pick``; ``pending``: the kind mask of a power
        whose choice is being asked)."""
        mine = view.my_stash
        area = view.area
        h = 0
        for c in area:
            h += self.increment(c, mine)
        if view.anchor_at > 0:
            for c in area[: view.anchor_at]:
                h |= 1 << (KEPT_AT + KIND[c])
                h += CARD_GAIN[c][mine[KIND[c]]] << SAFE_AT
        h |= view.rum_pending << RUM_AT
        # Unknown cards taken since this solver was made (it serves a whole turn).
        h |= self.unknown_size - (view.pile_size - len(view.known_cards)) << TAKEN_AT
        discard = view.discard_mask
        for c in shown:
            if c != pick:
                discard |= 1 << c
        opp = tuple(view.stash(o) for o in self.opponents)
        ctx = self.context(
            h, mine, opp, discard, discard.bit_count(), view.known_cards, pick, pending
        )
        used = h & ALL_KINDS & ~pending
        self.victims = {
            o: ctx.opp.index(self._reachable((view.stash(o),), used)[0])
            for o in self.opponents
            if ctx.opp
        }
        return h, ctx

    # -- the turn's steps ------------------------------------------------------------------

    def choice(self, h: int, c: Context) -> float:
        """A point where the turn goes on: plunder or draw, as the rules allow (§5.2)."""
        # The hottest function of the search (called millions of times a game): attributes
        # are read once into locals, and plundering's value is computed inline.
        if h & KEPT_MASK:
            movable = self.movable[(h >> HELM & 1) | (h >> PISTOL & 1) << 1]
            h &= ~((~movable & ALL_KINDS) << KEPT_AT)
        if self.normalise:
            # Values outside the window the rest of the turn can still read are one state.
            h = self._normalised(h, c, 0)
        # Contexts made earlier in the turn may hold what the cards since have made moot.
        shape = h & SHAPE
        refined = c.refined.get(shape)
        if refined is None:
            refined = self.context(h, c.cur, c.opp, c.discard, c.dsize, c.known)
            c.refined[shape] = refined
        c = refined
        key = h | c.id
        memo = self._memo
        hit = memo.get(key)
        if hit is not None:
            return hit
        taken = h >> TAKEN_AT & 63
        size = self.unknown_size - taken
        if h & RUM_MASK and (c.known or size):
            best = self.draw(h, c)
        else:
            bank = h >> BANK_AT & 127
            plunder: float = bank
            if h & PAIR == PAIR:
                plunder += self.bonus(h, c, h & ALL_KINDS)
            rest = key & ~BANK_MASK
            stop = self._stops.get(rest)
            if not c.known and not size:
                best = plunder  # the pile is empty: the turn ends with a plunder (§9.1)
            elif stop is not None and bank >= stop:
                best = plunder
            else:
                if not c.known:
                    # Stop at once when even the best case of a draw is no better: a bust,
                    # or at most every reachable card's points on top of the bank.
                    kinds = h & ALL_KINDS
                    busting = self.busting_of[kinds] - taken
                    reach = c.reach or reach_bounds(self, c)
                    best_case = busting * self.bust(h, c) + (size - busting) * (bank + reach[kinds])
                    if best_case <= plunder * size or draw_bound(self, h, c) <= plunder:
                        memo[key] = plunder
                        return plunder
                draw = self.draw(h, c)
                if draw <= plunder:
                    best = plunder
                    if stop is None or bank < stop:
                        self._stops[rest] = bank
                else:
                    best = draw
        memo[key] = best
        return best

    def _normalised(self, h: int, c: Context, pending: int) -> int:
        """``h`` with its value nibbles cut by :func:`normalised_values` (``pending``: the kind bit
        of a power placed but not yet resolved, which still counts as to come)."""
        cut = (h & NORM) << N_KINDS | pending
        canon = c.norm.get(cut)
        if canon is None:
            canon = normalised_values(h & NORM, c, pending)
            c.norm[cut] = canon
        return h & ~CANON_MASK | canon

    def plunder(self, h: int, c: Context) -> float:
        """Points of plundering now: the play area banked, and the Key + Chest bonus."""
        value: float = h >> BANK_AT & 127
        kinds = h & ALL_KINDS
        if kinds & PAIR == PAIR:
            value += self.bonus(h, c, kinds)
        return value

    def bust(self, h: int, c: Context) -> float:
        """Points of a bust now: what the Anchor keeps (and its bonus, where the rules pay it)."""
        value: float = h >> SAFE_AT & 127
        if self.anchored_bonus:
            kept = h >> KEPT_AT & ALL_KINDS
            if kept & PAIR == PAIR:
                value += self.bonus(h, c, kept)
        return value

    def bonus(self, h: int, c: Context, banked: int) -> float:
        """The expected points of the Key + Chest bonus after the ``banked`` kinds of the play
        area went to the stash (§6.3; the Treasure hunter triples it, the Plunderer takes the
        best top cards of the opponents' stashes instead)."""
        canon = h >> CANON_AT
        values = 0
        if self.exact:
            for k in KINDS_OF[banked]:
                values |= (canon >> (4 * k) & 15) << (4 * k)
        key = banked << (4 * N_KINDS) | values
        hit = c.bonus.get(key)
        if hit is not None:
            return hit
        cur = c.cur
        cards = banked.bit_count()
        tops = [TOP_VALUE[k][cur[k]] for k in range(N_KINDS)]
        for k in KINDS_OF[banked]:
            # Not exact: a banked kind's pile as it stood at the turn's first decision.
            tops[k] = max(tops[k], values >> (4 * k) & 15 if self.exact else self.base[k])
        if self.character == "treasure_hunter":
            cards *= 3
        value: float
        if self.character == "plunderer":
            gains = []
            for k in range(N_KINDS):
                best = max((TOP_VALUE[k][stash[k]] for stash in c.opp), default=0)
                if best > tops[k]:
                    gains.append(best - tops[k])
            gains.sort(reverse=True)
            value = float(sum(gains[:cards]))
        elif self.exact:
            value = discard_bonus(c.discard, c.dsize, tops, cards)
        else:
            d0 = self.bonus_discard
            value = discard_bonus(d0, d0.bit_count(), tops, cards)
        c.bonus[key] = value
        return value

    def draw(self, h: int, c: Context) -> float:
        """Points of drawing the pile's top card now, and playing on optimally."""
        known = c.known
        if known:
            card = known[0]
            if card == BUSTS:
                return self.bust(h, c)
            rest = self.context(h, c.cur, c.opp, c.discard, c.dsize, known[1:], card)
            return self.place(h, rest, card)
        taken = h >> TAKEN_AT & 63
        kinds = h & ALL_KINDS
        size = self.unknown_size - taken
        busting = self.busting_of[kinds] - taken
        total = busting * self.bust(h, c) if busting else 0.0
        h += TAKEN_ONE
        owed = RUM_ONE if h & RUM_MASK else 0
        memo = self._memo
        powers = self._powers
        choice = self.choice
        after_place = self.after_place
        cid = c.id
        classes = c.classes or self.classes(c)
        for k in KINDS_OF[~kinds & ALL_KINDS]:
            if PLAIN >> k & 1:  # no power: straight to the next choice
                for _card, times, inc in classes[k]:
                    child = h + inc - owed
                    hit = memo.get(child | cid)
                    total += times * (hit if hit is not None else choice(child, c))
            elif ACTIVE >> k & 1 and not self.normalise:
                # after_place's kept value of the power, read here: the call was the cost.
                for _card, times, inc in classes[k]:
                    child = h + inc - owed
                    key = (child | cid) << 4 | k
                    hit = powers.get(key)
                    if hit is None:
                        hit = powers[key] = power(self, child, c, k)
                    total += times * hit
            else:
                for card, times, inc in classes[k]:
                    total += times * after_place(h + inc - owed, c, card, kinds)
        return total / size

    def classes(self, c: Context) -> list[tuple[tuple[int, int, int], ...]]:
        """Set and return ``c.classes``: per kind, the pile's unknown cards grouped by what
        they change on ``c``'s stash: (representative card, how many, hot increment)."""
        cur = c.cur
        out = self._classes.get(cur)
        if out is None:
            inc = c.inc or self.increments(c)
            out = []
            for k in range(N_KINDS):
                groups: dict[int, list[int]] = {}
                mask = self.unknown[k]
                for i in range(PER_KIND):
                    if mask >> i & 1:
                        card = k * PER_KIND + i
                        groups.setdefault(inc[card], []).append(card)
                out.append(tuple((cs[0], len(cs), n) for n, cs in groups.items()))
            self._classes[cur] = out
        c.classes = out
        return out

    def place(self, h: int, c: Context, card: int) -> float:
        """``card`` enters the play area (from anywhere: the stash, pile and discard changes
        are already in ``c``): a bust, or its power and the rest of the turn (§5.1)."""
        kinds = h & ALL_KINDS
        if kinds >> KIND[card] & 1:
            return self.bust(h, c)
        child = h + (c.inc or self.increments(c))[card]
        if child & RUM_MASK:
            child -= RUM_ONE
        if PLAIN >> KIND[card] & 1:  # no power: what after_place would do, one call less
            return self.choice(child, c)
        return self.after_place(child, c, card, kinds)

    def after_place(self, h: int, c: Context, card: int, before: int) -> float:
        """The power of ``card``, just placed (``before``: the kinds in play before it)."""
        k = KIND[card]
        if ACTIVE >> k & 1:  # a power with choices or chances: its value is kept
            if self.normalise:
                h = self._normalised(h, c, 1 << k)
            key = (h | c.id) << 4 | k
            powers = self._powers
            hit = powers.get(key)
            if hit is None:
                hit = powers[key] = power(self, h, c, k)
            return hit
        if k == ANCHOR:
            if before:
                bank = h >> BANK_AT & 127
                h = (
                    h & ~(KEPT_MASK | SAFE_MASK)
                    | before << KEPT_AT
                    | (bank - (CARD_GAIN[card][c.cur[k]])) << SAFE_AT
                )
        elif k == RUM:
            h = h & ~RUM_MASK | self.rum_cards << RUM_AT
        return self.choice(h, c)

    # -- the public entry points ---------------------------------------------------------------

    def plunder_value(self, s: State) -> float:
        """Points of plundering in state ``s``."""
        return self.plunder(*s)

    def draw_value(self, s: State) -> float:
        """Points of drawing in state ``s`` and playing on optimally."""
        return self.draw(*s)

    def helm_value(self, s: State, kind: int) -> float:
        """Points of the Helm taking this seat's pile of ``kind`` in state ``s``."""
        return helm(self, s[0], s[1], kind)

    def knife_value(self, s: State, seat: int, kind: int) -> float:
        """Points of the Knife stealing ``seat``'s top card of ``kind`` (``s``: the last
        :meth:`state`)."""
        return knife(self, s[0], s[1], self.victims[seat], kind)

    def pistol_value(self, s: State, seat: int, kind: int) -> float:
        """Points of the Pistol shooting ``seat``'s pile of ``kind`` (``s``: the last
        :meth:`state`)."""
        return pistol(self, s[0], s[1], self.victims[seat], kind)

    def pick_value(self, s: State, card: int) -> float:
        """Points of placing ``card`` from the discard (``s`` built with that pick)."""
        return self.place(s[0], s[1], card)


__all__ = ["Context", "State", "TurnSolver", "order_statistic_mean"]
