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

**The state** is split in two. The *hot* part is one int that changes with every card: the
kinds in play, what the play area banks on a plunder (``bank``) and what an Anchor keeps on a
bust (``safe``), the kinds it keeps, the Rum cards owed, how many unknown cards were taken
from the pile, and each play-area card's value *clamped* into the window where a value can
still matter (between the lowest this seat's pile of that kind can fall to, by a Helm, and the
highest card of that kind any bonus, shot or steal could bring; past it only the exact
``bank`` and ``safe`` are ever read). The *context* changes only when a power fires: this
seat's stash, the opponents' stashes, the discard, the public top cards and how far this
seat's score has moved (a Helm's card out, a Scavenger's card in). Contexts are interned, and
what can no longer matter is dropped from them (the opponents' stashes once the Knife and the
Pistol are spent, the discard's cards that can no longer raise a pile once the Candle is
spent), so that paths that differ only in such things share their values. The Anchor's
kept kinds are dropped once neither a Helm nor a Scavenger's shot can still move a pile, and
in default mode a Scavenger's values are cut, state by state, to the window the rest of the
turn can still read (see ``TurnSolver._normalise``): without that a Scavenger's turn kept
every card's value apart after its Pistol had fired, and one turn took minutes and
gigabytes.

Two facts keep the search small and exact: cards of the pile of kinds in play all bust alike,
so only their number counts; and the value less ``bank`` never rises as ``bank`` rises with
all else equal, so once plundering is best at some bank it is best at every higher one.
"""

from __future__ import annotations

from math import comb
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
    PARROT,
    PER_KIND,
    PISTOL,
    RUM,
    SPYGLASS,
    TOP_INDEX,
    TOP_VALUE,
    VALUE,
)
from sim.treasure_island.view import PlayerView

_PAIR = (1 << KEY) | (1 << CHEST)
_ALL_KINDS = (1 << N_KINDS) - 1
#: A public top card known only to be of a kind in play (it busts whoever draws it).
_BUSTS = -1

# The hot int: kinds | bank | safe | Rum owed | unknown cards taken | kinds kept | values.
_BANK, _SAFE, _RUM, _TAKEN, _KEPT, _CANON = 10, 17, 24, 27, 33, 43
_CTX = _CANON + 4 * N_KINDS
_BANK_MASK = 127 << _BANK
_SAFE_MASK = 127 << _SAFE
_RUM_MASK = 7 << _RUM
_RUM_ONE = 1 << _RUM
_TAKEN_ONE = 1 << _TAKEN
_KEPT_MASK = _ALL_KINDS << _KEPT
#: The bits of the hot int that decide what a context can drop.
_CANON_MASK = ((1 << (4 * N_KINDS)) - 1) << _CANON
_SHAPE = _ALL_KINDS | _CANON_MASK
#: The bits of the hot int that decide which values can still matter.
_NORM = _SHAPE | _KEPT_MASK
_PLAIN = (1 << KEY) | (1 << CHEST) | (1 << PARROT)
#: Kinds whose placement only changes the hot int (no choice, no chance).
_SIMPLE = _PLAIN | (1 << ANCHOR) | (1 << RUM)
_ACTIVE = (1 << HELM) | (1 << KNIFE) | (1 << PISTOL) | (1 << CANDLE) | (1 << SPYGLASS)

#: The kinds of every kind mask, in order.
_KINDS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in range(N_KINDS) if m >> k & 1) for m in range(1 << N_KINDS)
)
#: ``_ABOVE[kind][value]``: the 60-bit mask of the kind's cards worth more than ``value``.
_ABOVE: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << (k * PER_KIND + i) for i in range(PER_KIND) if VALUE[k * PER_KIND + i] > v)
        for v in range(16)
    )
    for k in range(N_KINDS)
)
#: 60-bit mask of each kind's cards.
_KIND_CARDS: tuple[int, ...] = tuple(
    ((1 << PER_KIND) - 1) << (k * PER_KIND) for k in range(N_KINDS)
)
#: A pile mask cut to its top card, and to its top two cards.
_TOP1_OF: tuple[int, ...] = tuple(1 << TOP_INDEX[m] if m else 0 for m in range(64))
_TOP2_OF: tuple[int, ...] = tuple(_TOP1_OF[m] | _TOP1_OF[m & ~_TOP1_OF[m]] for m in range(64))
_TOP1 = _TOP1_OF.__getitem__
_TOP2 = _TOP2_OF.__getitem__


def order_statistic_mean(values: list[float], take: int) -> float:
    """The mean of the largest of ``take`` values drawn at random without replacement from
    ``values`` (all of them when ``take`` >= their number)."""
    size = len(values)
    take = min(take, size)
    if take <= 0:
        return 0.0
    ordered = sorted(values, reverse=True)
    # The i-th largest (0-based) is the maximum when it is drawn and none above it is.
    return sum(v * comb(size - 1 - i, take - 1) for i, v in enumerate(ordered)) / comb(size, take)


class Context:
    """The slow-changing part of a state (see the module docstring); interned per solve."""

    __slots__ = (
        "bonus",
        "cur",
        "discard",
        "dsize",
        "id",
        "known",
        "moves",
        "norm",
        "opp",
        "picks",
        "reach",
        "refined",
    )

    def __init__(
        self,
        cid: int,
        cur: tuple[int, ...],
        opp: tuple[tuple[int, ...], ...],
        discard: int,
        dsize: int,
        known: tuple[int, ...],
    ) -> None:
        self.id = cid << _CTX
        #: This seat's stash, ten pile masks.
        self.cur = cur
        #: The opponents' stashes (empty once nothing can use them).
        self.opp = opp
        #: The discard as a 60-bit card mask (only the cards that can still matter), and its
        #: true size.
        self.discard = discard
        self.dsize = dsize
        #: Public top cards of the pile, top first.
        self.known = known
        #: The Key + Chest bonus by (kinds banked, their clamped values).
        self.bonus: dict[tuple[int, int], float] = {}
        #: The same context with what can no longer matter dropped, by the kinds in play and
        #: their clamped values (what decides it).
        self.refined: dict[int, Context] = {}
        #: The hot state's value nibbles cut to the window where they still matter, by the
        #: kinds in play, their values and the kinds kept (``TurnSolver._normalise``).
        self.norm: dict[int, int] = {}
        #: The context after a Candle takes a card of the discard, by the hot state's shape
        #: and the card.
        self.picks: dict[int, Context] = {}
        #: The context after this seat's pile moves, by (shape, kind, new pile, incoming).
        self.moves: dict[tuple[int, int, int, int], Context] = {}
        #: Per kind mask in play, an upper bound of what the rest of the turn can add to the
        #: bank (empty: not computed yet; see ``TurnSolver._reach``).
        self.reach: tuple[int, ...] = ()


#: A solver state: the hot int and its context.
State = tuple[int, Context]


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
            sum(self.counts[k] for k in _KINDS_OF[m]) for m in range(1 << N_KINDS)
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
        #: :meth:`_normalise`): in default mode only the Scavenger's are ever wider than one.
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
        late = _ALL_KINDS if self.anchored_bonus else 0
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
        #: Per stash: per kind, the pile's unknown cards grouped by what they change:
        #: ((representative card, how many, hot increment), ...).
        self._classes: dict[tuple[int, ...], list[tuple[tuple[int, int, int], ...]]] = {}

    # -- states ------------------------------------------------------------------------------

    def canon(self, card: int) -> int:
        """``card``'s value clamped into the window where it can still matter."""
        k = KIND[card]
        return min(max(VALUE[card], self.lo[k]), self.hi[k])

    def increment(self, card: int, cur: tuple[int, ...]) -> int:
        """What placing ``card`` (not busting) adds to the hot int, before its power."""
        k = KIND[card]
        return (1 << k) | CARD_GAIN[card][cur[k]] << _BANK | self.canon(card) << (_CANON + 4 * k)

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
        kinds = h & _ALL_KINDS
        used = kinds & ~pending
        cur = tuple(map(_TOP1 if used >> HELM & 1 else _TOP2, cur))
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
                        floor = max(floor, h >> (_CANON + 4 * k) & 15)
                    keep |= _ABOVE[k][floor]
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
        cut = _TOP2 if knife and pistol else _TOP1
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
                h |= 1 << (_KEPT + KIND[c])
                h += CARD_GAIN[c][mine[KIND[c]]] << _SAFE
        h |= view.rum_pending << _RUM
        # Unknown cards taken since this solver was made (it serves a whole turn).
        h |= self.unknown_size - (view.pile_size - len(view.known_cards)) << _TAKEN
        discard = view.discard_mask
        for c in shown:
            if c != pick:
                discard |= 1 << c
        opp = tuple(view.stash(o) for o in self.opponents)
        ctx = self.context(
            h, mine, opp, discard, discard.bit_count(), view.known_cards, pick, pending
        )
        used = h & _ALL_KINDS & ~pending
        self.victims = {
            o: ctx.opp.index(self._reachable((view.stash(o),), used)[0])
            for o in self.opponents
            if ctx.opp
        }
        return h, ctx

    # -- the turn's steps ------------------------------------------------------------------

    def choice(self, h: int, c: Context) -> float:
        """A point where the turn goes on: plunder or draw, as the rules allow (§5.2)."""
        if h & _KEPT_MASK:
            movable = self.movable[(h >> HELM & 1) | (h >> PISTOL & 1) << 1]
            h &= ~((~movable & _ALL_KINDS) << _KEPT)
        if self.normalise:
            # Values outside the window the rest of the turn can still read are one state.
            h = self._normalised(h, c, 0)
        # Contexts made earlier in the turn may hold what the cards since have made moot.
        shape = h & _SHAPE
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
        if not c.known and (h >> _TAKEN & 63) == self.unknown_size:
            best = self.plunder(h, c)  # the pile is empty: the turn ends with a plunder (§9.1)
        elif h & _RUM_MASK:
            best = self.draw(h, c)
        else:
            rest = key & ~_BANK_MASK
            stop = self._stops.get(rest)
            plunder = self.plunder(h, c)
            bank = h >> _BANK & 127
            if stop is not None and bank >= stop:
                best = plunder
            else:
                taken = h >> _TAKEN & 63
                size = self.unknown_size - taken
                if not c.known and size:
                    # Stop at once when even the best case of a draw is no better: a bust,
                    # or at most every reachable card's points on top of the bank.
                    busting = self.busting_of[h & _ALL_KINDS] - taken
                    reach = c.reach or self._reach(c)
                    best_case = busting * self.bust(h, c) + (size - busting) * (
                        bank + reach[h & _ALL_KINDS]
                    )
                    if best_case <= plunder * size or self._draw_bound(h, c) <= plunder:
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
        """``h`` with its value nibbles cut by :meth:`_normalise` (``pending``: the kind bit
        of a power placed but not yet resolved, which still counts as to come)."""
        cut = (h & _NORM) << N_KINDS | pending
        canon = c.norm.get(cut)
        if canon is None:
            canon = self._normalise(h & _NORM, c, pending)
            c.norm[cut] = canon
        return h & ~_CANON_MASK | canon

    def _normalise(self, h: int, c: Context, pending: int) -> int:
        """The value nibbles of ``h`` clamped into the window the rest of the turn can still
        read them in (the Scavenger's default mode; the exact bonus reads every value, and
        without a Scavenger the default mode keeps one value a kind). A play-area card's
        value is read only where this seat's pile of its kind moves: down by a Helm still to
        come (for a kind an Anchor keeps, or may yet keep), up by a Scavenger's shot still
        to come. Between the lowest and the highest top the pile can still have, the card
        banks the same difference whatever its value past them."""
        kinds = h & _ALL_KINDS
        used = kinds & ~pending
        helm = not used >> HELM & 1
        kept = _ALL_KINDS if not used >> ANCHOR & 1 else h >> _KEPT & _ALL_KINDS
        shot = not used >> PISTOL & 1  # only a Scavenger's values are normalised
        out = 0
        for k in _KINDS_OF[kinds]:
            pile = c.cur[k]
            top = TOP_VALUE[k][pile]
            lo = hi = top
            if helm and kept >> k & 1 and pile:
                lo = TOP_VALUE[k][pile & ~(1 << TOP_INDEX[pile])]
            if shot:
                for stash in c.opp:
                    hi = max(hi, TOP_VALUE[k][stash[k]])
            v = h >> (_CANON + 4 * k) & 15
            out |= min(max(v, lo), hi) << (_CANON + 4 * k)
        return out

    def _draw_bound(self, h: int, c: Context) -> float:
        """An upper bound of the value of drawing now (the pile's top unknown): each card's
        exact value where it is known, else the best the card's own state could lead to (a
        plunder, or the best case of one more draw; for a power, the bank plus every card
        still reachable)."""
        taken = h >> _TAKEN & 63
        kinds = h & _ALL_KINDS
        size = self.unknown_size - taken
        busting = self.busting_of[kinds] - taken
        total = busting * self.bust(h, c) if busting else 0.0
        h += _TAKEN_ONE
        owed = _RUM_ONE if h & _RUM_MASK else 0
        reach = c.reach or self._reach(c)
        memo = self._memo
        cid = c.id
        classes = self.classes(c.cur)
        left = size - 1
        for k in _KINDS_OF[~kinds & _ALL_KINDS]:
            after = kinds | 1 << k
            for _card, times, inc in classes[k]:
                child = h + inc - owed
                if not _SIMPLE >> k & 1:
                    total += times * ((child >> _BANK & 127) + reach[after])
                    continue
                if k == ANCHOR and kinds:
                    child = (
                        child & ~(_KEPT_MASK | _SAFE_MASK)
                        | kinds << _KEPT
                        | (h >> _BANK & 127) << _SAFE
                    )
                elif k == RUM:
                    child = child & ~_RUM_MASK | self.rum_cards << _RUM
                hit = memo.get(child | cid)
                if hit is not None:
                    total += times * hit
                    continue
                bank = child >> _BANK & 127
                if not left:
                    total += times * self.plunder(child, c)
                    continue
                bust_cards = busting + self.counts[k] - 1
                best = (
                    bust_cards * self.bust(child, c) + (left - bust_cards) * (bank + reach[after])
                ) / left
                if not child & _RUM_MASK:
                    best = max(best, self.plunder(child, c))
                total += times * best
        return total / size

    def _reach(self, c: Context) -> tuple[int, ...]:
        """Set and return ``c.reach``: per kind mask of the kinds in play, an upper bound of
        what the rest of the turn can add to the bank, whatever it does: per kind not in
        play, the most points one card of it that could still come (from the pile, the
        discard, a rival's stash) would add; and, while a Key and a Chest can both still be
        plundered, the most each kind's pile could gain from the discard by the bonus (from
        rivals' stashes for the Plunderer); and the most a Scavenger's shot could add."""
        cur = c.cur
        card_reach = []
        bonus_reach = 0
        shot_reach = 0
        for k in range(N_KINDS):
            top = TOP_VALUE[k][cur[k]]
            best = 0
            mask = self.unknown[k]
            if mask:
                best = VALUE[k * PER_KIND + TOP_INDEX[mask]]
            in_discard = 0
            pile = c.discard >> (k * PER_KIND) & 63
            if pile:
                in_discard = VALUE[k * PER_KIND + TOP_INDEX[pile]]
            in_stashes = 0
            for stash in c.opp:
                if stash[k]:
                    in_stashes = max(in_stashes, VALUE[k * PER_KIND + TOP_INDEX[stash[k]]])
            for card in c.known:
                if card >= 0 and KIND[card] == k:
                    best = max(best, VALUE[card])
            best = max(best, in_discard, in_stashes)
            card_reach.append(max(0, best - top))
            source = in_stashes if self.character == "plunderer" else in_discard
            if self.character == "master_gunner":
                source = max(source, in_stashes)
            bonus_reach += max(0, source - top)
            if self.character == "scavenger":
                shot_reach = max(shot_reach, in_stashes - top)
        extra = bonus_reach + shot_reach
        reach = tuple(
            extra + sum(card_reach[k] for k in _KINDS_OF[~m & _ALL_KINDS])
            for m in range(1 << N_KINDS)
        )
        c.reach = reach
        return reach

    def plunder(self, h: int, c: Context) -> float:
        """Points of plundering now: the play area banked, and the Key + Chest bonus."""
        value: float = h >> _BANK & 127
        kinds = h & _ALL_KINDS
        if kinds & _PAIR == _PAIR:
            value += self.bonus(h, c, kinds)
        return value

    def bust(self, h: int, c: Context) -> float:
        """Points of a bust now: what the Anchor keeps (and its bonus, where the rules pay it)."""
        value: float = h >> _SAFE & 127
        if self.anchored_bonus:
            kept = h >> _KEPT & _ALL_KINDS
            if kept & _PAIR == _PAIR:
                value += self.bonus(h, c, kept)
        return value

    def bonus(self, h: int, c: Context, banked: int) -> float:
        """The expected points of the Key + Chest bonus after the ``banked`` kinds of the play
        area went to the stash (§6.3; the Treasure hunter triples it, the Plunderer takes the
        best top cards of the opponents' stashes instead)."""
        canon = h >> _CANON
        values = 0
        if self.exact:
            for k in _KINDS_OF[banked]:
                values |= (canon >> (4 * k) & 15) << (4 * k)
        key = (banked, values)
        hit = c.bonus.get(key)
        if hit is not None:
            return hit
        cur = c.cur
        cards = banked.bit_count()
        tops = [TOP_VALUE[k][cur[k]] for k in range(N_KINDS)]
        for k in _KINDS_OF[banked]:
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
            value = _discard_bonus(c.discard, c.dsize, tops, cards)
        else:
            d0 = self.bonus_discard
            value = _discard_bonus(d0, d0.bit_count(), tops, cards)
        c.bonus[key] = value
        return value

    def draw(self, h: int, c: Context) -> float:
        """Points of drawing the pile's top card now, and playing on optimally."""
        known = c.known
        if known:
            card = known[0]
            if card == _BUSTS:
                return self.bust(h, c)
            rest = self.context(h, c.cur, c.opp, c.discard, c.dsize, known[1:], card)
            return self.place(h, rest, card)
        taken = h >> _TAKEN & 63
        kinds = h & _ALL_KINDS
        size = self.unknown_size - taken
        busting = self.busting_of[kinds] - taken
        total = busting * self.bust(h, c) if busting else 0.0
        h += _TAKEN_ONE
        owed = _RUM_ONE if h & _RUM_MASK else 0
        memo = self._memo
        cid = c.id
        classes = self.classes(c.cur)
        for k in _KINDS_OF[~kinds & _ALL_KINDS]:
            if _PLAIN >> k & 1:  # no power: straight to the next choice
                for _card, times, inc in classes[k]:
                    child = h + inc - owed
                    hit = memo.get(child | cid)
                    total += times * (hit if hit is not None else self.choice(child, c))
            else:
                for card, times, inc in classes[k]:
                    total += times * self.after_place(h + inc - owed, c, card, kinds)
        return total / size

    def classes(self, cur: tuple[int, ...]) -> list[tuple[tuple[int, int, int], ...]]:
        """Per kind, the pile's unknown cards grouped by what they change for the stash
        ``cur``: (representative card, how many, hot increment)."""
        hit = self._classes.get(cur)
        if hit is not None:
            return hit
        out = []
        for k in range(N_KINDS):
            groups: dict[int, list[int]] = {}
            mask = self.unknown[k]
            for i in range(PER_KIND):
                if mask >> i & 1:
                    card = k * PER_KIND + i
                    groups.setdefault(self.increment(card, cur), []).append(card)
            out.append(tuple((cs[0], len(cs), inc) for inc, cs in groups.items()))
        self._classes[cur] = out
        return out

    def place(self, h: int, c: Context, card: int) -> float:
        """``card`` enters the play area (from anywhere: the stash, pile and discard changes
        are already in ``c``): a bust, or its power and the rest of the turn (§5.1)."""
        kinds = h & _ALL_KINDS
        k = KIND[card]
        if kinds >> k & 1:
            return self.bust(h, c)
        child = h + self.increment(card, c.cur)
        if child & _RUM_MASK:
            child -= _RUM_ONE
        return self.after_place(child, c, card, kinds)

    def after_place(self, h: int, c: Context, card: int, before: int) -> float:
        """The power of ``card``, just placed (``before``: the kinds in play before it)."""
        k = KIND[card]
        if _ACTIVE >> k & 1:  # a power with choices or chances: its value is kept
            if self.normalise:
                h = self._normalised(h, c, 1 << k)
            key = (h | c.id) << 4 | k
            hit = self._powers.get(key)
            if hit is None:
                hit = self._power(h, c, k)
                self._powers[key] = hit
            return hit
        if k == ANCHOR:
            if before:
                bank = h >> _BANK & 127
                h = (
                    h & ~(_KEPT_MASK | _SAFE_MASK)
                    | before << _KEPT
                    | (bank - (CARD_GAIN[card][c.cur[k]])) << _SAFE
                )
        elif k == RUM:
            h = h & ~_RUM_MASK | self.rum_cards << _RUM
        return self.choice(h, c)

    def _power(self, h: int, c: Context, k: int) -> float:
        """The Helm's, Knife's, Pistol's, Candle's or Spyglass's power, just placed."""
        if k == HELM:
            options = _KINDS_OF[sum(1 << j for j in range(N_KINDS) if c.cur[j])]
            if options:
                return max(self.helm(h, c, j) for j in options)
        elif k == KNIFE:
            steals = self.knife_options(h, c)
            if steals:
                return max(self.knife(h, c, o, j) for o, j in steals)
        elif k == PISTOL:
            targets = self.pistol_options(c)
            if targets:
                return max(self.pistol(h, c, o, j) for o, j in targets)
        elif k == CANDLE:
            if c.dsize:
                return self.candle(h, c)
        elif k == SPYGLASS:
            return self.spyglass(h, c)
        return self.choice(h, c)

    # -- powers ------------------------------------------------------------------------------

    def helm(self, s_h: int, c: Context, kind: int) -> float:
        """§6.2: the top card of this seat's pile of ``kind`` into the play area."""
        pile = c.cur[kind]
        card = kind * PER_KIND + TOP_INDEX[pile]
        h, ctx, moved = self._move_mine(s_h, c, kind, pile & ~(1 << TOP_INDEX[pile]), card)
        return moved + self.place(h, ctx, card)

    def knife_options(self, h: int, c: Context) -> list[tuple[int, int]]:
        """The Knife's legal steals (§6.5): opponents' piles of kinds not in my stash."""
        cur = c.cur
        allowed = 0
        for k in range(N_KINDS):
            if not cur[k] and not (self.knife_area and h >> k & 1):
                allowed |= 1 << k
        return [(i, k) for i, stash in enumerate(c.opp) for k in _KINDS_OF[allowed] if stash[k]]

    def pistol_options(self, c: Context) -> list[tuple[int, int]]:
        """The Pistol's targets (§6.7): any opponent's pile."""
        return [(i, k) for i, stash in enumerate(c.opp) for k in range(N_KINDS) if stash[k]]

    def knife(self, h: int, c: Context, victim: int, kind: int) -> float:
        """§6.5: opponent ``victim`` (an index into the opponents)'s top card of ``kind``."""
        pile = c.opp[victim][kind]
        card = kind * PER_KIND + TOP_INDEX[pile]
        opp = _replace_pile(c.opp, victim, kind, pile & ~(1 << TOP_INDEX[pile]))
        ctx = self.context(h, c.cur, opp, c.discard, c.dsize, c.known, card)
        return self.place(h, ctx, card)

    def pistol(self, h: int, c: Context, victim: int, kind: int) -> float:
        """§6.7 (and the Master gunner's whole pile, the Scavenger's shot card to the stash)."""
        pile = c.opp[victim][kind]
        if self.character == "master_gunner":
            shot, left = pile, 0
        else:
            shot = 1 << TOP_INDEX[pile]
            left = pile & ~shot
        opp = _replace_pile(c.opp, victim, kind, left)
        if self.character == "scavenger":
            ctx = self.context(h, c.cur, opp, c.discard, c.dsize, c.known)
            h, ctx, moved = self._move_mine(h, ctx, kind, c.cur[kind] | shot)
            return moved + self.choice(h, ctx)
        ctx = self.context(
            h,
            c.cur,
            opp,
            c.discard | shot << (kind * PER_KIND),
            c.dsize + shot.bit_count(),
            c.known,
        )
        return self.choice(h, ctx)

    def candle(self, h: int, c: Context) -> float:
        """§6.4: random cards of the discard shown, the best placed (the Navigator sees the
        whole discard)."""
        # Cards that change the same things are worth the same: a card of a kind in play
        # busts; the others by what they bank and their clamped value (the pick itself never
        # counts in a later bonus, its kind's pile being at least its value by then).
        kinds = h & _ALL_KINDS
        worth: dict[int, float] = {}
        values = []
        for x in _cards_of(c.discard):
            key = -1 if kinds >> KIND[x] & 1 else self.increment(x, c.cur)
            value = worth.get(key)
            if value is None:
                value = self.candle_pick(h, c, x)
                worth[key] = value
            values.append(value)
        if self.character == "navigator":
            return max(values)
        return order_statistic_mean(values, self.reveal)

    def candle_pick(self, h: int, c: Context, card: int) -> float:
        """Placing ``card`` of the discard (a Candle's pick; the others stay there)."""
        key = (h & _SHAPE) << 6 | card
        ctx = c.picks.get(key)
        if ctx is None:
            ctx = self.context(
                h, c.cur, c.opp, c.discard & ~(1 << card), c.dsize - 1, c.known, card
            )
            c.picks[key] = ctx
        return self.place(h, ctx, card)

    def spyglass(self, h: int, c: Context) -> float:
        """§6.9: the top card (three for the Mystic) shown; place it or plunder at once; an
        open Rum requirement places it."""
        known = c.known
        taken = h >> _TAKEN & 63
        pile_size = len(known) + self.unknown_size - taken
        if not pile_size:
            return self.choice(h, c)
        seen = min(3, pile_size) if self.character == "mystic" else 1
        if len(known) >= seen:
            return self.after_peek(h, c)
        if seen > 1:
            return self._reveal(h, c, seen - len(known), [])
        # One card shown: the chance points of a draw, each followed by the choice.
        forced = bool(h & _RUM_MASK)
        plunder = self.plunder(h, c)
        kinds = h & _ALL_KINDS
        size = self.unknown_size - taken
        busting = self.busting_of[kinds] - taken
        bust = self.bust(h, c)
        total = busting * (bust if forced else max(plunder, bust)) if busting else 0.0
        h += _TAKEN_ONE
        owed = _RUM_ONE if forced else 0
        classes = self.classes(c.cur)
        for k in _KINDS_OF[~kinds & _ALL_KINDS]:
            for card, times, inc in classes[k]:
                value = self.after_place(h + inc - owed, c, card, kinds)
                total += times * (value if forced else max(plunder, value))
        return total / size

    def _reveal(self, h: int, c: Context, more: int, removed: list[int]) -> float:
        """Reveal ``more`` unknown cards one by one onto the public top of the pile (the
        Mystic). ``removed``: the cards of kinds not in play already revealed in this peek."""
        kinds = h & _ALL_KINDS
        taken = h >> _TAKEN & 63
        size = self.unknown_size - taken
        # Cards taken before this peek were all of kinds in play; those of this peek that are
        # not (``removed``) are still in the pile's count of their own kind.
        busting = self.busting_of[kinds] - taken + len(removed)
        h += _TAKEN_ONE
        total = 0.0
        if busting:
            ctx = self.context(h, c.cur, c.opp, c.discard, c.dsize, (*c.known, _BUSTS))
            total += busting * (
                self.after_peek(h, ctx) if more == 1 else self._reveal(h, ctx, more - 1, removed)
            )
        classes = self.classes(c.cur)
        for k in _KINDS_OF[~kinds & _ALL_KINDS]:
            for card, times, inc in classes[k]:
                left = times - sum(
                    1 for r in removed if KIND[r] == k and self.increment(r, c.cur) == inc
                )
                if left <= 0:
                    continue
                ctx = self.context(h, c.cur, c.opp, c.discard, c.dsize, (*c.known, card))
                value = (
                    self.after_peek(h, ctx)
                    if more == 1
                    else self._reveal(h, ctx, more - 1, [*removed, card])
                )
                total += left * value
        return total / size

    def after_peek(self, h: int, c: Context) -> float:
        """The Spyglass's choice once its top card is public."""
        if h & _RUM_MASK:
            return self.draw(h, c)
        return max(self.plunder(h, c), self.draw(h, c))

    # -- moving cards between stashes -----------------------------------------------------------

    def _move_mine(
        self, h: int, c: Context, kind: int, new: int, incoming: int = -1
    ) -> tuple[int, Context, int]:
        """This seat's pile of ``kind`` becomes ``new``: what the play area's card of that
        kind (and the Anchor's) would bank moves with it. Also returns the points the score
        moves by (values are relative to the score where they are asked)."""
        cur = c.cur
        old = cur[kind]
        was, now = TOP_VALUE[kind][old], TOP_VALUE[kind][new]
        if h >> kind & 1:
            v = h >> (_CANON + 4 * kind) & 15
            delta = max(0, v - now) - max(0, v - was)
            h += delta << _BANK
            if h >> (_KEPT + kind) & 1:
                h += delta << _SAFE
        key = (h & _SHAPE, kind, new, incoming)
        ctx = c.moves.get(key)
        if ctx is None:
            mine = (*cur[:kind], new, *cur[kind + 1 :])
            ctx = self.context(h, mine, c.opp, c.discard, c.dsize, c.known, incoming)
            c.moves[key] = ctx
        return h, ctx, now - was

    # -- the public entry points ---------------------------------------------------------------

    def plunder_value(self, s: State) -> float:
        """Points of plundering in state ``s``."""
        return self.plunder(*s)

    def draw_value(self, s: State) -> float:
        """Points of drawing in state ``s`` and playing on optimally."""
        return self.draw(*s)

    def helm_value(self, s: State, kind: int) -> float:
        """Points of the Helm taking this seat's pile of ``kind`` in state ``s``."""
        return self.helm(s[0], s[1], kind)

    def knife_value(self, s: State, seat: int, kind: int) -> float:
        """Points of the Knife stealing ``seat``'s top card of ``kind`` (``s``: the last
        :meth:`state`)."""
        return self.knife(s[0], s[1], self.victims[seat], kind)

    def pistol_value(self, s: State, seat: int, kind: int) -> float:
        """Points of the Pistol shooting ``seat``'s pile of ``kind`` (``s``: the last
        :meth:`state`)."""
        return self.pistol(s[0], s[1], self.victims[seat], kind)

    def pick_value(self, s: State, card: int) -> float:
        """Points of placing ``card`` from the discard (``s`` built with that pick)."""
        return self.place(s[0], s[1], card)


def _cards_of(mask: int) -> list[int]:
    return [c for c in range(N_CARDS) if mask >> c & 1]


def _replace_pile(
    opp: tuple[tuple[int, ...], ...], victim: int, kind: int, new: int
) -> tuple[tuple[int, ...], ...]:
    stash = opp[victim]
    changed = (*stash[:kind], new, *stash[kind + 1 :])
    return (*opp[:victim], changed, *opp[victim + 1 :])


def _discard_bonus(discard: int, size: int, tops: list[int], cards: int) -> float:
    """The expected points ``cards`` random cards of a discard of ``size`` add to piles whose
    top values are ``tops`` (``discard``: the cards that can add any, as a 60-bit mask)."""
    take = min(cards, size)
    if take <= 0 or not discard:
        return 0.0
    value = 0
    for k in range(N_KINDS):
        if not discard & _KIND_CARDS[k]:
            continue
        top = tops[k]
        i = 0
        for j in range(PER_KIND - 1, -1, -1):  # the kind's discard cards, highest first
            c = k * PER_KIND + j
            if discard >> c & 1:
                if VALUE[c] <= top:
                    break
                # Drawn, with none of the i higher ones: the kind's top becomes VALUE[c].
                value += (VALUE[c] - top) * comb(size - 1 - i, take - 1)
                i += 1
    return value / comb(size, take)


__all__ = ["Context", "State", "TurnSolver", "order_statistic_mean"]
