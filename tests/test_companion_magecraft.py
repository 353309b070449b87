"""Magecraft through the companion's API (Flask's test client, SQLite and PostgreSQL), its chance
seeded (the app's CHANCE).

On the phones, with the bag odds on, the host also plays (a seat of their own) and keeps a seat
without a phone, which they play too; a third wizard plays on their own phone. Each plays from
the moves the server offers it to the game's end. No caller (the host, the host as the kept
seat, the other wizard, a spectator) is sent another seat's hand, bag or drawn gems through the
table, its offers, its history, its exports or its stream, nor learns one from a refusal: every
caller's moves not offered to it are refused with words that tell it nothing of a hand not its
own. A malformed move is JSON 422 naming its field, a refused one 403 or 409 with the reason,
never a 500; a draw is never undone; the duel dashboard with printed gems."""

from __future__ import annotations

import json
import random
import re

import pytest

from pnp.rules.offers import sample
from pnp.rules.table import Refused
from tests.support.api import bearer, error_of, join, undo_latest, whole_history
from tests.support.inprocess import ApiTable, stream_latest
from tests.test_magecraft_tracker import COLOURS, gems_of

GAME = "magecraft"


class Table(ApiTable):
    """A Magecraft table over the API, with the script's interface of tests/test_magecraft_tracker.py
    (`do`, `view`, `public`, `seat`, `phase`, `turn`): the host's and each wizard's tokens by player id."""

    def __init__(self, client, names=("Ada", "Bo"), options=None):
        super().__init__(client, GAME, names, options or {})

    def do(self, who, type_, **payload) -> dict:
        res = self.act(who, type_, **payload)
        if res.status_code == 409:
            raise Refused(res.json["error"]["reason"])
        assert res.status_code == 200, res.json
        return res.json["state"]

    def view(self, viewer="spectator") -> dict:
        return self.client.get(f"/api/tables/{self.code}", headers=self.headers(viewer)).json["state"]

    def public(self) -> dict:
        return self.view()

    @property
    def phase(self) -> str:
        return self.view()["phase"]

    @property
    def turn(self) -> str | None:
        turn = self.view()["turn"]
        return turn and turn["player"]

    def seat(self, pid) -> dict:
        return next(p for p in self.public()["players"] if p["id"] == pid)


def seeded(client, monkeypatch, seed: int) -> None:
    """The server's chance from random.Random(seed) (an app without the test's CHANCE, or a deal the
    scripts of tests/test_magecraft_tracker.py play to their end in few turns)."""
    monkeypatch.setattr(client.application.extensions["play"], "rng", random.Random(seed))


# --- the host who also plays, and keeps a seat: no secret reaches anyone else --------------------


class Caller:
    """Someone reading the table and moving on it: a token, `?as=` for the host playing a kept
    seat, and the seat whose hand and bag it may see (None: no hand)."""

    def __init__(self, name: str, token: str | None, seat: str | None, kept: bool = False):
        self.name, self.token, self.seat = name, token, seat
        self.query = f"?as={seat}" if kept else ""

    @property
    def headers(self) -> dict:
        return bearer(self.token) if self.token else {}


class HostedTable:
    """Ada is the host, on the host's phone; Ky sits without a phone (the host plays Ky); Bo has a phone."""

    def __init__(self, client):
        self.client = client
        opened = client.post("/api/tables", json={"game": GAME, "options": {"bag_odds": True}}).json
        self.code, host = opened["code"], opened["host_token"]
        path = f"/api/tables/{self.code}"
        ada = client.post(f"{path}/players", json={"name": "Ada"}, headers=bearer(host)).json
        ky = client.post(f"{path}/seats", json={"name": "Ky"}, headers=bearer(host)).json["player_id"]
        bo = join(client, self.code, "Bo")
        self.callers = [
            Caller("host", host, ada["player_id"]),
            Caller("Ada's seat token", ada["token"], ada["player_id"]),
            Caller("host as Ky", host, ky, kept=True),
            Caller("Bo", bo["token"], bo["player_id"]),
            Caller("spectator", None, None),
        ]
        self.host, self.ky, self.bo = self.callers[0], self.callers[2], self.callers[3]
        self.names = {ada["player_id"]: "Ada", ky: "Ky", bo["player_id"]: "Bo"}
        self.bodies: dict[str, dict] = {}  # a body lately offered to anyone, by type

    def read(self, caller: Caller, path: str = "") -> dict:
        res = self.client.get(f"/api/tables/{self.code}{path}{caller.query}", headers=caller.headers)
        assert res.status_code == 200, res.json
        return res.json

    def act(self, caller: Caller, type_: str, body: dict):
        url = f"/api/tables/{self.code}/actions{caller.query}"
        return self.client.post(url, json={"type": type_, **body}, headers=caller.headers)

    def secrets(self) -> dict:
        """Each seat's hand and bag, from the server's own replay of the log (no route shows it)."""
        state = self.client.application.extensions["play"].replays.replayed(self.code).state
        wizards = (state["engine"] or {"wizards": []})["wizards"]
        return {
            pid: {area: dict(zip(COLOURS, w[area], strict=True)) for area in ("hand", "bag")}
            for pid, w in zip(state["players"], wizards, strict=True)
        }

    def sent(self, caller: Caller, logs: bool, stream: bool) -> list:
        """What `caller` is sent now: the table (with its offers), and with `logs` the history and both
        exports, with `stream` the stream's newest event."""
        table = self.read(caller)
        got = [table]
        if logs:
            got += [self.read(caller, "/history"), self.read(caller, "/export")]
            csv = self.client.get(f"/api/tables/{self.code}/export?format=csv", headers=caller.headers)
            got.append(csv.data.decode())
        if stream:
            query = caller.query.replace("?", "&")
            data = stream_latest(_Stream(self, caller), caller.name, table["seq"], query).decode()
            got += [json.loads(line[6:]) for line in data.splitlines() if line.startswith("data: ")]
        return got


class _Stream:
    """A caller's stream as tests/support/inprocess.stream_latest reads one: with its token."""

    def __init__(self, table: HostedTable, caller: Caller):
        self.code, self.client, self.caller = table.code, table.client, caller

    def headers(self, _viewer) -> dict:
        return self.caller.headers


def walk(value):
    """Every dict inside a JSON value."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


def assert_only_its_own(caller: Caller, sent: list, secrets: dict) -> None:
    """Every hand, bag and drawn gem in what `caller` was sent is its own seat's: the table's hand
    and bag contents (the bag odds are on), the opening hands dealt, each gem drawn, and the moves
    it is offered (made from a hand: only its own seat's, and the host's)."""
    text = json.dumps(sent)
    assert '"engine"' not in text and '"seed"' not in text and '"recorded"' not in text, caller.name
    own = secrets.get(caller.seat, {"hand": {}, "bag": None})
    hands = 0
    for d in walk(sent):
        if isinstance(d.get("hand"), dict):
            assert d["hand"] == own["hand"], caller.name
            assert d["bag_contents"] == (own["bag"] if d["phase"] != "joining" else None), caller.name
            hands += 1
        if isinstance(d.get("moves"), list):
            assert {m["for"] for m in d["moves"]} <= {caller.seat, "host"}, (caller.name, d["moves"])
        payload = d.get("payload")
        if "type" not in d or not isinstance(payload, dict):
            continue
        if d["type"] == "start" and payload.get("deal"):
            deal = payload["deal"]
            shown = [pid for pid, hand in zip(deal["order"], deal["drawn"], strict=True) if isinstance(hand, list)]
            assert shown in ([], [caller.seat]), (caller.name, deal)
        elif isinstance(payload.get("drawn"), list) and payload["drawn"]:
            assert payload["done"]["player"] == caller.seat, (caller.name, d)
    assert hands >= 1, caller.name  # the table was read


NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def assert_refusal_tells_nothing(caller: Caller, res, secrets: dict) -> None:
    """A move refused, in words that tell the caller of no hand but its own: the engine speaks only
    of the hand of the wizard it moves for, so each "hand has one Fire" is true of the caller's."""
    assert res.status_code in (403, 409, 422) and res.is_json, (caller.name, res.status_code, res.data[:300])
    reason = res.json["error"]["reason"]
    for said in re.findall(r"hand has ([^;.]+)", reason):
        hand = secrets[caller.seat]["hand"]
        for number, colour in re.findall(r"(\w+) (Fire|Water|Earth|Light|Darkness)\b", said):
            assert NUMBERS.index(number) == hand[colour.lower()], (caller.name, reason, hand)


def chosen(moves: list[dict], rng: random.Random, spells: dict) -> dict:
    """A move among those offered, for a game of Attacks that ends soon: a discard from the opening
    hand, the spell with the most Attacks, the Cantrip; now and then learning; else Refresh."""
    attacks = lambda m: spells[m["label"]]["effects"].get("attack", 0) if m["type"] == "cast" else 0  # noqa: E731
    for types in (("opening_discard", "resolve", "cast", "cantrip"), ("learn",) * (rng.random() < 0.2), ("refresh",)):
        found = [m for m in moves if m["type"] in types]
        if found:
            return max(found, key=attacks) if any(map(attacks, found)) else rng.choice(found)
    return rng.choice(moves)


def probes(table: HostedTable, offered: set[str], rng: random.Random) -> list[tuple[str, dict]]:
    """Moves a caller is not offered now: the issue's (a spell cast or learned its hand may not pay,
    Bo's opening hand discarded for him), and two bodies lately offered to someone else."""
    made = [
        ("cast", {"spellbook": 0}),
        ("learn", {"spell": "Fireball", "spellbook": 0}),
        ("opening_discard", {"gems": ["fire", "fire"], "player": table.bo.seat}),
        *rng.sample(sorted(table.bodies.items(), key=str), min(2, len(table.bodies))),
    ]
    return [(type_, body) for type_, body in made if type_ not in offered]


CHECK_EVERY = 4  # moves between two reads of the table as every caller, and probes by one of them


def test_a_host_who_plays_and_keeps_a_seat_learns_no_other_seats_secrets(client):
    """The issue: a host (or a host who also plays) learned a rival's hand from refusals ("your hand
    has no Light"). Here the host plays their own seat and a kept one to the game's end beside Bo's
    phone, each moving from the offers, and the reads and refusals of everyone are checked: every
    answer, the table every few moves, the stream now and then, the history and exports (whose
    entries never change once written) midway and at the end."""
    table = HostedTable(client)
    rng = random.Random(3)  # a game of about a hundred moves
    assert table.act(table.host, "start", {}).status_code == 200
    by_seat = {c.seat: c for c in (table.host, table.ky, table.bo)}
    caller, seen = table.host, table.read(table.host)
    step = 0
    while seen["state"]["phase"] == "playing":
        turn, seats = seen["state"]["turn"], seen["state"]["players"]
        mover = by_seat[turn["player"] if turn else next(p["id"] for p in seats if p["to_discard"])]
        if mover is not caller:
            caller, seen = mover, table.read(mover)
        made = chosen(seen["moves"], rng, seen["state"]["spells"])
        table.bodies |= {m["type"]: sample(m, rng) for m in seen["moves"]}
        res = table.act(caller, made["type"], sample(made, rng))
        assert res.status_code == 200, (caller.name, made, res.json)
        seen = res.json
        assert_only_its_own(caller, [seen], table.secrets())  # the answer to a move
        step += 1
        if step % CHECK_EVERY == 0:
            secrets = table.secrets()
            for reader in table.callers:
                assert_only_its_own(reader, table.sent(reader, logs=step == 60, stream=step % 40 == 0), secrets)
            prober = table.callers[step // CHECK_EVERY % 4]
            for type_, body in probes(table, {m["type"] for m in table.read(prober)["moves"]}, rng):
                assert_refusal_tells_nothing(prober, table.act(prober, type_, body), secrets)
        assert step < 400, "the game did not end"
    secrets = table.secrets()
    for reader in table.callers:
        assert_only_its_own(reader, table.sent(reader, logs=True, stream=True), secrets)
    state = table.read(table.bo)["state"]
    assert state["phase"] == "over" and state["winner"] in table.names and state["ended"] in ("hp", "score")
    rows = client.get(f"/api/tables/{table.code}/export?format=csv").data.decode().splitlines()
    assert rows[0] == "name,score,hp,winner" and len(rows) == 4
    history = whole_history(client, table.code)
    assert {"opening_discard", "cast", "learn", "refresh"} <= {e["type"] for e in history}
    assert all(e["payload"]["done"]["spell"] for e in history if e["type"] == "cast")
    drew = [e for e in history if e["type"] == "refresh"]
    assert drew and all(isinstance(e["payload"]["drawn"], int) for e in drew)  # the spectator: how many
    kept = [e for e in history if e["by"] == "host"]
    assert kept and all(e["actor"] == table.ky.seat for e in kept)  # the host's moves for Ky are Ky's


# --- refusals, undo, and the duel dashboard ------------------------------------------------------


def test_a_malformed_move_is_a_422_naming_its_field_and_a_refused_one_a_409(client):
    table = Table(client)
    ada, bo = table.players
    assert table.refused(ada, "refresh")["reason"] == "The game has not begun yet."
    assert table.refused(ada, "start", status=403)["reason"] == "Only the host does that."
    table.do("host", "start")
    assert table.refused(ada, "cast", spellbook=0)["reason"] == "Casting waits until every opening hand has discarded."
    for payload, field in (
        ({"spellbook": "x"}, "spellbook"),
        ({"spellbook": -1}, "spellbook"),
        ({"spellbook": 0, "choices": {"attack": 5}}, "choices.attack"),
        ({"spellbook": 0, "choices": {"vanish": [{"from": "bag"}]}}, "choices.vanish.0.from"),
        ({"spellbook": 0, "choices": {"dance": []}}, "choices.dance"),
        ({"spellbook": 0, "payment": "fire"}, "payment"),
    ):
        assert table.refused(ada, "cast", status=422, **payload)["field"] == field, payload
    assert table.refused(ada, "opening_discard", status=422, gems=["fire", 3])["field"] == "gems.1"
    assert table.refused(ada, "revise", status=422, gems=[], arrangement=[[[0, "a"]]])["field"] == "arrangement.0.0.1"
    assert table.refused(ada, "dance", status=422)["field"] == "type"
    assert table.refused(ada, "opening_discard", gems=["purple"])["reason"] == "There is no 'purple' gem in Magecraft."
    first = table.view()["players"][0]
    hand = table.view(first["id"])["hand"]
    assert table.refused(first["id"], "opening_discard", gems=[])["reason"] == (
        f"{first['name']} discards 2 gems from the opening hand, not 0."
    )
    missing = next(c for c, n in hand.items() if not n)
    assert table.refused(first["id"], "opening_discard", gems=[missing, missing])["reason"].startswith(
        "Your hand has no"
    )
    # the host makes no move for a seat with a phone: whose hand it is, the host never hears
    assert table.refused("host", "opening_discard", status=403, gems=[missing, missing], player=first["id"])[
        "reason"
    ] == ("A seat's move is made as that seat: the host plays a seat without a phone as it (?as=).")
    assert table.refused(bo, "count", player=ada, area="hp", change=-1)["reason"] == (
        "This table plays with everything on the phones: that move is not part of it."
    )
    for res in (
        table.act(ada, "learn", spell="Nothing", spellbook=9),
        table.act(ada, "revise", gems=["fire"] * 4, arrangement=[[[9, 9]]], master=[7, 7]),
        table.act(
            ada, "cast", spellbook=99, payment=[None, "fire", "darkness"], choices={"attack": [{"player": "p9"}]}
        ),
        table.act("host", "opening_discard", gems=[]),
    ):
        assert res.status_code in (403, 409, 422) and res.is_json, res.data[:300]


def test_undo_takes_back_a_move_that_drew_nothing_never_a_draw(client):
    table = Table(client)
    table.do("host", "start")
    undo = lambda who: undo_latest(client, table.code, table.headers(who))  # noqa: E731
    assert error_of(undo("host"), 409)["reason"] == "The start cannot be taken back."
    for seat in table.public()["players"]:
        if seat["to_discard"]:
            gems = gems_of(table.view(seat["id"])["hand"])[: seat["to_discard"]]
            table.do(seat["id"], "opening_discard", gems=gems)
    me = table.turn
    before = table.view(me)
    table.do(me, "discard_shield", gems=[])
    assert undo(me).status_code == 200
    assert table.view(me) == before
    table.do(me, "refresh")
    hand = table.view(me)["hand"]
    assert error_of(undo(me), 409)["reason"] == "That move drew gems from a bag: a draw is never taken back."
    assert error_of(undo("host"), 409)["reason"] == "That move drew gems from a bag: a draw is never taken back."
    assert table.view(me)["hand"] == hand


def test_the_gems_dashboard_through_the_api(client):
    table = Table(client, names=("Ada", "Bo", "Cy"), options={"mode": "gems"})
    table.do("host", "start")
    state = table.view()
    order = [p["id"] for p in state["players"]]
    assert sorted(order) == sorted(table.players) and state["turn"]["player"] == order[0]
    table.do(order[1], "count", player=order[0], area="shield", change=2)
    table.do(order[2], "next_phase")
    state = table.view(order[0])
    assert state["players"][0]["shield"] == 2 and state["turn"]["phase"] == "casting"
    moves = client.get(f"/api/tables/{table.code}", headers=table.headers(order[2])).json["moves"]
    hp = next(m for m in moves if m["type"] == "count" and m["payload"] == {"player": order[0], "area": "hp"})
    assert hp["pick"] == [{"field": "change", "range": [-12, 0]}]  # none beyond a full HP Area
    assert table.refused("spectator", "next_phase", status=401)["field"] == "Authorization"
    assert table.refused(order[0], "count", status=422, player=order[0], area="bag", change=1)["field"] == "area"


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_bag_odds_take_only_true_or_false(client, value):
    made = client.post("/api/tables", json={"game": GAME, "options": {"bag_odds": value}})
    assert made.status_code == 422 and made.json["error"]["field"] == "options.bag_odds"
    made = client.post("/api/tables", json={"game": GAME, "options": {"mode": "dice"}})
    assert made.status_code == 422 and made.json["error"]["field"] == "options.mode"


def junk(rng: random.Random, players: list[str]):
    """A value almost of the right shape: colours real and not, numbers in and out of range."""
    return rng.choice(
        [
            rng.choice(["fire", "water", "darkness", "purple", None, 3, -1, "", [], {}]),
            [rng.choice(["fire", "earth", "light", None, 7]) for _ in range(rng.randrange(6))],
            rng.randrange(-2, 6),
            rng.choice([*players, "p9"]),
            {"attack": [{"player": rng.choice([*players, "p9"]), "colour": rng.choice(["fire", "x", None])}]},
            {
                rng.choice(["heal", "shield", "vanish"]): [
                    rng.choice(["fire", None, {"from": "discard"}, {"from": "hp"}])
                ]
            },
        ]
    )


def test_moves_with_any_payload_are_made_or_refused_never_a_server_error(client):
    """Moves of every type with payloads near and far from right: each is made (200) or refused
    in JSON (403, 409, 422), while the game goes on."""
    rng, answered = random.Random(11), set()
    table = Table(client)
    table.do("host", "start")
    fields = ["gems", "spellbook", "payment", "choices", "gem", "spell", "arrangement", "master", "player"]
    for _ in range(200):
        state = table.view()
        if state["phase"] == "over":
            table = Table(client)
            table.do("host", "start")
            continue
        if rng.random() < 0.3:  # the game goes on: the opening discards, then turns that refresh at once
            waiting = [p for p in state["players"] if p["to_discard"]]
            if waiting:
                hand = table.view(waiting[0]["id"])["hand"]
                table.do(waiting[0]["id"], "opening_discard", gems=gems_of(hand)[: waiting[0]["to_discard"]])
            else:
                table.do(state["turn"]["player"], "refresh")
            continue
        who = rng.choice([*table.players, "host"])
        type_ = rng.choice(
            ["opening_discard", "discard_shield", "cast", "cantrip", "learn", "revise", "refresh", "count"]
        )
        payload = {key: junk(rng, table.players) for key in rng.sample(fields, rng.randrange(4))}
        res = table.act(who, type_, **payload)
        assert res.status_code in (200, 403, 409, 422), (type_, payload, res.status_code, res.data[:300])
        assert res.is_json
        answered.add(res.status_code)
    assert {409, 422} <= answered, answered
