"""A phone's live stream of a table over a real socket (`companion serve`), for the tests that
follow a table while many moves are made: open it as a viewer (a token, or none: a spectator),
from a Last-Event-ID; read its events one by one; or follow it in a thread."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time


def opened(
    port: int,
    code: str,
    token: str | None = None,
    last_event_id: int | None = None,
    timeout: float = 20,
    query: str = "",
):
    """The stream's response, its status and type checked; the connection is `response.conn`.
    `query`: more of the stream's address ("?after=3", "?as=p2")."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Accept": "text/event-stream"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    conn.request("GET", f"/api/tables/{code}/events{query}", headers=headers)
    res = conn.getresponse()
    assert res.status == 200, res.read()[:300]
    assert res.getheader("Content-Type").startswith("text/event-stream")
    res.conn = conn
    return res


def named_events(res, lines: int | None = None):
    """Each complete event of the stream as (id, data, its name: "action", or "table" for a table
    to draw afresh), until it ends or, given `lines`, once that many lines are read, even in the
    middle of an event (which is then not given)."""
    current: dict[str, str] = {}
    read = 0
    while lines is None or read < lines:
        line = res.fp.readline()
        read += 1
        if not line:
            return
        line = line.decode().rstrip("\n")
        if not line:
            if "data" in current:
                yield int(current["id"]), json.loads(current["data"]), current.get("event")
            current = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(": ")
            current[name] = value


def events(res, lines: int | None = None):
    """Each complete event of the stream as (id, data), as named_events reads them."""
    for seq, data, _ in named_events(res, lines):
        yield seq, data


def cut(res) -> None:
    """Drop the connection as a phone losing its network does: the socket closes, no goodbye."""
    try:
        res.conn.sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    res.conn.close()


class Follower(threading.Thread):
    """A phone following a table from its first event, in a thread: every event's id and data as
    they arrived."""

    def __init__(self, port: int, code: str, token: str | None = None):
        super().__init__(daemon=True)
        self.res = opened(port, code, token)
        self.got: list[tuple[int, dict]] = []

    def run(self) -> None:
        try:
            for event in events(self.res):
                self.got.append(event)
        except (OSError, ValueError):
            pass  # the test cut it

    def until(self, seq: int, timeout: float = 30) -> list[tuple[int, dict]]:
        """Every event up to the one with id `seq`, once it has come; then the stream is closed."""
        deadline = time.monotonic() + timeout
        while not (self.got and self.got[-1][0] >= seq):
            reached = self.got[-1][0] if self.got else None
            assert time.monotonic() < deadline, f"the stream stopped at {reached} of {seq}"
            time.sleep(0.05)
        cut(self.res)
        self.join(5)
        return list(self.got)
