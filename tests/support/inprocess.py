"""A table over the companion's API as a test drives it: the host's, each player's and the
spectator's tokens, every answer each got, and what each viewer is sent by every route (the
table, its history, both exports, the stream's newest event), for tests that read as every viewer."""

from __future__ import annotations

import json
import random
import time

from pnp.rules.flow import START
from pnp.rules.offers import sample
from tests.support.api import bearer, error_of, join, open_table


class ApiTable:
    """A table of `game` opened with `options` and joined by `names`, and seated `kept` (seats
    without a phone, which the host plays with `?as=`): headers by viewer ("host", "spectator" or a
    player id), the answers each viewer got to its own moves."""

    host = "host"  # the host as a viewer

    def __init__(self, client, game: str, names, options: dict, kept=()):
        self.client = client
        opened = open_table(client, game, options)
        self.code = opened["code"]
        self.tokens = {"host": opened["host_token"], "spectator": None}
        for name in names:
            seat = join(client, self.code, name)
            self.tokens[seat["player_id"]] = seat["token"]
        self.players = [pid for pid in self.tokens if pid not in ("host", "spectator")]
        self.kept = []
        for name in kept:
            res = client.post(f"/api/tables/{self.code}/seats", json={"name": name}, headers=self.headers("host"))
            assert res.status_code == 201, res.json
            self.kept.append(res.json["player_id"])
        self.players += self.kept
        self.answers = {viewer: [] for viewer in [*self.tokens, *self.kept]}  # every answer each viewer got

    def headers(self, viewer):
        token = self.tokens["host" if viewer in self.kept else viewer]
        return bearer(token) if token else {}

    def query(self, viewer) -> str:
        """How the host's phone asks as a seat it plays."""
        return f"?as={viewer}" if viewer in self.kept else ""

    def act(self, who, type_, **payload):
        res = self.client.post(
            f"/api/tables/{self.code}/actions{self.query(who)}",
            json={"type": type_, **payload},
            headers=self.headers(who),
        )
        self.answers[who].append(res.data)
        return res

    def start(self) -> dict:
        """The host starts the table as its phone would: with the start it is offered, completed
        the same way every run (who goes first, where the game asks the host to choose)."""
        offer = next(m for m in self.read("host")["moves"] if m["type"] == START)
        return self.ok("host", START, **sample(offer, random.Random(0)))

    def ok(self, who, type_, **payload) -> dict:
        """The state after a move the server must accept."""
        res = self.act(who, type_, **payload)
        assert res.status_code == 200, res.json
        return res.json["state"]

    def refused(self, who, type_, status=409, **payload) -> dict:
        return error_of(self.act(who, type_, **payload), status)

    def reason(self, who, type_, **payload) -> str:
        """Why the rules refuse the move now (a 409)."""
        return self.refused(who, type_, **payload)["reason"]

    def read(self, viewer="spectator") -> dict:
        """The table as `viewer` is shown it, its offers included."""
        return self.client.get(f"/api/tables/{self.code}{self.query(viewer)}", headers=self.headers(viewer)).json

    def state(self, viewer="spectator") -> dict:
        return self.read(viewer)["state"]

    def offers(self, viewer, type_: str) -> list[dict]:
        """The moves of `type_` the server offers `viewer` now."""
        return [m for m in self.read(viewer)["moves"] if m["type"] == type_]

    def replayed(self) -> dict:
        """The table's state as the server's own replay of the log holds it (no route shows it)."""
        return self.client.application.extensions["play"].replays.replayed(self.code).state


def stream_latest(table: ApiTable, viewer, seq: int, query: str = "") -> bytes:
    """The live stream's newest event, as `viewer`'s phone gets it (`query`: more of the query,
    "&as=p2" for the host playing a seat without a phone)."""
    return read_stream(table.client, table.code, seq, f"?after={seq - 1}{query}", table.headers(viewer))


def read_stream(client, code: str, until_seq: int, query: str = "", headers=None) -> bytes:
    """A table's live stream in-process, its bytes until the event with id `until_seq` has arrived."""
    res = client.get(f"/api/tables/{code}/events{query}", headers=headers, buffered=False)
    assert res.status_code == 200 and res.mimetype == "text/event-stream"
    got, give_up = b"", time.monotonic() + 10
    for chunk in res.response:
        got += chunk if isinstance(chunk, bytes) else chunk.encode()
        if f"id: {until_seq}\n".encode() in got and got.endswith(b"\n\n"):
            break
        assert time.monotonic() < give_up, got[-300:]
    res.close()
    return got


def seen(table: ApiTable, viewer, logs: bool = True) -> list:
    """What `viewer` gets now from the table, its history and both exports (unless not `logs`),
    the stream's newest event, and every answer to its own moves: as JSON values (the CSV as its text)."""
    h = table.headers(viewer)
    base = f"/api/tables/{table.code}"
    got = [table.client.get(base + path, headers=h).json for path in ("", "/history", "/export")[: 3 if logs else 1]]
    if logs:
        got.append(table.client.get(base + "/export?format=csv", headers=h).data.decode())
    data = stream_latest(table, viewer, got[0]["seq"]).decode()
    got += [json.loads(line[6:]) for line in data.splitlines() if line.startswith("data: ")]
    got += [json.loads(answer) for answer in table.answers[viewer]]
    table.answers[viewer].clear()
    return got
