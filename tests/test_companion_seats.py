"""One phone keeps the score for everyone (SQLite and PostgreSQL): the host seats players who have
no phone, acts and sees for them with `?as=`, and the history says who made each move for whom; a
phone that joins later asks for such a seat and holds it, numbers and all, once the host gives it.
Every game runs from start to finish on the host's phone alone, and a seat's secrets reach only
whoever holds it: the host while it has no phone, then its phone and no longer the host."""

from __future__ import annotations

import json
import threading

import pytest

from companion.play import Play
from companion.seats import Audience, Seat
from companion.store.tables import Tables
from pnp.gamedef import games
from pnp.rules.table import HOST, RESERVED, SPECTATOR
from tests import test_companion_secrets as secret_deck
from tests.support.api import bearer, error_of, join, open_table, undo_latest, whole_history
from tests.support.inprocess import read_stream
from tests.support.secret_game import DECK
from tests.test_companion_merchants import Script
from tests.test_companion_secrets import everything_seen_by, held

app = secret_deck.app  # the companion with the secret deck among its games (a fixture)


class OnePhone:
    """A table run from the host's phone: seats without a phone, and moves made for them."""

    def __init__(self, client, game: str, names: tuple[str, ...], options=None):
        self.client = client
        opened = open_table(client, game, options)
        self.code, self.token = opened["code"], opened["host_token"]
        self.host = bearer(self.token)
        self.seats = {name: self.seat(name) for name in names}

    def seat(self, name: str) -> str:
        res = self.client.post(f"/api/tables/{self.code}/seats", json={"name": name}, headers=self.host)
        assert res.status_code == 201, res.json
        return res.json["player_id"]

    def act(self, name: str | None, type_: str, **payload):
        """A move by the host, for `name`'s seat (None: the host's own)."""
        query = "" if name is None else f"?as={self.seats[name]}"
        return self.client.post(
            f"/api/tables/{self.code}/actions{query}", json={"type": type_, **payload}, headers=self.host
        )

    def ok(self, name: str | None, type_: str, **payload) -> dict:
        res = self.act(name, type_, **payload)
        assert res.status_code == 200, res.json
        return res.json["state"]

    def history(self, headers=None) -> list[dict]:
        return whole_history(self.client, self.code, headers)


def lines(history: list[dict]) -> list[tuple]:
    """Each entry as (who made it, for whom, type)."""
    return [(e["by_name"] or e["name"], e["name"], e["type"]) for e in history]


def test_a_four_wizard_tournament_runs_from_start_to_finish_on_the_hosts_phone(client):
    t = OnePhone(client, "spells-and-potions", ("Ann", "Bob", "Cy", "Di"), {"wizards": 4})
    state = t.ok(None, "start")
    names = list(t.seats)
    moves = 0
    while state["phase"] == "playing":
        for _ in range(state["tricks_per_duel"]):  # each wizard in turn records a trick for their team
            state = t.ok(names[moves % 4], "trick", team=moves % 2)
            moves += 1
        state = t.ok(names[moves % 4], "end_duel")
        moves += 1
    assert state["phase"] == "over" and set(state["totals"]) == set(t.seats.values())
    made = lines(t.history())
    assert made[:4] == [("Host", name, "join") for name in names]
    assert made[5:9] == [
        ("Host", "Ann", "trick"),
        ("Host", "Bob", "trick"),
        ("Host", "Cy", "trick"),
        ("Host", "Di", "trick"),
    ]
    assert {e["by"] for e in t.history()[5:]} == {"host"}


def test_a_semester_runs_from_start_to_finish_on_the_hosts_phone(client):
    t = OnePhone(client, "magic-spell", ("Ann", "Bob", "Cy", "Di"))
    state = t.ok(None, "start")
    while state["phase"] == "playing":
        student = state["players"][state["turn"]]
        name = state["names"][student]
        held = {entry["spell"] for s in state["students"].values() for entry in s["spellbook"]}
        spell = max((c for c in state["deck"] if c["spell"] not in held), key=lambda c: c["credits"])
        t.ok(name, "weave")
        t.ok(name, "complete_spell", spell=spell["spell"])
        state = t.ok(name, "end_turn")
    assert state["phase"] == "over" and state["winners"]
    made = [line for line in lines(t.history()) if line[2] == "weave"]
    assert made[:4] == [("Host", name, "weave") for name in ("Ann", "Bob", "Cy", "Di")]
    # a move for a seat is that student's own: not another's turn, whoever makes it
    t2 = OnePhone(client, "magic-spell", ("Ann", "Bob"))
    t2.ok(None, "start")
    assert "Ann" in error_of(t2.act("Bob", "rest"), 409)["reason"]


def test_a_merchants_game_runs_from_start_to_finish_on_the_hosts_phone(client, monkeypatch):
    monkeypatch.setattr(Play, "chance", lambda self, info: Script({3: {"d6": 3, "d8": 5, "d10": 1, "d12": 1}}))
    t = OnePhone(client, "merchants-of-magick", ("Todd", "Una"))
    t.ok("Todd", "sheet", kind="digital")
    state = t.ok(None, "start")
    rounds = state["rounds"]
    for round_ in range(1, rounds + 1):
        state = t.ok(None, "roll", round=round_)
        if round_ == 1:
            for die, row, circle in [("d6", "Gloves", 0), ("d8", "Gloves", 1)]:
                t.ok("Todd", "spend", die=die, row=row, circle=circle)
        for phase in state["round_phases"]:  # the last round's ends with Una's final scores
            if phase == "scoring":
                t.ok("Una", "scores", lines={"crafting": 12}, fulfilled=1, potions=2)
            for name in t.seats:
                state = t.ok(name, "ready", phase=phase)
            assert state["ready_count"] == 2
            state = t.ok(None, "advance", phase=phase)
    state = client.get(f"/api/tables/{t.code}").json["state"]
    assert state["phase"] == "over"
    assert {s["name"]: s["total"] for s in state["standings"]}["Una"] == 12
    todd = client.get(f"/api/tables/{t.code}?as={t.seats['Todd']}", headers=t.host).json["state"]["mine"]
    assert todd["name"] == "Todd" and sum(map(sum, todd["marked"])) == 2  # his own sheet, as he would see it
    assert ("Host", "Todd", "spend") in lines(t.history())


def test_only_the_host_acts_for_a_seat_and_only_for_one_without_a_phone(client):
    t = OnePhone(client, "magic-spell", ("Ann",))
    bob = join(client, t.code, "Bob")
    url = f"/api/tables/{t.code}/actions"
    for headers, seat in [
        (bearer(bob["token"]), "p1"),  # a player for another seat
        ({}, "p1"),  # no token at all
        (t.host, "p2"),  # Bob has his own phone
        (t.host, "p9"),  # nobody
    ]:
        error_of(client.post(f"{url}?as={seat}", json={"type": "rest"}, headers=headers), 403, "as")
        error_of(client.get(f"/api/tables/{t.code}/history?as={seat}", headers=headers), 403, "as")
        error_of(client.get(f"/api/tables/{t.code}/events?as={seat}", headers=headers), 403, "as")
    res = client.post(f"/api/tables/{t.code}/seats", json={"name": "Cy"}, headers=bearer(bob["token"]))
    error_of(res, 403, "Authorization")
    error_of(client.post(f"/api/tables/{t.code}/seats", json={"name": "Cy"}), 401, "Authorization")
    error_of(client.post(f"/api/tables/{t.code}/seats", json={"name": ""}, headers=t.host), 422, "name")
    you = client.get(f"/api/tables/{t.code}?as=p1", headers=t.host).json["you"]
    assert you == {"actor": "p1", "host": True, "by": "host"}  # the host, playing that seat
    seats = client.get(f"/api/tables/{t.code}").json["seats"]
    assert [(s["name"], s["phone"], s["asked"]) for s in seats] == [("Ann", False, False), ("Bob", True, False)]


def test_a_full_table_refuses_a_seat_as_it_refuses_a_phone(client):
    t = OnePhone(client, "spells-and-potions", ("Ann", "Bob"), {"wizards": 2})
    res = client.post(f"/api/tables/{t.code}/seats", json={"name": "Cy"}, headers=t.host)
    assert "2 wizards" in error_of(res, 409)["reason"]


def test_a_phone_asks_for_a_seat_and_holds_it_with_its_numbers_once_the_host_gives_it(client):
    t = OnePhone(client, "magic-spell", ("Ann", "Bob"))
    t.ok(None, "start")
    t.ok("Ann", "rest")
    claim = f"/api/tables/{t.code}/seats/p1/claim"
    asked = client.post(claim)
    assert asked.status_code == 201 and asked.json["player_id"] == "p1"
    phone = bearer(asked.json["token"])
    assert client.get(f"/api/tables/{t.code}", headers=phone).json["you"] == {
        "actor": None,
        "host": False,
        "asking": "p1",
    }
    assert "Another phone" in error_of(client.post(claim), 409)["reason"]  # one ask at a time
    error_of(client.post(f"/api/tables/{t.code}/actions", json={"type": "rest"}, headers=phone), 401)
    answer = f"/api/tables/{t.code}/seats/p1/answer"
    error_of(client.post(answer, json={"give": True}, headers=phone), 401)
    for loose in ("yes", 1, "true", None):  # a seat changes hands on a real true or false only
        error_of(client.post(answer, json={"give": loose}, headers=t.host), 422, "give")
    assert client.get(f"/api/tables/{t.code}").json["seats"][0]["asked"]

    client.post(answer, json={"give": False}, headers=t.host)  # the host keeps it
    assert client.get(f"/api/tables/{t.code}", headers=phone).json["you"] == {"actor": None, "host": False}
    assert "No phone is asking" in error_of(client.post(answer, json={"give": True}, headers=t.host), 409)["reason"]
    t.ok("Ann", "end_turn")  # still the host's to move

    again = bearer(client.post(claim).json["token"])
    before = client.get(f"/api/tables/{t.code}").json["state"]
    res = client.post(answer, json={"give": True}, headers=t.host)
    assert res.status_code == 200 and res.json["seats"][0] == {
        "id": "p1",
        "name": "Ann",
        "phone": True,
        "asked": False,
        "computer": None,
    }
    mine = client.get(f"/api/tables/{t.code}", headers=again).json
    assert mine["you"] == {"actor": "p1", "host": False}
    assert mine["state"]["students"] == before["students"] and mine["state"]["players"] == before["players"]
    error_of(t.act("Ann", "rest"), 403, "as")  # the host no longer acts for Ann
    assert "already has a phone" in error_of(client.post(claim), 409)["reason"]
    seating = [(e["name"], e["type"], e["payload"]) for e in t.history() if e["type"] in ("claim_seat", "answer_seat")]
    assert seating == [
        ("Ann", "claim_seat", {}),
        ("Host", "answer_seat", {"seat": "p1", "given": False}),
        ("Ann", "claim_seat", {}),
        ("Host", "answer_seat", {"seat": "p1", "given": True}),
    ]
    # her phone takes back her latest move, which the host made for her: her end of turn
    undone = undo_latest(client, t.code, again).json["state"]
    assert (undone["players"][undone["turn"]], undone["acted"]) == ("p1", "rest")


def test_live_messages_carry_the_seats_as_of_their_entry_read_again_only_when_a_seat_changes(client, monkeypatch):
    """A room's streams render each move with the seats read once and kept until a seat changes
    (a phone asks for one, the host answers): never read again for a move, never stale."""
    t = OnePhone(client, "magic-spell", ("Ann", "Bob"))
    t.ok(None, "start")
    play = client.application.extensions["play"]
    audience, seq = Audience(t.code, SPECTATOR), play.replays.current(t.code)[2]
    reads = []
    players = Tables.players
    monkeypatch.setattr(Tables, "players", lambda self, code, *left: reads.append(code) or players(self, code, *left))

    def seats_sent(seq: int) -> list[dict]:
        """The seats in the live message of entry `seq`, as a stream woken for it gets them."""
        (text,) = [text for s, text in play.feed.after(audience, seq - 1, seq) if s == seq]
        return json.loads(text.partition("data: ")[2])["table"]["seats"]

    def move(type_: str) -> None:
        """The host's move for Ann; the seats its own check reads (who has a phone) are not the streams'."""
        before = len(reads)
        play.moves.act(t.code, Seat("p1", by=HOST), type_, {})
        del reads[before:]

    kept = [{"id": "p1", "name": "Ann", "phone": False, "asked": False, "computer": None}, {**BOB}]
    assert seats_sent(seq) == kept and not reads  # read for the host's answer to the start
    move("rest")
    assert seats_sent(seq + 1) == kept and not reads  # a move: the seats as they were, not read again
    play.seats.claim(t.code, "p1")
    assert seats_sent(seq + 2) == [{**kept[0], "asked": True}, BOB] and len(reads) == 1
    move("end_turn")
    play.seats.answer(t.code, "p1", given=True)
    assert seats_sent(seq + 4) == [{**kept[0], "phone": True}, BOB] and len(reads) == 2  # both at once
    play.moves.undo(t.code, Seat(HOST), seq + 3)  # the end of turn made for Ann
    assert seats_sent(seq + 5) == [{**kept[0], "phone": True}, BOB] and len(reads) == 2


BOB = {"id": "p2", "name": "Bob", "phone": False, "asked": False, "computer": None}


@pytest.mark.parametrize("odd", ["p1\x00", "p1%00", "%ED%A0%80", "p" * 5000, "%20"])
def test_an_odd_seat_id_is_a_refusal_on_either_database(client, odd):
    t = OnePhone(client, "magic-spell", ("Ann",))
    assert client.post(f"/api/tables/{t.code}/seats/{odd}/claim").status_code == 404
    res = client.post(f"/api/tables/{t.code}/seats/{odd}/answer", json={"give": True}, headers=t.host)
    assert res.status_code == 404
    error_of(client.get(f"/api/tables/{t.code}?as={odd}", headers=t.host), 403, "as")
    assert client.get(f"/api/tables/{t.code}").json["seats"][0]["asked"] is False


def test_phones_asking_for_a_seat_at_once_make_one_ask(app, client):
    """Six phones tap "This is me" for Ann at the same moment: one ask waits for the host, the
    others are told another phone asked first, and the waiting one's token is given the seat."""
    t = OnePhone(client, "magic-spell", ("Ann",))
    barrier, answers = threading.Barrier(6), []

    def ask():
        barrier.wait()
        res = app.test_client().post(f"/api/tables/{t.code}/seats/p1/claim")
        answers.append((res.status_code, res.json.get("token") or res.json["error"]["reason"]))

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(status for status, _ in answers) == [201] + [409] * 5
    assert {said for status, said in answers if status == 409} == {
        "Another phone has asked for Ann's seat; the host answers it first."
    }
    client.post(f"/api/tables/{t.code}/seats/p1/answer", json={"give": True}, headers=t.host)
    token = next(said for status, said in answers if status == 201)
    assert client.get(f"/api/tables/{t.code}", headers=bearer(token)).json["you"]["actor"] == "p1"
    assert [e["type"] for e in t.history()].count("claim_seat") == 1


def test_claims_of_an_unknown_seat_or_table_are_404(client):
    t = OnePhone(client, "magic-spell", ("Ann",))
    error_of(client.post(f"/api/tables/{t.code}/seats/p7/claim"), 404, "player_id")
    error_of(
        client.post(f"/api/tables/{t.code}/seats/p7/answer", json={"give": True}, headers=t.host), 404, "player_id"
    )
    error_of(client.post("/api/tables/ZZZZZZ/seats/p1/claim"), 404, "code")
    error_of(client.post(f"/api/tables/{t.code}/seats/p1/answer", json={"give": "maybe"}, headers=t.host), 422, "give")


def seen_for(client, code: str, token: str, kept: str, last_seq: int) -> bytes:
    """What the host gets from every route and stream of the table acting for the seat `kept`."""
    seen = [
        client.get(f"/api/tables/{code}{path}?as={kept}", headers=bearer(token)).data
        for path in ("", "/history", "/export")
    ]
    seen.append(read_stream(client, code, last_seq, query=f"?token={token}&as={kept}"))
    return b"\n".join(seen)


def shown(seen: bytes) -> set[str]:
    return {card for card in DECK if card.encode() in seen}


def test_a_seat_without_a_phone_shows_its_hand_to_the_host_only_until_a_phone_holds_it(client):
    t = OnePhone(client, secret_deck.GAME, ("Ann",))
    bob = join(client, t.code, "Bob")
    t.ok(None, "deal")
    t.ok("Ann", "draw")
    bob_hand = client.get(f"/api/tables/{t.code}", headers=bearer(bob["token"])).json["state"]["hand"]
    client.post(
        f"/api/tables/{t.code}/actions", json={"type": "discard", "card": bob_hand[0]}, headers=bearer(bob["token"])
    )
    cards = held(client, t.code)
    last = client.get(f"/api/tables/{t.code}").json["seq"]
    assert shown(seen_for(client, t.code, t.token, "p1", last)) == cards["p1"]  # the host, as Ann
    assert shown(everything_seen_by(client, t.code, t.token, last)) == set()  # the host, as the host
    assert shown(everything_seen_by(client, t.code, bob["token"], last)) == cards["p2"]
    assert shown(everything_seen_by(client, t.code, None, last)) == set()
    assert [e["by"] for e in t.history() if e["type"] == "draw"] == ["host"]

    # the host follows Ann's seat live until a phone holds it; then the stream ends, nothing more sent
    following = client.get(f"/api/tables/{t.code}/events?token={t.token}&as=p1", buffered=False)
    chunks = iter(following.response)
    while f"id: {last}\n".encode() not in next(chunks):
        pass
    phone = client.post(f"/api/tables/{t.code}/seats/p1/claim").json["token"]
    client.post(f"/api/tables/{t.code}/seats/p1/answer", json={"give": True}, headers=t.host)
    after = []
    for chunk in chunks:  # the stream ends; one that went on would send keepalives
        after.append(chunk)
        assert len(after) < 3, after
    assert b"id: " not in b"".join(after)
    following.close()

    last = client.get(f"/api/tables/{t.code}").json["seq"]
    assert shown(everything_seen_by(client, t.code, phone, last)) == cards["p1"]
    assert shown(everything_seen_by(client, t.code, t.token, last)) == set()
    for path in ("", "/history", "/export", "/events"):
        error_of(client.get(f"/api/tables/{t.code}{path}?as=p1", headers=t.host), 403, "as")


def test_no_game_names_an_action_as_the_tables_own_entries():
    """A game's "claim" read as a phone asking for a seat would vanish from its replay."""
    for game in games().values():
        if game.tracker:
            assert not RESERVED & set(game.load("tracker").actions), game.id
