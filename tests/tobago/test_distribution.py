"""Raising and distributing treasures (rules §7.2-§7.5, §10.2) on hand-set scenarios."""

from __future__ import annotations

from sim.tobago import decisions
from sim.tobago.distribution import raise_treasure
from sim.tobago.state import CURSE, GameState
from tests.tobago.scenario import make_game

BLUE, RED, GREEN = 0, 1, 2


def located_map(s: GameState, roses: list[int], cell: int = 0, m: int = 0) -> None:
    """Put clues with the given rose owners (oldest first) on map ``m``, located at ``cell``."""
    s.map_cards[m] = list(range(len(roses)))
    s.map_roses[m] = list(roses)
    s.map_cand[m] = 1 << cell
    for owner in roses:
        s.roses[owner] -= 1


def test_distribution_example_of_rules_7_3() -> None:
    # Clues were played Blue, Red, Green, Green; Red raises. R from the bottom: Red, Green,
    # Green, Red, Blue, so 6 cards. Draws go raiser first, then clockwise: Red 2, Green 2,
    # Blue 1, then the blind card; the deck is drawn from the end of the list and, with no
    # shuffle, the last card drawn turns up first. So the cards turn up 5, 4, 2, 6, 3, 3.
    game, s, seats = make_game(3)
    located_map(s, [BLUE, RED, GREEN, GREEN])
    s.t_deck = [9, 5, 4, 2, 6, 3, 3]
    seats[RED].queue.extend(
        [(decisions.OFFER, decisions.PASS)] * 6
        + [
            (decisions.OFFER, decisions.TAKE),
            (decisions.OFFER, decisions.TAKE),
            (decisions.RESTART, lambda v, x: x.actions[0]),
        ]
    )
    seats[GREEN].queue.extend(
        [(decisions.OFFER, decisions.TAKE), (decisions.OFFER, decisions.TAKE)]
    )
    seats[BLUE].queue.extend([(decisions.OFFER, decisions.PASS), (decisions.OFFER, decisions.TAKE)])
    s.hands[RED] = [0]
    s.clue_masks = (0b111, *s.clue_masks[1:])  # card 0 leaves 3 cells: fine on an empty map
    raise_treasure(game, RED, 0)

    assert s.treasures[GREEN] == [5, 4]
    assert s.treasures[BLUE] == [6]
    assert s.treasures[RED] == [3, 3]
    assert s.t_discard == [2]
    assert s.t_deck == [9]
    assert list(s.public_events) == [
        ("take", GREEN, 5),
        ("take", GREEN, 4),
        ("unclaimed", -1, 2),
        ("take", BLUE, 6),
        ("take", RED, 3),
        ("take", RED, 3),
    ]
    # Every rose went home; Red took the last card and restarted the map with one.
    assert s.roses == [15, 14, 15]
    assert s.map_roses[0] == [RED] and s.map_cards[0] == [0]
    assert not any(seat.queue for seat in seats)


def test_offers_follow_the_roses_from_the_bottom_up() -> None:
    game, s, seats = make_game(3)
    located_map(s, [BLUE, RED, GREEN, GREEN])
    s.t_deck = [9, 5, 4, 2, 6, 3, 3]
    seats[RED].queue.extend(
        [(decisions.OFFER, decisions.PASS)] * 6 + [(decisions.OFFER, decisions.TAKE)] * 2
    )
    seats[GREEN].queue.extend([(decisions.OFFER, decisions.TAKE)] * 2)
    seats[BLUE].queue.extend([(decisions.OFFER, decisions.PASS), (decisions.OFFER, decisions.TAKE)])
    raise_treasure(game, RED, 0)
    offers = [(x.seat, x.value, x.position) for seat in seats for x in seat.asked]
    assert sorted(o for o in offers if o[0] == GREEN) == [(GREEN, 4, 1), (GREEN, 5, 1)]
    red = [o for o in offers if o[0] == RED]
    assert red[:2] == [(RED, 5, 0), (RED, 4, 0)]
    # Card 3 goes Red (0), Red (1), Blue (2): a player is asked again at each of their roses.
    assert red[2:4] == [(RED, 2, 0), (RED, 2, 1)]


def test_curse_with_amulet_without_amulet_and_with_neither() -> None:
    # R: Red (raiser), Green, Blue. Blue has an amulet, Green has cards, Red has neither.
    # Draws: Red 3, Green 3, Blue CURSE, extra 3 -> turns up 3 (all pass), then the CURSE.
    game, s, seats = make_game(3)
    located_map(s, [BLUE, GREEN])
    s.amulets[BLUE] = 1
    s.treasures[GREEN] = [2, 6, 4]
    s.t_deck = [3, CURSE, 3, 3]
    seats[RED].queue.extend([(decisions.OFFER, decisions.PASS)])
    seats[GREEN].queue.extend([(decisions.OFFER, decisions.PASS)])
    seats[BLUE].queue.extend([(decisions.OFFER, decisions.PASS)])
    raise_treasure(game, RED, 0)
    assert s.amulets[BLUE] == 0
    assert s.amulets_spent == 1
    assert s.treasures[GREEN] == [2, 4]  # lost the 6, the most valuable card
    assert s.coins_lost == [0, 0, 6]
    assert s.treasures[RED] == []
    assert s.curse_hits == [1, 1, 1]
    assert s.t_removed == [CURSE]
    assert sorted(s.t_discard) == [3, 3, 3, 6]  # the passed 3, two leftovers, Green's 6
    assert s.roses == [15, 15, 15]


def test_curse_spares_players_whose_roses_went_home() -> None:
    # R: Red (raiser), Green, Blue. Draws: Red 2, Green CURSE, Blue 3, extra 4; the cards
    # turn up 4 (Red takes), 3 (Green takes), CURSE: only Blue is still in R.
    game, s, seats = make_game(3)
    located_map(s, [BLUE, GREEN])
    s.treasures[GREEN] = [5]
    s.treasures[BLUE] = [5]
    s.t_deck = [9, 4, 3, CURSE, 2]
    seats[RED].queue.extend([(decisions.OFFER, decisions.TAKE)])
    seats[GREEN].queue.extend([(decisions.OFFER, decisions.TAKE)])
    raise_treasure(game, RED, 0)
    assert s.treasures[RED] == [4]
    assert s.treasures[GREEN] == [5, 3]
    assert s.treasures[BLUE] == []
    assert s.curse_hits == [1, 0, 0]
    assert s.t_discard == [5, 2]  # Blue's lost 5, then the leftover 2
    assert s.t_deck == [9]
    assert s.map_cards[0] == []  # Green took the last card but has no clue to restart with


def test_second_curse_among_the_leftovers_is_removed() -> None:
    # R: seat 0 (raiser), seat 1. Draws: seat 0 CURSE, seat 1 5, extra CURSE (turns up first).
    game, s, _seats = make_game(2)
    located_map(s, [1])
    s.t_deck = [7, CURSE, 5, CURSE]
    raise_treasure(game, 0, 0)
    assert s.t_removed == [CURSE, CURSE]
    assert s.t_discard == [5]
    assert s.t_deck == [7]


def test_leftover_curse_is_removed_or_discarded_by_the_flag() -> None:
    # R: seat 0, seat 1. Draws: seat 0 CURSE, seat 1 5, extra 6; turn up 6 and 5, both taken,
    # and R is empty with the CURSE never turned up.
    for flag, removed, discarded in ((True, [CURSE], []), (False, [], [CURSE])):
        game, s, seats = make_game(2, leftover_curse_removed=flag)
        located_map(s, [1])
        s.t_deck = [7, 6, 5, CURSE]
        seats[0].queue.extend([(decisions.OFFER, decisions.TAKE)])
        seats[1].queue.extend([(decisions.OFFER, decisions.TAKE)])
        raise_treasure(game, 0, 0)
        assert s.treasures == [[6], [5]]
        assert s.t_removed == removed
        assert s.t_discard == discarded


def test_curse_amulet_optional_asks_the_player() -> None:
    # The extra card is the CURSE and turns up first; seat 1 has an amulet and a card.
    game, s, seats = make_game(2, curse_amulet_optional=True)
    located_map(s, [1])
    s.amulets[1] = 1
    s.treasures[1] = [6]
    s.t_deck = [3, CURSE, 3, 3]
    seats[1].queue.extend([(decisions.CURSE, decisions.PAY_CARD)])
    raise_treasure(game, 0, 0)
    assert s.amulets[1] == 1 and s.treasures[1] == []
    assert s.coins_lost == [0, 6]


def test_curse_amulet_optional_asks_a_player_without_cards_too() -> None:
    # BGA (S3): amulet or best card. Seat 1 has an amulet and no treasure card: it is still
    # asked; giving up "the best card" then costs nothing and the amulet stays. Seat 0 (the
    # raiser) has neither and is not asked.
    game, s, seats = make_game(2, curse_amulet_optional=True)
    located_map(s, [1])
    s.amulets[1] = 1
    s.t_deck = [3, CURSE, 3, 3]
    seats[1].queue.extend([(decisions.CURSE, decisions.PAY_CARD)])
    raise_treasure(game, 0, 0)
    assert s.amulets[1] == 1 and s.treasures[1] == [] and s.coins_lost == [0, 0]
    assert s.curse_hits == [1, 1]
    assert s.public_events[-1] == ("curse", 0, CURSE)  # nothing lost: no lost_* event
    # The same choice answered with the amulet spends it.
    game, s, seats = make_game(2, curse_amulet_optional=True)
    located_map(s, [1])
    s.amulets[1] = 1
    s.t_deck = [3, CURSE, 3, 3]
    seats[1].queue.extend([(decisions.CURSE, decisions.PAY_AMULET)])
    raise_treasure(game, 0, 0)
    assert s.amulets[1] == 0 and s.public_events[-1] == ("lost_amulet", 1, -1)


def test_curse_amulet_is_mandatory_by_default() -> None:
    game, s, _seats = make_game(2)
    located_map(s, [1])
    s.amulets[1] = 1
    s.treasures[1] = [6]
    s.t_deck = [3, CURSE, 3, 3]
    raise_treasure(game, 0, 0)  # no decision asked: the amulet goes
    assert s.amulets[1] == 0 and s.treasures[1] == [6]


def test_end_of_game_reshuffle_finishes_the_distribution() -> None:
    # R: seat 0 (raiser), seat 1, seat 1 -> 3 draws and the blind card, but only 2 cards are
    # left: seat 0 draws 5, seat 1 draws 4 (the deck is empty: the game will end), the discard
    # pile [2, 6] becomes the deck, seat 1 draws 6 and the blind card is 2. They turn up
    # 2 (seat 0 takes), 6 and 4 (seat 1 takes both); R is empty, 5 is left over.
    game, s, seats = make_game(2)
    located_map(s, [1, 1])
    s.t_deck = [4, 5]
    s.t_discard = [2, 6]
    seats[0].queue.extend([(decisions.OFFER, decisions.TAKE)])
    seats[1].queue.extend([(decisions.OFFER, decisions.TAKE)] * 2)
    raise_treasure(game, 0, 0)
    assert s.deck_exhausted and s.over
    assert s.treasures == [[2], [6, 4]]
    assert s.t_discard == [5]
    assert s.t_deck == []
    assert s.amulet_board == 0  # no amulets appear after the last distribution


def test_nobody_taking_a_card_lets_the_raiser_restart() -> None:
    game, s, seats = make_game(2)
    located_map(s, [1])
    s.t_deck = [3, 2, 2, 2]
    s.hands[0] = [0]
    s.clue_masks = (1, *s.clue_masks[1:])
    seats[0].queue.extend(
        [(decisions.OFFER, decisions.PASS)] * 3 + [(decisions.RESTART, lambda v, x: x.actions[0])]
    )
    seats[1].queue.extend([(decisions.OFFER, decisions.PASS)] * 3)
    raise_treasure(game, 0, 0)
    assert s.map_roses[0] == [0]
    assert s.t_discard == [2, 2, 2]
