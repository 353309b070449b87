"""Spellcycles through the companion's API (Flask's test client, SQLite and PostgreSQL): three
wizards play a whole game on the phones, driven by a script that reads each view's matches, to the
end with the scores the engine computes from the same moves; one wizard's certificates reach no
other viewer (another wizard, the host, a spectator) through the table, its history, its exports or
its stream, read after every move, on the phones and with real pieces; a refused move answers JSON
with the rules' reason (409) or the field at fault (422), and no cast, however wrong, is a 500;
undo takes back a placed piece, never a roll or a cast that drew."""

from __future__ import annotations

import collections
import json
import random
from types import SimpleNamespace

import pytest

from pnp.rules.table import UNDO
from tests.support.api import error_of, undo_latest
from tests.support.inprocess import ApiTable, seen
from tests.test_spellcycles_tracker import engine_replay, least

GAME = "spellcycles"
# Lists of two whole numbers the views show openly: none of them is a certificate.
PUBLIC_PAIRS = {"crescents", "faces", "rolled", "squares", "recolour_squares", "marker", "cauldron", "line", "pieces"}
PUBLIC_PAIRS |= {"take", "to", "spaces"}  # a cast's choices


class Table(ApiTable):
    """A Spellcycles table on the phones: the host's and each wizard's headers by player id."""

    def __init__(self, client, names=("Ada", "Bo", "Cy"), options=None):
        super().__init__(client, GAME, names, {"mode": "phones", **(options or {})})

    def ok(self, who, type_, **payload) -> dict:
        res = self.act(who, type_, **payload)
        assert res.status_code == 200, res.json
        return res.json["state"]

    def view(self, viewer="spectator") -> dict:
        return self.client.get(f"/api/tables/{self.code}", headers=self.headers(viewer)).json

    @property
    def turn(self) -> str:
        return self.view()["state"]["turn"]["player"]

    def log(self):
        return self.client.application.extensions["play"].store.log(self.code)

    def held(self, ever: dict[str, set]) -> None:
        """Adds to `ever` the certificates each wizard holds now, read from the server's own
        replay of the log (no route): a card taken from another wizard is the taker's too."""
        state = self.replayed()
        for pid, wizard in zip(state["players"], (state["game"] or {"wizards": []})["wizards"], strict=False):
            ever.setdefault(pid, set()).update(tuple(c) for c in wizard["certificates"])


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
    """No viewer holds, anywhere in what it is sent, a certificate only another wizard was
    given; each wizard is sent their own hand (the check looks where the cards would be)."""
    for viewer in table.tokens:
        values = seen(table, viewer)
        shown = {pair for value in values for pair in pairs(value)}
        own = ever.get(viewer, set())
        others = set().union(*(cards for pid, cards in ever.items() if pid != viewer)) - own
        assert not shown & others, f"{viewer} was shown {sorted(shown & others)}"
        text = json.dumps(values)
        assert '"pile": [' not in text and '"seed"' not in text and '"wizards"' not in text, viewer
        if viewer in table.players:
            assert {tuple(c) for c in values[0]["state"]["hand"]} <= shown & own


def choices(state: dict, match: dict) -> list[dict]:
    """The script's choices: another wizard to drain or rob, the rearmost crescent; the rest undone."""
    me = state["turn"]["player"]
    other = next(p["id"] for p in state["players"] if p["id"] != me)
    chosen = []
    for effect in state["line"][match["position"]]["effects"] or ():
        if effect["do"] in ("drain-essence", "take-certificates") and not effect.get("each"):
            chosen.append({"player": other})
        elif effect["do"] in ("move-crescent", "remove-crescent") and state["crescents"]:
            chosen.append({"crescent": state["crescents"][0]})
        else:
            chosen.append({})
    return chosen


def play_turn(table: Table, rng: random.Random, check) -> None:
    """One wizard's turn by the script: Renew, a piece onto an empty space, every match it can
    pay for cast (the fewest recolours first), then Progress; `check()` after every move."""
    me = table.turn
    table.ok(me, "renew")
    check()
    contribute(table, me, rng)
    check()
    tried = set()
    state = table.view(me)["state"]
    while state["phase"] == "playing":
        state = table.view(me)["state"]
        matches = [m for m in state["matches"] if m["position"] not in tried]
        if not matches:
            break
        match = min(matches, key=lambda m: m["recolours"])
        tried.add(match["position"])
        spell = state["line"][match["position"]]
        payload = {
            "position": match["position"],
            "shape": match["shape"],
            "origin": match["origin"],
            "paid": least(spell),
        }
        res = table.act(me, "cast", choices=choices(state, match), **payload)
        if res.status_code == 409:
            continue  # e.g. too little essence, or a wizard out of reach to drain: the script goes on
        assert res.status_code == 200, res.json
        state = res.json["state"]
        check()
    if state["phase"] == "playing":
        table.ok(me, "progress", position=state["crescents"][0] if state["crescents"] else None)
        check()


@pytest.fixture
def whole_game(client):
    """Three wizards on the phones, played by the script to the end over the API, every viewer's
    every route read after every move."""
    table = Table(client)
    ever: dict[str, set] = {}

    def check():
        table.held(ever)
        assert_secrets_kept(table, ever)

    table.ok("host", "start")
    check()
    rng, turns = random.Random(5), 0
    while table.view()["state"]["phase"] == "playing":
        play_turn(table, rng, check)
        turns += 1
        assert turns < 200, "the script's game did not end"
    table.ever = ever
    return table


def test_a_whole_three_player_game_on_the_phones_ends_with_the_engines_scores(whole_game):
    table = whole_game
    state = table.view()["state"]
    assert state["phase"] == "over" and state["turn"] is None
    log = table.log()
    undone = {e.payload["seq"] for e in log if e.type == UNDO}
    moves = [e for e in log if e.type != UNDO and e.seq not in undone]
    assert sum(e.type == "cast" for e in moves) >= 3, "the script cast spells"
    engine = engine_replay(SimpleNamespace(state={"players": table.players}, log=moves))
    want = {pid: engine.score(p) for p, pid in enumerate(table.players)}
    assert state["scores"] == want
    assert {p["id"]: p["score"] for p in state["players"]} == want
    assert state["winners"] == [table.players[p] for p in engine.winners()]
    assert any(want.values()), "someone scored"
    rows = table.client.get(f"/api/tables/{table.code}/export?format=csv").data.decode().splitlines()
    assert rows[0].startswith("name,score") and len(rows) == 4
    assert sum(map(len, table.ever.values())) > 0, "certificates were dealt, and kept secret"


def test_a_refused_move_answers_json_with_the_reason_and_changes_nothing(client):
    table = Table(client)
    ada, bo, _ = table.players
    assert table.refused("host", "renew")["reason"] == "The game has not begun yet."
    assert table.refused(ada, "start", status=403)["reason"] == "Only the host starts the game."
    table.ok("host", "start")
    assert table.refused(bo, "renew")["reason"] == "It is Ada's turn."
    before = table.view()["seq"]
    piece = table.view(ada)["state"]["players"][0]["apothecary"][0]
    reason = table.refused(ada, "contribute", piece=piece, space=0)["reason"]
    assert "Renew" in reason, reason  # the engine's words: Contribute comes after Renew
    table.ok(ada, "renew")
    state = table.view(ada)["state"]
    assert table.refused(ada, "contribute", piece=["purple", "large"], space=0)["reason"] == (
        "There is no purple piece in this game."
    )
    assert table.refused(ada, "contribute", status=422, piece=piece, space=-1)["field"].endswith("space")
    assert table.refused(ada, "contribute", status=422, piece=[piece[0], "huge"], space=0)
    assert table.refused(ada, "dance", status=422)["field"] == "type"
    assert table.refused(ada, "contribute", piece=piece, space=len(state["field"]))["reason"].endswith(".")
    assert table.view()["seq"] == before + 1  # only the Renew was recorded
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
    found = sum(m["position"] == awake["position"] for m in state["matches"])
    assert table.refused(ada, "cast", position=awake["position"], match=found)["reason"] == (
        f"{awake['name']} matches the field in {found} ways now; there is no match {found + 1}."
    )
    for res in (table.act(ada, "cast", position=99, shape=0, origin=0), table.act(ada, "progress", position=99)):
        assert res.status_code in (409, 422) and res.is_json, res.data[:300]


def test_undo_takes_back_a_placed_piece_never_a_roll_or_a_cast_that_drew(client):
    table = Table(client)
    ada = table.players[0]
    table.ok("host", "start")
    undo = lambda who: undo_latest(client, table.code, table.headers(who))  # noqa: E731
    error_of(undo("host"), 409)  # the deal
    rolled = table.ok(ada, "renew")["last_roll"]
    error_of(undo(ada), 409)
    error_of(undo("host"), 409)
    assert table.view()["state"]["last_roll"] == rolled  # the same roll, not rolled again
    state = table.view(ada)["state"]
    piece = state["players"][0]["apothecary"][0]
    space = next(s for s, stack in enumerate(state["field"]) if not stack)
    table.ok(ada, "contribute", piece=piece, space=space)
    assert undo(ada).status_code == 200
    state = table.view(ada)["state"]
    assert state["field"][space] == [] and piece in state["players"][0]["apothecary"]
    assert state["last_roll"] == rolled and state["turn"]["step"] == "contribute"
    table.ok(ada, "contribute", piece=piece, space=space)
    table.ok(ada, "progress", position=state["crescents"][0])
    # A cast draws certificates: once one is made, it stands.
    rng = random.Random(3)
    while table.view()["state"]["phase"] == "playing" and not any(e.type == "cast" for e in table.log()):
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


def contribute(table: Table, me: str, rng: random.Random) -> None:
    """A random piece of the wizard's apothecary onto a random empty space, or Contribute skipped."""
    state = table.view(me)["state"]
    apothecary = next(p for p in state["players"] if p["id"] == me)["apothecary"]
    empties = [space for space, stack in enumerate(state["field"]) if not stack]
    if apothecary and empties:
        table.ok(me, "contribute", piece=rng.choice(apothecary), space=rng.choice(empties))
    else:
        table.ok(me, "skip_contribute")


def test_a_cast_with_any_choices_is_made_or_refused_never_a_server_error(client):
    """Hundreds of casts at Reap with wrong positions, matches, payments and choices: each is
    made (200) or refused in JSON (409, 422), and the script's game goes on."""
    rng, answered = random.Random(23), collections.Counter()
    table = Table(client)
    table.ok("host", "start")
    tries = 0
    while tries < 300:
        state = table.view()["state"]
        if state["phase"] == "over":
            table = Table(client)
            table.ok("host", "start")
            continue
        me = state["turn"]["player"]
        if state["turn"]["step"] == "renew":
            table.ok(me, "renew")
            continue
        if state["turn"]["step"] == "contribute":
            contribute(table, me, rng)
            continue
        line = len(state["line"])
        payload = {"position": rng.randrange(line + 1), "paid": rng.choice([None, 0, 1, 3, 9])}
        if state["matches"] and rng.random() < 0.6:
            m = rng.choice(state["matches"])
            payload |= {"position": m["position"], "shape": m["shape"], "origin": m["origin"]}
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
        now = table.view()["state"]
        if rng.random() < 0.1 and now["phase"] == "playing" and now["crescents"]:  # none once casts took them all
            table.act(me, "progress", position=now["crescents"][0])
    assert set(answered) == {200, 409, 422}, answered  # made, refused by the rules, malformed


def free_spells(state: dict) -> list[dict]:
    """The line's active spells that ask no certificates: castable by anyone who pays."""
    return [s for s in state["line"] if s["active"] and not s["certificates"]]


def started_with_a_free_spell(client) -> Table:
    """A started table with real pieces whose line holds a spell castable without certificates
    from the start (in about one deal in twenty every active spell asks some, and every cast
    would be refused)."""
    for _ in range(30):
        table = Table(client, options={"mode": "pieces"})
        if free_spells(table.ok("host", "start")):
            return table
    raise AssertionError("no deal of 30 had an active spell without certificates")


def test_with_real_pieces_a_cast_by_hand_deals_face_down_to_the_caster_alone(client):
    """The companion keeps the certificates of a table with real pieces too: each cast recorded
    by hand deals the caster cards only their phone sees, read as every viewer after every move."""
    table = started_with_a_free_spell(client)
    ever: dict[str, set] = {}

    def check():
        table.held(ever)
        assert_secrets_kept(table, ever)

    casts = 0
    for _ in range(20):
        state = table.view()["state"]
        if state["phase"] != "playing" or casts == 6:
            break
        me = state["turn"]["player"]
        table.ok(me, "renew")
        check()
        # Casts empty the line of free spells as the game goes on: a turn without one only moves on.
        for spell in free_spells(table.view()["state"])[:1]:
            res = table.act(me, "cast", position=spell["position"], prestige=2, paid=least(spell))
            assert res.status_code in (200, 409), res.json
            casts += res.status_code == 200
            check()
        crescents = table.view()["state"]["crescents"]
        table.ok(me, "progress", position=crescents[0] if crescents else None)
        check()
    assert sum(map(len, ever.values())) >= 4, "casts dealt certificates"
    spectator = table.view()["state"]
    assert spectator["hand"] == [] and "field" not in spectator
    assert [p["certificates"] for p in spectator["players"]] == [
        len(table.view(pid)["state"]["hand"]) for pid in table.players
    ]


@pytest.mark.parametrize("value", ["yes", 1, "true", None])
def test_a_yes_no_option_takes_only_true_or_false(client, value):
    made = client.post("/api/tables", json={"game": "spellcycles", "options": {"duel": value}})
    assert made.status_code == 422
    assert made.json["error"]["field"] == "options.duel"
    assert client.post("/api/tables", json={"game": "spellcycles", "options": {"duel": True}}).status_code == 201
