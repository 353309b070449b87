"""A table as its database holds it, read beside the server (not through any route): the log as
recorded, and what a fresh replay of it shows each viewer. The tests that play many moves at once,
or kill a server, compare what the server answers with these."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache

from companion.store import Store
from pnp.content.game import load_game
from pnp.gamedef import games
from pnp.paths import CONTENT
from pnp.rules.table import Entry, replay


def stored_log(database_url: str, code: str) -> list[Entry]:
    store = Store(database_url)
    try:
        return store.log.read(code)
    finally:
        store.close()


@cache
def _content(game: str):
    return load_game(games()[game], [CONTENT])


def fresh_view(game: str, options: dict, log: list[Entry], viewer: str | None) -> dict:
    """What `viewer` (None: a spectator) sees of a table after a replay of `log` from nothing."""
    tracker = games()[game].load("tracker")
    table = replay(tracker, _content(game), tracker.Options.model_validate(options), log)
    return json.loads(json.dumps(tracker.view(table.state, viewer)))  # as JSON carries it: tuples are lists


def sent_key(actor: str, type_: str, sent: dict, recorded: dict | None = None) -> tuple:
    """A move as it was sent, for counting: who, what, and the fields the phone sent, as the log
    recorded them (`recorded`: the entry's payload; the server adds its own fields to some)."""
    fields = recorded if recorded is not None else sent
    return actor, type_, json.dumps({k: fields.get(k) for k in sorted(sent)})


def moves_in(log: list[Entry], sent_fields: dict[str, list[str]], after: int) -> Counter:
    """The log's entries after seq `after`, counted by sent_key (`sent_fields`: by action type,
    the fields its moves sent)."""
    return Counter(
        sent_key(e.actor, e.type, dict.fromkeys(sent_fields[e.type]), e.payload) for e in log if e.seq > after
    )
