"""A table played through the API from the moves the server offers (pnp.rules.flow: offers), as a
property test, a computer player or a phone would: each step a caller who has moves takes one of
them at random, completed at random (pnp.rules.offers.sample), and the server must accept it;
now and then a move not offered to the caller is sent, and the server must refuse it with a
reason and change nothing. Every choice comes from one seeded generator, so a run repeats."""

from __future__ import annotations

import random
import typing
from collections import Counter
from dataclasses import dataclass, field

from pnp.gamedef import games
from pnp.rules.bodies import decided_by_server
from pnp.rules.flow import Rules
from pnp.rules.offers import sample
from pnp.rules.table import replay
from tests.support.api import bearer, join, open_table, undo_latest

PROBE_EVERY = 5  # a move not offered is tried every this many steps


def ruled() -> dict[str, Rules]:
    """Every registered game's rules (pnp.gamedef's games with a tracker), by id: what the tests
    that play any game from its offers play."""
    found = {gid: g.load("tracker") for gid, g in games().items() if g.tracker}
    return {gid: rules for gid, rules in found.items() if isinstance(rules, Rules)}


def choices_of(model) -> dict[str, tuple]:
    """Each field of a table's options that has choices (a Literal, a yes/no), with its choices."""
    found = {}
    for name, info in model.model_fields.items():
        choices = typing.get_args(info.annotation) if typing.get_origin(info.annotation) is typing.Literal else ()
        if info.annotation is bool:
            choices = (False, True)
        if choices:
            found[name] = choices
    return found


def options_of(model, rng: random.Random) -> dict:
    """Random options of a table: each field with choices (a Literal, a yes/no) set to one of them."""
    return {name: rng.choice(choices) for name, choices in choices_of(model).items()}


def covering_options(rules: Rules, rng: random.Random, least: int = 2) -> list[dict]:
    """Options for a few tables of a game that play every way of playing (each value of
    `rules.way_option`), each way at `least` tables or more, so that among a way's tables every
    other option with choices takes each of its values: each option steps through its values from
    a place `rng` deals, so which values meet at one table is the seed's."""
    choices = choices_of(rules.Options)
    ways = choices.pop(rules.way_option) if rules.ways else (None,)
    tables = max([least, *map(len, choices.values())])
    found = []
    for way in ways:
        start = {name: rng.randrange(len(values)) for name, values in choices.items()}
        for n in range(tables):
            options = {name: values[(start[name] + n) % len(values)] for name, values in choices.items()}
            found.append(options if way is None else {**options, rules.way_option: way})
    return found


def way_of(rules: Rules, options: dict) -> str:
    """The way of playing `options` pick, for a test's id ("" for a game played one way)."""
    return str(options[rules.way_option]) if rules.ways else ""


def random_table(client, game: str, options: dict, rng: random.Random, made: Counter | None = None) -> OfferedTable:
    """An OfferedTable of `game` with `options` (and `made`), opened with as many players as `rng`
    deals (within the seats the options give, at most 5), now and then one of them a seat the host
    keeps."""
    rules = ruled()[game]
    fewest, most = rules.seats(rules.Options(**options))
    players = rng.randint(fewest, min(most, 5))
    kept = rng.randint(0, min(1, players - 1))  # a seat without a phone, played by the host
    return OfferedTable(client, game, options, rng, made=made).open(players - kept, kept)


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
    # moves made by type, which a game's tables may share: given, each step takes a move of the
    # least made type offered, so a move the game offers seldom is made when it first comes up
    made: Counter | None = None

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
            offer = self.chosen(seen["moves"])
            body = sample(offer, self.rng)
            res = self.send(headers, query, offer["type"], body)
            assert res.status_code == 200, (who, offer, body, res.json)
            self.only_the_server_filled(offer["type"], body, res.json["seq"])
            self.steps += 1
            if self.made is not None:
                self.made[offer["type"]] += 1
            return True
        return False

    def only_the_server_filled(self, type_: str, body: dict, seq: int) -> None:
        """The move as logged holds what was sent: a field that differs from the body (or from its
        default, not sent) is one the server decides (ByServer), which a body may not carry."""
        play = self.client.application.extensions["play"]
        model = play.tracker(self.game).actions[type_]
        logged = next(e for e in play.store.log.read(self.code, after=seq - 1) if e.seq == seq).payload
        sent = model.model_validate(body).model_dump(mode="json")
        changed = {name for name in logged if logged[name] != sent.get(name)}
        assert changed <= set(decided_by_server(model)), (type_, body, {n: logged[n] for n in changed})
        assert not set(body) & set(decided_by_server(model)), (type_, body)

    def chosen(self, offered: list[dict]) -> dict:
        """The offer a step takes: any, or one of the least made type (`made`)."""
        if self.made is not None:
            least = min(self.made[o["type"]] for o in offered)
            offered = [o for o in offered if self.made[o["type"]] == least]
        return self.rng.choice(offered)

    def take_back(self) -> bool:
        """The host takes back the latest move that stands, as the table page does (a game over
        goes on); False when the rules refuse it (a draw is never taken back)."""
        res = undo_latest(self.client, self.code, bearer(self.host))
        assert res.status_code in (200, 409), res.json
        return res.status_code == 200

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
