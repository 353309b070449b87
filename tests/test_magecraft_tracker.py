"""The Magecraft tracker, purely through pnp.rules.table: whole games on the phones for 2 and 4
wizards played by a script to their ends by the rules engine, with every hand and bag kept from
every other viewer after every move (the views, the entries, the results and the moves offered);
recorded draws that a replay repeats and no undo takes back; bag odds; refusals in the rules'
words; the offers (what the hand pays, each way to pay, the Attacks' targets, where gems come
from), each completion accepted; and the duel dashboard for printed gems."""

from __future__ import annotations

import json
import random

import pytest

from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.magecraft.rulebook import book_of
from pnp.games.magecraft.rules import payment_for
from pnp.games.magecraft.tracker import TRACKER
from pnp.outlines import GEM_SYMBOLS, svg_path
from pnp.paths import CONTENT
from pnp.rules.chance import SecureChance
from pnp.rules.flow import ENGINE, Caller
from pnp.rules.offers import completions
from pnp.rules.table import HOST, SPECTATOR, Entry, Refused, replay, seen_by
from tests.support.tracked import TrackedTable

MC = load_game(game("magecraft"), [CONTENT])
BOOK = book_of(MC)
COLOURS = list(BOOK.colours)


class Table(TrackedTable):
    def __init__(self, players=("a", "b"), seed=1, **options):
        super().__init__(TRACKER, MC, players, seed, **options)

    def public(self) -> dict:
        return self.view(SPECTATOR)

    @property
    def phase(self) -> str:
        return self.state["phase"]

    def seat(self, pid) -> dict:
        return next(p for p in self.public()["players"] if p["id"] == pid)


def started(players=("a", "b"), seed=1, **options) -> Table:
    table = Table(players, seed, **options)
    table.do(HOST, "start")
    return table


def gems_of(counts: dict) -> list[str]:
    return [c for c, n in counts.items() for _ in range(n)]


# --- secrets: what a viewer sees never depends on what they may not see ----------------------


def others_hidden(state: dict, viewer) -> dict:
    """`state` with every hand and bag the viewer may not see replaced by others of the same size
    (all Darkness): a view that told any of them apart would leak it."""
    game = json.loads(json.dumps(state[ENGINE]))
    for p, w in enumerate(game["wizards"]):
        if state["players"][p] != viewer:
            for area in ("hand", "bag"):
                w[area] = [0] * (len(COLOURS) - 1) + [sum(w[area])]
        elif not state["bag_odds"]:
            w["bag"] = [0] * (len(COLOURS) - 1) + [sum(w["bag"])]
    return {**state, ENGINE: game}


def offers(state: dict, caller: Caller) -> list[dict]:
    return TRACKER.offers(MC, state, caller, SecureChance(random.Random(0)))


def faked(entry: Entry, viewer) -> Entry:
    """The entry with every gem it drew that `viewer` may not see replaced by Darkness."""
    payload = json.loads(json.dumps(dict(entry.payload)))
    if entry.type == "start":
        deal = payload["deal"]
        deal["drawn"] = [
            h if pid == viewer else ["darkness"] * len(h) for pid, h in zip(deal["order"], deal["drawn"], strict=True)
        ]
    elif "drawn" in payload and payload["done"]["player"] != viewer:
        payload["drawn"] = ["darkness"] * len(payload["drawn"])
    return Entry(entry.seq, entry.actor, entry.type, payload)


def assert_secrets_kept(table: Table) -> None:
    """Non-interference, as every viewer, after a move: the view, the latest history entry and the
    results are the same whatever the hands, bags and draws the viewer may not see hold; their own
    hand they do see, their bag only with bag odds on."""
    entry = table.log[-1]
    results = TRACKER.results(table.state)
    for viewer in table.viewers:
        shown = TRACKER.view(table.state, viewer)
        hidden = others_hidden(table.state, viewer)
        assert shown == TRACKER.view(hidden, viewer), viewer
        assert TRACKER.results(hidden) == results
        caller = Caller(None if viewer == HOST else viewer, host=viewer == HOST)
        assert offers(table.state, caller) == offers(hidden, caller), viewer
        if viewer in table.state["players"]:
            own = table.state[ENGINE]["wizards"][table.state["players"].index(viewer)]
            assert shown["hand"] == dict(zip(COLOURS, own["hand"], strict=True))
            bag = dict(zip(COLOURS, own["bag"], strict=True))
            assert shown["bag_contents"] == (bag if table.state["bag_odds"] else None)
        else:
            assert shown["hand"] == {} and shown["bag_contents"] is None
        seen = seen_by(TRACKER, entry, viewer).payload
        assert seen == seen_by(TRACKER, faked(entry, viewer), viewer).payload, (viewer, entry)
    assert "seed" not in json.dumps(entry.payload)


# --- a whole game on the phones, played by a script -------------------------------------------


def rivals(table: Table, me: str) -> list[str]:
    return [p["id"] for p in table.view(me)["players"] if p["id"] != me and not p["out"]]


def attacks(table: Table, me: str) -> dict:
    """Every Attack at the rival with the fewest HP and shield gems."""
    seats = {p["id"]: p for p in table.view(me)["players"]}
    target = min(rivals(table, me), key=lambda r: seats[r]["hp_total"] + seats[r]["shield_total"])
    return {"attack": [{"player": target}] * 4}


def play_turn(table, rng: random.Random, check) -> None:
    """One wizard's turn by the script, on a table here or through the API (`do` raising Refused,
    `view`, `public`, `seat`, `phase`, `turn`): shield gems beyond two back to the discard; the
    first spellbook whose spells the hand can pay, cast left to right while it can; the Cantrip
    when it can be paid; learning the first Academy spell the hand pays, or revising; Refresh."""
    me = table.turn
    seat = table.seat(me)
    if seat["shield_total"] > 2:
        table.do(me, "discard_shield", gems=gems_of(seat["shield"])[2:])
        check(table)
    for book in range(3):
        cast = 0
        while table.phase == "playing" and table.turn == me:
            try:
                table.do(me, "cast", spellbook=book, choices=attacks(table, me))
            except Refused:
                break
            cast += 1
            check(table)
        if cast:
            break
    if table.phase != "playing" or table.turn != me:
        return
    try:
        table.do(me, "cantrip", choices=attacks(table, me))
        check(table)
    except Refused:
        pass
    if table.phase != "playing" or table.turn != me:
        return
    shown = table.view(me)
    hand = [shown["hand"][c] for c in COLOURS]
    learnable = [
        s["name"]
        for s in shown["academy"]["spells"]
        if s["cards"] and payment_for(BOOK.spell(s["name"]).learn, hand) is not None
    ]
    if learnable and rng.random() < 0.6:
        table.do(me, "learn", spell=learnable[0], spellbook=rng.randrange(3))
        check(table)
    elif sum(hand) >= BOOK.revision and rng.random() < 0.3:
        books = table.seat(me)["spellbooks"]
        places = [(b, p) for b in range(3) for p in range(len(books[b]))]
        rng.shuffle(places)
        arrangement = [places[0::3], places[1::3], places[2::3]]
        master = next(
            (
                (b, p)
                for b, cards in enumerate(arrangement)
                for p, (ob, op) in enumerate(cards)
                if not books[ob][op]["mastered"]
            ),
            None,
        )
        table.do(me, "revise", gems=gems_of(shown["hand"])[: BOOK.revision], arrangement=arrangement, master=master)
        check(table)
    table.do(me, "refresh")
    check(table)


def opening(table, check) -> None:
    """Each seat of the seat table discards the gems its hand has most of."""
    for seat in table.public()["players"]:
        if seat["to_discard"]:
            hand = table.view(seat["id"])["hand"]
            gems = sorted(gems_of(hand), key=lambda c: -hand[c])[: seat["to_discard"]]
            table.do(seat["id"], "opening_discard", gems=gems)
            check(table)


def whole_game(players, seed, **options) -> Table:
    table = started(players, seed, **options)
    assert_secrets_kept(table)
    opening(table, assert_secrets_kept)
    rng = random.Random(seed)
    turns = 0
    while table.state["phase"] == "playing":
        play_turn(table, rng, assert_secrets_kept)
        turns += 1
        assert turns < 400, "the script's game did not end"
    return table


@pytest.fixture(scope="module")
def duel():
    return whole_game(("a", "b"), 1)


@pytest.fixture(scope="module")
def melee():
    return whole_game(("a", "b", "c", "d"), 2, bag_odds=True)


def test_a_duel_on_the_phones_plays_to_its_end_by_the_engine(duel):
    """The rules: "The game ends immediately when: 1. There is only one player left in the game.
    2. Any player has 20 gems or more in his or her Score Area." """
    state, shown = duel.state, duel.view(SPECTATOR)
    assert state["phase"] == "over" and shown["turn"] is None
    winner = next(p for p in shown["players"] if p["id"] == state["winner"])
    others = [p for p in shown["players"] if p["id"] != state["winner"]]
    if state["ended"] == "score":
        assert winner["score_total"] >= 20
    else:
        assert state["ended"] == "hp" and all(p["hp_total"] == 0 and p["out"] for p in others)
        assert shown["defeated"] == [p["id"] for p in others]
    rows = TRACKER.results(state)
    assert [r["name"] for r in rows] == [state["names"][pid] for pid in state["players"]]
    assert [r["winner"] for r in rows] == [pid == state["winner"] for pid in state["players"]]
    assert [(r["score"], r["hp"]) for r in rows] == [(p["score_total"], p["hp_total"]) for p in shown["players"]]
    moves = {e.type for e in duel.log}
    assert {"opening_discard", "cast", "learn", "refresh"} <= moves


def test_a_game_of_four_plays_to_its_end_with_targets_chosen(melee):
    """The rules: "1st player 4 2 ... 4th player 5 1" (the seat table), and our ruling "targets":
    with 3 or 4 wizards each Attack picks its own target."""
    start = melee.log[4]
    assert start.type == "start"
    assert [len(hand) for hand in start.payload["deal"]["drawn"]] == [4, 4, 4, 5]
    assert sorted(start.payload["deal"]["order"]) == ["a", "b", "c", "d"]
    assert len(set(start.payload["deal"]["characters"])) == 4  # no two alike
    assert [e.payload["done"]["player"] for e in melee.log if e.type == "opening_discard"] == [
        start.payload["deal"]["order"][s] for s in (0, 1, 3)
    ]
    assert melee.state["phase"] == "over"
    hit = {
        pid
        for e in melee.log
        if e.type == "cast"
        for pid, areas in e.payload["done"]["changes"].items()
        if pid != e.payload["done"]["player"] and pid != "academy" and "hp" in areas
    }
    assert len(hit) >= 2  # the Attacks struck more than one rival


def test_a_replay_gives_the_same_table_with_the_recorded_gems(duel):
    assert replay(TRACKER, MC, duel.options, duel.log).state == duel.state
    # change one refresh's recorded gems to others still in that bag: the replay takes them
    for i, entry in enumerate(duel.log):
        if entry.type != "refresh" or entry.payload["done"]["reshuffled"]:
            continue
        drawn = entry.payload["drawn"]
        before = replay(TRACKER, MC, duel.options, duel.log[:i]).state
        p = before["players"].index(entry.payload["done"]["player"])
        bag = before[ENGINE]["wizards"][p]["bag"]
        other = next((c for n, c in zip(bag, COLOURS, strict=True) if n > drawn.count(c) and c != drawn[0]), None)
        if other is not None:
            break
    changed = Entry(
        entry.seq, entry.actor, entry.type, {**entry.payload, "drawn": [other, *entry.payload["drawn"][1:]]}
    )
    after = replay(TRACKER, MC, duel.options, [*duel.log[:i], changed]).state
    hand = after[ENGINE]["wizards"][p]["hand"]
    assert hand[COLOURS.index(other)] == entry.payload["drawn"].count(other) + 1
    # and gems the bag does not hold are refused, never drawn anew
    impossible = Entry(entry.seq, entry.actor, entry.type, {**entry.payload, "drawn": ["darkness"] * 4})
    if not bag[COLOURS.index("darkness")]:
        with pytest.raises(Refused, match="recorded draw"):
            replay(TRACKER, MC, duel.options, [*duel.log[:i], impossible])


def test_each_phone_sees_its_own_hand_and_every_public_area(duel):
    table = started(seed=4)
    a, b = table.view("a"), table.view("b")
    assert sum(a["hand"].values()) == 4 and sum(b["hand"].values()) == 4
    for shown in (a, b, table.view(SPECTATOR), table.view(HOST)):
        for seat in shown["players"]:
            assert seat["hp_total"] == 12 and seat["bag"] == 8 and seat["hand"] == 4
            assert [[c["spell"] for c in book] for book in seat["spellbooks"]] == [
                ["Meditation"],
                ["Magic Missile"],
                ["Mana Tricks"],
            ]
        assert [s["name"] for s in shown["academy"]["spells"][:3]] == ["Minor Cure", "Absorb", "Fireball"]
        assert len(shown["academy"]["spells"]) == 12 and shown["academy"]["gems"] == dict.fromkeys(COLOURS, 8)
    assert table.view(HOST)["hand"] == {} and table.view(SPECTATOR)["hand"] == {}


def test_bag_odds_show_only_your_own_bag_and_only_when_switched_on():
    """Bag odds: "what is left in your own bag ... only when the table switched them on"."""
    on, off = started(seed=3, bag_odds=True), started(seed=3)
    for pid in ("a", "b"):
        bag = on.state[ENGINE]["wizards"][on.state["players"].index(pid)]["bag"]
        assert on.view(pid)["bag_contents"] == dict(zip(COLOURS, bag, strict=True)) and sum(bag) == 8
        assert off.view(pid)["bag_contents"] is None
    assert on.view(HOST)["bag_contents"] is None and on.view(SPECTATOR)["bag_contents"] is None


# --- undo, and draws that stay drawn ----------------------------------------------------------


def ready(seed=1) -> Table:
    """Two wizards past their opening discards, at the first turn."""
    table = started(seed=seed)
    opening(table, lambda t: None)
    return table


def test_a_move_that_drew_no_gem_is_undone_and_one_that_drew_is_final():
    table = ready()
    me = table.turn
    before = table.state
    table.do(me, "discard_shield", gems=[])
    target = table.undo(me)
    assert target.type == "discard_shield" and table.state == before
    table.do(me, "refresh")
    assert table.log[-1].payload["drawn"]
    with pytest.raises(Refused, match="drew gems from a bag: a draw is never taken back"):
        table.undo(me)
    with pytest.raises(Refused, match="never taken back"):
        table.undo(HOST)


def test_a_cast_without_a_draw_is_undone_and_a_cast_that_drew_is_not():
    table = ready(seed=6)
    me = table.turn
    # Spellbook 2 starts with Magic Missile (Fire: one Attack, no Draw); the seed's hand holds a Fire
    assert table.view(me)["hand"]["fire"]
    before = table.state
    table.do(me, "cast", spellbook=1)
    assert table.log[-1].payload["drawn"] == [] and table.log[-1].payload["done"]["spell"] == "Magic Missile"
    table.undo(me)
    assert table.state == before
    if table.view(me)["hand"]["light"]:  # Meditation: Light, two Draws
        table.do(me, "cast", spellbook=0)
        assert len(table.log[-1].payload["drawn"]) == 2
        with pytest.raises(Refused, match="never taken back"):
            table.undo(me)


# --- refusals ---------------------------------------------------------------------------------


def test_refusals_say_why_in_the_rules_words():
    table = ready(seed=6)
    me = table.turn
    other = next(p for p in table.state["players"] if p != me)
    with pytest.raises(Refused, match=f"It is {me.upper()}'s turn"):
        table.do(other, "cast", spellbook=1)
    with pytest.raises(Refused, match="There is no 'purple' gem"):
        table.do(me, "discard_shield", gems=["purple"])
    with pytest.raises(Refused, match=r"^Your Shield Area has no Fire\.$"):
        table.do(me, "discard_shield", gems=["fire"])
    with pytest.raises(Refused, match="^This table plays with everything on the phones: that move is not part of it"):
        table.do(me, "count", player=me, area="hp", change=-1)
    with pytest.raises(Refused, match=r"^The opening hands are settled\.$"):
        table.do(me, "opening_discard", gems=[])


def test_a_spell_the_hand_cannot_pay_is_refused_naming_cost_and_hand():
    """The issue: "Fireball needs Fire, Fire and one more; your hand has one Fire."."""
    table = ready(seed=6)
    me = table.turn
    p = table.state["players"].index(me)
    game = json.loads(json.dumps(table.state[ENGINE]))
    game["wizards"][p]["hand"] = [1, 0, 1, 1, 0]
    game["wizards"][p]["books"][0] = [["Fireball", False, []]]
    table.state = {**table.state, ENGINE: game}
    with pytest.raises(Refused, match=r"^Fireball needs Fire, Fire and one more; your hand has one Fire\.$"):
        table.do(me, "cast", spellbook=0)


def test_before_the_start_and_after_the_end_moves_are_refused(duel):
    table = Table()
    with pytest.raises(Refused, match="The game has not begun yet"):
        table.do("a", "refresh")
    with pytest.raises(Refused, match="Only the host does that"):
        table.do("a", "start")
    lonely = Table(players=("a",))
    with pytest.raises(Refused, match="Magecraft needs at least 2 wizards; 1 has joined"):
        lonely.do(HOST, "start")
    with pytest.raises(Refused, match="The game is over"):
        TRACKER.apply(MC, duel.state, duel.state["winner"], TRACKER.actions["refresh"]())
    full = Table(players=("a", "b", "c", "d"))
    with pytest.raises(Refused, match="at most 4 wizards"):
        TRACKER.join(full.state, "e", "E")


# --- with printed gems: the duel dashboard ----------------------------------------------------


def test_the_gems_dashboard_keeps_counts_phases_defeats_and_the_winner():
    """The rules: "Determine the starting player randomly", the turn's four phases in order, and
    "If one player has no gems in his or her HP Area, he or she has lost the game." """
    table = started(("a", "b", "c"), seed=2, mode="gems")
    shown = table.view("b")
    order = table.log[-1].payload["deal"]["order"]
    assert sorted(order) == ["a", "b", "c"] and table.state["players"] == order
    assert [(p["id"], p["hp"], p["shield"], p["score"]) for p in shown["players"]] == [(pid, 12, 0, 0) for pid in order]
    assert [p["opening"] for p in shown["players"]] == [
        {"draw": 4, "discard": 2},
        {"draw": 4, "discard": 1},
        {"draw": 4, "discard": 0},
    ]
    assert shown["turn"] == {"player": order[0], "phase": "discard-shield", "number": 1}
    assert "hand" not in shown and "academy" not in shown
    for phase in ("casting", "learning", "refresh"):
        table.do("c", "next_phase")
        assert table.view(HOST)["turn"]["phase"] == phase
    table.do(HOST, "next_phase")
    assert table.view(SPECTATOR)["turn"] == {"player": order[1], "phase": "discard-shield", "number": 2}
    table.do("a", "count", player=order[2], area="hp", change=-12)
    shown = table.view(SPECTATOR)
    assert shown["defeated"] == [order[2]] and shown["players"][2]["out"] and shown["phase"] == "playing"
    for _ in range(4):
        table.do(HOST, "next_phase")
    assert table.view(SPECTATOR)["turn"]["player"] == order[0]  # the defeated wizard is skipped
    with pytest.raises(Refused, match="at most 12 gems"):
        table.do("b", "count", player=order[0], area="hp", change=1)
    with pytest.raises(Refused, match="holds 0 gems, not 1"):
        table.do("b", "count", player=order[0], area="shield", change=-1)
    with pytest.raises(Refused, match="printed gems"):
        table.do(order[0], "refresh")
    table.do("b", "count", player=order[1], area="score", change=19)
    table.undo("b")
    assert table.view(SPECTATOR)["players"][1]["score"] == 0
    table.do("b", "count", player=order[1], area="score", change=20)
    shown = table.view(SPECTATOR)
    assert shown["phase"] == "over" and shown["winner"] == order[1] and shown["ended"] == "score"
    assert TRACKER.results(table.state)[1] == {"name": order[1].upper(), "score": 20, "hp": 12, "winner": True}


def test_the_gems_dashboard_ends_with_the_last_wizard_standing():
    table = started(mode="gems")
    loser = table.state["players"][0]
    table.do(HOST, "count", player=loser, area="hp", change=-12)
    shown = table.view(SPECTATOR)
    assert shown["phase"] == "over" and shown["ended"] == "hp" and shown["winner"] == table.state["players"][1]


def test_every_viewer_sees_the_same_gems_dashboard():
    table = started(mode="gems")
    views = [{k: v for k, v in table.view(v).items() if k != "you"} for v in table.viewers]
    assert all(v == views[0] for v in views)


def test_the_host_makes_a_seats_moves_and_the_history_names_the_wizard():
    table = started(seed=8)
    first = table.state["players"][0]
    with pytest.raises(Refused, match="Name the player this move is for"):
        table.do(HOST, "opening_discard", gems=[])
    second = table.state["players"][1]
    with pytest.raises(Refused, match="You can only make your own moves"):
        table.do(second, "opening_discard", gems=[], player=first)
    gems = gems_of(table.view(first)["hand"])[:2]
    table.do(HOST, "opening_discard", gems=gems, player=first)
    assert table.log[-1].payload["done"]["player"] == first and table.seat(first)["to_discard"] == 0
    assert table.seat(first)["discard"] == {c: gems.count(c) for c in COLOURS}
    opening(table, lambda t: None)
    table.do(HOST, "refresh")  # for the wizard whose turn it is
    done = table.log[-1].payload["done"]
    assert done["player"] == first and table.turn != first
    assert seen_by(TRACKER, table.log[-1], HOST).payload["drawn"] == 4  # the host is not shown them
    assert seen_by(TRACKER, table.log[-1], first).payload["drawn"] == table.log[-1].payload["drawn"]


def test_a_spells_choices_name_where_its_gems_come_from():
    """The rules: Vanish "Move a gem from your hand or your HP Area to your Score Area"; Shield
    "Move a gem from the Academy or your Discard Area to your Shield Area"."""
    table = ready(seed=6)
    me = table.turn
    p = table.state["players"].index(me)
    game = json.loads(json.dumps(table.state[ENGINE]))
    w = game["wizards"][p]
    w["hand"], w["discard"] = [0, 2, 2, 0, 0], [0, 0, 0, 1, 0]
    w["books"][2] = [["Mana Tricks", False, []], ["Quarry Wall", False, []]]  # Vanish, then Shield
    table.state = {**table.state, ENGINE: game}
    vanish = {"vanish": [{"from": "hp", "colour": "light"}]}
    table.do(me, "cast", spellbook=2, payment=["water", "water"], choices=vanish)
    done = table.log[-1].payload["done"]
    assert done["spell"] == "Mana Tricks" and done["paid"] == ["water", "water"]
    assert done["changes"][me]["hp"] == {"light": -1} and done["changes"][me]["score"] == {"light": 1}
    table.do(me, "cast", spellbook=2, choices={"shield": [{"from": "discard", "colour": "light"}]})
    done = table.log[-1].payload["done"]
    assert done["spell"] == "Quarry Wall" and done["position"] == 1
    assert done["changes"][me]["shield"] == {"light": 1} and done["changes"][me]["discard"] == {"light": -1}
    assert "hand" not in json.dumps(done["changes"])
    with pytest.raises(Refused, match="Spellbook 3 has no spell left to cast this turn"):
        table.do(me, "cast", spellbook=2)


def test_a_heal_takes_the_colour_its_caster_chooses():
    """The rules: Heal "Move a gem from the Academy to your HP Area. If your HP Area is full (12
    gems), move the gem to your Score Area instead." Our ruling "heal-empty": of the colour the
    healer chooses. Two wounds and two heals: one chosen colour each time, one wound left, and a
    colour the Academy lacks refused with its reason."""
    table = ready(seed=6)
    me = table.turn
    p = table.state["players"].index(me)
    game = json.loads(json.dumps(table.state[ENGINE]))
    w = game["wizards"][p]
    w["hand"], w["hp"] = [0, 3, 0, 0, 0], [3, 2, 2, 3, 0]  # two wounds
    w["books"][2] = [["Minor Cure", False, []], ["Minor Cure", False, []]]
    game["academy_gems"][4] = 0  # no Darkness left in the Academy
    table.state = {**table.state, ENGINE: game}
    table.do(me, "cast", spellbook=2, payment=["water"], choices={"heal": ["earth"]})
    done = table.log[-1].payload["done"]
    assert done["changes"][me]["hp"] == {"earth": 1} and done["changes"]["academy"]["gems"] == {"earth": -1}
    with pytest.raises(Refused, match="The Academy has no Darkness gem."):
        table.do(me, "cast", spellbook=2, payment=["water"], choices={"heal": ["darkness"]})
    table.do(me, "cast", spellbook=2, payment=["water"], choices={"heal": ["earth"]})
    assert table.log[-1].payload["done"]["changes"][me]["hp"] == {"earth": 1}  # HP 12: full again


def test_with_more_than_one_rival_each_attack_names_its_target():
    """Our ruling "targets": "With 3 or 4 wizards, each Attack picks its own target"."""
    table = started(("a", "b", "c"), seed=5)
    opening(table, lambda t: None)
    me = table.turn
    p = table.state["players"].index(me)
    game = json.loads(json.dumps(table.state[ENGINE]))
    game["wizards"][p]["hand"] = [2, 0, 0, 0, 0]
    table.state = {**table.state, ENGINE: game}
    with pytest.raises(Refused, match=r"^Magic Missile: name the rival each Attack strikes \(1 in all\)\.$"):
        table.do(me, "cast", spellbook=1)
    with pytest.raises(Refused, match="No such wizard at this table"):
        table.do(me, "cast", spellbook=1, choices={"attack": [{"player": "z"}]})
    target = next(pid for pid in table.state["players"] if pid != me)
    table.do(me, "cast", spellbook=1, choices={"attack": [{"player": target, "colour": "earth"}]})
    assert table.log[-1].payload["done"]["changes"][target] == {"hp": {"earth": -1}}
    assert table.seat(target)["hp"]["earth"] == 2


def test_the_view_carries_the_contents_words():
    shown = started().public()
    assert shown["words"]["phases"] == {
        "discard-shield": "Discard Shield",
        "casting": "Casting",
        "learning": "Learning or Revision",
        "refresh": "Refresh",
    }
    # each gem's symbol is the outline its printed gem carries (set.yaml's "moon" for Darkness), as SVG
    assert shown["gems"][4] == {
        "id": "darkness",
        "name": "Darkness",
        "letter": "D",
        "symbol": svg_path(GEM_SYMBOLS["moon"]),
    }
    assert shown["gems"][0]["symbol"] == svg_path(GEM_SYMBOLS["fire"]) != svg_path(GEM_SYMBOLS["earth"])
    assert shown["spells"]["Fireball"] == {
        "learn": ["fire", "fire"],
        "cast": ["fire", "fire", "wild"],
        "effects": {"attack": 3},
        "special": None,
        "text": "",
    }
    # what the icons cannot say comes with the spell, in the content's words
    assert shown["spells"]["Chain Sparks"]["special"] == "attack-each"
    assert "every" in shown["spells"]["Chain Sparks"]["text"]
    assert shown["rulings"]["targets"].startswith("With 3 or 4 wizards")


def test_an_opening_discard_the_first_turn_depends_on_is_not_undone():
    """Play begins once every seat has discarded: taking back the last discard after the first
    wizard has moved would leave that move standing on an unsettled table."""
    table = started(seed=8)
    opening(table, lambda t: None)
    last = table.log[-1].payload["done"]["player"]
    table.do(table.turn, "discard_shield", gems=[])
    with pytest.raises(Refused, match="That can no longer be undone: later moves depend on it"):
        table.undo(last)


# --- the offers: what the wizard a move is for may do now ----------------------------------------


def offered(table: Table, who=None, type_=None) -> list[dict]:
    """The moves offered to `who` (default: the wizard whose turn it is), of one type if given."""
    found = offers(table.state, Caller(who or table.turn))
    return [o for o in found if type_ is None or o["type"] == type_]


def accepted(table: Table, made: dict) -> int:
    """How many completions `made` has, after checking that the rules accept each now."""
    count = 0
    for body in completions(made):
        action = TRACKER.actions[made["type"]].model_validate(body)
        action = TRACKER.draw(MC, table.state, made["for"], action, SecureChance(random.Random(count)))
        TRACKER.apply(MC, table.state, made["for"], action, trial=True)
        count += 1
    return count


def rigged(table: Table, change) -> None:
    """The table's game changed by hand (`change(engine data, the seat whose turn it is)`): the
    deal a test needs, set up rather than waited for."""
    game = json.loads(json.dumps(table.state[ENGINE]))
    change(game, game["player"])
    table.state = {**table.state, ENGINE: game}


def test_the_wizard_whose_turn_it_is_is_offered_what_their_hand_pays_for():
    """The issue: no "Cast this (hand short)" and no Learn the hand cannot pay. The rules: "If you
    do not have sufficient gems for a spell, you cannot skip the current spell and cast the next
    one"; Meditation costs one Light, Magic Missile one Fire."""
    table = ready(seed=6)
    me = table.turn

    def deal(game, p):
        game["wizards"][p]["hand"] = [1, 0, 0, 2, 0]  # one Fire, two Light
        game["wizards"][p]["books"][0] = [["Fireball", False, []], ["Meditation", False, []]]

    rigged(table, deal)
    casts = offered(table, type_="cast")
    assert [(o["payload"], o["label"]) for o in casts] == [({"spellbook": 1, "one_by_one": True}, "Magic Missile")]
    assert casts[0]["pick"] == [{"field": "payment", "one_of": [{"value": ["fire"], "label": "Fire"}]}]
    assert "revise" not in {o["type"] for o in offered(table)}  # three gems: a Revision discards four
    [learn] = offered(table, type_="learn")
    hand = [1, 0, 0, 2, 0]
    for spell in learn["pick"][0]["one_of"]:
        assert payment_for(BOOK.spell(spell["value"]).learn, hand) is not None, spell["value"]
    learnable = {s["name"] for s in table.view(me)["academy"]["spells"]}
    assert {s["value"] for s in learn["pick"][0]["one_of"]} == {
        name for name in learnable if payment_for(BOOK.spell(name).learn, hand) is not None
    }
    assert all(not offered(table, v) for v in table.state["players"] if v != me)
    for made in offered(table):
        assert accepted(table, made)
    table.do(me, "cast", spellbook=1)
    assert not offered(table, type_="cast")  # one spellbook a turn, and Magic Missile was its only spell
    table.do(me, "refresh")
    rival = next(pid for pid in table.state["players"] if pid != me)
    shown = table.view(rival)
    assert shown["last"]["move"] == "refresh" and shown["last_cast"]["spell"] == "Magic Missile"
    # no shield: "move a gem from their HP Area to your Score Area" (the engine's colour: their most plentiful)
    assert shown["last_cast"]["changes"][rival] == {"hp": {"fire": -1}}
    assert shown["last_cast"]["changes"][me]["score"] == {"fire": 1}


def test_a_spell_is_offered_with_each_way_to_pay_it_cheapest_first():
    """Fireball costs Fire, Fire and a Wild: a hand of two Fire, a Water and a Darkness pays the Wild
    with either, the colour held most first. Learning offers each Academy spell the hand pays, into
    each spellbook, each way to pay; a Revision the four gems and the spell to master."""
    table = ready(seed=6)

    def deal(game, p):
        game["wizards"][p]["hand"] = [2, 1, 0, 0, 1]
        game["wizards"][p]["books"][0] = [["Fireball", False, []]]

    rigged(table, deal)
    [fireball] = [o for o in offered(table, type_="cast") if o["label"] == "Fireball"]
    assert [o["value"] for o in fireball["pick"][0]["one_of"]] == [
        ["fire", "fire", "water"],
        ["fire", "fire", "darkness"],
    ]
    [learn] = offered(table, type_="learn")
    fire = next(s for s in learn["pick"][0]["one_of"] if s["value"] == "Fireball")  # learn cost Fire, Fire
    assert fire["pick"] == [
        {"field": "spellbook", "one_of": [{"value": b, "label": f"Spellbook {b + 1}"} for b in range(3)]},
        {"field": "payment", "one_of": [{"value": ["fire", "fire"], "label": "Fire, Fire"}]},
    ]
    [revise] = offered(table, type_="revise")
    assert revise["pick"][0] == {
        "field": "gems",
        "some_of": [{"value": "fire", "count": 2}, {"value": "water", "count": 1}, {"value": "darkness", "count": 1}],
        "size": [4, 4],
    }
    assert [o["label"] for o in revise["pick"][1]["one_of"]] == ["none", "Fireball", "Magic Missile", "Mana Tricks"]
    for made in offered(table):
        assert accepted(table, made)


def resolving(table: Table) -> dict[str, dict]:
    """The icons of the spell being cast offered to the wizard whose turn it is, by icon."""
    return {o["payload"]["icon"]: o for o in offered(table, type_="resolve")}


def test_two_attacks_are_never_offered_at_a_rival_the_first_one_fells():
    """Our ruling "targets": each Attack picks a rival still in the Arena. Fireball's three Attacks
    at a table of three: a rival with one HP gem and no shield stands one of them. Cast one by one,
    each Attack is offered at the rivals standing then, with the colours of the gems it may take."""
    table = started(("a", "b", "c"), seed=5)
    opening(table, lambda t: None)
    me = table.turn
    weak, strong = [pid for pid in table.state["players"] if pid != me]

    def deal(game, p):
        game["wizards"][p]["hand"] = [3, 0, 0, 0, 0]
        game["wizards"][p]["books"][0] = [["Fireball", False, []]]
        game["wizards"][table.state["players"].index(weak)]["hp"] = [1, 0, 0, 0, 0]

    rigged(table, deal)
    # all at once (the older phones' way), a second Attack at the fallen rival is refused
    twice = {"attack": [{"player": weak}, {"player": weak}, {"player": strong}]}
    with pytest.raises(Refused, match="Attack 2 strikes a rival still in the Arena"):
        table.do(me, "cast", spellbook=0, choices=twice)
    [fireball] = [o for o in offered(table, type_="cast") if o["label"] == "Fireball"]
    table.do(me, "cast", **fireball["payload"])
    [attack] = resolving(table).values()
    rivals = attack["pick"][0]
    assert rivals["field"] == "rival" and [o["value"] for o in rivals["one_of"]] == [weak, strong]
    assert rivals["one_of"][0]["pick"] == [{"field": "colour", "one_of": [{"value": "fire", "label": "Fire"}]}]
    assert accepted(table, attack) == 1 + 4  # the weak rival's one gem, or any colour of the strong one's HP
    table.do(me, "resolve", icon="attack", rival=weak, colour="fire")
    [attack] = resolving(table).values()
    assert [o["value"] for o in attack["pick"][0]["one_of"]] == [strong]


def test_a_spells_icons_are_offered_in_any_order_each_with_the_gems_it_may_move():
    """ "Resolve the effect icons of the spell in any order." Tidal Ward: a Heal and two Shields.
    The Academy holds two Earth, the Discard Area one Fire: the Heal offers Earth, each Shield the
    Academy's Earth or the Discard Area's Fire. The Heal first, then a Shield: the Academy has one
    Earth left for the last Shield. Mana Tricks' Vanish: the hand's or the HP Area's colours."""
    table = ready(seed=6)
    me = table.turn

    def deal(game, p):
        game["wizards"][p]["hand"] = [0, 4, 0, 0, 0]
        game["wizards"][p]["discard"] = [1, 0, 0, 0, 0]
        game["wizards"][p]["books"][0] = [["Tidal Ward", False, []]]
        game["academy_gems"] = [0, 0, 2, 0, 0]

    rigged(table, deal)
    table.do(me, "cast", spellbook=0, one_by_one=True)
    icons = resolving(table)
    assert list(icons) == ["heal", "shield"]
    assert icons["heal"]["pick"] == [{"field": "colour", "one_of": [{"value": "earth", "label": "Earth"}]}]
    assert icons["shield"]["pick"] == [
        {
            "field": "from",
            "one_of": [
                {
                    "value": "academy",
                    "label": "the Academy",
                    "pick": [{"field": "colour", "one_of": [{"value": "earth", "label": "Earth"}]}],
                },
                {
                    "value": "discard",
                    "label": "your Discard Area",
                    "pick": [{"field": "colour", "one_of": [{"value": "fire", "label": "Fire"}]}],
                },
            ],
        }
    ]
    for made in icons.values():
        assert accepted(table, made)
    table.do(me, "resolve", icon="heal", colour="earth")
    table.do(me, "resolve", icon="shield", **{"from": "discard", "colour": "fire"})
    [shield] = resolving(table).values()
    assert [o["value"] for o in shield["pick"][0]["one_of"]] == ["academy"]
    assert not offered(table, type_="refresh")  # a Shield still waits
    table.do(me, "resolve", icon="shield", **{"from": "academy"})
    assert not resolving(table) and offered(table, type_="refresh")
    shown = table.view(me)
    assert shown["last_cast"]["spell"] == "Tidal Ward"
    assert shown["last_cast"]["changes"]["academy"] == {"gems": {"earth": -2}}  # the whole spell's changes
    assert shown["last_cast"]["changes"][me]["shield"] == {"fire": 1, "earth": 1}


@pytest.mark.parametrize("game_id", ["magecraft", "spellcycles"])
def test_a_table_seats_up_to_the_most_wizards_and_no_one_after_the_start(game_id):
    """FACTS: Magecraft is for 2-4 players, Spellcycles for about 2-5: one more is refused, a
    second join renames, and no one joins a game under way."""
    tracker = game(game_id).load("tracker")
    content = load_game(game(game_id), [CONTENT])
    state = tracker.setup(content, tracker.Options())
    most = game(game_id).players[1]
    for n in range(most):
        state = tracker.join(state, f"p{n}", f"Wizard {n}")
    with pytest.raises(Refused, match=f"is for at most {most} wizards, and they are all here"):
        tracker.join(state, "late", "Late")
    state = tracker.join(state, "p0", "Ada")
    assert state["names"]["p0"] == "Ada" and len(state["players"]) == most
    with pytest.raises(Refused, match="The game has begun: no one joins now."):
        tracker.join({**state, "phase": "playing"}, "late", "Late")
