"""A table played through the API from the moves the server offers (pnp.rules.flow: offers), as a
property test, a computer player or a phone would: each step a caller who has moves takes one of
them at random, completed at random (pnp.rules.offers.sample), and the server must accept it;
now and then a move not offered to the caller is sent, and the server must refuse it with a
reason and change nothing. Every choice comes from one seeded generator, so a run repeats."""

from __future__ import annotations

import random
import typing
from dataclasses import dataclass, field

from pnp.rules.offers import sample
from pnp.rules.table import replay
from tests.support.api import bearer, join, open_table

PROBE_EVERY = 5  # a move not offered is tried every this many steps


def options_of(model, rng: random.Random) -> dict:
    """Random options of a table: each field with choices (a Literal, a yes/no) set to one of them."""
    chosen = {}
    for name, info in model.model_fields.items():
        choices = typing.get_args(info.annotation) if typing.get_origin(info.annotation) is typing.Literal else ()
        if info.annotation is bool:
            choices = (False, True)
        if choices:
            chosen[name] = rng.choice(choices)
    return chosen


@dataclass
class OfferedTable:
    """A table of `game` at `client`, its phones' tokens by seat, and the seats the host keeps."""

    client: object
    game: str
    options: dict
    rng: random.Random
    code: str = ""
    host: str = ""
    tokens: dict[str, str] = field(default_factory=dict)  # a seat with a phone -> its token
    kept: list[str] = field(default_factory=list)  # seats without a phone: the host plays them
    steps: int = 0
    refused: int = 0  # probes of moves not offered, each refused
    bodies: dict[str, dict] = field(default_factory=dict)  # a body offered lately for each type, to anyone

    def open(self, phones: int, kept: int) -> OfferedTable:
        opened = open_table(self.client, self.game, self.options)
        self.code, self.host = opened["code"], opened["host_token"]
        for n in range(phones):
            seat = join(self.client, self.code, f"Phone {n + 1}")
            self.tokens[seat["player_id"]] = seat["token"]
        for n in range(kept):
            res = self.client.post(
                f"/api/tables/{self.code}/seats", json={"name": f"Kept {n + 1}"}, headers=bearer(self.host)
            )
            assert res.status_code == 201, res.json
            self.kept.append(res.json["player_id"])
        return self

    def callers(self) -> list[tuple[str, dict, str]]:
        """(who, headers, query) of every caller at the table: each phone, the host, the host as each kept seat."""
        found = [(seat, bearer(token), "") for seat, token in self.tokens.items()]
        found.append(("host", bearer(self.host), ""))
        found += [(f"host as {seat}", bearer(self.host), f"?as={seat}") for seat in self.kept]
        return found

    def table(self, headers: dict, query: str = "") -> dict:
        res = self.client.get(f"/api/tables/{self.code}{query}", headers=headers)
        assert res.status_code == 200, res.json
        return res.json

    def send(self, headers: dict, query: str, type_: str, body: dict):
        return self.client.post(
            f"/api/tables/{self.code}/actions{query}", json={"type": type_, **body}, headers=headers
        )

    def step(self) -> bool:
        """One move, offered to a caller chosen at random among those who have any; False when no
        one has a move."""
        callers = self.callers()
        self.rng.shuffle(callers)
        for who, headers, query in callers:
            seen = self.table(headers, query)
            if not seen["moves"]:
                continue
            if self.steps % PROBE_EVERY == 0:
                self.probe(headers, query, seen)
            for offered in seen["moves"]:
                self.bodies[offered["type"]] = sample(offered, self.rng)
            offer = self.rng.choice(seen["moves"])
            body = sample(offer, self.rng)
            res = self.send(headers, query, offer["type"], body)
            assert res.status_code == 200, (who, offer, body, res.json)
            self.steps += 1
            return True
        return False

    def probe(self, headers: dict, query: str, seen: dict) -> None:
        """A move this caller is not offered, with a body once offered to someone (else none):
        refused with a reason (403, 409 or 422), and nothing changed."""
        offered = {m["type"] for m in seen["moves"]}
        others = sorted(set(self.types()) - offered)
        if not others:
            return
        type_ = self.rng.choice(others)
        res = self.send(headers, query, type_, self.bodies.get(type_, {}))
        assert res.status_code in (403, 409, 422), (type_, res.status_code, res.json)
        assert res.json["error"]["reason"]
        assert self.table(headers, query)["seq"] == seen["seq"], "a refused move changed the table"
        self.refused += 1

    def types(self) -> list[str]:
        play = self.client.application.extensions["play"]
        return list(play.tracker(self.game).actions)

    def state(self) -> dict:
        return self.client.application.extensions["play"].replays.replayed(self.code).state

    def replayed_afresh(self) -> dict:
        """The state a fresh replay of the whole stored log gives (what a restarted server folds)."""
        play = self.client.application.extensions["play"]
        info = play.info(self.code)
        log = play.store.log.read(self.code)
        return replay(play.tracker(self.game), play.content(self.game), play.options(info), log).state
