"""Magecraft through the companion's API (Flask's test client, SQLite and PostgreSQL): two wizards,
and four, play a whole game on the phones, driven by the script of tests/test_magecraft_tracker.py,
to the end the engine rules; no viewer (the other wizard, the host, a spectator) is sent a hand, a bag's
contents or a gem drawn that is not theirs through the table, its history, its exports, its stream
or the answers to its own moves, read after every move; a malformed move is JSON 422 naming its
field, a refused one 409 with the rules' reason, never a 500; a draw is never undone."""

from __future__ import annotations

import json
import random

import pytest

from pnp.rules.chance import SecureChance
from pnp.rules.table import Refused
from tests.support.api import error_of, undo_latest
from tests.support.inprocess import ApiTable, seen
from tests.test_magecraft_tracker import gems_of, opening, play_turn

GAME = "magecraft"


class Table(ApiTable):
    """A Magecraft table over the API, with the script's interface (`do`, `view`, `public`, `seat`,
    `phase`, `turn`): the host's and each wizard's tokens by player id."""

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

    def secrets(self) -> dict:
        """Each wizard's hand and bag, from the server's own replay of the log (no route)."""
        state = self.replayed()
        colours = state["shown"]["colours"]
        wizards = (state["game"] or {"wizards": []})["wizards"]
        return {
            pid: {area: dict(zip(colours, w[area], strict=True)) for area in ("hand", "bag")}
            for pid, w in zip(state["players"], wizards, strict=True)
        }


def walk(value):
    """Every dict inside a JSON value."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


LOGS_EVERY = 8  # checks between two reads of the whole history and exports


def assert_secrets_kept(table: Table, logs: bool | None = None) -> None:
    """Every hand, bag and drawn gem anything sent to a viewer holds is the viewer's own: the
    state's hand is theirs (none for the host and a spectator), bag contents never come (the
    table's bag odds are off), and a history or stream entry lists the gems drawn only to whoever
    drew them (anyone else: how many).

    The table, the newest stream event and the answers are read at every check; the whole
    history and exports at every LOGS_EVERY-th (or when `logs`), as reading them at every move
    made a game's test quadratic. An entry, once written, is shown to a viewer the same way ever
    after, so a secret one let out is still there at the next whole read."""
    table.checks = getattr(table, "checks", 0) + 1
    logs = table.checks % LOGS_EVERY == 1 if logs is None else logs
    secrets = table.secrets()
    for viewer in table.tokens:
        values = seen(table, viewer, logs)
        text = json.dumps(values)
        assert '"wizards"' not in text and '"seed"' not in text and '"recorded"' not in text, viewer
        own = secrets.get(viewer, {"hand": {}})["hand"]
        hands = 0
        for d in walk(values):
            if isinstance(d.get("hand"), dict):
                assert d["hand"] == own, viewer
                hands += 1
            assert d.get("bag_contents") is None, viewer
            payload = d.get("payload")
            if "type" not in d or not isinstance(payload, dict):
                continue
            if d["type"] == "start" and payload.get("deal"):
                deal = payload["deal"]
                lists = [
                    pid
                    for pid, hand in zip(deal["order"], deal.get("drawn", []), strict=True)
                    if isinstance(hand, list)
                ]
                assert lists in ([], [viewer]), (viewer, deal)
            elif isinstance(payload.get("drawn"), list) and payload["drawn"]:
                assert payload["done"]["player"] == viewer, (viewer, d)
        assert hands >= 1, viewer  # the state was read


def seeded(client, monkeypatch, seed: int) -> None:
    """The server's chance from random.Random(seed), so the script's game is the same every run."""
    rng = random.Random(seed)
    monkeypatch.setattr(client.application.extensions["play"], "chance", lambda info: SecureChance(rng))


# seeds whose games the script plays to their end in few turns (26 and 47): every move is read
# as every viewer through every route, which costs a test's time for each move of a game
@pytest.mark.parametrize(("names", "seed"), [(("Ada", "Bo"), 18), (("Ada", "Bo", "Cy", "Di"), 6)], ids=["duel", "four"])
def test_a_whole_game_on_the_phones_keeps_each_hand_to_its_wizard(client, monkeypatch, names, seed):
    seeded(client, monkeypatch, seed)
    table = Table(client, names)
    check = assert_secrets_kept
    table.do("host", "start")
    check(table)
    opening(table, check)
    rng, turns = random.Random(seed), 0
    while table.phase == "playing":
        play_turn(table, rng, check)
        turns += 1
        assert turns < 400, "the script's game did not end"
    check(table, logs=True)
    state = table.view()
    assert state["phase"] == "over" and state["winner"] in table.players and state["ended"] in ("hp", "score")
    winner = next(p for p in state["players"] if p["id"] == state["winner"])
    losers = [p for p in state["players"] if p["id"] != state["winner"]]
    assert winner["score_total"] >= 20 or all(p["hp_total"] == 0 and p["out"] for p in losers)
    rows = client.get(f"/api/tables/{table.code}/export?format=csv").data.decode().splitlines()
    assert rows[0] == "name,score,hp,winner" and len(rows) == len(names) + 1
    history = client.get(f"/api/tables/{table.code}/history").json["history"]
    casts = [e for e in history if e["type"] == "cast"]
    assert casts and all(e["payload"]["done"]["spell"] for e in casts)
    drew = [e for e in history if e["type"] == "refresh"]
    assert drew and all(isinstance(e["payload"]["drawn"], int) for e in drew)  # the spectator: how many


def test_a_malformed_move_is_a_422_naming_its_field_and_a_refused_one_a_409(client):
    table = Table(client)
    ada, bo = table.players
    assert table.refused("host", "refresh")["reason"] == "The game has not begun yet."
    assert table.refused(ada, "start", status=403)["reason"] == "Only the host starts the game."
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
    for res in (
        table.act(ada, "learn", spell="Nothing", spellbook=9),
        table.act(ada, "revise", gems=["fire"] * 4, arrangement=[[[9, 9]]], master=[7, 7]),
        table.act(
            ada, "cast", spellbook=99, payment=[None, "fire", "darkness"], choices={"attack": [{"player": "p9"}]}
        ),
        table.act("host", "opening_discard", gems=[]),
        table.act(bo, "count", player=ada, area="hp", change=-1),
    ):
        assert res.status_code in (409, 422) and res.is_json, res.data[:300]


def test_undo_takes_back_a_move_that_drew_nothing_never_a_draw(client):
    table = Table(client)
    table.do("host", "start")
    undo = lambda who: undo_latest(client, table.code, table.headers(who))  # noqa: E731
    assert error_of(undo("host"), 409)["reason"] == "The start cannot be taken back."
    opening(table, lambda t: None)
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
    """Hundreds of moves of every type with payloads near and far from right: each is made (200)
    or refused in JSON (409, 422), and a game goes on to its end."""
    rng, answered = random.Random(11), set()
    table = Table(client)
    table.do("host", "start")
    fields = ["gems", "spellbook", "payment", "choices", "gem", "spell", "arrangement", "master", "player"]
    for _ in range(300):
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
