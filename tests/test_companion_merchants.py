"""Merchants of Magick through the companion's API (Flask's test client, SQLite and PostgreSQL):
the rules' potion and order examples on the digital sheet, refused marks in words, the rounds
and phases, Ready, the Masteries flipping, paper scores (and the host putting one right), the
tie-breaks, the results export, rolls that are the server's and cannot be taken back or doubled,
and the moves each phone is offered: every one of them accepted."""

from __future__ import annotations

import csv
import io
import random
import threading

import pytest

from companion.play import Play
from pnp.content.game import load_game
from pnp.gamedef import game
from pnp.games.merchants_of_magick.actions import (
    Advance,
    ChooseSheet,
    Deliver,
    Free,
    Roll,
    SetCards,
    SetMasteries,
    Spend,
    Start,
)
from pnp.games.merchants_of_magick.shoppe import book
from pnp.games.merchants_of_magick.tracker import TRACKER
from pnp.paths import CONTENT as CONTENT_DIR
from pnp.rules.chance import SecureChance
from pnp.rules.flow import Caller
from pnp.rules.offers import completions
from pnp.rules.table import HOST, Refused
from tests.support.api import error_of, open_table, undo_latest
from tests.support.inprocess import ApiTable

GAME = "merchants-of-magick"
MAX = {"d6": 6, "d8": 8, "d10": 10, "d12": 12}


class Script:
    """The server's chance, scripted: round r rolls `rolls[r]` (default: every die at its highest)."""

    shared = random.Random(7)  # the deals of every table made with a script, one after another

    def __init__(self, rolls: dict[int, dict[str, int]], rng: random.Random | None = None):
        self.rolls = rolls
        self.rng = rng or self.shared

    def dice(self, round_, dice):
        return self.rolls.get(round_, MAX)

    def trial(self) -> Script:
        """What a move is tried with when the server works out the offers: nothing of ours spent."""
        return Script(self.rolls, random.Random(0))


@pytest.fixture
def scripted(monkeypatch):
    """Replace the server's dice with a script: `scripted({round: dice})`."""

    def use(rolls):
        monkeypatch.setattr(Play, "chance", lambda self, info: Script(rolls))

    return use


class Table(ApiTable):
    """A Merchants table over the API, each player's sheet chosen as `sheets` says (every sheet is
    on paper until its player chooses)."""

    def __init__(self, client, options=None, players=("Todd",), sheets=("digital",)):
        super().__init__(client, GAME, players, options or {})
        for who, kind in zip(self.players, sheets, strict=False):
            if kind != "paper":
                self.ok(who, "sheet", kind=kind)


def values(offer: dict, field: str) -> list:
    """The values an offer's one_of pick on `field` (at its top) lets one choose."""
    return [o["value"] for pick in offer.get("pick", []) if pick["field"] == field for o in pick["one_of"]]


def test_the_rules_potion_example_completes_greaves_with_a_5_and_two_potions(client, scripted):
    """A 5 with two potions marks Greaves' >= 7 and completes the row: its coins, and a potion."""
    scripted({3: {"d6": 3, "d8": 5, "d10": 1, "d12": 1}})
    t = Table(client)
    todd = t.players[0]
    t.ok(t.host, "start")
    t.ok(t.host, "roll", round=1)
    for die, row, circle in [("d6", "Gloves", 0), ("d8", "Gloves", 1), ("d10", "Greaves", 1), ("d12", "Dagger", 1)]:
        t.ok(todd, "spend", die=die, row=row, circle=circle)
    t.ok(t.host, "roll", round=2)
    for die, row, circle in [("d6", "Dagger", 0), ("d8", "Helm", 0), ("d12", "Helm", 1)]:
        t.ok(todd, "spend", die=die, row=row, circle=circle)
    t.ok(t.host, "roll", round=3)
    t.ok(todd, "spend", die="d6", row="Greaves", circle=0)
    before = t.state(todd)["mine"]
    assert before["potions"] == 3  # Gloves, Dagger, Helm
    mine = t.ok(todd, "spend", die="d8", row="Greaves", circle=2, adjust=2)["mine"]
    greaves = [row["name"] for row in client.get(f"/api/tables/{t.code}/layout").json["rows"]].index("Greaves")
    assert mine["completed"][greaves]
    assert mine["potions"] == 3 - 2 + 1
    assert mine["lines"]["crafting"] == before["lines"]["crafting"] + 5
    assert mine["total"] == 3 + 3 + 4 + 5


def test_a_refused_mark_says_why_and_changes_nothing(client, scripted):
    scripted({1: {"d6": 2, "d8": 3, "d10": 4, "d12": 9}})
    t = Table(client)
    todd = t.players[0]
    t.ok(t.host, "start")
    assert t.reason(todd, "spend", die="d6", row="Ring", circle=0) == "Round 1 is not rolled yet."
    t.ok(t.host, "roll", round=1)
    assert t.reason(todd, "spend", die="d12", row="Pendant", circle=1) == "The d12 cannot be spent on Wood."
    assert t.reason(todd, "spend", die="d6", row="Ring", circle=0) == ("Ring's 3 needs a result of at least 3; 2.")
    assert "you have 0" in t.reason(todd, "spend", die="d6", row="Ring", circle=0, adjust=1)
    t.ok(todd, "spend", die="d10", row="Everlasting", circle=1)  # research: a 4 meets "at most 4"
    assert t.reason(todd, "spend", die="d10", row="Fiery", circle=0) == "This round's d10 result is already spent."
    assert t.reason(todd, "spend", die="d8", row="Nowhere", circle=0) == "The sheet has no row Nowhere."
    mine = t.state(todd)["mine"]
    assert sum(map(sum, mine["marked"])) == 1 and mine["used"] == ["d10"]


def test_the_rules_order_example_with_printed_cards(client, scripted):
    """Item and every enchantment complete: claimed, and its coins score; otherwise refused, naming
    what is missing."""
    scripted({})
    t = Table(client, options={"cards": "printed"})
    todd = t.players[0]
    t.ok(t.host, "masteries", material="Blacksmith", energy="Enchanter")
    t.ok(t.host, "start")
    shop = ["Pendant of the Elves", "Fiery Ring of the Elves", "Backpack of the Orcs"]
    t.ok(todd, "cards", adventurer=None, shop=shop)
    t.ok(t.host, "roll", round=1)
    # every die at its highest: crafting circles take them, research needs potions (none yet)
    for die, row, circle in [("d6", "Pendant", 0), ("d8", "Ring", 0), ("d10", "Pendant", 1), ("d12", "Ring", 1)]:
        t.ok(todd, "spend", die=die, row=row, circle=circle)
    scripted({2: {"d6": 1, "d8": 1, "d10": 1, "d12": 1}})
    t.ok(t.host, "roll", round=2)
    # solo: "all Orders shift one space to the left. The leftmost Order is discarded": the
    # companion moved the line; the rules' example shoppe is laid out again for round 2
    assert [o["label"] for o in t.state(todd)["mine"]["shop"]] == shop[1:]
    t.ok(todd, "cards", adventurer=None, shop=shop)
    for die, row, circle in [("d8", "of the Elves", 0), ("d12", "of the Elves", 1)]:
        t.ok(todd, "spend", die=die, row=row, circle=circle)
    assert [values(offer, "slot") for offer in t.offers(todd, "claim")] == [[0]]
    assert t.reason(todd, "claim", slot=1) == "Fiery Ring of the Elves needs Fiery complete first."
    assert t.reason(todd, "claim", slot=2) == "Backpack of the Orcs needs Backpack and of the Orcs complete first."
    # the order is the server's to name: a phone naming one (another) is refused, not replaced
    assert error_of(t.act(todd, "claim", slot=0, order="Plate Armor of the Dragons"), 422, "order")
    mine = t.ok(todd, "claim", slot=0)["mine"]
    assert [o["label"] for o in mine["claimed"]] == ["Pendant of the Elves"]
    history = client.get(f"/api/tables/{t.code}/history").json["history"]
    assert history[-1]["payload"] == {"slot": 0, "order": "Pendant of the Elves"}
    assert mine["lines"]["orders"] == 2 and mine["fulfilled"] == 1
    assert [o["label"] for o in mine["shop"]] == shop[1:]  # printed cards: the player lays the next one
    assert mine["face_down"] == 1  # face down in the claimed card's space until the Customer phase


@pytest.mark.slow
def test_rounds_and_phases_run_to_the_end_with_ready_counts(client):
    t = Table(client, players=("Ann", "Bo"), sheets=("paper", "paper"))
    ann, bo = t.players
    assert t.reason(ann, "ready", phase="resource") == "The game has not begun yet."
    state = t.ok(t.host, "start")
    assert (state["phase"], state["round_phase"], state["round"], state["dice"]) == ("playing", "resource", 1, {})
    assert t.reason(t.host, "advance", phase="resource") == "Roll the dice for round 1 first."
    assert t.reason(ann, "ready", phase="resource") == "Round 1 is not rolled yet."
    rounds = state["rounds"]
    for round_ in range(1, rounds + 1):
        state = t.ok(t.host, "roll", round=round_)
        assert state["round"] == round_ and set(state["dice"]) == set(MAX)
        assert all(1 <= state["dice"][d] <= MAX[d] for d in MAX)
        for phase in state["round_phases"]:
            assert t.state()["round_phase"] == phase
            t.ok(ann, "ready", phase=phase)
            assert t.reason(ann, "ready", phase=phase) == "You are ready already."  # a second tap counts once
            assert t.state()["ready_count"] == 1
            state = t.ok(t.host, "advance", phase=phase)
            assert state["ready_count"] == 0
            assert "is over" in t.reason(t.host, "advance", phase=phase)  # a second host's tap
        if round_ < rounds:
            assert state["round_phase"] == "resource" and state["round"] == round_ + 1
    assert state["phase"] == "over"
    # no Customer phase in the last round; the paper sheets' final scores end the game
    assert state["round_phases"] == ["resource", "crafting", "mastery", "scoring"]
    assert t.reason(t.host, "roll", round=rounds + 1) == "The game is over."
    assert [r["round"] for r in state["rolls"]] == list(range(1, rounds + 1))


def test_a_roll_is_the_servers_once_per_round_and_cannot_be_undone(client):
    t = Table(client)
    t.ok(t.host, "start")
    sixes = {"d6": 6, "d8": 8, "d10": 10, "d12": 12}
    assert error_of(t.act(t.host, "roll", round=1, dice=sixes), 422, "dice")  # the server rolls: refused
    first = t.ok(t.host, "roll", round=1)["dice"]
    second = t.reason(t.host, "roll", round=1)  # the other host's tap, a moment later
    assert second == "Round 1 is already rolled."
    assert t.reason(t.host, "roll", round=3) == "This table is at round 2; it cannot take round 3's roll yet."
    assert error_of(undo_latest(client, t.code, t.headers(t.host)), 409)["reason"] == ("A roll cannot be taken back.")
    assert t.state()["dice"] == first
    assert error_of(t.act(t.players[0], "roll", round=2), 403)["reason"] == "Only the host does that."
    log = client.get(f"/api/tables/{t.code}/history").json["history"]
    rolls = [e for e in log if e["type"] == "roll"]
    assert len(rolls) == 1 and rolls[0]["payload"]["dice"] == first


def test_masteries_pay_master_to_everyone_reaching_them_together_then_flip(client, scripted):
    """Two digital sheets reach Blacksmith in the same Mastery phase: both score its Master value;
    a paper sheet that reaches it later says so, scores nothing on its phone, and the card stays
    Apprentice. Each merchant scores each Mastery once."""
    scripted({})
    t = Table(client, options={"cards": "printed"}, players=("Ann", "Bo", "Cy"), sheets=("digital", "digital", "paper"))
    ann, bo, cy = t.players
    t.ok(t.host, "masteries", material="Blacksmith", energy="Enchanter")
    state = t.ok(t.host, "start")
    blacksmith = next(m for m in state["masteries"] if m["name"] == "Blacksmith")
    steel = [
        (row["name"], i)
        for row in client.get(f"/api/tables/{t.code}/layout").json["rows"]
        for i, c in enumerate(row["circles"])
        if c["column"] == "steel"
    ]
    needed, marked = blacksmith["circles"], 0
    round_ = 0
    while marked < needed:
        round_ += 1
        t.ok(t.host, "roll", round=round_)
        for die in ("d8", "d10", "d12")[: min(3, needed - marked)]:
            row, circle = steel[marked]
            for who in (ann, bo):
                t.ok(who, "spend", die=die, row=row, circle=circle)
            marked += 1
    t.ok(t.host, "advance", phase="resource")
    state = t.ok(t.host, "advance", phase="crafting")
    seats = {p["name"]: p for p in state["players"]}
    assert seats["Ann"]["mastered"] == seats["Bo"]["mastered"] == ["Blacksmith"]
    for who in (ann, bo):
        assert t.state(who)["mine"]["lines"]["material-mastery"] == blacksmith["master"]
    assert next(m for m in state["masteries"] if m["name"] == "Blacksmith")["side"] == "master"  # until the phase ends
    state = t.ok(cy, "mastery", card="Blacksmith")
    assert t.reason(cy, "mastery", card="Blacksmith").startswith("You have already scored Blacksmith")
    assert t.reason(ann, "mastery", card="Blacksmith") == "Your digital sheet scores its Masteries itself."
    state = t.ok(t.host, "advance", phase="mastery")
    assert next(m for m in state["masteries"] if m["name"] == "Blacksmith")["side"] == "apprentice"
    assert next(m for m in state["masteries"] if m["name"] == "Enchanter")["side"] == "master"


def test_paper_scores_rank_with_the_tie_breaks_and_export_as_csv_and_json(client):
    t = Table(client, players=("Ann", "Bo", "Cy", "Di"), sheets=("paper",) * 4)
    t.ok(t.host, "start")
    scores = {  # Ann and Bo tie on coins, Bo has more orders; Cy and Di tie on everything
        "Ann": ({"crafting": 30, "orders": 10}, 3, 2),
        "Bo": ({"crafting": 25, "orders": 15}, 4, 0),
        "Cy": ({"research": 20}, 2, 5),
        "Di": ({"crafting": 10, "charms": 10}, 2, 5),
    }
    for who, (lines, fulfilled, potions) in zip(t.players, scores.values(), strict=True):
        t.ok(who, "scores", lines=lines, fulfilled=fulfilled, potions=potions)
    standings = t.state()["standings"]
    assert [(s["place"], s["name"], s["total"]) for s in standings] == [
        (1, "Bo", 40),
        (2, "Ann", 40),
        (3, "Cy", 20),
        (3, "Di", 20),
    ]
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/tables/{t.code}/export?format=csv").text)))
    assert [(r["place"], r["name"], r["total"], r["fulfilled"], r["potions"]) for r in rows] == [
        ("1", "Bo", "40", "4", "0"),
        ("2", "Ann", "40", "3", "2"),
        ("3", "Cy", "20", "2", "5"),
        ("3", "Di", "20", "2", "5"),
    ]
    assert rows[0]["crafting"] == "25" and rows[0]["orders"] == "15"
    exported = client.get(f"/api/tables/{t.code}/export").json
    assert exported["state"]["standings"] == standings
    assert error_of(t.act(t.players[0], "scores", lines={"crafting": -1}), 422)["field"].startswith("lines")
    assert t.reason(t.players[0], "mastery", card="Blacksmith") == "Masteries are scored in the Mastery phase."


def test_solo_has_a_rating_and_its_customer_phase_is_the_order_shift(client):
    t = Table(client)
    state = t.ok(t.host, "start")
    mine = t.state(t.players[0])["mine"]
    assert len(mine["shop"]) == 4 and len(state["waiting"]) == 2 and mine["adventurer"]["name"]
    t.ok(t.host, "roll", round=1)
    for phase in ("resource", "crafting", "mastery"):
        state = t.ok(t.host, "advance", phase=phase)
    assert state["round_phase_name"] == "Order shift"
    before = [o["label"] for o in t.state(t.players[0])["mine"]["shop"]] + [o["label"] for o in state["waiting"]]
    state = t.ok(t.host, "advance", phase="customer")
    after = [o["label"] for o in t.state(t.players[0])["mine"]["shop"]] + [o["label"] for o in state["waiting"]]
    assert after[:5] == before[1:]  # the leftmost leaves, the rest shift left, one comes in at the right
    assert state["rating"] is None  # 0 coins earns no title


def test_a_dealt_table_deals_every_player_an_adventurer_and_orders_by_the_player_count(client):
    t = Table(client, players=("Ann", "Bo", "Cy"), sheets=("digital", "paper", "digital"))
    t.ok(t.host, "start")
    heroes, shops = set(), []
    for who in t.players:
        mine = t.state(who)["mine"]
        heroes.add(mine["adventurer"]["name"])
        shops.append(mine["shop"])
        assert sum(o["double"] for o in mine["shop"]) < 3  # the rules' re-deal
    assert len(heroes) == 3 and [len(s) for s in shops] == [3, 3, 3]
    state = t.state()
    assert {m["type"] for m in state["masteries"]} == {"material", "energy"}
    assert all(m["side"] == "master" for m in state["masteries"])
    late = client.post(f"/api/tables/{t.code}/players", json={"name": "Late"})
    assert error_of(late, 409)["reason"] == "The game has begun: no one joins now."


def test_only_players_and_the_host_act_and_the_view_never_shows_another_players_sheet(client):
    t = Table(client, players=("Ann", "Bo"), sheets=("digital", "digital"))
    t.ok(t.host, "start")
    assert error_of(t.act(t.players[0], "start"), 403)["reason"] == "Only the host does that."
    error_of(t.act(t.host, "ready", phase="resource"), 403)  # a seat's own move: the host plays none with a phone
    spectator = t.state()
    assert spectator["mine"] is None
    assert all("marked" not in p for p in spectator["players"])
    ann = t.state(t.players[0])
    assert ann["mine"]["name"] == "Ann" and "marked" in ann["mine"]


def test_hosts_tapping_roll_at_once_make_one_roll(app, client):
    """Eight taps of Roll for round 1 at the same moment (a host's two phones, a co-host): one
    roll is recorded, the others are told it is already rolled."""
    t = Table(client)
    t.ok(t.host, "start")
    barrier = threading.Barrier(8)
    statuses = []

    def tap():
        barrier.wait()
        res = app.test_client().post(
            f"/api/tables/{t.code}/actions", json={"type": "roll", "round": 1}, headers=t.headers(t.host)
        )
        statuses.append((res.status_code, res.json.get("error", {}).get("reason")))

    threads = [threading.Thread(target=tap) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses, key=str) == [(200, None)] + [(409, "Round 1 is already rolled.")] * 7
    history = client.get(f"/api/tables/{t.code}/history").json["history"]
    assert [e["type"] for e in history].count("roll") == 1


def test_places_are_numbered_as_a_tournament_numbers_them():
    """Two share 1st, the next is 3rd; the order within a tie is the order given."""
    from pnp.rules.standings import numbered_places

    assert numbered_places([(40, 3, 2), (40, 3, 2), (20, 9, 9), (40, 4, 0)]) == [(1, 3), (2, 0), (2, 1), (4, 2)]
    assert numbered_places([]) == []


def test_a_dice_games_table_page_links_its_projector_and_its_event(client):
    merchants = Table(client)
    page = client.get(f"/t/{merchants.code}").text
    assert f'href="/t/{merchants.code}/projector"' in page
    assert client.get(f"/t/{merchants.code}/projector").status_code == 200
    spells = open_table(client, "magic-spell")
    assert "/projector" not in client.get(f"/t/{spells['code']}").text
    event = client.post("/api/events", json={"game": GAME}).json
    in_event = client.post(f"/api/events/{event['code']}/tables", json={}).json
    assert f'href="/e/{event["code"]}"' in client.get(f"/t/{in_event['code']}").text


def test_printed_cards_move_one_space_clockwise_for_digital_sheets(client, scripted):
    """ "Move all Orders one space clockwise around the table": with printed cards the companion
    moves a digital sheet's entered orders as the engine moves dealt ones, so only the cards it
    cannot see are entered again (a newcomer from a paper sheet)."""
    scripted({})
    names, sheets = ("Todd", "Mark", "Ann"), ("digital", "digital", "paper")
    t = Table(client, options={"cards": "printed"}, players=names, sheets=sheets)
    todd, mark, _ = t.players
    t.ok(t.host, "masteries", material="Blacksmith", energy="Enchanter")
    t.ok(t.host, "start")
    lines = [
        (todd, ["Pendant of the Elves", "Fiery Ring of the Elves", "Backpack of the Orcs"]),
        (mark, ["Fiery Backpack", "Shocking Scroll", "Backpack of the Dragons"]),
    ]
    for who, shop in lines:
        t.ok(who, "cards", adventurer=None, shop=shop)
    t.ok(t.host, "roll", round=1)
    for phase in ("resource", "crafting", "mastery", "customer"):
        t.ok(t.host, "advance", phase=phase)
    shops = [[o["label"] for o in t.state(who)["mine"]["shop"]] for who, _ in lines]
    # Todd's leftmost goes to Mark's right end; Ann's (paper) comes to Todd, for Todd to enter.
    # The whole-line reading would have given Mark all three of Todd's.
    assert shops[1] == ["Shocking Scroll", "Backpack of the Dragons", "Pendant of the Elves"]
    assert shops[0] == ["Fiery Ring of the Elves", "Backpack of the Orcs"]


def test_a_printed_claims_face_down_replacement_keeps_its_space_and_is_entered_again():
    """ "replaced with a face-down Order from the deck": the companion cannot see the printed
    replacement, so the claimed card stands in, face down, in its space. When the orders move,
    that space passes on as a card to enter, not the face-up card beside it."""
    from pnp.games.merchants_of_magick.cards_printed import orders_moved
    from pnp.games.merchants_of_magick.rules import Merchant, OrderCard
    from pnp.games.merchants_of_magick.rules import Table as Engine

    cards = book(CONTENT)
    engine = Engine(cards, [Merchant(cards.sheet) for _ in range(3)], [], [])
    card = [OrderCard("Ring", "Fiery", None, n) for n in range(9)]
    engine.merchants[0].lay([(card[0], False), (card[1], True), (card[2], True)])  # 0 claimed
    engine.merchants[1].shop, engine.merchants[2].shop = card[3:6], card[6:9]
    orders_moved(engine, [True, True, False])
    assert [[c.coins for c in m.shop] for m in engine.merchants[:2]] == [[1, 2], [4, 5]]


CONTENT = load_game(game(GAME), [CONTENT_DIR])
LOWEST = {"d6": 1, "d8": 1, "d10": 1, "d12": 1}


def apply(state: dict, actor: str, action) -> dict:
    return TRACKER.apply(CONTENT, state, actor, action)


def _round_ten_mastery(shop, adventurer=None) -> dict:
    """A printed-cards table of one digital sheet, through the tracker, at round 10's Mastery phase."""
    state = TRACKER.join(TRACKER.setup(CONTENT, TRACKER.Options(cards="printed")), "todd", "Todd")
    state = apply(state, "todd", ChooseSheet(kind="digital"))
    state = apply(state, HOST, SetMasteries(material="Blacksmith", energy="Enchanter"))
    state = apply(state, HOST, Start())
    for r in range(1, 11):
        state = apply(state, HOST, Roll(round=r, dice=LOWEST))
        for phase in ("resource", "crafting"):
            state = apply(state, HOST, Advance(phase=phase))
    assert (state["round"], state["round_phase"]) == (10, "mastery")
    return apply(state, "todd", SetCards(adventurer=adventurer, shop=shop))  # the cards now


def test_a_free_circle_owed_in_round_tens_mastery_phase_is_marked_not_lost():
    """ "The player marks ONE crafting or spell research circle of their choice for free": a
    delivery in the Mastery phase owes one; the game waits for it, in round 10 too."""
    state = _round_ten_mastery([])
    state["engine"]["merchants"][0]["free_circles"] = 1  # a delivery made in this Mastery phase
    with pytest.raises(Refused, match="Todd has a free circle to mark first"):
        apply(state, HOST, Advance(phase="mastery"))
    state = apply(state, "todd", Free(row="Ring", circle=0))
    assert apply(state, HOST, Advance(phase="mastery"))["phase"] == "over"


def test_a_digital_sheet_claims_an_order_it_can_fill_before_the_game_moves_on():
    """ "If a player completes both the Item and all Enchantments required by a face-up Order
    currently in their shoppe, they immediately claim that Order": not lost to the orders moving
    on, nor to the game's end."""
    state = _round_ten_mastery(["Pendant of the Elves", "Backpack of the Orcs"])
    for name in ("Pendant", "of the Elves"):
        state["engine"]["merchants"][0]["completed"][book(CONTENT).sheet.row(name)] = True
    state = apply(state, HOST, Advance(phase="mastery"))
    mine = TRACKER.view(state, "todd")["mine"]
    assert [o["label"] for o in mine["claimed"]] == ["Pendant of the Elves"]
    assert [o["label"] for o in mine["shop"]] == ["Backpack of the Orcs"]


def test_a_delivery_the_sheet_can_make_holds_the_mastery_phase_until_made():
    """ "Sponsored Adventurers function essentially as 3 Order cards that will never leave your
    shoppe": filled as immediately as an order, but its reward may be a free circle of the
    player's choice, so the phase waits for the delivery rather than making it."""
    state = _round_ten_mastery([], adventurer="The Ranger")
    for name in ("Ring", "of the Elves"):
        state["engine"]["merchants"][0]["completed"][book(CONTENT).sheet.row(name)] = True
    with pytest.raises(Refused, match="Todd can deliver their adventurer's accessory first"):
        apply(state, HOST, Advance(phase="mastery"))
    state = apply(state, "todd", Deliver(category="accessory"))
    assert apply(state, HOST, Advance(phase="mastery"))["phase"] == "over"


def test_every_completion_of_every_move_offered_mid_round_is_accepted():
    """The promise the phones' buttons rest on: each way to complete each offer (a die, a row, a
    circle and the potions moving the result; a claim; Ready; a paper box; the host's moves and
    corrections) is a move the rules accept now; a circle left out of a die's offer is refused."""
    chance = SecureChance(random.Random(3))

    def act(state, actor, action):
        return TRACKER.apply(CONTENT, state, actor, TRACKER.draw(CONTENT, state, actor, action, chance))

    state = TRACKER.setup(CONTENT, TRACKER.Options())
    for pid in ("ann", "bo"):
        state = TRACKER.join(state, pid, pid.title())
    state = act(state, "ann", ChooseSheet(kind="digital"))
    state = act(act(state, HOST, Start()), HOST, Roll(round=1))
    state["engine"]["merchants"][0]["potions"] = 2  # potions to move the results with
    tried = {}
    for caller in (Caller("ann"), Caller("bo"), Caller(None, host=True)):
        for offer in TRACKER.offers(CONTENT, state, caller, chance):
            actor = caller.seat or HOST
            for body in completions(offer, most=2000 if offer["type"] == "spend" else 20):
                action = TRACKER.actions[offer["type"]].model_validate(body)
                action = TRACKER.draw(CONTENT, state, actor, action, chance.trial())
                TRACKER.apply(CONTENT, state, actor, action, trial=True)
                tried[offer["type"]] = tried.get(offer["type"], 0) + 1
    assert set(tried) == {"spend", "ready", "claim", "scores", "advance", "roll"}
    assert tried["spend"] > 100 and tried["scores"] == 20 * 2  # Bo's own box, and the host's for Bo
    spend = next(o for o in TRACKER.offers(CONTENT, state, Caller("ann"), chance) if o["type"] == "spend")
    die = spend["pick"][0]["one_of"][0]
    offered = {(row["value"], c["value"]) for row in die["pick"][0]["one_of"] for c in row["pick"][0]["one_of"]}
    left_out = next(
        (row.name, k)
        for row in book(CONTENT).sheet.rows
        for k in range(len(row.circles))
        if (row.name, k) not in offered
    )
    with pytest.raises(Refused):
        act(state, "ann", Spend(die=die["value"], row=left_out[0], circle=left_out[1]))


def test_the_host_puts_a_paper_score_box_right_and_a_player_only_their_own(client):
    """A paper sheet's score box is the host's correction: the host enters it for any seat, even
    one with a phone; a player enters only their own, and a digital sheet's fills itself."""
    t = Table(client, players=("Ann", "Bo", "Cy"), sheets=("paper", "paper", "digital"))
    ann, bo, cy = t.players
    t.ok(t.host, "start")
    seats = {p["name"]: p["id"] for p in t.state()["players"]}
    box = {"lines": {"crafting": 9}, "fulfilled": 1, "potions": 2}
    t.ok(t.host, "scores", player=seats["Bo"], **box)
    assert {s["name"]: s["total"] for s in t.state()["standings"]}["Bo"] == 9
    assert {m["for"] for m in t.offers(t.host, "scores")} == {seats["Ann"], seats["Bo"]}  # the paper sheets
    assert [m["payload"] for m in t.offers(ann, "scores")] == [{"player": seats["Ann"]}]
    assert error_of(t.act(ann, "scores", player=seats["Bo"], **box), 403)["reason"].startswith("You can only")
    assert t.reason(cy, "scores", **box) == "A digital sheet fills its score box itself."
    history = client.get(f"/api/tables/{t.code}/history").json["history"]
    assert (history[-1]["name"], history[-1]["for_name"]) == ("Host", "Bo")


def test_a_sheet_is_chosen_before_the_start_and_each_choice_changes_it(client):
    t = Table(client, players=("Ann",), sheets=("paper",))
    (ann,) = t.players
    assert [values(m, "kind") for m in t.offers(ann, "sheet")] == [["digital"]]
    assert t.reason(ann, "sheet", kind="paper") == "You are on a paper sheet already."
    t.ok(ann, "sheet", kind="digital")
    t.ok(t.host, "start")
    assert t.reason(ann, "sheet", kind="paper") == "The game has already begun."
    assert t.offers(ann, "sheet") == []
