"""Guessing join codes is slowed per client address (companion/guesses.py): the wrong codes an
address asks for are counted, and past the limit it gets 429 with Retry-After for any code it had
not reached, while a room's phones behind that same address go on playing their real table."""

from __future__ import annotations

import pytest
from limits import parse

from companion import create_app
from companion.guesses import WRONG_CODES
from companion.store.database import CODE_ALPHABET
from tests.support.api import bearer, error_of
from tests.support.inprocess import ApiTable, stream_latest

LIMIT = parse(WRONG_CODES)
ROOM = "192.0.2.10"  # the Wi-Fi's one public address, for every phone in the room
ELSEWHERE = "198.51.100.7"


def at(app, address: str):
    """A test client whose requests come from `address`."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def wrong_codes(count: int):
    """Codes no table has (valid in shape: the store is asked), through every way a code is asked."""
    ways = [
        ("get", "/t/{}"),
        ("get", "/api/tables/{}"),
        ("post", "/api/tables/{}/players"),
        ("get", "/api/tables/{}/events"),
        ("get", "/t/{}/qr.svg"),
        ("get", "/e/{}"),
        ("get", "/join?code={}"),
    ]
    for i in range(count):
        method, path = ways[i % len(ways)]
        yield method, path.format("Z" + "".join(CODE_ALPHABET[i // 31**k % 31] for k in range(5)))


def guess(client, count: int) -> list:
    return [
        getattr(client, method)(path, json={"name": "x"} if method == "post" else None)
        for method, path in wrong_codes(count)
    ]


def limited(res) -> int:
    """A 429 with a Retry-After within the window: the API's our JSON error repeating the wait, a
    page's a page a person can read (someone who mistyped a code on the home page)."""
    wait = int(res.headers["Retry-After"])
    assert 0 < wait <= LIMIT.get_expiry(), wait
    if res.mimetype == "text/html":
        assert res.status_code == 429 and "Too many wrong codes" in res.text
    else:
        assert f"try again in {wait} s" in error_of(res, 429, "code")["reason"]
    return wait


def test_a_guesser_is_answered_429_with_retry_after_past_the_limit_and_learns_nothing_more(app):
    guesser, host = at(app, ELSEWHERE), at(app, ROOM)
    real = host.post("/api/tables", json={"game": "magic-spell"}).json["code"]

    answers = guess(guesser, LIMIT.amount)
    assert [r.status_code for r in answers] == [404] * LIMIT.amount
    assert limited(guess(guesser, 1)[0]) > LIMIT.get_expiry() - 60
    # past the limit a real code is refused like a wrong one: the answer tells a guesser nothing
    limited(guesser.get(f"/api/tables/{real}"))
    limited(guesser.get(f"/t/{real}"))
    limited(guesser.post(f"/api/tables/{real}/players", json={"name": "Mallory"}))
    # a 404 at a real table (a game without a layout) is no wrong code, even from an address that
    # never reached the table (another worker's, with counts in each worker's memory)
    stranger = at(app, "203.0.113.9")
    assert {stranger.get(f"/api/tables/{real}/layout").status_code for _ in range(LIMIT.amount + 5)} == {404}
    # another address is not slowed by it
    assert host.get("/api/tables/QQQQQQ").status_code == 404
    assert host.get(f"/api/tables/{real}").status_code == 200


def test_a_room_behind_one_address_plays_its_table_and_keeps_playing_it_while_limited_for_guesses(app):
    room = at(app, ROOM)
    table = ApiTable(room, "magic-spell", ["Ada", "Brin"], {})
    code = table.code
    # 40 phones open the page, the table, its history, its QR and its layout (a 404 at a real
    # table, not a wrong code) with nobody slowed: only wrong codes count
    for _ in range(40):
        for path in (f"/t/{code}", f"/api/tables/{code}", f"/api/tables/{code}/history", f"/t/{code}/qr.svg"):
            assert room.get(path).status_code == 200, path
        assert room.get(f"/api/tables/{code}/layout").status_code == 404

    guess(room, LIMIT.amount)  # someone in the room guesses codes
    limited(guess(room, 1)[0])

    late = room.post(f"/api/tables/{code}/players", json={"name": "Cato"})
    assert late.status_code == 201, late.json
    assert table.act("host", "start").status_code == 200
    assert room.get(f"/t/{code}").status_code == 200
    ada = table.players[0]
    moved = room.post(f"/api/tables/{code}/actions", json={"type": "rest"}, headers=bearer(table.tokens[ada]))
    assert moved.status_code == 200, moved.json
    assert b"event: action" in stream_latest(table, ada, moved.json["seq"])
    assert room.get(f"/api/tables/{code}/history").status_code == 200


def test_a_table_the_address_opens_while_limited_answers_it(app):
    room = at(app, ROOM)
    guess(room, LIMIT.amount)
    opened = room.post("/api/tables", json={"game": "magic-spell"})
    assert opened.status_code == 201
    assert room.get(f"/t/{opened.json['code']}").status_code == 200
    limited(guess(room, 1)[0])


@pytest.mark.parametrize("proxies", [0, 1])
def test_x_forwarded_for_names_the_client_only_behind_trusted_proxies(tmp_path, proxies):
    app = create_app(
        {"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'c.sqlite3'}", "INSTANCE_PATH": str(tmp_path)}
        | {"TRUSTED_PROXIES": proxies}
    )
    proxy = at(app, "127.0.0.1")  # a proxy on this machine: every phone comes from its address
    for i in range(LIMIT.amount):
        proxy.get("/api/tables/QQQQQQ", headers={"X-Forwarded-For": f"203.0.113.{i}"})
    other_phone = proxy.get("/api/tables/QQQQQQ", headers={"X-Forwarded-For": "203.0.113.200"})
    if proxies:
        error_of(other_phone, 404, "code")  # the proxy says who asked: another phone, not slowed
    else:
        limited(other_phone)  # a header anyone can write does not make a guesser new
    app.extensions["play"].close()


@pytest.mark.parametrize(
    "storage, missing, said",
    [
        ("foo://somewhere", False, "expected memory:// or redis://host:port, got 'foo://somewhere'"),
        ("localhost:6379", False, "expected memory:// or redis://host:port, got 'localhost:6379'"),
        ("redis://localhost:6379", True, "redis://localhost:6379 needs the redis package: pip install redis"),
    ],
)
def test_serve_refuses_a_limits_storage_its_workers_could_not_open(monkeypatch, storage, missing, said):
    """Checked before anything starts, in our words: each worker would fail to boot on it."""
    from click.testing import CliRunner

    from companion import cli

    if missing:
        monkeypatch.setattr(cli, "find_spec", lambda name: None)
    result = CliRunner().invoke(cli.main, ["serve", "--limits-storage", storage])
    assert result.exit_code == 2 and said in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "phones open" not in result.stdout
