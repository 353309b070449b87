"""The Magic Spell tracker: spirit paid and gained by the content's numbers, turns, spellbooks and
stones, the end of the semester, and undo through the log."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from pnp.content.game import load_game
from pnp.content.problems import ContentError
from pnp.gamedef import game
from pnp.games.magic_spell.checks import printed_credits, spells
from pnp.games.magic_spell.tracker import TRACKER
from pnp.paths import CONTENT
from pnp.rules.chance import SecureChance
from pnp.rules.flow import SEAT, TURN, Caller
from pnp.rules.table import HOST, Entry, NotYours, Refused, replay, undo_target
from tests.conftest import overlay as conftest_overlay
from tests.test_magic_spell_set import MY_WORDS, my_set, spells_file
from tests.test_rule_numbers import overlay

CONTENT_MS = load_game(game("magic-spell"), [CONTENT])
CREDITS = dict(zip((c.word for c in spells(CONTENT_MS)), printed_credits(CONTENT_MS), strict=True))


def act(state, actor, kind, content=CONTENT_MS, **payload):
    return TRACKER.apply(content, state, actor, TRACKER.actions[kind](**payload))


def table(*names, content=CONTENT_MS, start=True, **options):
    state = TRACKER.setup(content, TRACKER.Options(**options))
    for name in names:
        state = TRACKER.join(state, name, name.title())
    return act(state, HOST, "start", content) if start else state


def spirit(state, who):
    return state["students"][who]["spirit"]


def offered(state, seat, kind):
    """The offers of `kind` a student's phone is shown now (pnp.rules.flow: offers)."""
    found = TRACKER.offers(CONTENT_MS, state, Caller(seat), SecureChance(random.Random(1)))
    return [o for o in found if o["type"] == kind]


def values(offers, field):
    """The values a one_of pick of `field` takes in `offers`."""
    return [
        o["value"]
        for found in offers
        for pick in found.get("pick", [])
        if pick["field"] == field
        for o in pick["one_of"]
    ]


def words(credits: int) -> list[str]:
    return [word for word, n in CREDITS.items() if n == credits]


def test_the_registry_names_this_tracker():
    assert game("magic-spell").load("tracker") is TRACKER


def test_everyone_starts_with_the_contents_spirit_in_join_order():
    state = table("ann", "bo", "cy")
    assert [spirit(state, who) for who in ("ann", "bo", "cy")] == [5, 5, 5]
    assert state["players"] == ["ann", "bo", "cy"] and state["turn"] == 0 and state["courseload"] == 9
    state = act(table("ann", "bo", "cy", start=False), HOST, "start", first="bo")
    assert state["players"] == ["bo", "cy", "ann"]
    with pytest.raises(Refused, match="The student to go first has not joined"):
        act(table("ann", "bo", start=False), HOST, "start", first="cy")


def test_the_deck_in_the_state_is_the_contents_with_each_cards_credits_mode_and_cost():
    state = table("ann", "bo", start=False)
    cards = spells(CONTENT_MS)
    assert [entry["spell"] for entry in state["deck"]] == [card.word for card in cards]
    assert {entry["spell"]: entry["credits"] for entry in state["deck"]} == CREDITS
    assert [(entry["mode"], entry["cost"]) for entry in state["deck"]] == [(card.mode, card.cost) for card in cards]
    assert TRACKER.view(state, "bo")["deck"] == state["deck"]  # what a phone picks from


def test_a_spell_changed_in_an_overlay_is_changed_in_the_deck_and_in_play(tmp_path):
    old, new = "outstanding skill.\n    mode: cast\n    cost: 3", "outstanding skill.\n    mode: cast\n    cost: 4"
    theirs = load_game(game("magic-spell"), [CONTENT, overlay(tmp_path, "magic-spell", "spells.yaml", old, new)])
    ours = table("ann", "bo")
    state = table("ann", "bo", content=theirs)
    [(before, after)] = [(a, b) for a, b in zip(ours["deck"], state["deck"], strict=True) if a != b]
    assert before["spell"] == "virtuoso" and after == {**before, "cost": 4}
    state = act(act(state, "ann", "weave", theirs), "ann", "complete_spell", theirs, spell="VIRTUOSO")
    state = act(act(state, "ann", "end_turn", theirs), "bo", "end_turn", theirs)
    assert spirit(act(state, "ann", "cast", theirs, spell="virtuoso"), "ann") == 5 - 4


def test_rest_gains_and_research_pays():
    state = act(table("ann", "bo"), "ann", "rest")
    assert spirit(state, "ann") == 7 and state["acted"] == "rest"
    state = act(act(state, "ann", "end_turn"), "bo", "research")
    assert spirit(state, "bo") == 0


def test_research_is_refused_when_it_cannot_be_paid():
    state = act(table("ann", "bo"), "ann", "spirit", delta=-2)
    with pytest.raises(Refused, match=r"^Research costs 5 spirit; you have 3\.$"):
        act(state, "ann", "research")
    with pytest.raises(Refused, match="already taken this turn's action"):
        act(act(table("ann", "bo"), "ann", "rest"), "ann", "research")


def test_weaving_again_and_moving_cost_spirit_only_while_weaving():
    state = act(table("ann", "bo"), "ann", "weave")
    state = act(act(state, "ann", "weave_again"), "ann", "move_ingredient")
    assert spirit(state, "ann") == 2  # a move after weaving is a weave again too (below)
    scrounged = act(act(table("ann", "bo"), "ann", "scrounge", woven=True), "ann", "weave_again")
    assert spirit(scrounged, "ann") == 4
    for kind in ("weave_again", "move_ingredient", "complete_spell"):
        payload = {"spell": "verve"} if kind == "complete_spell" else {}
        with pytest.raises(Refused, match="part of weaving: weave first"):
            act(act(table("ann", "bo"), "ann", "rest"), "ann", kind, **payload)
    broke = act(act(table("ann", "bo"), "ann", "spirit", delta=-5), "ann", "weave")
    with pytest.raises(Refused, match="Weaving again costs 1 spirit; you have 0"):
        act(broke, "ann", "weave_again")
    with pytest.raises(Refused, match="Weaving again to move an ingredient costs 2 spirit; you have 0"):
        act(broke, "ann", "move_ingredient")
    with pytest.raises(Refused, match="Moving an ingredient costs 1 spirit; you have 0"):
        act(act(table("ann", "bo"), "ann", "spirit", delta=-5), "ann", "move_ingredient")


def test_only_the_student_whose_turn_it_is_acts_and_the_host_acts_for_anyone():
    state = table("ann", "bo")
    with pytest.raises(Refused, match="It is Ann's turn"):
        act(state, "bo", "rest")
    with pytest.raises(Refused, match="only make your own moves"):
        act(state, "bo", "rest", player="ann")
    # a log's host entries name the student they were made for (the server now lets the host play
    # only a seat without a phone): they still replay
    with pytest.raises(Refused, match="It is Ann's turn"):
        act(state, HOST, "rest", player="bo")
    assert spirit(act(state, HOST, "rest"), "ann") == 7  # the host's default: the student on turn
    assert spirit(act(state, HOST, "rest", player="ann"), "ann") == 7
    assert spirit(act(state, HOST, "spirit", player="bo", delta=3), "bo") == 8  # a correction, for anyone
    with pytest.raises(NotYours, match="put your own numbers right"):
        act(state, "ann", "spirit", player="bo", delta=3)
    with pytest.raises(Refused, match="No such player at this table"):
        act(state, HOST, "spirit", player="zed", delta=1)


def test_whose_turn_it_is_is_declared_not_checked_by_hand():
    """The rules give each student their own turn; the tracker declares its turn moves as the
    player on turn's (the host may make them for that player), and only the declaration refuses
    the rest: without it, the same moves by the wrong student go through."""
    state = table("ann", "bo")
    turn_moves = {name for name, move in TRACKER.moves.items() if move.who == TURN}
    assert {"rest", "research", "weave", "cast", "end_turn"} <= turn_moves and "give_spell" not in turn_moves
    with pytest.raises(Refused, match="It is Ann's turn") as refused:
        act(state, "bo", "rest")
    assert not isinstance(refused.value, NotYours)  # another's turn passes: a 409, not a 403
    moves = {name: replace(move, who=SEAT) if move.who == TURN else move for name, move in TRACKER.moves.items()}
    rested = replace(TRACKER, moves=moves).apply(CONTENT_MS, state, "bo", TRACKER.actions["rest"]())
    rest = spirit(act(state, "ann", "rest"), "ann") - spirit(state, "ann")  # what resting gives, by the rules
    assert rest > 0 and spirit(rested, "bo") == spirit(state, "bo") + rest


def test_the_end_of_a_turn_recovers_below_the_threshold_and_passes_the_turn():
    state = act(act(table("ann", "bo"), "ann", "weave"), "ann", "weave_again")  # 4 spirit
    state = act(state, "ann", "end_turn")
    assert spirit(state, "ann") == 5 and state["turn"] == 1 and state["acted"] is None
    state = act(act(state, "bo", "end_turn"), "ann", "end_turn")
    assert spirit(state, "bo") == 5 and spirit(state, "ann") == 5  # at 5: nothing to recover
    assert state["turn"] == 1


def test_casting_pays_the_cards_cost_from_a_spell_in_your_spellbook():
    card = next(c for c in spells(CONTENT_MS) if c.mode == "cast" and c.cost)
    always = next(c for c in spells(CONTENT_MS) if c.mode == "always")
    state = act(table("ann", "bo"), "ann", "weave")
    state = act(act(state, "ann", "complete_spell", spell=card.word), "ann", "complete_spell", spell=always.word)
    state = act(act(state, "ann", "end_turn"), "bo", "end_turn")
    with pytest.raises(Refused, match="works by itself; it is never cast"):
        act(state, "ann", "cast", spell=always.word)
    cast = act(state, "ann", "cast", spell=card.word.upper())
    assert spirit(cast, "ann") == 5 - card.cost and cast["acted"] == "cast"
    with pytest.raises(Refused, match="is not in your spellbook"):
        act(act(state, "ann", "end_turn"), "bo", "cast", spell=card.word)
    poor = act(state, "ann", "spirit", delta=-5)
    with pytest.raises(Refused, match=f"Casting {card.word.upper()} costs {card.cost} spirit; you have 0"):
        act(poor, "ann", "cast", spell=card.word)


def test_a_completed_spell_carries_its_cards_credits_and_is_held_once():
    word = words(3)[0]
    state = act(act(table("ann", "bo"), "ann", "weave"), "ann", "complete_spell", spell=word)
    assert state["students"]["ann"]["spellbook"] == [{"spell": word, "credits": 3}]
    assert TRACKER.view(state, "bo")["credits"] == {"ann": 3, "bo": 0}
    with pytest.raises(Refused, match=f"{word.upper()} is already in Ann's spellbook"):
        act(state, "ann", "complete_spell", spell=word)
    with pytest.raises(Refused, match="no spell XYZZY in the deck"):
        act(state, "ann", "complete_spell", spell="xyzzy")


def test_a_users_own_deck_is_the_one_played_with_the_credits_its_rule_gives(tmp_path):
    files = {"spells.yaml": spells_file(MY_WORDS), "set.yaml": my_set()}
    folder = conftest_overlay(tmp_path / "ov", "magic-spell", files)
    theirs = load_game(game("magic-spell"), [CONTENT, folder])
    credits = dict(zip(MY_WORDS, printed_credits(theirs), strict=True))
    state = act(table("ann", "bo", content=theirs), "ann", "weave", theirs)
    state = act(state, "ann", "complete_spell", theirs, spell=MY_WORDS[0])
    assert {entry["spell"]: entry["credits"] for entry in state["deck"]} == credits
    assert state["students"]["ann"]["spellbook"] == [{"spell": MY_WORDS[0], "credits": credits[MY_WORDS[0]]}]
    with pytest.raises(Refused, match="no spell QUOTIDIAN in the deck"):
        act(state, "ann", "complete_spell", theirs, spell="quotidian")


def test_trades_happen_between_turns():
    state = act(table("ann", "bo", "cy"), "bo", "trade_remove")
    assert spirit(state, "bo") == 4
    with pytest.raises(Refused, match="Trades happen between turns, not during your own"):
        act(state, "ann", "trade_remove")
    word = words(2)[0]
    state = act(act(act(state, "ann", "weave"), "ann", "complete_spell", spell=word), "ann", "end_turn")
    given = act(state, "ann", "give_spell", spell=word, to="cy")
    assert given["students"]["cy"]["spellbook"] == [{"spell": word, "credits": 2}]
    assert given["students"]["ann"]["spellbook"] == []
    with pytest.raises(Refused, match="that student is taking theirs"):
        act(state, "ann", "give_spell", spell=word, to="bo")
    with pytest.raises(Refused, match="not in your spellbook"):
        act(state, "cy", "give_spell", spell=word, to="ann")
    broke = act(state, "cy", "spirit", delta=-5)
    with pytest.raises(Refused, match="Taking an ingredient off a spell to trade it costs 1 spirit; you have 0"):
        act(broke, "cy", "trade_remove")


def test_spirit_and_stones_cannot_go_below_zero_and_stones_are_the_sets():
    state = table("ann", "bo")
    with pytest.raises(Refused, match="Ann has 5 spirit; they cannot lose more"):
        act(state, "ann", "spirit", delta=-6)
    with pytest.raises(Refused, match="Bo holds 0 philosopher's stones"):
        act(state, "bo", "stone", delta=-1)
    state = act(act(state, "ann", "stone", delta=2), "bo", "stone", delta=1)
    with pytest.raises(Refused, match="only 3 philosopher's stones"):
        act(state, "bo", "stone", delta=1)


def test_nothing_before_the_start_and_no_joining_after_it():
    # the flow's words, the same for every game
    waiting = table("ann", start=False)
    with pytest.raises(Refused, match=r"^The game has not begun yet\.$"):
        act(waiting, "ann", "rest")
    with pytest.raises(Refused, match=r"^Magic Spell needs at least 2 students; 1 has joined\.$"):
        act(waiting, HOST, "start")
    with pytest.raises(NotYours, match=r"^Only the host does that\.$"):
        act(TRACKER.join(waiting, "bo", "Bo"), "ann", "start")
    with pytest.raises(Refused, match=r"^The game has begun: no one joins now\.$"):
        TRACKER.join(table("ann", "bo"), "cy", "Cy")
    with pytest.raises(Refused, match=r"^The game has already begun\.$"):
        act(table("ann", "bo"), HOST, "start")


def complete(state, who, *spell_words):
    state = act(state, who, "weave")
    for word in spell_words:
        state = act(state, who, "complete_spell", spell=word)
    return act(state, who, "end_turn")


def test_a_full_courseload_gives_everyone_else_one_last_turn_then_the_most_credits_win():
    three = words(3)
    state = act(table("ann", "bo", "cy"), "ann", "end_turn")
    state = complete(state, "bo", *three[:3])  # 9 credits: Bo calls for grading
    assert state["grading"] == {"called_by": "bo", "last_turns": ["cy", "ann"]}
    state = complete(state, "cy", *three[3:6])  # Cy reaches 9 too on a last turn
    assert state["phase"] == "playing" and state["grading"]["last_turns"] == ["ann"]
    state = act(act(state, "ann", "stone", delta=1), "ann", "end_turn")
    assert state["phase"] == "over" and state["winners"] == ["bo", "cy"]  # a tie is shared
    with pytest.raises(Refused, match=r"^The game is over\.$"):
        act(state, "bo", "rest")


def test_philosophers_stones_count_at_the_end_but_do_not_call_for_grading():
    three = words(3)
    state = act(table("ann", "bo"), "ann", "stone", delta=3)
    state = complete(state, "ann", *three[:2])  # 6 + 3 stones: not a courseload of spells
    assert state["grading"] is None
    state = complete(state, "bo", *three[2:5])
    state = act(state, "ann", "end_turn")
    assert state["phase"] == "over"
    assert TRACKER.view(state, HOST)["credits"] == {"ann": 9, "bo": 9}
    assert state["winners"] == ["ann", "bo"]


def test_heavy_courseload_moves_the_end():
    three = words(3)
    state = complete(table("ann", "bo", courseload="heavy"), "ann", *three[:3])
    assert state["courseload"] == 12 and state["grading"] is None
    state = complete(act(state, "bo", "end_turn"), "ann", three[3])
    assert state["grading"]["called_by"] == "ann"
    assert table("ann", "bo", courseload="heaviest")["courseload"] == 15


def test_the_tracker_follows_a_rule_number_changed_in_an_overlay(tmp_path):
    folder = overlay(tmp_path, "magic-spell", "set.yaml", "research: 5", "research: 4")
    theirs = load_game(game("magic-spell"), [CONTENT, folder])
    state = act(table("ann", "bo", content=theirs), "ann", "research", theirs)
    assert spirit(state, "ann") == 1
    folder = overlay(tmp_path / "2", "magic-spell", "set.yaml", "trade_remove: 1", "trade_remove: 2")
    theirs = load_game(game("magic-spell"), [CONTENT, folder])
    assert spirit(act(table("ann", "bo", "cy", content=theirs), "bo", "trade_remove", theirs), "bo") == 3


def entries(*moves):
    """A log: each move is (actor, type, payload); joins first."""
    log = [Entry(1, "ann", "join", {"name": "Ann"}), Entry(2, "bo", "join", {"name": "Bo"})]
    return log + [Entry(seq, actor, kind, payload) for seq, (actor, kind, payload) in enumerate(moves, start=3)]


def test_undo_takes_back_a_move_and_refuses_when_later_moves_depend_on_it():
    options = TRACKER.Options()
    log = entries((HOST, "start", {}), ("ann", "rest", {}), ("ann", "end_turn", {}), ("bo", "research", {}))
    assert spirit(replay(TRACKER, CONTENT_MS, options, log).state, "bo") == 0
    assert undo_target(TRACKER, CONTENT_MS, options, log, "bo").seq == 6
    assert undo_target(TRACKER, CONTENT_MS, options, log, HOST).seq == 6  # the host: anyone's latest
    undone = replay(TRACKER, CONTENT_MS, options, [*log, Entry(7, "bo", "undo", {"seq": 6})])
    assert spirit(undone.state, "bo") == 5 and [e.seq for e in undone.standing] == [3, 4, 5]
    # Ann's latest is ending her turn, and Bo has researched on his since: it cannot be taken back.
    with pytest.raises(Refused, match="later moves depend on it"):
        undo_target(TRACKER, CONTENT_MS, options, log, "ann")


def test_a_stored_log_of_the_hosts_moves_for_the_student_on_turn_still_replays():
    # before the flow, the host without a seat moved for the student whose turn it was, naming them
    log = entries(
        (HOST, "start", {"player": "", "first": "bo"}),
        (HOST, "rest", {"player": "bo"}),
        (HOST, "end_turn", {"player": "bo"}),
        (HOST, "weave", {"player": ""}),  # the student on turn, unnamed
        (HOST, "complete_spell", {"player": "ann", "spell": "verve", "by_card": "", "stone": False}),
        (HOST, "spirit", {"player": "bo", "delta": -2}),
        ("ann", "end_turn", {"player": ""}),
        (HOST, "trade_remove", {"player": "ann"}),
    )
    state = replay(TRACKER, CONTENT_MS, TRACKER.Options(), log).state
    assert state["players"] == ["bo", "ann"] and state["players"][state["turn"]] == "bo"
    assert [spirit(state, who) for who in ("ann", "bo")] == [4, 5]
    assert state["students"]["ann"]["spellbook"] == [{"spell": "verve", "credits": CREDITS["verve"]}]


def test_undoing_a_rest_is_refused_when_its_spirit_paid_for_a_later_move():
    options = TRACKER.Options()
    moves = [(HOST, "start", {}), ("ann", "rest", {}), ("ann", "end_turn", {}), ("bo", "end_turn", {})]
    moves += [("ann", "weave", {}), *[("ann", "weave_again", {})] * 7]  # 7 spirit, all spent
    log = entries(*moves, ("ann", "end_turn", {}))
    assert spirit(replay(TRACKER, CONTENT_MS, options, log).state, "ann") == 1
    assert undo_target(TRACKER, CONTENT_MS, options, log[:-1], "ann").type == "weave_again"
    # without the rest (seq 4), the seventh weave could not have been paid for
    with pytest.raises(Refused, match="Weaving again costs 1 spirit; you have 0"):
        replay(TRACKER, CONTENT_MS, options, [*log, Entry(99, HOST, "undo", {"seq": 4})])


# --- spells completed by a card's effect, outside the Weave and Scrounge actions --------------

# each card of ours whose effect weaves outside the Weave and Scrounge actions, as its content says
WEAVES_WHEN = {card.word: card.weaves_when for card in spells(CONTENT_MS) if card.weaves_when}
BY_CARD = {card.word: card.effect for card in spells(CONTENT_MS) if card.weaves_when}


def filler(total: int, *taken: str) -> list[str]:
    """Spells of no card effect here, worth `total` credits together."""
    picked = []
    for word, n in sorted(CREDITS.items(), key=lambda item: -item[1]):
        if word not in taken and word not in WEAVES_WHEN and n <= total - sum(CREDITS[w] for w in picked):
            picked.append(word)
    assert sum(CREDITS[w] for w in picked) == total
    return picked


@pytest.mark.parametrize("card", sorted(WEAVES_WHEN))
def test_a_spell_completed_by_a_cards_effect_is_recorded_and_calls_for_grading(card):
    # Each card's effect weaves, scrounges or completes outside the Weave and Scrounge actions:
    assert re.search(r"\b(weave|scrounge|complete)", BY_CARD[card], re.IGNORECASE)
    # "If you have 9 or more credits worth of spells in your spellbook at the end of your turn, tell
    # the other players that you're about to submit your spellbook for grading."
    last = words(1)[-1]
    state = complete(table("ann", "bo"), "ann", card, *filler(8 - CREDITS[card], last))
    state = act(state, "bo", "end_turn")
    action = ("cast", {"spell": card}) if WEAVES_WHEN[card] == "cast" else ("rest", {})
    state = act(state, "ann", action[0], **action[1])
    with pytest.raises(Refused, match="part of weaving: weave first this turn, or name the card"):
        act(state, "ann", "complete_spell", spell=last)
    state = act(state, "ann", "complete_spell", spell=last, by_card=card.upper())
    assert last in [e["spell"] for e in state["students"]["ann"]["spellbook"]]
    state = act(state, "ann", "end_turn")
    assert state["grading"] == {"called_by": "ann", "last_turns": ["bo"]}


def test_a_card_completes_a_spell_only_under_the_action_its_effect_names():
    state = complete(table("ann", "bo"), "ann", "alacrity", "consummate")
    state = act(state, "bo", "end_turn")
    spell = filler(1, "alacrity", "consummate")[0]
    rested = act(state, "ann", "rest")  # ALACRITY: "When you rest, you may also weave ..."
    with pytest.raises(Refused, match="CONSUMMATE works when you cast it"):
        act(rested, "ann", "complete_spell", spell=spell, by_card="consummate")
    with pytest.raises(Refused, match="VERVE does not let you weave, scrounge or complete"):
        act(rested, "ann", "complete_spell", spell=spell, by_card="verve")
    with pytest.raises(Refused, match="SOMNAMBULIST is not in your spellbook"):
        act(rested, "ann", "complete_spell", spell=spell, by_card="somnambulist")
    cast = act(state, "ann", "cast", spell="consummate")
    with pytest.raises(Refused, match="ALACRITY works when you rest"):
        act(cast, "ann", "complete_spell", spell=spell, by_card="alacrity")
    assert act(cast, "ann", "complete_spell", spell=spell, by_card="consummate")["cast"] == "consummate"
    assert act(act(cast, "ann", "end_turn"), "bo", "rest")["cast"] is None
    # what a phone offers: Complete, naming the card
    assert offered(state, "ann", "complete_spell") == []
    assert [values(offered(s, "ann", "complete_spell"), "by_card") for s in (rested, cast)] == [
        ["alacrity"],
        ["consummate"],
    ]


def test_the_seven_cards_whose_effects_weave_outside_the_actions_say_so_in_content():
    assert WEAVES_WHEN == {
        **dict.fromkeys(("consummate", "virtuoso", "rummage", "juxtapose", "jettison"), "cast"),
        **dict.fromkeys(("alacrity", "somnambulist"), "rest"),
    }


def test_a_users_own_card_declares_its_weaving_and_the_tracker_follows(tmp_path):
    """A group's own card whose effect weaves when its holder rests says so in its content
    (weaves_when), and a spell it completes is recorded as for ours; without it, refused."""
    old = 'effect: "Your first **extra weave** each turn costs no spirit."'
    new = 'effect: "When you **rest**, you may also weave one ingredient."\n    weaves_when: rest'
    theirs = load_game(game("magic-spell"), [CONTENT, overlay(tmp_path, "magic-spell", "spells.yaml", old, new)])
    spell = filler(1, "adroit")[0]
    for content in (CONTENT_MS, theirs):
        state = act(table("ann", "bo", content=content), "ann", "weave", content)
        state = act(act(state, "ann", "complete_spell", content, spell="adroit"), "ann", "end_turn", content)
        state = act(act(state, "bo", "end_turn", content), "ann", "rest", content)
        if content is CONTENT_MS:
            with pytest.raises(Refused, match="ADROIT does not let you weave, scrounge or complete"):
                act(state, "ann", "complete_spell", content, spell=spell, by_card="adroit")
        else:
            state = act(state, "ann", "complete_spell", content, spell=spell, by_card="adroit")
            assert spell in [e["spell"] for e in state["students"]["ann"]["spellbook"]]


def test_an_always_on_card_cannot_weave_as_it_is_cast(tmp_path):
    old = 'effect: "When you **rest**, you may also **scrounge**."\n    weaves_when: rest'
    mine = overlay(tmp_path, "magic-spell", "spells.yaml", old, old.replace("weaves_when: rest", "weaves_when: cast"))
    with pytest.raises(ContentError) as refused:
        load_game(game("magic-spell"), [CONTENT, mine])
    [problem] = map(str, refused.value.problems)
    assert "spells.yaml:" in problem and "weaves_when: rest for an always-on spell" in problem


def effect(word: str) -> str:
    return next(card.effect for card in spells(CONTENT_MS) if card.word == word).replace("*", "")


def test_procrastinate_gives_its_holder_two_last_turns_in_a_row():
    # PROCRASTINATE: "When another student calls for grading, you take two last turns in a row instead
    # of one." Rules: "Each other player gets one last turn, in order, and the game ends."
    assert "two last turns in a row" in effect("procrastinate")
    ann = filler(9, "procrastinate")
    first = filler(3, "procrastinate", *ann)
    second = filler(4, "procrastinate", *ann, *first)
    state = act(table("ann", "bo", "cy"), "ann", "end_turn")
    state = act(complete(state, "bo", "procrastinate"), "cy", "end_turn")
    state = complete(state, "ann", *ann)  # 9 credits: Ann calls for grading
    assert state["grading"]["last_turns"] == ["bo", "bo", "cy"]
    state = complete(state, "bo", *first)
    assert state["players"][state["turn"]] == "bo" and state["phase"] == "playing"  # in a row
    state = complete(state, "bo", *second)  # 3 + 3 + 4: 10, past Ann's 9
    assert state["players"][state["turn"]] == "cy"
    state = act(state, "cy", "end_turn")
    assert state["phase"] == "over" and state["winners"] == ["bo"]  # one last turn: Ann, with 9 to Bo's 6


def test_zenith_counts_one_extra_credit_at_grading_while_its_holder_has_10_spirit():
    # ZENITH: "While you have 10 or more spirit, this spell counts as 1 extra credit." Rules: "If
    # you have the most credits in spells in your spellbook at the end of the game, you win."
    assert "10 or more spirit" in effect("zenith") and "1 extra credit" in effect("zenith")
    ann = filler(9, "zenith")
    bo = filler(9 - CREDITS["zenith"], "zenith", *ann)

    state = act(table("ann", "bo"), "ann", "end_turn")
    state = complete(state, "bo", "zenith", *bo)  # 9 with ZENITH: Bo calls for grading
    for spirit_at_end, winners in ((10, ["bo"]), (9, ["ann", "bo"])):
        ended = act(state, "bo", "spirit", delta=spirit_at_end - spirit(state, "bo"))
        ended = complete(ended, "ann", *ann)  # Ann's last turn: 9 too
        assert ended["phase"] == "over" and ended["winners"] == winners
        assert TRACKER.results(ended)[1]["credits"] == 9 + (spirit_at_end >= 10)


def test_two_students_trade_between_turns_by_our_ruling():
    # Rules: "Low Enrollment – You can play with two players. You may swap with each other in between
    # turns." and "When it is not your turn, you may make consensual trades with any other player who
    # is not taking a turn." With two, one is always taking a turn: the window is a turn's end.
    ruling = CONTENT_MS["rulings"].rulings["low-enrollment-trades"].replace("**", "")
    word = words(2)[0]
    state = act(act(table("ann", "bo"), "ann", "weave"), "ann", "complete_spell", spell=word)
    with pytest.raises(Refused, match=re.escape(ruling)):  # during Ann's turn: refused, host too
        act(state, HOST, "give_spell", player="ann", spell=word, to="bo")
    started = act(act(state, "ann", "end_turn"), "bo", "rest")  # Bo's first move ends the window
    with pytest.raises(Refused, match="that student is taking theirs"):
        act(started, "ann", "give_spell", spell=word, to="bo")
    between = act(state, "ann", "end_turn")  # Bo's turn, before his first move
    assert values(offered(between, "ann", "give_spell"), "to") == ["bo"]  # what Ann's phone offers
    assert offered(between, "bo", "trade_remove") and not offered(started, "bo", "trade_remove")
    given = act(between, "ann", "give_spell", spell=word, to="bo")
    assert [e["spell"] for e in given["students"]["bo"]["spellbook"]] == [word]
    back = act(given, "bo", "give_spell", spell=word, to="ann")  # Bo, whose turn it is, trades too
    assert [e["spell"] for e in back["students"]["ann"]["spellbook"]] == [word]
    assert spirit(act(between, "bo", "trade_remove"), "bo") == 4
    # three students: the one taking a turn still does not trade
    three = act(
        act(act(table("ann", "bo", "cy"), "ann", "weave"), "ann", "complete_spell", spell=word), "ann", "end_turn"
    )
    with pytest.raises(Refused, match="that student is taking theirs"):
        act(three, "ann", "give_spell", spell=word, to="bo")


def test_two_students_are_told_they_play_by_low_enrollment_from_the_start():
    # Rules: "Low Enrollment – You can play with two players." The phones say the variant and our
    # ruling's words from the moment two have joined; three play the basic game.
    ruling = CONTENT_MS["rulings"].rulings["low-enrollment-trades"].replace("**", "")
    assert TRACKER.view(table("ann", "bo", start=False), "ann")["low_enrollment"] == ruling
    assert TRACKER.view(table("ann", "bo"), None)["low_enrollment"] == ruling
    assert TRACKER.view(table("ann", start=False), "ann")["low_enrollment"] is None
    assert TRACKER.view(table("ann", "bo", "cy"), "ann")["low_enrollment"] is None


def test_parley_lets_its_caster_trade_in_the_middle_of_their_turn():
    # PARLEY: "Make a trade with any other student now, in the middle of your turn."
    assert "in the middle of your turn" in effect("parley")
    word = filler(2, "parley")[0]
    held = act(act(complete(table("ann", "bo", "cy"), "ann", "parley", word), "bo", "end_turn"), "cy", "end_turn")
    rested = act(held, "ann", "rest")  # without casting it: no trade during her turn
    with pytest.raises(Refused, match="not during your own"):
        act(rested, "ann", "give_spell", spell=word, to="bo")
    assert offered(rested, "ann", "give_spell") == [] and "ann" not in values(offered(rested, "bo", "give_spell"), "to")
    cast = act(held, "ann", "cast", spell="parley")
    assert values(offered(cast, "ann", "give_spell"), "to") == ["bo", "cy"]
    assert offered(cast, "ann", "trade_remove")
    given = act(act(cast, "ann", "trade_remove"), "ann", "give_spell", spell=word, to="bo")
    assert [e["spell"] for e in given["students"]["bo"]["spellbook"]] == [word]


@pytest.mark.parametrize("moves", [1, 2, 3])
def test_moving_woven_ingredients_is_weaving_so_n_moves_cost_2n_minus_1(moves):
    # "Take an ingredient from your cabinet or one of your partially woven spells and put it face
    # down on one of your homework spells. You must spend one spirit to take an ingredient from one
    # spell and move it to another." and "Once you've finished weaving, you may immediately spend a
    # point of spirit to take another weave action." Each move is a weave: the first is the turn's
    # action plus 1 for the move, each further one 1 + 1. One per move would be N.
    state = act(table("ann", "bo"), "ann", "spirit", delta=5)
    for _ in range(moves):
        state = act(state, "ann", "move_ingredient")
    assert spirit(state, "ann") == 10 - (2 * moves - 1)
    assert state["acted"] == "weave"
    with pytest.raises(Refused, match="already taken this turn's action"):
        act(state, "ann", "rest")  # the first move was the turn's Weave


def test_weaving_again_follows_only_an_actual_weave_not_a_scrounge_kept_or_put_back():
    # "Once you've finished weaving, you may immediately spend a point of spirit to take another
    # weave action." Scrounge: "If it matches a magic word letter in one of your homework spells, you
    # may add it directly to that spell as if you had woven it from your cabinet."
    kept = act(table("ann", "bo"), "ann", "scrounge")  # kept in the cabinet or put back
    for kind, payload in (("weave_again", {}), ("move_ingredient", {}), ("complete_spell", {"spell": "verve"})):
        with pytest.raises(Refused, match="part of weaving: weave first"):
            act(kept, "ann", kind, **payload)
    woven = act(table("ann", "bo"), "ann", "scrounge", woven=True)
    assert spirit(act(act(woven, "ann", "weave_again"), "ann", "move_ingredient"), "ann") == 5 - 1 - 2
    assert act(woven, "ann", "complete_spell", spell="verve")["students"]["ann"]["spellbook"]
    assert not act(act(woven, "ann", "end_turn"), "bo", "scrounge")["woven"]  # each turn afresh


def test_a_stone_woven_into_a_completed_spell_leaves_the_game_and_frees_no_place():
    # Philosopher's Stone: "When a philosopher's stone would be returned to the laboratory, remove it
    # from the game instead." Completing a spell puts "all of the ingredients on the spell face-up
    # in the laboratory".
    assert len(CONTENT_MS["magic-spell-set"].philosophers_stones) == 3
    state = table("ann", "bo", "cy")
    for who in ("ann", "bo", "cy"):
        state = act(state, who, "stone", delta=1)
    state = act(act(state, "ann", "weave"), "ann", "stone", delta=-1, in_play=True)  # onto a homework spell
    state = act(state, "ann", "complete_spell", spell="verve", stone=True)
    assert state["stones_gone"] == 1 and state["students"]["ann"]["stones"] == 0
    with pytest.raises(Refused, match="only 3 philosopher's stones"):
        act(state, "ann", "stone", delta=1)  # two held, one gone: no fourth
    with pytest.raises(Refused, match="only 3 philosopher's stones"):  # Bo and Cy hold the other two
        act(state, "ann", "complete_spell", spell="zenith", stone=True)


def test_a_table_seats_the_games_player_range():
    # Low Enrollment: "You can play with two players."; the set: "3-4 students (2 with Low Enrollment)"
    assert game("magic-spell").players == (2, 4)
    state = table("ann", "bo", "cy", "di", start=False)
    with pytest.raises(Refused, match="Magic Spell is for at most 4 students, and they are all here"):
        TRACKER.join(state, "ed", "Ed")
    assert TRACKER.join(state, "di", "Dee")["names"]["di"] == "Dee"  # renaming still works
    with pytest.raises(Refused, match="Magic Spell needs at least 2 students; 1 has joined"):
        act(table("ann", start=False), HOST, "start")


def test_a_student_not_on_turn_does_not_pay_for_a_trade_no_one_can_make():
    # Rules: "When it is not your turn, you may make consensual trades with any other player who is
    # not taking a turn." and "You may spend 1 spirit to remove an ingredient from a partially woven
    # spell to swap that ingredient." Two students, Bo on turn and past its first move: Ann is not
    # taking a turn, yet no one can swap with her, so paying to remove has no trade to serve.
    ruling = CONTENT_MS["rulings"].rulings["low-enrollment-trades"].replace("**", "")
    mid_turn = act(act(table("ann", "bo"), "ann", "end_turn"), "bo", "rest")
    assert not offered(mid_turn, "ann", "trade_remove")
    with pytest.raises(Refused, match="No one can trade with you now") as refused:
        act(mid_turn, "ann", "trade_remove")
    assert ruling in str(refused.value)
    assert spirit(act(act(mid_turn, "bo", "end_turn"), "ann", "trade_remove"), "ann") == 4  # between turns: 5 - 1
    # three students: Cy, not on turn, trades with Bo, who is not on turn either
    three = table("ann", "bo", "cy")
    assert offered(three, "cy", "trade_remove") and spirit(act(three, "cy", "trade_remove"), "cy") == 4


def test_a_stone_returned_to_the_laboratory_leaves_the_game():
    # Rules: "When a philosopher's stone would be returned to the laboratory, remove it from the game
    # instead." Ann gives up one of three stones to the laboratory: two remain to be held, not three.
    state = act(table("ann", "bo"), "ann", "stone", delta=3)
    returned = act(state, "ann", "stone", delta=-1)
    assert returned["stones_gone"] == 1
    with pytest.raises(Refused, match="only 3 philosopher's stones"):
        act(returned, "bo", "stone", delta=1)
    # a stone woven onto a spell in progress, or handed over in a trade, is still in play
    traded = act(state, "ann", "stone", delta=-1, in_play=True)
    assert traded["stones_gone"] == 0 and act(traded, "bo", "stone", delta=1)["students"]["bo"]["stones"] == 1
    with pytest.raises(Refused, match="Only a stone given up"):
        act(traded, "ann", "stone", delta=1, in_play=True)
    # and woven into a completed spell it leaves the game as before
    weaving = act(act(traded, "ann", "end_turn"), "bo", "weave")
    woven = act(weaving, "bo", "complete_spell", spell=words(1)[0], stone=True)
    assert woven["stones_gone"] == 1
