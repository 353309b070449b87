"""A table as its database holds it, read beside the server (not through any route): the log as
recorded, and what a fresh replay of it shows each viewer. The tests that play many moves at once,
or kill a server, compare what the server answers with these."""

from __future__ import annotations

import json
from collections import Counter

from companion.store import Store
from pnp.gamedef import games
from pnp.rules.table import Entry, replay
from tests.support.tracked import content_of


def stored_log(database_url: str, code: str) -> list[Entry]:
    store = Store(database_url)
    try:
        return store.log.read(code)
    finally:
        store.close()


def fresh_view(game: str, options: dict, log: list[Entry], viewer: str | None) -> dict:
    """What `viewer` (None: a spectator) sees of a table after a replay of `log` from nothing."""
    tracker = games()[game].load("tracker")
    table = replay(tracker, content_of(game), tracker.Options.model_validate(options), log)
    return json.loads(json.dumps(tracker.view(table.state, viewer)))  # as JSON carries it: tuples are lists


def fields_sent(moves) -> dict[str, list[str]]:
    """The fields the moves (who, type, body) sent, by action type: every field any of its moves sent."""
    found: dict[str, set[str]] = {}
    for _, type_, body in moves:
        found.setdefault(type_, set()).update(body)
    return {type_: sorted(fields) for type_, fields in found.items()}


def sent_key(game: str, move, fields: dict[str, list[str]]) -> tuple:
    """A move (who, type, body) as it was sent, for counting: who, what, and `fields` (fields_sent)
    of its body as the rules read it, a field it did not send at its default."""
    actor, type_, body = move
    read = games()[game].load("tracker").actions[type_].model_validate(body).model_dump(mode="json")
    return _key(actor, type_, fields[type_], read)


def moves_in(log: list[Entry], fields: dict[str, list[str]], after: int) -> Counter:
    """The log's entries after seq `after`, counted as sent_key counts the moves sent: `fields` of
    each as the log recorded it (the server adds its own fields to some)."""
    return Counter(_key(e.actor, e.type, fields.get(e.type, []), e.payload) for e in log if e.seq > after)


def _key(actor: str, type_: str, fields: list[str], payload) -> tuple:
    return actor, type_, json.dumps({k: payload.get(k) for k in fields})
