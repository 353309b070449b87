"""The trick judge: every case the rules describe, and each of our content rulings."""

from __future__ import annotations

import pytest

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.spells_and_potions.rules import SEATS, order_of_play, tournament
from pnp.games.spells_and_potions.trick_judge import FOUR_WIZARDS, PlayedCard, judge
from pnp.paths import CONTENT
from pnp.rules.table import Refused
from tests.test_rule_numbers import overlay

SP = load_game(game("spells-and-potions"), [CONTENT])
RULINGS = SP["rulings"].rulings
REWARD, REVERSE, SHIELD = "Gladder's Reward", "Pranxtor's Fiery Reverse", "Jaype's Trump Shield"
BLAST, APPRENTICE, CHOICE, PENALTY = (
    "Merlin's Power Blast",
    "Merlin's New Apprentice",
    "Larfor's Trump Choice",
    "Harpier's Penalty",
)


def cards(*written: str) -> list[PlayedCard]:
    """'earth 5' is an element card; anything else is a Spells and Potions card's name."""
    out = []
    for text in written:
        suit, _, rank = text.partition(" ")
        out.append(PlayedCard(suit=suit, rank=int(rank)) if rank.isdigit() else PlayedCard(name=text))
    return out


def verdict(*written: str, trump="fire", leader="north", content=SP):
    """The cards written in the order of play from `leader`'s seat, four wizards."""
    played = dict(zip(order_of_play(FOUR_WIZARDS, leader), cards(*written), strict=False))  # may be short
    return judge(content, played, trump, leader)


def test_the_highest_card_of_the_led_element_wins():
    v = verdict("earth 5", "earth 9", "air 10", "earth 7")
    assert (v.winner, v.team, v.value, v.potion_points, v.rulings) == (1, 1, 10, 0, ())


def test_a_trump_beats_the_led_element_and_the_highest_trump_wins():
    assert verdict("earth 5", "fire 2", "earth 10", "fire 3").winner == 3
    assert verdict("earth 5", "fire 2", "earth 10", "air 9").winner == 1


def test_a_cards_team_is_its_seats_partnership():
    v = verdict("earth 5", "earth 9", "air 10", "earth 7", leader="east")
    assert (v.seat, v.team) == ("south", 0)
    v = verdict("earth 5", "earth 6", "earth 10", "earth 7", leader="east")
    assert (v.seat, v.team) == ("west", 1)


# "In clockwise order, everyone takes turns laying a card." With three wizards the Companion sits
# North ("the Wizard's Companion (North)") and "The wizard sitting across from the empty seat plays
# Companion's hand", yet the Companion's card is played in the Companion's turn and is team 0's.
def test_three_wizards_play_clockwise_and_the_companions_card_is_norths_team():
    seating = tournament(3)[0].seating
    assert order_of_play(seating, "west") == ("west", "north", "east", "south")
    # South plays both South's and North's hands: by hand South's, but by seat North wins for team 0
    by_seat = dict(zip(SEATS, cards("air 10", "air 2", "air 3", "air 4"), strict=True))
    v = judge(SP, by_seat, "fire", "west", seating)
    assert (v.winner, v.seat, v.team) == (1, "north", 0)


# "If a wizard leads, the next player is the other wizard, then the Companions. If a Companion leads,
# the next player is the other Companion, then the wizards." Which Companion first is our
# two-wizard-order ruling: the leader's. Clockwise from East would put South (A's Companion) second.
def test_two_wizards_play_in_the_rulings_order_not_clockwise():
    seating = tournament(2)[0].seating  # North A, East B, South A's Companion, West B's Companion
    assert order_of_play(seating, "east") == ("east", "north", "west", "south")
    assert order_of_play(seating, "south") == ("south", "west", "north", "east")
    # B leads a Spells and Potions card; the first element card sets the element to follow: A's
    # water (played second by the ruling), not A's Companion's earth (second clockwise)
    by_seat = {
        "east": cards(REWARD)[0],
        **dict(zip(("north", "south", "west"), cards("water 2", "earth 9", "water 5"), strict=True)),
    }
    v = judge(SP, by_seat, "fire", "east", seating)
    assert (v.winner, v.seat, v.team) == (2, "west", 1)  # B's Companion's water 5; clockwise: earth 9, team 0


def test_a_trick_needs_a_card_from_each_seat_and_a_seated_leader():
    trick = dict(zip(SEATS, cards("earth 5", "earth 9", "air 10", "earth 7"), strict=True))
    with pytest.raises(Refused):
        judge(SP, trick, "fire", "nowhere")
    with pytest.raises(Refused):
        judge(SP, {**trick, "centre": cards("earth 2")[0]}, "fire", "north")
    with pytest.raises(Refused):
        judge(SP, {seat: trick[seat] for seat in SEATS[:3]}, "fire", "north")


def test_a_trick_of_spells_and_potions_cards_only_goes_to_its_leader():
    v = verdict(REWARD, APPRENTICE, CHOICE, BLAST, leader="east")
    assert (v.winner, v.team, v.value) == (0, 1, 20)


def test_fiery_reverse_makes_the_lowest_of_the_led_element_win():
    v = verdict("earth 5", "earth 2", REVERSE, "earth 9")
    assert v.winner == 1 and v.rulings == ()


# "Pranxtor's Fiery Reverse (2) The lowest ranking card of the lead suit wins" says nothing of trump;
# "Jaype's Trump Shield (2) The highest ranking card of the lead suit wins, regardless of whether a
# trump has been played" does: only the Shield takes trump's power away, so a trump beats a Reverse.
def test_ruling_a_trump_still_wins_over_a_fiery_reverse():
    v = verdict("earth 5", "earth 2", REVERSE, "fire 9")
    assert v.winner == 3 and v.rulings == (RULINGS["reverse-and-trump"],)  # the Fire card, not the Earth 2
    two_trumps = verdict("earth 5", "fire 2", REVERSE, "fire 9")
    assert two_trumps.winner == 3  # "the highest trump wins the trick": the Reverse does not turn trumps over
    trump_led = verdict("fire 5", "fire 2", REVERSE, "fire 9")  # trump is the lead suit: the card applies
    assert trump_led.winner == 1 and trump_led.rulings == ()
    shielded = verdict("earth 5", "earth 2", SHIELD, "fire 9")
    assert shielded.winner == 0  # where the Shield's words reach, the led element wins


def test_the_reverse_and_trump_ruling_is_printed_on_the_fiery_reverse():
    reverse = next(card for card in SP["magic-cards"].cards if card.changes == "lowest-wins")
    assert "trump played on another element still wins" in reverse.effect


def test_trump_shield_makes_the_highest_of_the_led_element_win_over_a_trump():
    assert verdict("earth 5", "fire 10", SHIELD, "earth 8").winner == 3
    assert verdict("earth 5", "fire 10", "air 1", "earth 8").winner == 1  # without it, the trump


def test_power_blast_adds_its_bonus_to_its_teams_element_cards():
    # team 0 plays cards 0 and 2: 8 + 2.5 = 10.5 beats team 1's 10
    assert verdict("earth 8", "earth 10", BLAST, "air 3").winner == 0
    assert verdict("earth 8", "earth 10", "air 4", "air 3").winner == 1


def test_gladders_reward_and_harpiers_penalty_change_the_tricks_value_by_the_contents_points():
    assert verdict("earth 5", REWARD, "earth 3", "earth 4").value == 20
    v = verdict("earth 5", PENALTY, "earth 3", "earth 4")
    assert (v.value, v.potion_points) == (0, -10)
    assert verdict("earth 5", PENALTY, REWARD, "earth 4").value == 10


def test_apprentice_and_trump_choice_hand_the_winner_a_choice():
    v = verdict("earth 5", APPRENTICE, "earth 3", CHOICE)
    assert v.winner_picks_leader and v.winner_picks_trump
    plain = verdict("earth 5", "earth 6", "earth 3", "earth 4")
    assert not plain.winner_picks_leader and not plain.winner_picks_trump


def test_a_changed_trump_is_judged_as_trump():
    assert verdict("earth 5", "fire 10", "water 1", "earth 8", trump="water").winner == 2


def test_ruling_a_spells_and_potions_lead_hands_the_lead_to_the_first_element_card():
    v = verdict(APPRENTICE, "air 3", "earth 9", "air 5")
    assert v.winner == 3 and v.rulings == (RULINGS["magic-lead"],)


def test_ruling_reverse_and_shield_the_later_one_decides():
    later_shield = verdict("earth 5", REVERSE, "earth 2", SHIELD)
    assert later_shield.winner == 0 and RULINGS["reverse-and-shield"] in later_shield.rulings
    later_reverse = verdict("earth 5", SHIELD, "earth 2", REVERSE)
    assert later_reverse.winner == 2
    assert verdict("earth 5", SHIELD, "fire 2", REVERSE).winner == 0  # trumps hold no power either way


# "Merlin's Power Blast (2) Adds 2 ½ points to the rank of your team's Element Cards" and
# "The lowest ranking card of the lead suit wins": the Blast adds, as printed, even under a Reverse.
def test_ruling_a_blast_adds_as_printed_under_a_reverse():
    # team 1 blasts: its 3 counts as 5.5, so team 0's 2 is the lowest (had it subtracted, 0.5 would win)
    v = verdict("earth 2", "earth 3", REVERSE, BLAST)
    assert v.winner == 0 and v.rulings == (RULINGS["blast-in-reverse"],)
    assert verdict("earth 4", "earth 3", REVERSE, BLAST).winner == 0  # 4 against 5.5: the Blast cost team 1 the trick
    assert verdict("earth 4", "earth 3", REVERSE, "air 1").winner == 1  # without it, the 3 wins


def test_ruling_when_both_teams_blast_the_bonuses_cancel():
    v = verdict("earth 5", "earth 7", BLAST, BLAST)
    assert v.winner == 1 and v.rulings == (RULINGS["two-blasts"],)
    assert verdict("earth 5", "earth 7", BLAST, "air 1").winner == 0  # one blast alone: 7.5 beats 7


def test_ruling_a_tie_goes_to_the_card_played_first(tmp_path):
    # with a whole-number bonus a blasted 8 ties an unblasted 10
    folder = overlay(tmp_path, "spells-and-potions", "magic-cards.yaml", "rank_bonus: 2.5", "rank_bonus: 2")
    theirs = load_game(game("spells-and-potions"), [CONTENT, folder])
    v = verdict("earth 8", "earth 10", BLAST, "air 1", content=theirs)
    assert v.winner == 0 and v.rulings == (RULINGS["tie"],)
    assert verdict("earth 10", "earth 8", "air 1", BLAST, content=theirs).winner == 0


def test_the_rulings_are_the_contents_words(tmp_path):
    ours = (CONTENT / "spells-and-potions" / "rulings.yaml").read_text(encoding="utf-8")
    old = ours.split("magic-lead: ")[1].splitlines()[0]
    folder = overlay(tmp_path, "spells-and-potions", "rulings.yaml", old, '"The first element card leads."')
    theirs = load_game(game("spells-and-potions"), [CONTENT, folder])
    v = verdict(APPRENTICE, "earth 2", "earth 3", "earth 4", content=theirs)
    assert v.rulings == ("The first element card leads.",)


def test_the_potion_points_follow_the_content(tmp_path):
    folder = overlay(tmp_path, "spells-and-potions", "magic-cards.yaml", "points: 10", "points: 15")
    theirs = load_game(game("spells-and-potions"), [CONTENT, folder])
    assert verdict("earth 5", REWARD, "earth 3", "earth 4", content=theirs).value == 25


@pytest.mark.parametrize(
    "written, message",
    [
        (("earth 5", "earth 6", "earth 7"), "A trick has 4 cards, one from each hand; 3 were entered"),
        (("earth 5", "earth 6", "earth 7", "earth 5"), "one 5 of Earth; it was entered twice"),
        (("earth 5", "earth 6", "earth 7", "earth 11"), "run 1 to 10; 11 is not one"),
        (("earth 5", "earth 6", "earth 7", "metal 3"), "no metal element; the elements are Fire, Earth, Air, Water"),
        (("earth 5", "earth 6", "earth 7", "Merlin's Hat"), 'no Spells and Potions card called "Merlin\'s Hat"'),
        (("earth 5", REWARD, REWARD, "earth 7"), "The deck holds 1 Gladder's Reward; this trick has more"),
    ],
)
def test_impossible_tricks_are_refused(written, message):
    with pytest.raises(Refused, match=message):
        verdict(*written)


def test_a_card_is_either_an_element_or_a_spell():
    with pytest.raises(ValueError, match="either suit and rank"):
        PlayedCard(suit="earth", rank=3, name=REWARD)
    with pytest.raises(ValueError, match="either suit and rank"):
        PlayedCard(suit="earth")
