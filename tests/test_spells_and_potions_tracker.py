"""The Spells and Potions tracker: wizards seated by the tournament, tricks and potion points,
trump, duels scored and rotated, the individual totals and the winners."""

from __future__ import annotations

import pytest

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.spells_and_potions.kinds import scoring
from pnp.games.spells_and_potions.tracker import TRACKER
from pnp.paths import CONTENT
from pnp.rules.table import HOST, Entry, Refused, replay, undo_target
from tests.test_rule_numbers import overlay

SP = load_game(game("spells-and-potions"), [CONTENT])
ELEMENT = {"suit": "earth", "rank": 5}


def act(state, actor, kind, content=SP, **payload):
    return TRACKER.apply(content, state, actor, TRACKER.actions[kind](**payload))


def table(wizards=4, content=SP, start=True):
    state = TRACKER.setup(content, TRACKER.Options(wizards=wizards))
    for who in "abcd"[:wizards]:
        state = TRACKER.join(state, who, who.upper())
    return act(state, HOST, "start", content) if start else state


def play_duel(state, won_by_team_0, content=SP, tricks=13):
    for n in range(tricks):
        state = act(state, "a", "trick", content, team=0 if n < won_by_team_0 else 1)
    return act(state, "a", "end_duel", content)


def test_the_registry_names_this_tracker():
    assert game("spells-and-potions").load("tracker") is TRACKER


def test_four_wizards_are_seated_in_join_order_and_rotate_after_each_duel():
    state = table()
    assert state["seats"] == {"north": "a", "east": "b", "south": "c", "west": "d"}
    assert state["teams"] == [["a", "c"], ["b", "d"]] and state["trump"] == "fire"
    state = play_duel(state, 7)
    assert state["seats"] == {"north": "a", "east": "d", "south": "b", "west": "c"}
    assert state["teams"] == [["a", "b"], ["d", "c"]] and state["duel"] == 1


def test_three_and_two_wizards_play_with_companions():
    assert table(3)["teams"] == [["companion", "b"], ["a", "c"]]
    assert table(2)["teams"] == [["a", "companion:a"], ["b", "companion:b"]]


def duel_leaders(wizards, team_0_wins=(7, 7)):
    """(leader, leader_chooser) in each duel, team 0 winning `team_0_wins` tricks of the duels before."""
    state = table(wizards)
    seen = [(state["leader"], state["leader_chooser"])]
    for won in team_0_wins:
        state = play_duel(state, won)
        seen.append((state["leader"], state["leader_chooser"]))
    return seen


def test_the_wizard_of_the_west_leads_each_duel_with_four_and_three_wizards():
    # West is d, then c, then b (four); c, then b, then a (three: the Companion holds North)
    assert duel_leaders(4) == [("d", None), ("c", None), ("b", None)]
    assert duel_leaders(3) == [("c", None), ("b", None), ("a", None)]


def test_two_wizards_the_arranger_then_the_loser_of_the_previous_duel_chooses_who_leads():
    # team 0 is a and a's Companion: a wins duel 1, loses duel 2; no seat leads
    assert duel_leaders(2, (7, 3)) == [(None, None), (None, "b"), (None, "a")]
    state = act(table(2), "a", "trick", team=0, potions=["Harpier's Penalty"])
    tied = play_duel(state, 6, tricks=12)  # 7 tricks less 10 potion points against 6 tricks: 60 - 60
    assert tied["duels"][0]["scores"] == [60, 60]
    assert (tied["leader"], tied["leader_chooser"]) == (None, None)  # nobody lost: the Arranger again


# "The wizard who loses a duel chooses which wizard leads the next." and "If a wizard leads, the next
# player is the other wizard, then the Companions.": a tie and the Companions' order are our rulings,
# shown with the duel they apply to and not otherwise.
def test_two_wizards_see_the_order_of_play_and_after_a_tie_the_tie_ruling():
    rulings = SP["rulings"].rulings
    assert table(2)["rulings"] == [rulings["two-wizard-order"]] and table(4)["rulings"] == []
    assert play_duel(table(2), 7)["rulings"] == [rulings["two-wizard-order"]]  # a loser chooses: no tie ruling
    state = act(table(2), "a", "trick", team=0, potions=["Harpier's Penalty"])
    tied = play_duel(state, 6, tricks=12)
    assert tied["rulings"] == [rulings["two-wizard-order"], rulings["tied-duel-leader"]]


def offered(content):
    """What a table's state offers the phone to tap, before anyone joins."""
    state = TRACKER.setup(content, TRACKER.Options())
    return {key: state[key] for key in ("elements", "ranks", "magic_cards", "hands", "tricks_per_duel")}


def from_content(content):
    suits = content["element-suits"]
    return {
        "elements": [{"id": s.id, "name": s.name, "letter": s.letter} for s in suits.suits],
        "ranks": list(range(1, suits.ranks + 1)),
        "magic_cards": [{"name": c.name, "count": c.count, "points": c.points} for c in content["magic-cards"].cards],
        "hands": content["duel-rules"].hands,
        "tricks_per_duel": scoring(content).tricks,
    }


def test_the_choices_a_phone_offers_are_the_contents(tmp_path):
    assert offered(SP) == from_content(SP)
    folder = overlay(tmp_path, "spells-and-potions", "elements.yaml", "ranks: 10", "ranks: 8")
    (folder / "spells-and-potions" / "more-cards.yaml").write_text(  # 4 x 8 + 12 + 4 deals into 4 hands of 12
        "kind: magic-cards\ncards:\n  - {name: Elixir, type: potion, count: 4, points: 5, effect: Five more.}\n",
        encoding="utf-8",
    )
    theirs = load_game(game("spells-and-potions"), [CONTENT, folder])
    assert offered(theirs) == from_content(theirs) != from_content(SP)
    assert offered(theirs)["ranks"][-1] == 8 and offered(theirs)["magic_cards"][-1]["name"] == "Elixir"
    assert offered(theirs)["tricks_per_duel"] == 12


def test_a_trick_counts_for_its_team_with_its_potion_points():
    state = act(table(), "b", "trick", team=1, potions=["Gladder's Reward"])
    state = act(state, HOST, "trick", team=0, potions=["harpier's penalty"])
    assert state["tricks"] == [1, 1] and state["potions"] == [-10, 10]
    with pytest.raises(Refused, match="no Spells and Potions card called 'Elixir'"):
        act(state, "a", "trick", team=0, potions=["Elixir"])


def test_a_judged_trick_is_recorded_for_the_winning_team_and_shown():
    cards = [ELEMENT, {"suit": "earth", "rank": 9}, {"name": "Gladder's Reward"}, {"suit": "earth", "rank": 2}]
    state = act(table(), "c", "judge_trick", leader="north", cards=cards)
    assert state["tricks"] == [0, 1] and state["potions"] == [0, 10]
    assert state["last_trick"]["winner"] == 1 and state["last_trick"]["value"] == 20
    assert state["last_trick"]["rulings"] == [] and state["last_trick"]["cards"] == cards
    led_by_magic = [  # a fresh earth card: the 5 and 9 of Earth are already in the first trick's pile
        {"name": "Merlin's New Apprentice"},
        {"suit": "earth", "rank": 6},
        {"suit": "earth", "rank": 3},
        {"suit": "air", "rank": 1},
    ]
    state = act(state, "c", "judge_trick", leader="east", cards=led_by_magic)
    assert state["tricks"] == [1, 1] and state["last_trick"]["winner_picks_leader"]
    assert state["last_trick"]["rulings"] == [SP["rulings"].rulings["magic-lead"]]
    with pytest.raises(Refused, match="A trick has 4 cards"):
        act(state, "c", "judge_trick", leader="north", cards=[ELEMENT])


# "If a Companion leads, the next player is the other Companion, then the wizards." The phone sends
# the cards in the order played and the leader's seat; the judge reads each card's seat from them.
def test_a_judged_trick_takes_the_leaders_seat_and_a_companion_may_lead():
    two = table(2)
    assert two["seats"]["south"] == "companion:a"  # A's Companion, team 0, with A in the North
    assert two["orders"]["south"] == ["south", "west", "north", "east"]  # the phone names each card's seat
    cards = [
        {"suit": "earth", "rank": 5},
        {"suit": "earth", "rank": 9},
        {"suit": "earth", "rank": 4},
        {"suit": "earth", "rank": 7},
    ]
    state = act(two, "a", "judge_trick", leader="south", cards=cards)  # South, West, North, East
    assert (state["last_trick"]["seat"], state["last_trick"]["team"]) == ("west", 1)  # B's Companion's 9
    # an older phone's leading team stands for North or East: the same teams in the same places
    assert act(two, "a", "judge_trick", lead=0, cards=cards)["last_trick"]["team"] == 1
    with pytest.raises(ValueError, match="either the leader's seat or the leading team"):
        act(two, "a", "judge_trick", leader="south", lead=0, cards=cards)
    with pytest.raises(Refused, match="one card a seat"):
        act(two, "a", "judge_trick", leader="south", cards=[*cards, {"suit": "air", "rank": 1}])


# "Element Cards – Number cards (1 to 10 per element/40 cards per deck)." and "Gladder's Reward (1)":
# one deck, dealt out for the duel ("Repeat until all the cards are played"), so a card is played once.
def test_a_card_played_this_duel_cannot_be_played_again():
    reward = {"name": "Gladder's Reward"}
    first = [ELEMENT, {"suit": "earth", "rank": 9}, reward, {"suit": "earth", "rank": 2}]
    state = act(table(), "a", "judge_trick", leader="north", cards=first)
    again = [{"suit": "air", "rank": 4}, reward, {"suit": "air", "rank": 7}, {"suit": "air", "rank": 1}]
    with pytest.raises(Refused, match="Gladder's Reward was already played this duel: the deck holds 1"):
        act(state, "a", "judge_trick", leader="north", cards=again)  # a second Reward would give +20
    with pytest.raises(Refused, match="Gladder's Reward was already played"):
        act(state, "a", "trick", team=1, potions=["gladder's reward"])  # by hand as well
    earth_9 = [
        {"suit": "Earth", "rank": 9},
        {"suit": "earth", "rank": 1},
        {"suit": "air", "rank": 7},
        {"suit": "water", "rank": 3},
    ]
    with pytest.raises(Refused, match="The 9 of Earth was already played this duel"):
        act(state, "a", "judge_trick", leader="north", cards=earth_9)
    # the refusals left the duel as it was, and a card of the two a deck holds may come once more
    blast = {"name": "Merlin's Power Blast"}
    state = act(
        state,
        "a",
        "judge_trick",
        leader="north",
        cards=[{"suit": "air", "rank": 4}, blast, {"suit": "air", "rank": 7}, blast],
    )
    assert state["tricks"] == [1, 1] and state["played"][-1] == {"name": "Merlin's Power Blast"}
    with pytest.raises(Refused, match="Merlin's Power Blast was already played this duel: the deck holds 2"):
        act(state, "a", "trick", team=0, potions=["Merlin's Power Blast"])
    assert play_duel(state, 5, tricks=11)["played"] == []  # a new duel is a new deal: every card again


def test_a_trick_entered_by_hand_holds_no_more_of_a_card_than_the_deck():
    # "Gladder's Reward (1) Adds 10 points to a trick": eight of them (+80) cannot be in one trick
    with pytest.raises(Refused, match="Gladder's Reward was already played this duel: the deck holds 1"):
        act(table(), "a", "trick", team=0, potions=["Gladder's Reward"] * 8)
    five = ["Gladder's Reward", "Harpier's Penalty", "Merlin's New Apprentice", "Merlin's Power Blast", CHOOSING]
    with pytest.raises(Refused, match="A trick has 4 cards, one from each hand; 5 were entered"):
        act(table(), "a", "trick", team=0, potions=five)  # each within the deck's counts, but one card a hand
    state = act(table(), "a", "trick", team=0, potions=["Harpier's Penalty", "Gladder's Reward"])
    assert state["potions"] == [0, 0]  # the one Reward and the one Penalty together are fine


CHOOSING = next(card.name for card in SP["magic-cards"].cards if card.changes == "winner-picks-trump")


def _trump_choice_trick(state, team=0):
    return act(state, "a", "trick", team=team, potions=[CHOOSING])


def test_trump_choice_lasts_the_duel_and_the_judge_follows_it():
    state = act(_trump_choice_trick(table()), "a", "set_trump", suit="Water")
    assert state["trump"] == "water"
    cards = [ELEMENT, {"suit": "fire", "rank": 10}, {"suit": "water", "rank": 1}, {"suit": "earth", "rank": 8}]
    assert act(state, "a", "judge_trick", leader="north", cards=cards)["last_trick"]["winner"] == 2
    with pytest.raises(Refused, match="no metal element; the elements are Fire, Earth, Air, Water"):
        act(_trump_choice_trick(table()), "a", "set_trump", suit="metal")
    assert play_duel(state, 7, tricks=12)["trump"] == "fire"  # the next duel starts with the content's trump


# "Larfor's Trump Choice (2) The winner of the trick chooses the trump element for the remainder of
# the game" and "Trump – ... (the trump is Fire, unless the Larfor's Trump Choice card is played)".
def test_a_trump_choice_card_asks_for_the_trump_until_it_is_picked():
    cards = [ELEMENT, {"name": CHOOSING}, {"suit": "earth", "rank": 7}, {"suit": "air", "rank": 2}]
    state = act(table(), "a", "judge_trick", leader="north", cards=cards)
    assert state["trump_choice_due"] and state["last_trick"]["winner_picks_trump"]
    # the choice is not lost by recording the next trick first: the next trick waits for it
    next_trick = [
        {"suit": "air", "rank": 9},
        {"suit": "air", "rank": 3},
        {"suit": "fire", "rank": 1},
        {"suit": "air", "rank": 4},
    ]
    for kind, payload in (("trick", {"team": 1}), ("judge_trick", {"leader": "east", "cards": next_trick})):
        with pytest.raises(Refused, match="The last trick's winner picks the trump before the next trick"):
            act(state, "c", kind, **payload)
    state = act(state, "c", "set_trump", suit="air")
    assert not state["trump_choice_due"] and state["trump"] == "air"
    assert (
        act(state, "c", "judge_trick", leader="east", cards=next_trick)["last_trick"]["winner"] == 0
    )  # air is trump now
    assert _trump_choice_trick(table())["trump_choice_due"]  # a trick entered by hand asks as well


def test_trump_changes_only_after_a_trump_choice():
    with pytest.raises(Refused, match="Trump changes only when a Trump Choice wins a trick"):
        act(table(), "a", "set_trump", suit="Water")  # no Trump Choice played: Fire stays trump
    state = act(_trump_choice_trick(table()), "a", "set_trump", suit="water")
    with pytest.raises(Refused, match="Trump changes only when a Trump Choice wins a trick"):
        act(state, "a", "set_trump", suit="air")  # one choice, one pick
    last = _trump_choice_trick(_tricks(table(), 12))  # the last trick: no remainder to choose for
    assert not last["trump_choice_due"] and act(last, "a", "end_duel")["duel"] == 1


def test_a_duel_has_the_contents_number_of_tricks():
    state = table()
    for _ in range(13):
        state = act(state, "a", "trick", team=0)
    with pytest.raises(Refused, match="All 13 tricks of this duel are recorded; end the duel"):
        act(state, "a", "trick", team=1)
    with pytest.raises(Refused, match="12 of 13 tricks are recorded; the duel is not over"):
        act(_tricks(table(), 12), "a", "end_duel")


def _tricks(state, n):
    for _ in range(n):
        state = act(state, "a", "trick", team=0)
    return state


def test_the_tournament_ends_with_individual_totals_and_shared_wins():
    state = play_duel(table(), 7)  # a, c: 70; b, d: 60
    assert state["duels"] == [{"tricks": [7, 6], "potions": [0, 0], "scores": [70, 60]}]
    state = play_duel(state, 13)  # a, b: 130; d, c: 0
    state = play_duel(state, 0)  # a, d: 0; c, b: 130
    assert state["phase"] == "over"
    assert state["totals"] == {"a": 200, "b": 320, "c": 200, "d": 60}
    assert state["winners"] == ["b"]
    with pytest.raises(Refused, match="The game is over"):
        act(state, "a", "trick", team=0)
    tied = play_duel(play_duel(play_duel(table(), 13), 0), 13)  # a, c; then d, c; then a, d
    assert tied["totals"] == {"a": 260, "b": 0, "c": 260, "d": 260} and tied["winners"] == ["a", "c", "d"]


def test_potion_points_count_in_the_duel_score():
    state = act(table(), "a", "trick", team=0, potions=["Gladder's Reward"])
    state = play_duel(state, 6, tricks=12)
    assert state["duels"][0]["scores"] == [80, 60]


def test_three_wizards_total_without_the_companion():
    state = play_duel(play_duel(play_duel(table(3), 13), 13), 13)
    # duel 1: companion + b win; duel 2: companion + c; duel 3: companion + a
    assert state["totals"] == {"a": 130, "b": 130, "c": 130} and state["winners"] == ["a", "b", "c"]


def test_joining_starting_and_who_may_record():
    waiting = table(start=False)
    with pytest.raises(Refused, match="is for at most 4 wizards, and they are all here"):
        TRACKER.join(waiting, "e", "E")
    assert TRACKER.join(waiting, "a", "Ann")["names"]["a"] == "Ann"  # joining again renames
    short = TRACKER.join(TRACKER.setup(SP, TRACKER.Options()), "a", "A")
    with pytest.raises(Refused, match="needs at least 4 wizards; 1 has joined"):
        act(short, HOST, "start")
    with pytest.raises(Refused, match="Only the host does that"):
        act(waiting, "a", "start")
    with pytest.raises(Refused, match="not begun"):
        act(waiting, "a", "trick", team=0)
    with pytest.raises(Refused, match="Only the players at this table and the host"):
        act(table(), "zed", "trick", team=0)
    with pytest.raises(Refused, match="already begun"):
        act(table(), HOST, "start")


def test_the_tracker_follows_the_contents_points_and_duels(tmp_path):
    folder = overlay(tmp_path, "spells-and-potions", "rules.yaml", "points_per_trick: 10", "points_per_trick: 5")
    theirs = load_game(game("spells-and-potions"), [CONTENT, folder])
    assert play_duel(table(content=theirs), 7, theirs)["duels"][0]["scores"] == [35, 30]
    folder = overlay(tmp_path / "2", "spells-and-potions", "rules.yaml", "duels: 3", "duels: 1")
    theirs = load_game(game("spells-and-potions"), [CONTENT, folder])
    assert play_duel(table(content=theirs), 7, theirs)["phase"] == "over"


def test_undo_a_trick_through_the_log_and_not_a_duel_the_next_depends_on():
    options = TRACKER.Options(wizards=2)
    log = [Entry(1, "a", "join", {"name": "A"}), Entry(2, "b", "join", {"name": "B"}), Entry(3, HOST, "start", {})]
    log += [Entry(4 + n, "a", "trick", {"team": 0}) for n in range(13)]
    log += [Entry(17, "b", "end_duel", {}), Entry(18, "a", "trick", {"team": 1})]
    assert replay(TRACKER, SP, options, log).state["tricks"] == [0, 1]
    assert undo_target(TRACKER, SP, options, log, "a").seq == 18
    assert replay(TRACKER, SP, options, [*log, Entry(19, "a", "undo", {"seq": 18})]).state["tricks"] == [0, 0]
    with pytest.raises(Refused, match="later moves depend on it"):
        undo_target(TRACKER, SP, options, log[:-1] + [Entry(18, "b", "trick", {"team": 1})], "a")
    assert undo_target(TRACKER, SP, options, log[:-1], "b").seq == 17  # ending the duel, before a new trick
    with pytest.raises(Refused, match="later moves depend on it"):  # after it: a 14th trick of duel 1
        undo_target(TRACKER, SP, options, log, "b")
