"""The flow every game shares (pnp/rules/flow.py) and its offers (pnp/rules/offers.py), on a game
of the test's own: three counters, turns in seat order, a table-wide record, a seat's own move at
any time and a correction. Each case sets up enough to tell the flow's reading from another."""

from __future__ import annotations

import random

import pytest
from pydantic import BaseModel, Field

from pnp.gamedef import GameDef
from pnp.rules.chance import SecureChance
from pnp.rules.flow import HOST_ONLY, JOINING, OVER, SEAT, TABLE, TURN, Caller, Move, Rules, Way
from pnp.rules.offers import completions, first, offer, one_of, option, place, sample, some_of, whole_number
from pnp.rules.table import HOST, NotYours, Refused

GAME = GameDef(id="counters", title="Counters", kinds="a:b", numbers="a:b", check="a:b", printed="a:b", players=(2, 3))
CHANCE = SecureChance(random.Random(1))


class Options(BaseModel):
    way: str = "plain"


class Start(BaseModel):
    pass


class Step(BaseModel):
    by: int = Field(ge=1, le=3)


class Mark(BaseModel):
    pass


class Note(BaseModel):
    pass


class Fix(BaseModel):
    player: str = ""
    change: int


def started(content, state, _host, action):
    return {**state, "phase": "playing", "turn": 0}


def seated(content, state, actor, action, chance):
    """The server's draw for the start: it reads the joining seats, so it must never meet a begun table."""
    assert state["phase"] == JOINING, "a draw met a state its move cannot be made in"
    return action


def step(content, state, mover, action: Step):
    if state["counts"].get(mover, 0) + action.by > 5:
        raise Refused("A counter stops at 5.")
    counts = {**state["counts"], mover: state["counts"].get(mover, 0) + action.by}
    turn = (state["turn"] + 1) % len(state["players"])
    over = all(counts.get(p, 0) == 5 for p in state["players"])
    return {**state, "counts": counts, "turn": turn, "phase": OVER if over else state["phase"]}


def steps(content, state, mover):
    left = 5 - state["counts"].get(mover, 0)
    return [offer(pick=[one_of("by", list(range(1, min(3, left) + 1)))])] if left else []


def fixed(content, state, mover, action: Fix):
    return {**state, "counts": {**state["counts"], mover: state["counts"].get(mover, 0) + action.change}}


RULES = Rules(
    game=GAME,
    players_are="counters",
    Options=Options,
    moves={
        "start": Move(Start, started, HOST_ONLY, stage=JOINING, draw=seated),
        "step": Move(Step, step, TURN, choices=steps),
        "mark": Move(Mark, lambda c, state, mover, a: {**state, "marks": state["marks"] + 1}, TABLE),
        "note": Move(Note, lambda c, state, mover, a: state, SEAT),
        "fix": Move(
            Fix, fixed, SEAT, correction="player", choices=lambda c, s, m: [offer(pick=[whole_number("change", -1, 1)])]
        ),
    },
    setup_game=lambda content, options: {"counts": {}, "marks": 0, "turn": None},
    view=lambda state, viewer: state,
    results=lambda state: [],
    turn=lambda state: state["players"][state["turn"]] if state["phase"] == "playing" else None,
)


def table(*names: str, start: bool = True) -> dict:
    state = RULES.setup(None, Options())
    for n, name in enumerate(names, start=1):
        state = RULES.join(state, f"p{n}", name)
    return RULES.apply(None, state, HOST, Start()) if start else state


def types(offers: list[dict]) -> set[str]:
    return {o["type"] for o in offers}


def test_the_flow_owns_the_lifecycle_seats_and_the_counts_start_needs():
    state = RULES.setup(None, Options())
    assert (state["phase"], state["players"], state["names"], state["room"]) == ("joining", [], {}, [2, 3])
    alone = table("Ann", start=False)
    with pytest.raises(Refused, match="^Counters needs at least 2 counters; 1 has joined.$"):
        RULES.apply(None, alone, HOST, Start())
    with pytest.raises(Refused, match="^The game has not begun yet.$"):
        RULES.apply(None, alone, "p1", Mark())
    full = table("Ann", "Bob", "Cy", start=False)
    with pytest.raises(Refused, match="^Counters is for at most 3 counters, and they are all here.$"):
        RULES.join(full, "p4", "Dee")
    assert RULES.join(full, "p2", "Bobby")["names"]["p2"] == "Bobby"  # a second join renames
    begun = RULES.apply(None, full, HOST, Start())
    with pytest.raises(Refused, match="^The game has begun: no one joins now.$"):
        RULES.join(begun, "p4", "Dee")
    with pytest.raises(Refused, match="^The game has already begun.$"):
        RULES.apply(None, begun, HOST, Start())


def test_each_role_is_checked_in_one_wording():
    state = table("Ann", "Bob")
    with pytest.raises(NotYours, match="^Only the host does that.$"):
        RULES.apply(None, table("Ann", "Bob", start=False), "p1", Start())
    with pytest.raises(Refused, match="^It is Ann's turn.$") as refused:
        RULES.apply(None, state, "p2", Step(by=1))
    assert not isinstance(refused.value, NotYours)  # another's turn passes: it is not never theirs
    with pytest.raises(NotYours, match="^Join the table to play.$"):
        RULES.apply(None, state, "stranger", Note())
    assert RULES.apply(None, state, HOST, Mark())["marks"] == 1  # a table's record: the host's too
    assert RULES.apply(None, state, "p2", Mark())["marks"] == 1  # and any seat's, turn or not


def test_a_correction_is_a_players_own_or_the_hosts_for_anyone():
    state = table("Ann", "Bob")
    assert RULES.apply(None, state, "p2", Fix(change=2))["counts"] == {"p2": 2}  # one's own
    with pytest.raises(NotYours, match="your own numbers right"):
        RULES.apply(None, state, "p2", Fix(player="p1", change=2))
    assert RULES.apply(None, state, HOST, Fix(player="p2", change=-1))["counts"] == {"p2": -1}
    with pytest.raises(Refused, match="No such player"):
        RULES.apply(None, state, HOST, Fix(player="p9", change=1))


def test_who_a_move_is_recorded_as_depends_on_the_callers_rights_and_seat():
    state = table("Ann", "Bob")
    host_plays = Caller("p1", host=True)
    assert RULES.actor_for(state, host_plays, "start", Start()) == HOST  # the host's own move
    assert RULES.actor_for(state, host_plays, "fix", Fix(player="p2", change=1)) == HOST  # another's correction
    assert RULES.actor_for(state, host_plays, "fix", Fix(change=1)) == "p1"  # their own
    assert RULES.actor_for(state, host_plays, "step", Step(by=1)) == "p1"
    assert RULES.actor_for(state, Caller("p1", host=True), "note", Note()) == "p1"  # the host playing a seat, as it
    with pytest.raises(NotYours, match="made as that seat"):  # the host as no seat makes no seat's move
        RULES.actor_for(state, Caller(None, host=True), "step", Step(by=1))
    assert RULES.actor_for(state, Caller(None, host=True), "mark", Mark()) == HOST  # but a table's record
    with pytest.raises(NotYours, match="Join the table"):
        RULES.actor_for(state, Caller(None), "note", Note())


def test_offers_are_the_moves_the_rules_accept_now_for_each_role_the_caller_holds():
    state = table("Ann", "Bob")
    ann, bob = (RULES.offers(None, state, Caller(p), CHANCE) for p in ("p1", "p2"))
    assert types(ann) == {"step", "mark", "note", "fix"} and types(bob) == {"mark", "note", "fix"}
    assert [o["payload"] for o in ann if o["type"] == "fix"] == [{"player": "p1"}]  # only their own
    host = RULES.offers(None, state, Caller(None, host=True), CHANCE)
    assert types(host) == {"mark", "fix"}  # no seat of their own: a table's record, everyone's corrections
    assert sorted(o["payload"]["player"] for o in host if o["type"] == "fix") == ["p1", "p2"]
    assert RULES.offers(None, state, Caller(None), CHANCE) == []  # a spectator
    lobby = RULES.offers(None, table("Ann", start=False), Caller(None, host=True), CHANCE)
    assert types(lobby) == set()  # Start is offered only once enough have joined
    assert types(RULES.offers(None, table("Ann", "Bob", start=False), Caller(None, host=True), CHANCE)) == {"start"}


def test_every_completion_of_every_offer_is_accepted_and_a_move_with_no_way_left_is_not_offered():
    state = table("Ann", "Bob")
    state = {**state, "counts": {"p1": 4}}
    [stepping] = [o for o in RULES.offers(None, state, Caller("p1"), CHANCE) if o["type"] == "step"]
    assert list(completions(stepping)) == [{"by": 1}]  # 4 + 2 would pass 5: not a choice
    for body in completions(stepping):
        RULES.apply(None, state, "p1", Step(**body))
    done = {**state, "counts": {"p1": 5}}
    assert "step" not in types(RULES.offers(None, done, Caller("p1"), CHANCE))


def test_a_way_of_playing_adds_its_moves_and_refuses_anothers_in_its_words():
    extra = Move(Note, lambda c, state, mover, a: {**state, "marks": -1}, TABLE)
    ways = {"plain": Way("plain counters", {}), "marked": Way("marked counters", {"tally": extra})}
    rules = Rules(
        **{**{f: getattr(RULES, f) for f in ("game", "players_are", "Options", "moves", "setup_game", "view")}},
        results=RULES.results,
        turn=RULES.turn,
        ways=ways,
        way_option="way",
    )
    plain = rules.apply(None, rules.join(rules.join(rules.setup(None, Options()), "p1", "A"), "p2", "B"), HOST, Start())
    with pytest.raises(Refused, match="^This table plays with plain counters: that move is not part of it.$"):
        rules.apply(None, plain, "p1", rules.actions["tally"]())


def test_offers_are_completed_and_sampled_as_their_picks_say():
    made = offer(
        {"kind": "cast"},
        pick=[
            one_of("spell", [option("fire", "Fire", [some_of("gems", {"red": 2, "blue": 1}, 2)]), "water"]),
            whole_number("choices.0.power", 1, 2),
        ],
    )
    every = list(completions(made))
    fires = [b for b in every if b["spell"] == "fire"]
    assert {tuple(b["gems"]) for b in fires} == {("red", "red"), ("red", "blue")}  # two of three, counts kept
    assert len(every) == (2 + 1) * 2 and all(b["kind"] == "cast" for b in every)
    assert first(made) == {"kind": "cast", "spell": "fire", "gems": ["red", "red"], "choices": [{"power": 1}]}
    rng = random.Random(3)
    # a list of some of the values comes in any order; completions name each multiset once
    in_order = lambda body: {**body, "gems": sorted(body["gems"], reverse=True)} if "gems" in body else body
    assert all(in_order(sample(made, rng)) in every for _ in range(50))


def test_a_dotted_field_makes_the_objects_and_lists_on_its_way():
    body: dict = {}
    place(body, "choices.attack.1.player", "p2")
    place(body, "choices.attack.0.colour", "fire")
    assert body == {"choices": {"attack": [{"colour": "fire"}, {"player": "p2"}]}}


def test_the_server_draws_only_for_a_move_the_flow_lets_through():
    begun = table("Ann", "Bob")
    again = RULES.draw(None, begun, HOST, Start(), CHANCE)  # the start's draw would fail on a begun table
    with pytest.raises(Refused, match="^The game has already begun.$"):
        RULES.apply(None, begun, HOST, again)
    assert RULES.draw(None, table("Ann", "Bob", start=False), "p1", Start(), CHANCE) == Start()  # not the host's
