"""Each viewer sees only what is theirs: a table of the test tracker with secrets (three players
dealt hands from a deck, one drawing, one discarding face down), read through every route and
stream as every viewer, holds another player's card nowhere in the bytes that viewer gets; and
the live messages are rendered once per audience, never once per phone."""

from __future__ import annotations

import random

import pytest

from companion.play import Play
from companion.seats import Audience
from companion.table_views import Views
from pnp.gamedef import games
from pnp.rules.table import HOST, SPECTATOR
from tests.support.api import bearer, error_of, join, open_table, undo_latest
from tests.support.http import CHANCE_SEED
from tests.support.inprocess import read_stream
from tests.support.secret_game import DECK
from tests.support.secret_game import GAME as SECRET_DECK

GAME = SECRET_DECK.id


@pytest.fixture
def app(database_url, tmp_path, monkeypatch):
    """The companion with the secret deck among its games (create_app's GAMES); it has no content:
    its tracker is lent none."""
    from companion import create_app

    content = Play.content
    monkeypatch.setattr(Play, "content", lambda self, game: None if game == GAME else content(self, game))
    config = {
        "TESTING": True,
        "DATABASE_URL": database_url,
        "KEEPALIVE_SECONDS": 0.5,
        "INSTANCE_PATH": str(tmp_path),
        "CHANCE": random.Random(CHANCE_SEED),
        "GAMES": {**games(), GAME: SECRET_DECK},
    }
    app = create_app(config)
    yield app
    app.extensions["play"].close()


def act(client, code, token, type_, **payload):
    res = client.post(f"/api/tables/{code}/actions", json={"type": type_, **payload}, headers=bearer(token))
    assert res.status_code == 200, res.json
    return res


def dealt_table(client) -> tuple[str, dict, list[bytes]]:
    """Ann, Bob and Cy dealt three cards each; Ann draws one, Bob discards one face down. The
    table's code, each viewer's token (None: a spectator) and every answer each got on the way."""
    table = open_table(client, GAME)
    code = table["code"]
    tokens = {HOST: table["host_token"], SPECTATOR: None}
    for name in ("Ann", "Bob", "Cy"):
        player = join(client, code, name)
        tokens[player["player_id"]] = player["token"]
    answers = {viewer: [] for viewer in tokens}
    answers[HOST].append(act(client, code, tokens[HOST], "deal").data)
    answers["p1"].append(act(client, code, tokens["p1"], "draw", cards=[DECK[0]]).data)  # it asks; the server draws
    bob = client.get(f"/api/tables/{code}", headers=bearer(tokens["p2"])).json["state"]["hand"]
    answers["p2"].append(act(client, code, tokens["p2"], "discard", card=bob[0]).data)
    return code, tokens, answers


def held(client, code: str) -> dict[str, set[str]]:
    """Every card each player has held, from the stored log as recorded (not through any route)."""
    cards: dict[str, set[str]] = {}
    for entry in client.application.extensions["play"].store.log.read(code):
        if entry.type == "deal":
            for player, hand in entry.payload["hands"].items():
                cards.setdefault(player, set()).update(hand)
        elif entry.type == "draw":
            cards.setdefault(entry.actor, set()).update(entry.payload["cards"])
        elif entry.type == "discard":
            cards.setdefault(entry.actor, set()).add(entry.payload["card"])
    return cards


def everything_seen_by(client, code: str, token: str | None, last_seq: int) -> bytes:
    """What `token`'s holder gets from every route and stream of the table, and its pages."""
    headers = bearer(token) if token else {}
    paths = ["", "/history", "/export", "/export?format=csv", "/layout"]
    seen = [client.get(f"/api/tables/{code}{path}", headers=headers).data for path in paths]
    seen.append(read_stream(client, code, last_seq, headers=headers))
    if token:
        seen.append(read_stream(client, code, last_seq, query=f"?token={token}"))  # as a browser's EventSource sends it
    seen += [client.get(page).data for page in (f"/t/{code}", f"/t/{code}/projector", f"/join?code={code}")]
    seen.append(client.get("/api/openapi.json").data)
    return b"\n".join(seen)


def test_no_viewer_ever_receives_a_card_that_is_not_theirs(client):
    code, tokens, answers = dealt_table(client)
    cards = held(client, code)
    assert set(cards) == {"p1", "p2", "p3"} and len(cards["p1"]) == 4 and len(cards["p2"]) == 3
    last_seq = client.get(f"/api/tables/{code}").json["seq"]
    viewers = {**tokens, "a wrong token": "not-a-token-of-this-table", "an odd token": "%00%FF%ED%A0%80"}
    for viewer, token in viewers.items():
        seen = everything_seen_by(client, code, token, last_seq) + b"".join(answers.get(viewer, []))
        shown = {card for card in DECK if card.encode() in seen}
        assert shown == cards.get(viewer, set()), f"{viewer} was shown {sorted(shown - cards.get(viewer, set()))}"


def test_a_player_sees_their_own_hand_and_everyone_sees_how_many_cards_each_holds(client):
    code, tokens, _ = dealt_table(client)
    ann = client.get(f"/api/tables/{code}", headers=bearer(tokens["p1"])).json["state"]
    assert sorted(ann["hand"]) == sorted(held(client, code)["p1"])
    spectator = client.get(f"/api/tables/{code}").json["state"]
    assert spectator["hand"] == [] and {p: s["cards"] for p, s in spectator["players"].items()} == {
        "p1": 4,
        "p2": 2,
        "p3": 3,
    }
    history = client.get(f"/api/tables/{code}/history").json["history"]
    assert [e["payload"] for e in history if e["type"] in ("draw", "discard")] == [{"count": 1}, {}]


def test_a_draw_is_final_for_its_player_and_the_host(client):
    code, tokens, _ = dealt_table(client)
    ann_draw = client.get(f"/api/tables/{code}/history", headers=bearer(tokens["p1"])).json["history"][4]
    assert ann_draw["type"] == "draw"
    error_of(undo_latest(client, code, bearer(tokens["p1"])), 409)
    assert undo_latest(client, code, bearer(tokens["p2"])).status_code == 200  # Bob takes back his discard
    error_of(undo_latest(client, code, bearer(tokens["host"])), 409)  # then Ann's draw
    again = client.get(f"/api/tables/{code}/history", headers=bearer(tokens["p1"])).json["history"][4]
    assert again == ann_draw  # still there, the same card


def test_live_messages_are_rendered_once_per_audience_not_once_per_stream(client, monkeypatch):
    code, tokens, _ = dealt_table(client)
    rendered = []  # each rendering of messages views the table once, for its audience's viewer
    view = Views.table

    def counted(self, table_code, seat, known=None, **made):
        rendered.append(Audience(table_code, seat.actor))
        return view(self, table_code, seat, known, **made)

    monkeypatch.setattr(Views, "table", counted)
    viewers = [SPECTATOR, SPECTATOR, SPECTATOR, "p1", "p1", "p2"]
    last_seq = client.get(f"/api/tables/{code}").json["seq"]
    del rendered[:]
    responses, streams = [], []
    for viewer in viewers:
        headers = bearer(tokens[viewer]) if viewer else {}
        responses.append(client.get(f"/api/tables/{code}/events", headers=headers, buffered=False))
        streams.append(iter(responses[-1].response))
        read_until(streams[-1], last_seq)  # the backlog
    audiences = sorted({Audience(code, v) for v in viewers}, key=str)
    assert sorted(rendered, key=str) == audiences
    act(client, code, tokens["p3"], "pass")
    del rendered[:]
    for each in streams:
        read_until(each, last_seq + 1)
    assert sorted(rendered, key=str) == audiences
    for res in reversed(responses):  # each stream holds a request context: the newest is left first
        res.close()


def read_until(chunks, seq: int) -> None:
    """Read a stream's chunks until the event with id `seq` has arrived."""
    while f"id: {seq}\n".encode() not in next(chunks):
        pass


def test_every_phone_of_a_seat_shares_its_messages_and_every_spectator_the_spectators(client):
    """A message offers its viewer's own moves (pnp.rules.flow): one rendering a seat, even in a
    game that hides nothing; the host's phone is an audience of its own, and so are all who hold no token."""
    table = open_table(client, "magic-spell")
    ada = join(client, table["code"], "Ada")
    play = client.application.extensions["play"]
    info = play.info(table["code"])
    assert (
        play.seats.audience(info, ada["token"]) == play.seats.audience(info, ada["token"]) == Audience(info.code, "p1")
    )
    assert play.seats.audience(info, None) == Audience(info.code, SPECTATOR)
    assert play.seats.audience(info, table["host_token"]) == Audience(info.code, HOST, True)


def test_a_seats_stream_resumes_after_last_event_id_with_its_own_view(client):
    code, tokens, _ = dealt_table(client)
    last_seq = client.get(f"/api/tables/{code}").json["seq"]
    deal_seq = last_seq - 2
    resumed = read_stream(client, code, last_seq, headers={**bearer(tokens["p2"]), "Last-Event-ID": str(deal_seq)})
    ids = [int(line[4:]) for line in resumed.decode().splitlines() if line.startswith("id: ")]
    assert ids == [deal_seq + 1, deal_seq + 2]  # Ann's draw and Bob's discard, nothing before
    cards = held(client, code)
    assert {card for card in DECK if card.encode() in resumed} == cards["p2"]  # his hand, in the table he sees
