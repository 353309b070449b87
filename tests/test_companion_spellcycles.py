"""Spellcycles through the companion's API (Flask's test client, SQLite and PostgreSQL): a seeded
game on the phones, two wizards with phones and one seat without, which the host plays, driven
by a script from the moves each phone is offered, to the end with the scores the engine computes
from the same moves; no wizard's certificates reach another (a rival's phone, the host, the host
playing the kept seat, a spectator) through the table, its history, its exports, its stream or a
refusal, read after every move, on the phones and with real pieces; a refused move answers JSON
with the rules' reason or the flow's (409, 403) or the field at fault (422), and no cast, however
wrong, is a 500; undo takes back a placed piece, never a roll or a cast that drew."""

from __future__ import annotations

import collections
import json
import random
from types import SimpleNamespace

import pytest

from pnp.rules.offers import sample
from pnp.rules.table import UNDO
from tests.support.api import bearer, error_of, undo_latest
from tests.support.inprocess import ApiTable, read_stream
from tests.test_spellcycles_tracker import engine_replay, scripted

GAME = "spellcycles"
# Lists of two whole numbers the views show openly: none of them is a certificate.
PUBLIC_PAIRS = {"crescents", "faces", "rolled", "squares", "recolour", "marker", "cauldron", "line", "pieces"}
PUBLIC_PAIRS |= {"take", "to", "spaces", "range", "size"}  # a cast's choices; the offers' bounds


class Table(ApiTable):
    """A Spellcycles table (on the phones unless told): each viewer's headers by player id, "host"
    or "spectator"; `kept` names seats without a phone, which the host plays (`?as=`)."""

    def __init__(self, client, names=("Ada", "Bo", "Cy"), options=None, kept=()):
        super().__init__(client, GAME, names, {"mode": "phones", **(options or {})}, kept)

    def moves(self, viewer) -> list[dict]:
        return self.read(viewer)["moves"]

    @property
    def turn(self) -> str:
        return self.read()["state"]["turn"]["player"]

    def log(self):
        return self.client.application.extensions["play"].store.log.read(self.code)

    def held(self, ever: dict[str, set]) -> None:
        """Adds to `ever` the certificates each wizard holds now, read from the server's own
        replay of the log (no route): a card taken from another wizard is the taker's too."""
        state = self.replayed()
        for pid, wizard in zip(state["players"], (state["engine"] or {"wizards": []})["wizards"], strict=False):
            ever.setdefault(pid, set()).update(tuple(c) for c in wizard["certificates"])

    def reads(self, viewer) -> list:
        """What `viewer` gets now from the table, its history, both exports and the stream's newest
        event, and every answer to its own moves (refusals too): as JSON values."""
        h, q = self.headers(viewer), self.query(viewer)
        base = f"/api/tables/{self.code}"
        got = [self.client.get(base + path + q, headers=h).json for path in ("", "/history", "/export")]
        got.append(self.client.get(f"{base}/export?format=csv", headers=h).data.decode())
        seq, kept = got[0]["seq"], q.replace("?", "&")
        events = read_stream(self.client, self.code, seq, f"?after={seq - 1}{kept}", h).decode().splitlines()
        got += [json.loads(line[6:]) for line in events if line.startswith("data: ")]
        got += [json.loads(answer) for answer in self.answers[viewer]]
        self.answers[viewer].clear()
        return got


def pairs(value, key=None):
    """Every list of two whole numbers in a JSON value, outside the keys that show them openly."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in PUBLIC_PAIRS:
                yield from pairs(v, k)
    elif isinstance(value, list):
        if len(value) == 2 and all(isinstance(n, int) and not isinstance(n, bool) for n in value):
            yield tuple(value)
        else:
            for v in value:
                yield from pairs(v, key)


def assert_secrets_kept(table: Table, ever: dict[str, set]) -> None:
    """No viewer holds, anywhere in what it is sent, a certificate only another wizard was given
    (the host may see those of the seats it plays); each wizard is sent their own hand."""
    for viewer in ["host", "spectator", *table.players]:
        values = table.reads(viewer)
        shown = {pair for value in values for pair in pairs(value)}
        own = (
            set().union(*(ever.get(pid, set()) for pid in table.kept)) if viewer == "host" else ever.get(viewer, set())
        )
        others = set().union(*(cards for pid, cards in ever.items() if pid != viewer)) - own
        assert not shown & others, f"{viewer} was shown {sorted(shown & others)}"
        text = json.dumps(values)
        assert '"pile": [' not in text and '"seed"' not in text and '"wizards"' not in text, viewer
        if viewer in table.players:
            assert {tuple(c) for c in values[0]["state"]["hand"]} <= shown & own


def probe(table: Table, me: str, rng: random.Random) -> None:
    """Moves that are refused: a rival (or the host, or a spectator's page) sends a move offered to
    the wizard whose turn it is; the wizard sends a cast of a spell that cannot be cast."""
    offered = table.moves(me)
    mine = [o for o in offered if o["type"] != "essence"]
    if not mine:
        return
    chosen = rng.choice(mine)
    body = sample(chosen, rng)
    for rival in (p for p in [*table.players, "host"] if p != me and (p != "host" or me not in table.kept)):
        res = table.act(rival, chosen["type"], **body)
        assert res.status_code in (403, 409), (rival, chosen["type"], res.json)
    line = len(table.read()["state"]["line"])
    res = table.act(me, "cast", position=rng.randrange(line), match=rng.randrange(3), paid=rng.randrange(3))
    assert res.status_code in (200, 409, 422), res.json


def play_turn(table: Table, rng: random.Random, check) -> None:
    """One wizard's turn by the script (tests.test_spellcycles_tracker.scripted) from the moves
    their phone (or the host's, for a kept seat) is offered; `check()` after every move."""
    me, tried = table.turn, set()
    while table.read()["state"]["phase"] == "playing" and table.turn == me:
        move = scripted(table.moves(me), rng, tried)
        assert move is not None
        table.ok(me, move[0], **move[1])
        check()


@pytest.fixture
def whole_game(client):
    """Two wizards with phones and one the host plays, on the phones, played by the script to the
    end over the API; every viewer's every route read after every move, refusals among them."""
    table = Table(client, names=("Ada", "Bo"), kept=("Cy",))
    ever: dict[str, set] = {}

    def check():
        table.held(ever)
        assert_secrets_kept(table, ever)

    table.ok("host", "start", first=table.players[0])
    check()
    rng, turns = random.Random(5), 0
    while table.read()["state"]["phase"] == "playing":
        probe(table, table.turn, rng)
        play_turn(table, rng, check)
        turns += 1
        assert turns < 200, "the script's game did not end"
    table.ever = ever
    return table


def test_a_whole_game_on_the_phones_with_a_kept_seat_ends_with_the_engines_scores_and_no_card_leaks(whole_game):
    table = whole_game
    state = table.read()["state"]
    assert state["phase"] == "over" and state["turn"] is None
    log = table.log()
    undone = {e.payload["seq"] for e in log if e.type == UNDO}
    moves = [e for e in log if e.type != UNDO and e.seq not in undone]
    assert sum(e.type == "cast" for e in moves) >= 3, "the script cast spells"
    assert any(e.type == "cast" and e.actor in table.kept for e in moves), "the host cast for the kept seat"
    engine = engine_replay(SimpleNamespace(state={"players": table.players}, log=moves))
    want = {pid: engine.score(p) for p, pid in enumerate(table.players)}
    assert state["scores"] == want
    assert {p["id"]: p["score"] for p in state["players"]} == want
    assert state["winners"] == [table.players[p] for p in engine.winners()]
    assert any(want.values()), "someone scored"
    rows = table.client.get(f"/api/tables/{table.code}/export?format=csv").data.decode().splitlines()
    assert rows[0].startswith("name,score") and len(rows) == 4
    assert all(table.ever.get(pid) for pid in table.players), "every seat was dealt certificates, kept secret"


def test_a_refused_move_answers_json_with_the_reason_and_changes_nothing(client):
    table = Table(client)
    ada, bo, _ = table.players
    assert table.refused(ada, "renew")["reason"] == "The game has not begun yet."
    assert table.refused(ada, "start", status=403)["reason"] == "Only the host does that."
    table.ok("host", "start", first=table.players[0])
    assert table.refused(bo, "renew")["reason"] == "It is Ada's turn."
    assert table.refused("host", "cauldron", colour="red", large=1)["reason"] == (
        "This table plays with everything on the phones: that move is not part of it."
    )
    before = table.read()["seq"]
    piece = table.read(ada)["state"]["players"][0]["apothecary"][0]
    reason = table.refused(ada, "contribute", piece=piece, space=0)["reason"]
    assert "Renew" in reason, reason  # the engine's words: Contribute comes after Renew
    table.ok(ada, "renew")
    state = table.read(ada)["state"]
    assert table.refused(ada, "contribute", piece=["purple", "large"], space=0)["reason"] == (
        "There is no purple piece in this game."
    )
    assert table.refused(ada, "skip_contribute")["reason"] == "Contribute: you must place a piece from your apothecary."
    assert table.refused(ada, "contribute", status=422, piece=piece, space=-1)["field"].endswith("space")
    assert table.refused(ada, "contribute", status=422, piece=[piece[0], "huge"], space=0)
    assert table.refused(ada, "dance", status=422)["field"] == "type"
    assert table.refused(ada, "contribute", piece=piece, space=len(state["field"]))["reason"].endswith(".")
    assert table.read()["seq"] == before + 1  # only the Renew was recorded
    assert table.refused(ada, "cast", position=0, shape=0, origin=0)["reason"] == (
        "Casting comes at Reap; this is Contribute."
    )
    space = next(s for s, stack in enumerate(state["field"]) if not stack)
    state = table.ok(ada, "contribute", piece=piece, space=space)
    asleep = next(s for s in state["line"] if not s["active"])
    for where in ({"shape": 0, "origin": 0}, {"match": 0}):  # named by square, or by one of its matches
        assert table.refused(ada, "cast", position=asleep["position"], **where)["reason"] == (
            f"{asleep['name']} has no moon crescent: only active spells are cast."
        )
    awake = next(s for s in state["line"] if s["active"])
    assert table.refused(ada, "cast", position=awake["position"], match=60)["reason"].endswith("there is no match 61.")
    for res in (table.act(ada, "cast", position=99, shape=0, origin=0), table.act(ada, "progress", position=99)):
        assert res.status_code in (409, 422) and res.is_json, res.data[:300]


def test_a_host_who_keeps_a_seat_plays_its_turn_and_puts_anyones_essence_right(client):
    """The issue: a host who also plays tapped + on another wizard's essence and was refused."""
    table = Table(client, names=("Ada",), kept=("Cy",))
    ada, cy = table.players
    table.ok("host", "start", first=table.players[0])
    [essence] = [o for o in table.moves(cy) if o["type"] == "essence"]
    assert {choice["value"] for choice in essence["pick"][0]["one_of"]} == {ada, cy}
    assert {o["type"] for o in table.moves(cy)} == {"essence"}  # Ada's turn: Cy's seat only corrects
    table.ok(cy, "essence", wizard=ada, change=2)  # the host's correction, made from the kept seat's page
    assert table.refused(ada, "essence", status=403, wizard=cy, change=1)["reason"] == "Only the host does that."
    table.ok(ada, "renew")
    assert table.refused("host", "renew", status=403)["reason"].startswith("A seat's move is made as that seat")
    rng, tried = random.Random(1), set()
    while table.turn == ada:
        type_, body = scripted(table.moves(ada), rng, tried)
        table.ok(ada, type_, **body)
    assert {o["type"] for o in table.moves(cy)} >= {"renew", "essence"}
    table.ok(cy, "renew")
    assert table.read()["state"]["last_roll"]["player"] == cy


def test_undo_takes_back_a_placed_piece_never_a_roll_or_a_cast_that_drew(client):
    table = Table(client)
    ada = table.players[0]
    table.ok("host", "start", first=table.players[0])
    undo = lambda who: undo_latest(client, table.code, table.headers(who))  # noqa: E731
    error_of(undo("host"), 409)  # the deal
    rolled = table.ok(ada, "renew")["last_roll"]
    error_of(undo(ada), 409)
    error_of(undo("host"), 409)
    assert table.read()["state"]["last_roll"] == rolled  # the same roll, not rolled again
    state = table.read(ada)["state"]
    piece = state["players"][0]["apothecary"][0]
    space = next(s for s, stack in enumerate(state["field"]) if not stack)
    table.ok(ada, "contribute", piece=piece, space=space)
    assert undo(ada).status_code == 200
    state = table.read(ada)["state"]
    assert state["field"][space] == [] and piece in state["players"][0]["apothecary"]
    assert state["last_roll"] == rolled and state["turn"]["step"] == "contribute"
    table.ok(ada, "contribute", piece=piece, space=space)
    table.ok(ada, "progress", position=state["crescents"][0])
    # A cast draws certificates: once one is made, it stands.
    rng = random.Random(3)
    while table.read()["state"]["phase"] == "playing" and not any(e.type == "cast" for e in table.log()):
        play_turn(table, rng, lambda: None)
    last = table.log()[-1]
    cast = next(e for e in reversed(table.log()) if e.type == "cast")
    if last.seq == cast.seq:
        error_of(undo(cast.actor), 409)
    else:  # a Progress after it may be taken back, then the cast stands
        assert undo(last.actor).status_code == 200
        error_of(undo(cast.actor), 409)
    assert any(e.seq == cast.seq for e in table.log())
    history = client.get(f"/api/tables/{table.code}/history", headers=table.headers(cast.actor)).json["history"]
    assert not next(e for e in history if e["seq"] == cast.seq)["undone"]


def garbage_choice(rng: random.Random) -> dict:
    """A choice almost of the right shape: spaces on and off the field, players real and not."""
    value = lambda: rng.choice([rng.randrange(-2, 70), [rng.randrange(-2, 70) for _ in range(rng.randrange(4))]])  # noqa: E731
    keys = ["player", "take", "to", "spaces", "crescent", "pieces"]
    made = {}
    for key in rng.sample(keys, rng.randrange(len(keys) + 1)):
        if key == "player":
            made[key] = rng.choice(["p1", "p2", "p3", "p9"])
        elif key == "pieces":
            made[key] = [[rng.choice(["red", "blue", "black"]), rng.choice(["small", "large"])]]
        elif key in ("take", "to") and rng.random() < 0.5:
            made[key] = rng.randrange(-2, 70)
        else:
            made[key] = value() if key != "crescent" else rng.randrange(-2, 14)
    return made


def test_a_cast_with_any_choices_is_made_or_refused_never_a_server_error(client):
    """Hundreds of casts at Reap with wrong positions, matches, payments and choices: each is
    made (200) or refused in JSON (409, 422), and the script's game goes on."""
    rng, answered = random.Random(23), collections.Counter()
    table = Table(client)
    table.ok("host", "start", first=table.players[0])
    tries = 0
    while tries < 300:
        state = table.read()["state"]
        if state["phase"] == "over":
            table = Table(client)
            table.ok("host", "start", first=table.players[0])
            continue
        me = state["turn"]["player"]
        offered = table.moves(me)
        if state["turn"]["step"] != "reap":
            type_, body = scripted(offered, rng, set())
            table.ok(me, type_, **body)
            continue
        casts = [o for o in offered if o["type"] == "cast"]
        payload = {"position": rng.randrange(len(state["line"]) + 1), "paid": rng.choice([None, 0, 1, 3, 9])}
        if casts and rng.random() < 0.6:
            payload = {**payload, **rng.choice(casts)["payload"], "match": rng.randrange(4)}
        else:
            payload |= (
                {"match": rng.randrange(3)}
                if rng.random() < 0.5
                else {"shape": rng.randrange(5), "origin": rng.randrange(70)}
            )
        payload["choices"] = [garbage_choice(rng) for _ in range(rng.randrange(3))]
        res = table.act(me, "cast", **payload)
        assert res.status_code in (200, 409, 422), (payload, res.status_code, res.data[:300])
        assert res.is_json
        answered[res.status_code] += 1
        tries += 1
        now = table.read()["state"]
        if rng.random() < 0.1 and now["phase"] == "playing" and now["crescents"]:  # none once casts took them all
            table.act(me, "progress", position=now["crescents"][0])
    assert set(answered) == {200, 409, 422}, answered  # made, refused by the rules, malformed


def test_with_real_pieces_a_cast_by_hand_deals_face_down_to_the_caster_alone(client):
    """The companion keeps the certificates of a table with real pieces too: each cast recorded
    by hand (each spell the wizard is offered) deals the caster cards only their phone sees, read
    as every viewer after every move."""
    table = Table(client, options={"mode": "pieces"})
    table.ok("host", "start", first=table.players[0])
    ever: dict[str, set] = {}

    def check():
        table.held(ever)
        assert_secrets_kept(table, ever)

    casts = 0
    for _ in range(12):
        state = table.read()["state"]
        if state["phase"] != "playing":
            break
        me = state["turn"]["player"]
        table.ok(me, "renew")
        check()
        for offered in [o for o in table.moves(me) if o["type"] == "cast"][:1]:
            table.ok(me, "cast", **scripted([offered], random.Random(1), set())[1], prestige=2)
            casts += 1
            check()
        crescents = table.read()["state"]["crescents"]
        table.ok(me, "progress", position=crescents[0] if crescents else None)
        check()
    assert casts >= 2 and sum(map(len, ever.values())) >= 4, "casts dealt certificates"
    spectator = table.read()["state"]
    assert spectator["hand"] == [] and "field" not in spectator
    assert [p["certificates"] for p in spectator["players"]] == [
        len(table.read(pid)["state"]["hand"]) for pid in table.players
    ]


@pytest.mark.parametrize("value", ["yes", 1, "true", None])
def test_a_yes_no_option_takes_only_true_or_false(client, value):
    made = client.post("/api/tables", json={"game": "spellcycles", "options": {"duel": value}})
    assert made.status_code == 422
    assert made.json["error"]["field"] == "options.duel"
    assert client.post("/api/tables", json={"game": "spellcycles", "options": {"duel": True}}).status_code == 201


def test_a_seat_without_a_phone_is_played_only_with_the_hosts_token(client):
    table = Table(client, names=("Ada",), kept=("Cy",))
    cy = table.kept[0]
    res = client.get(f"/api/tables/{table.code}?as={cy}", headers=bearer(table.tokens[table.players[0]]))
    assert res.status_code == 403
