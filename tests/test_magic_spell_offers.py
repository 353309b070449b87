"""The moves a Magic Spell table offers each caller (pnp.rules.flow: offers): Start only once the
table can begin, a turn's moves to the student whose turn it is, each spell a move may name, trades
with the rules' timing, corrections of a student's own numbers (the host: anyone's); and the
promise, held over seeded random games: every completion of an offer is a move the rules accept."""

from __future__ import annotations

import random

import pytest

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.magic_spell.checks import spells
from pnp.games.magic_spell.tracker import TRACKER
from pnp.paths import CONTENT
from pnp.rules.chance import SecureChance
from pnp.rules.flow import Caller
from pnp.rules.offers import completions, first, sample
from pnp.rules.table import HOST

CONTENT_MS = load_game(game("magic-spell"), [CONTENT])
CARDS = {card.word: card for card in spells(CONTENT_MS)}
CHANCE = SecureChance(random.Random(1))


def act(state, actor, kind, **payload):
    return TRACKER.apply(CONTENT_MS, state, actor, TRACKER.actions[kind](**payload))


def table(*names, start=True):
    state = TRACKER.setup(CONTENT_MS, TRACKER.Options())
    for name in names:
        state = TRACKER.join(state, name, name.title())
    return act(state, HOST, "start") if start else state


def offers(state, seat=None, host=False):
    return TRACKER.offers(CONTENT_MS, state, Caller(seat, host), CHANCE)


def types(found) -> set[str]:
    return {o["type"] for o in found}


def of(found, kind):
    return [o for o in found if o["type"] == kind]


def values(found, field):
    """The values a one_of pick of `field` takes in `found`."""
    return [
        o["value"] for made in found for pick in made.get("pick", []) if pick["field"] == field for o in pick["one_of"]
    ]


def test_start_is_offered_only_once_two_students_have_joined_with_who_goes_first_to_choose():
    # the issue's defect: "Start the semester" with one student
    assert offers(table(start=False), host=True) == offers(table("ann", start=False), host=True) == []
    [start] = offers(table("ann", "bo", "cy", start=False), host=True)
    assert start["type"] == "start" and start["for"] == HOST
    assert start["pick"] == [
        {"field": "first", "one_of": [{"value": p, "label": p.title()} for p in ("ann", "bo", "cy")]}
    ]
    assert offers(table("ann", "bo", start=False), "ann") == []  # a student does not start the semester
    for body in completions(start):
        assert act(table("ann", "bo", "cy", start=False), HOST, "start", **body)["players"][0] == body["first"]


def test_the_student_whose_turn_it_is_is_offered_the_turns_moves_and_the_others_trades():
    state = table("ann", "bo", "cy")
    ann = offers(state, "ann")
    assert types(ann) == {"rest", "research", "weave", "scrounge", "move_ingredient", "end_turn", "spirit", "stone"}
    assert values(of(ann, "scrounge"), "woven") == [False, True]
    assert types(offers(state, "bo")) == {"trade_remove", "spirit", "stone"}  # no spell to give yet
    woven = act(state, "ann", "weave")
    assert types(offers(woven, "ann")) == {
        "weave_again",
        "move_ingredient",
        "complete_spell",
        "end_turn",
        "spirit",
        "stone",
    }
    rested = act(state, "ann", "rest")
    assert types(offers(rested, "ann")) == {"end_turn", "spirit", "stone"}


def test_a_spell_is_cast_when_it_is_in_the_spellbook_cast_and_paid_for():
    dear = next(w for w, c in CARDS.items() if c.mode == "cast" and c.cost > 1)
    free = next(w for w, c in CARDS.items() if c.mode == "cast" and c.cost == 0)
    always = next(w for w, c in CARDS.items() if c.mode == "always")
    state = act(table("ann", "bo"), "ann", "weave")
    for word in (dear, free, always):
        state = act(state, "ann", "complete_spell", spell=word)
    state = act(act(state, "ann", "end_turn"), "bo", "end_turn")
    assert values(of(offers(state, "ann"), "cast"), "spell") == sorted([dear, free], key=list(CARDS).index)
    poor = act(state, "ann", "spirit", delta=CARDS[dear].cost - 1 - state["students"]["ann"]["spirit"])
    assert values(of(offers(poor, "ann"), "cast"), "spell") == [free]
    assert of(offers(act(state, "ann", "cast", spell=free), "ann"), "cast") == []  # the turn's action is taken


def test_completing_offers_the_spells_no_one_holds_and_a_stone_only_while_one_is_left():
    state = act(table("ann", "bo"), "ann", "weave")
    [made] = of(offers(state, "ann"), "complete_spell")
    assert values([made], "spell") == list(CARDS) and values([made], "stone") == [False, True]
    state = act(state, "ann", "complete_spell", spell="verve")
    assert "verve" not in values(of(offers(state, "ann"), "complete_spell"), "spell")
    stoned = act(act(state, "ann", "stone", delta=2), "bo", "stone", delta=1)  # all three held
    assert values(of(offers(stoned, "ann"), "complete_spell"), "stone") == []
    assert of(offers(stoned, "ann"), "stone")[0]["pick"] == [{"field": "delta", "range": [-2, 0]}]
    # given up onto a spell or into a trade (still in play): an offer of its own, only for stones held
    assert of(offers(stoned, "ann"), "stone")[1]["payload"] == {"player": "ann", "in_play": True}
    assert of(offers(stoned, "ann"), "stone")[1]["pick"] == [{"field": "delta", "range": [-2, -1]}]
    assert len(of(offers(state, "ann"), "stone")) == 1  # none held: only gaining


def test_a_spell_is_given_to_a_student_the_rules_let_trade_now():
    state = act(table("ann", "bo", "cy"), "ann", "weave")
    state = act(act(state, "ann", "complete_spell", spell="verve"), "ann", "complete_spell", spell="zenith")
    assert of(offers(state, "ann"), "give_spell") == []  # not during her own turn
    after = act(state, "ann", "end_turn")  # Bo's turn: Ann trades with Cy, who is not taking one
    [give] = of(offers(after, "ann"), "give_spell")
    assert values([give], "spell") == ["verve", "zenith"] and values([give], "to") == ["cy"]
    assert give["pick"][1]["one_of"] == [{"value": "cy", "label": "Cy"}]


def test_the_host_corrects_anyones_numbers_and_plays_only_a_seat_without_a_phone():
    state = table("ann", "bo")
    host = offers(state, host=True)
    assert types(host) == {"spirit", "stone"}
    assert [(o["for"], o["payload"]) for o in of(host, "spirit")] == [
        ("ann", {"player": "ann"}),
        ("bo", {"player": "bo"}),
    ]
    assert of(host, "spirit")[0]["pick"] == [{"field": "delta", "range": [-5, 99]}]
    # playing the seat of a student without a phone (the server's ?as=): that student's moves
    kept = offers(state, "ann", host=True)
    assert {"rest", "weave", "end_turn"} <= types(kept) and {o["for"] for o in of(kept, "spirit")} == {"ann", "bo"}
    assert not {"rest", "weave", "end_turn"} & types(offers(state, "bo", host=True))  # Ann's turn


@pytest.mark.parametrize("seed", range(4))
def test_every_completion_of_every_offer_is_accepted_in_random_games(seed):
    rng = random.Random(seed)
    names = ["ann", "bo", "cy", "di"][: rng.randint(2, 4)]
    state = table(*names, start=False)
    callers = [Caller(n) for n in names] + [Caller(None, True), Caller(names[0], True)]
    for _ in range(1500):
        if state["phase"] == "over":
            break
        caller = rng.choice(callers)
        found = offers(state, caller.seat, caller.host)
        for made in found:
            actor = caller.seat if made["for"] == caller.seat else HOST
            for body in [first(made), *(sample(made, rng) for _ in range(5))]:
                TRACKER.apply(CONTENT_MS, state, actor, TRACKER.actions[made["type"]].model_validate(body), trial=True)
        if found:
            made = rng.choice(found)
            actor = caller.seat if made["for"] == caller.seat else HOST
            state = act(state, actor, made["type"], **sample(made, rng))
    assert state["phase"] == "over"


def test_a_caller_is_offered_moves_in_a_few_milliseconds():
    import time

    state = act(table("ann", "bo", "cy", "di"), "ann", "weave")
    began = time.perf_counter()
    for seat in ("ann", "bo", "cy", "di", None):
        offers(state, seat, host=seat is None)
    assert (time.perf_counter() - began) / 5 < 0.02
