"""Ritual Tournament seating, partnerships, leaders and scoring (pnp/games/spells_and_potions/rules.py).

The rules (shared/rules/spells-and-potions.txt): seats North, East, South, West clockwise;
North/South and East/West are partners; the Wizard of the West leads; after each duel the
wizards of West, East and South move one seat clockwise while North stays, so over three duels
every wizard partners every other one once. Three wizards: the Wizard's Companion holds North.
Two wizards: nobody moves, each partners their own Companion.
"""

from __future__ import annotations

import itertools
from collections import Counter
from itertools import combinations

import pytest

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.spells_and_potions.kinds import scoring
from pnp.games.spells_and_potions.rules import (
    SEATS,
    SHARED_COMPANION,
    Player,
    duel_score,
    individual_totals,
    tournament,
    trick_value,
    wizards,
)
from pnp.paths import CONTENT

CONTENT_OF_GAME = load_game(game("spells-and-potions"), [CONTENT])
RULES = scoring(CONTENT_OF_GAME)

CLOCKWISE_SKIPPING_NORTH = {"east": "south", "south": "west", "west": "east"}


def pair(a: Player, b: Player) -> frozenset[Player]:
    return frozenset((a, b))


def partner_counts(duels) -> Counter:
    return Counter(pair(*p) for duel in duels for p in duel.partnerships)


def test_seats_are_clockwise_from_north():
    assert SEATS == ("north", "east", "south", "west")


@pytest.mark.parametrize("wizards", [2, 3, 4])
def test_three_duels_with_four_seats_each(wizards):
    duels = tournament(wizards)
    assert [d.number for d in duels] == [1, 2, 3]
    for duel in duels:
        assert [seat for seat, _ in duel.seating] == list(SEATS)
        people = [who for _, who in duel.seating]
        assert len(set(people)) == 4, people
        # the two partnerships are exactly the four people at the table
        assert Counter(who for p in duel.partnerships for who in p) == Counter(people)


def test_four_wizards_partner_every_other_wizard_exactly_once():
    duels = tournament(4)
    names = wizards(4)
    assert len(set(names)) == 4
    counts = partner_counts(duels)
    assert set(counts) == {pair(a, b) for a, b in combinations(names, 2)}
    assert all(n == 1 for n in counts.values()), counts


def test_four_wizards_partners_sit_opposite():
    for duel in tournament(4):
        seat = dict(duel.seating)
        assert duel.partnerships == ((seat["north"], seat["south"]), (seat["east"], seat["west"]))


def test_four_wizards_north_never_moves_and_the_others_move_one_seat_clockwise():
    duels = tournament(4)
    north = dict(duels[0].seating)["north"]
    assert all(dict(d.seating)["north"] == north for d in duels)
    for before, after in itertools.pairwise(duels):
        for seat, who in before.seating:
            if seat == "north":
                continue
            assert after.seat_of(who) == CLOCKWISE_SKIPPING_NORTH[seat], (who, seat, after.seating)


def test_three_wizards_partner_the_companion_once_and_each_other_wizard_once():
    duels = tournament(3)
    names = wizards(3)
    counts = partner_counts(duels)
    for name in names:
        assert counts[pair(name, SHARED_COMPANION)] == 1, name
    for a, b in combinations(names, 2):
        assert counts[pair(a, b)] == 1, (a, b)
    assert sum(counts.values()) == 6  # 2 partnerships x 3 duels, nothing else


def test_three_wizards_companion_holds_north_throughout():
    for duel in tournament(3):
        assert dict(duel.seating)["north"] == SHARED_COMPANION
        assert not any(who.companion for seat, who in duel.seating if seat != "north")


def test_three_wizards_rotate_clockwise_skipping_north():
    duels = tournament(3)
    for before, after in itertools.pairwise(duels):
        for seat, who in before.seating:
            if seat != "north":
                assert after.seat_of(who) == CLOCKWISE_SKIPPING_NORTH[seat]


def test_two_wizards_never_change_seats_and_partner_their_own_companion():
    duels = tournament(2)
    a, b = wizards(2)
    assert all(d.seating == duels[0].seating for d in duels)
    for duel in duels:
        partners = {p[0]: p[1] for p in duel.partnerships}
        assert partners[a] == Player(a.number, companion=True)
        assert partners[b] == Player(b.number, companion=True)
        # partners sit opposite: the two wizards are next to each other, as are the Companions
        seat = dict(duel.seating)
        assert {pair(seat["north"], seat["south"]), pair(seat["east"], seat["west"])} == {
            pair(*p) for p in duel.partnerships
        }


def test_two_wizards_leader_is_chosen_not_fixed():
    # the Arranger chooses the first leader, then each duel's loser chooses
    assert [d.leader for d in tournament(2)] == [None, None, None]


@pytest.mark.parametrize("wizards", [3, 4])
def test_west_leads(wizards):
    for duel in tournament(wizards):
        assert duel.leader == dict(duel.seating)["west"]
        assert duel.seat_of(duel.leader) == "west"


@pytest.mark.parametrize("wizards", [0, 1, 5, -2])
def test_invalid_wizard_counts_raise(wizards):
    with pytest.raises(ValueError, match=str(wizards)):
        tournament(wizards)


@pytest.mark.parametrize(
    "tricks, potions, expected",
    [
        (0, 0, 0),
        (7, 0, 70),
        (7, 10, 80),  # Gladder's Reward
        (6, -10, 50),  # Harpier's Penalty
        (13, 20, 150),
        (0, -10, -10),  # a penalty can take a team below zero
    ],
)
def test_duel_score(tricks, potions, expected):
    assert duel_score(tricks, RULES, potions) == expected


def test_duel_score_default_has_no_potion_points():
    assert duel_score(5, RULES) == 50


@pytest.mark.parametrize("tricks", [-1, 14, 100])
def test_duel_score_rejects_impossible_trick_counts(tricks):
    with pytest.raises(ValueError):
        duel_score(tricks, RULES)


def test_a_tricks_value_adds_the_potion_cards_points_from_content():
    cards = {card.name: card for card in CONTENT_OF_GAME["magic-cards"].cards}
    assert trick_value(RULES) == 10
    assert trick_value(RULES, [cards["Gladder's Reward"]]) == 20
    assert trick_value(RULES, [cards["Harpier's Penalty"]]) == 0
    assert trick_value(RULES, [cards["Gladder's Reward"], cards["Harpier's Penalty"]]) == 10


def test_individual_totals_worked_example_four_wizards():
    duels = tournament(4)
    a, b, c, d = wizards(4)
    # Worked through by hand from the seating: duel 1 A+C v B+D, duel 2 A+B v D+C, duel 3 A+D v C+B
    assert [tuple(map(frozenset, du.partnerships)) for du in duels] == [
        (pair(a, c), pair(b, d)),
        (pair(a, b), pair(d, c)),
        (pair(a, d), pair(c, b)),
    ]
    scores = [(80, 50), (60, 70), (100, 30)]
    assert individual_totals(duels, scores) == {
        a: 80 + 60 + 100,  # 240
        b: 50 + 60 + 30,  # 140
        c: 80 + 70 + 30,  # 180
        d: 50 + 70 + 100,  # 220
    }


def test_individual_totals_companion_scores_nothing():
    duels = tournament(3)
    a, b, c = wizards(3)
    # duel 1 Companion+B v A+C, duel 2 Companion+A v C+B, duel 3 Companion+C v B+A
    totals = individual_totals(duels, [(40, 90), (75, 55), (130, 0)])
    assert totals == {a: 90 + 75 + 0, b: 40 + 55 + 0, c: 90 + 55 + 130}
    assert not any(who.companion for who in totals)


def test_individual_totals_two_wizards():
    duels = tournament(2)
    a, b = wizards(2)
    totals = individual_totals(duels, [(70, 60), (40, 90), (100, 30)])
    assert totals == {a: 210, b: 180}


def test_individual_totals_needs_one_score_pair_per_duel():
    with pytest.raises(ValueError):
        individual_totals(tournament(4), [(10, 120), (60, 70)])


def test_the_game_is_for_two_to_four_wizards():
    """ "Spells and Potions tournaments are originally designed for 4 wizards, although variations
    for 3 or 2 wizard play exist" (its GameDef's players, which `pnp sim` and the companion read)."""
    assert game("spells-and-potions").players == (2, 4)
