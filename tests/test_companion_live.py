"""Live sync on the real server (`companion serve`: gunicorn, gevent): events read off the wire.

Two streams see every action once, in order; a stream cut and resumed with Last-Event-ID gets
exactly what it missed; with PostgreSQL, two servers (two processes, as two machines would be)
on one database each deliver what was posted to the other, and so do two workers of one server.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys

import psutil
import pytest

from tests.support.http import call, free_port, post_chunked, server
from tests.support.stream import named_events, opened

pytestmark = pytest.mark.slow  # real servers in subprocesses


class Stream:
    """A phone's SSE connection to a table (tests/support/stream.py), read an event at a time."""

    def __init__(self, port: int, code: str, last_event_id: int | None = None, timeout: float = 10, query: str = ""):
        self.res = opened(port, code, last_event_id=last_event_id, timeout=timeout, query=query)
        self.conn = self.res.conn
        self.read = named_events(self.res)

    def events(self, count: int) -> list[dict]:
        """The next `count` events, each with its id, data and name (`event`: "action" or "table")."""
        found = [next(self.read, None) for _ in range(count)]
        assert None not in found, "the stream ended"
        return [{"id": seq, "data": data, "event": name} for seq, data, name in found]

    def worker(self, port: int) -> int:
        """The id of the server process on the other end of this connection."""
        here = self.conn.sock.getsockname()
        return next(
            c.pid
            for c in psutil.net_connections(kind="tcp")
            if c.laddr and c.laddr.port == port and c.raddr and tuple(c.raddr) == here
        )

    def close(self) -> None:
        self.conn.close()


def open_table_with_players(port: int, names: list[str]) -> tuple[str, str, list[dict]]:
    """A Magic Spell table: its code, the host's token, and each player's id and token."""
    status, table = call(port, "POST", "/api/tables", {"game": "magic-spell"})
    assert status == 201, table
    players = []
    for name in names:
        status, player = call(port, "POST", f"/api/tables/{table['code']}/players", {"name": name})
        assert status == 201, player
        players.append(player)
    return table["code"], table["host_token"], players


def test_two_streams_see_every_action_once_in_order_and_a_resumed_stream_gets_what_it_missed(tmp_path):
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path) as port:
        code, host, (ada, _brin) = open_table_with_players(port, ["Ada", "Brin"])
        first, second = Stream(port, code), Stream(port, code)
        assert [e["id"] for e in first.events(2)] == [1, 2]  # the joins, replayed on connect
        assert [e["id"] for e in second.events(2)] == [1, 2]
        second.close()  # this phone loses its connection after seeing 2

        status, _ = call(port, "POST", f"/api/tables/{code}/actions", {"type": "start"}, host)
        assert status == 200
        status, _ = call(port, "POST", f"/api/tables/{code}/actions", {"type": "rest"}, ada["token"])
        assert status == 200
        events = first.events(2)
        assert [e["id"] for e in events] == [3, 4]
        assert [e["data"]["entry"]["type"] for e in events] == ["start", "rest"]
        assert events[-1]["data"]["table"]["seq"] == 4

        resumed = Stream(port, code, last_event_id=2)
        status, _ = call(port, "POST", f"/api/tables/{code}/actions", {"type": "end_turn"}, ada["token"])
        assert [e["id"] for e in resumed.events(3)] == [3, 4, 5]  # the missed two, then the new one, none twice
        assert [e["id"] for e in first.events(1)] == [5]
        first.close()
        resumed.close()


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    """One server for the tests that each open tables of their own on it: its port."""
    folder = tmp_path_factory.mktemp("shared")
    with server(f"sqlite:///{folder / 'companion.sqlite3'}", folder) as port:
        yield port


def test_a_stream_asked_for_after_the_tables_end_draws_the_table_afresh_and_the_next_action_arrives(shared):
    """A phone that saw further than the table now goes (a server brought back from an older copy)
    would otherwise wait in silence for a seq the table may never reach."""
    port = shared
    code, host, (ada, _brin) = open_table_with_players(port, ["Ada", "Brin"])
    asks = [({"last_event_id": 40}, "start", host), ({"query": "?after=40"}, "rest", ada["token"])]
    for seq, (asked, move, token) in enumerate(asks, start=2):
        stream = Stream(port, code, **asked)
        [afresh] = stream.events(1)
        assert (afresh["event"], afresh["id"], afresh["data"]["table"]["seq"]) == ("table", seq, seq), asked
        assert [seat["name"] for seat in afresh["data"]["table"]["seats"]] == ["Ada", "Brin"]

        status, _ = call(port, "POST", f"/api/tables/{code}/actions", {"type": move}, token)
        assert status == 200
        [following] = stream.events(1)
        entry = following["data"]["entry"]
        assert (following["event"], following["id"], entry["type"]) == ("action", seq + 1, move)
        stream.close()


def test_an_oversized_chunked_body_is_413_at_every_post_endpoint_and_a_small_one_is_read(shared):
    port = shared
    code, _host, (ada,) = open_table_with_players(port, ["Ada"])
    _, event = call(port, "POST", "/api/events", {"game": "merchants-of-magick", "name": "Night"})
    posts = [path for path, ops in call(port, "GET", "/api/openapi.json")[1]["paths"].items() if "post" in ops]
    oversized = b'{"name": "' + b"x" * 20_000 + b'"}'  # past the 16 KiB limit, with no Content-Length
    for path in posts:
        there = event["code"] if path.startswith("/api/events/") else code
        path = path.replace("{code}", there).replace("{player_id}", ada["player_id"])
        status, answer = post_chunked(port, path, oversized)
        assert status == 413 and answer["error"]["field"] == "body", (path, status, answer)
    assert len(posts) >= 10, posts

    status, seat = post_chunked(port, f"/api/tables/{code}/players", b'{"name": "Brin"}')
    assert status == 201 and seat["player_id"], seat  # a chunked body within the limit is read whole


def test_with_postgresql_an_event_posted_to_one_server_reaches_a_stream_on_another(tmp_path, postgresql_url):
    with server(postgresql_url, tmp_path) as one, server(postgresql_url, tmp_path) as two:
        code, host, (ada, _brin) = open_table_with_players(one, ["Ada", "Brin"])
        on_one, on_two = Stream(one, code), Stream(two, code)
        assert [e["id"] for e in on_two.events(2)] == [1, 2]
        on_one.events(2)
        status, _ = call(two, "POST", f"/api/tables/{code}/actions", {"type": "start"}, host)
        assert status == 200
        assert [e["id"] for e in on_one.events(1)] == [3]  # posted to two, streamed by one
        assert [e["id"] for e in on_two.events(1)] == [3]
        status, _ = call(one, "POST", f"/api/tables/{code}/actions", {"type": "rest"}, ada["token"])
        assert status == 200
        assert [e["id"] for e in on_two.events(1)] == [4]  # and back the other way
        on_one.close()
        on_two.close()


def test_with_postgresql_two_workers_of_one_server_stream_what_either_was_posted(tmp_path, postgresql_url):
    with server(postgresql_url, tmp_path, workers=2) as port:
        code, host, (ada, _brin) = open_table_with_players(port, ["Ada", "Brin"])
        by_worker: dict[int, list[Stream]] = {}
        for _ in range(50):  # the kernel picks the worker that accepts: open streams until both have one
            # a read waits 5 s at most: an event must come by NOTIFY, not by the 15 s keepalive's re-read
            stream = Stream(port, code, timeout=5)
            assert [e["id"] for e in stream.events(2)] == [1, 2]
            by_worker.setdefault(stream.worker(port), []).append(stream)
            if len(by_worker) == 2:
                break
        assert len(by_worker) == 2, "every stream landed on one worker"
        streams = [stream for streams in by_worker.values() for stream in streams]
        moves = [({"type": "start"}, host), ({"type": "rest"}, ada["token"]), ({"type": "end_turn"}, ada["token"])]
        for move, token in moves:  # whichever worker takes a post, the other hears of it by NOTIFY
            status, _ = call(port, "POST", f"/api/tables/{code}/actions", move, token)
            assert status == 200
        for stream in streams:
            assert [e["id"] for e in stream.events(3)] == [3, 4, 5]
            stream.close()


def test_serve_refuses_several_workers_without_postgresql(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--workers", "2", "--database", f"sqlite:///{tmp_path}/x.sqlite"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "PostgreSQL" in proc.stderr


def _serve_until_it_stops(tmp_path, *args, env=None):
    """`companion serve` with `args` (on 127.0.0.1 unless they name a --host), run to its end."""
    host = () if "--host" in args else ("--host", "127.0.0.1")
    return subprocess.run(
        [sys.executable, "-m", "companion", "serve", *host, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COMPANION_INSTANCE": str(tmp_path / "instance"), **(env or {})},
    )


def test_serve_prints_no_address_when_its_worker_cannot_load(tmp_path):
    """A plain install once lacked `packaging`, which gunicorn's gevent worker imports: the server
    printed the address and QR code, then died. A shadow package that refuses to import stands in."""
    (tmp_path / "packaging").mkdir()
    (tmp_path / "packaging" / "__init__.py").write_text("raise ImportError('packaging is missing here')\n")
    proc = _serve_until_it_stops(tmp_path, "--port", str(free_port()), env={"PYTHONPATH": str(tmp_path)})
    assert proc.returncode != 0
    assert "http" not in proc.stdout, "an address was printed for a server that cannot start"
    assert "gevent worker cannot load" in proc.stderr and "packaging is missing here" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_serve_prints_no_address_when_its_port_is_taken(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = _serve_until_it_stops(tmp_path, "--port", str(port))
    assert proc.returncode != 0
    assert "http" not in proc.stdout
    assert f"127.0.0.1:{port}" in proc.stderr and "--port" in proc.stderr and "Traceback" not in proc.stderr


def test_serve_prints_no_address_for_a_host_it_cannot_listen_on(tmp_path):
    proc = _serve_until_it_stops(tmp_path, "--host", "no-such-host.invalid", "--port", str(free_port()))
    assert proc.returncode != 0 and "http" not in proc.stdout
    assert "no-such-host.invalid" in proc.stderr and "--host" in proc.stderr and "Traceback" not in proc.stderr


def test_tls_serves_https_with_a_self_signed_certificate_for_this_machine(tmp_path):
    import ssl

    from cryptography import x509

    with server(f"sqlite:///{tmp_path / 'c.sqlite3'}", tmp_path, extra=("--tls",)) as port:
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE  # self-signed: trusted by hand on phones
        conn = http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=context)
        conn.request("GET", "/api/openapi.json")
        res = conn.getresponse()
        assert res.status == 200 and json.loads(res.read())["openapi"].startswith("3.")
        der = conn.sock.getpeercert(binary_form=True)
        conn.close()
    cert = x509.load_der_x509_certificate(der)
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert "localhost" in names.get_values_for_type(x509.DNSName)
    assert any(str(ip) == "127.0.0.1" for ip in names.get_values_for_type(x509.IPAddress))


def test_a_merchants_roll_reaches_every_follower_and_every_table_of_an_event(tmp_path):
    """Forty phones follow one table and the host rolls; an event's organiser rolls and both of
    its tables' streams get the event's dice. Each roll event reads {"type": "roll", "round", "dice"}."""
    with server(f"sqlite:///{tmp_path / 'c.sqlite3'}", tmp_path) as port:
        _, table = call(port, "POST", "/api/tables", {"game": "merchants-of-magick"})
        code = table["code"]
        call(port, "POST", f"/api/tables/{code}/players", {"name": "Ann"})
        call(port, "POST", f"/api/tables/{code}/actions", {"type": "start"}, table["host_token"])
        phones = [Stream(port, code) for _ in range(40)]
        for phone in phones:
            phone.events(2)  # the join and the start
        status, rolled = call(
            port, "POST", f"/api/tables/{code}/actions", {"type": "roll", "round": 1}, table["host_token"]
        )
        assert status == 200
        for phone in phones:
            [event] = phone.events(1)
            assert event["id"] == 3
            assert {k: event["data"][k] for k in ("type", "round", "dice")} == {
                "type": "roll",
                "round": 1,
                "dice": rolled["state"]["dice"],
            }
            phone.close()

        _, event = call(port, "POST", "/api/events", {"game": "merchants-of-magick"})
        streams = []
        for name in ("Bo", "Cy"):
            _, opened = call(port, "POST", f"/api/events/{event['code']}/tables", {})
            call(port, "POST", f"/api/tables/{opened['code']}/players", {"name": name})
            call(port, "POST", f"/api/tables/{opened['code']}/actions", {"type": "start"}, opened["host_token"])
            streams.append(Stream(port, opened["code"]))
            streams[-1].events(2)
        status, roll = call(port, "POST", f"/api/events/{event['code']}/roll", {"round": 1}, event["organiser_token"])
        assert status == 200 and roll["tables"] == 2
        for stream in streams:
            [got] = stream.events(1)
            assert got["data"]["type"] == "roll" and got["data"]["dice"] == roll["dice"]
            assert got["data"]["entry"]["actor"] == "event"
            stream.close()
