"""Schemathesis against /api/openapi.json (issues 26 and 34): requests generated from the document,
sent to the app in-process (WSGI, SQLite), to a started table of every game with its real tokens as
well as to codes and tokens of no table; no answer is a 5xx, every answer's status, content type and
body are ones the document declares for that route, and a request the document calls invalid (a
body or query parameter generated to break it) is refused. Schemathesis itself sets aside a
negative case the aiming below made valid (a real code, token or seat where it generated another).
The action endpoint is also run once per game with only that game's actions (the document's body
is every game's; the table's game decides), so every game's actions reach its table's rules."""

from __future__ import annotations

import collections
import copy
from dataclasses import dataclass, field

import pytest
import schemathesis
from flask import request
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.errors import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)
from werkzeug import Client

from companion import create_app
from tests.support.inprocess import ApiTable
from tests.test_companion_events import new_event, seated_table

pytestmark = pytest.mark.slow  # hundreds of requests through the whole app

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
EXAMPLES = 20  # per route and per kind of data (valid, and invalid where a body can be)
ACTIONS = "/api/tables/{code}/actions"
# The live streams of a real table or event never end: their answers are read by the live tests.
STREAMS = r"/\{code\}/events$"


@dataclass
class Tables:
    """Where generated requests go besides where the document leads them: a started table of every
    game, each with its phones and a seat without one, and an event with a table of its own."""

    tables: dict[str, ApiTable] = field(default_factory=dict)  # by game
    kept: dict[str, str] = field(default_factory=dict)  # each table's seat without a phone, by code
    actions: dict[str, set[str]] = field(default_factory=dict)  # each game's action types
    event: dict = field(default_factory=dict)

    def aim(self, case, data) -> None:
        """Send `case` to one of these tables (one whose game has the action it sends), or to the
        event, with one of its tokens; or leave the code and token it was generated with, as drawn."""
        path = case.path_parameters or {}
        if "code" not in path:
            return
        if case.path.startswith("/api/events/"):
            if data.draw(st.booleans(), label="the event"):
                path["code"] = self.event["code"]
                self.authorize(case, data, [self.event["organiser_token"]])
            return
        kind = case.body.get("type") if isinstance(case.body, dict) else None
        games = [g for g in self.tables if not isinstance(kind, str) or kind in self.actions[g]]
        game = data.draw(st.sampled_from([*games, None]), label="game")
        if game is not None:
            self.at(self.tables[game], case, data)

    def at(self, table: ApiTable, case, data) -> None:
        """Send `case` to `table`, with one of its tokens or none, for one of its seats."""
        path = case.path_parameters
        path["code"] = table.code
        self.authorize(case, data, [token for token in table.tokens.values() if token])
        if "player_id" in path:
            path["player_id"] = data.draw(st.sampled_from([self.kept[table.code], *table.players, path["player_id"]]))
        if case.query and "as" in case.query:
            case.query["as"] = data.draw(st.sampled_from([self.kept[table.code], case.query["as"]]), label="as")

    @staticmethod
    def authorize(case, data, tokens: list[str]) -> None:
        token = data.draw(st.sampled_from([*tokens, None]), label="token")
        if token is not None:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The companion on SQLite, counting its answers by route, table code and status."""
    folder = tmp_path_factory.mktemp("schemathesis")
    app = create_app(
        {"TESTING": True, "DATABASE_URL": f"sqlite:///{folder / 'c.sqlite3'}", "INSTANCE_PATH": str(folder)}
    )
    app.answered = collections.Counter()

    @app.after_request
    def count(response):
        app.answered[(request.endpoint, (request.view_args or {}).get("code"), response.status_code)] += 1
        return response

    yield app
    app.extensions["play"].close()


@pytest.fixture(scope="module")
def tables(served):
    # opened by werkzeug's own Client, as schemathesis sends (no REMOTE_ADDR, unlike Flask's): from the
    # generated requests' address, so a limit on one address's wrong codes never refuses these
    client, found = Client(served), Tables()
    for game in served.extensions["play"].trackable():
        names = ("Ada", "Bo", "Cy", "Di") if game == "spells-and-potions" else ("Ada", "Bo")
        table = ApiTable(client, game, names[:-1], {})
        res = client.post(f"/api/tables/{table.code}/seats", json={"name": names[-1]}, headers=table.headers("host"))
        found.kept[table.code] = res.json["player_id"]
        table.start()
        found.tables[game] = table
        found.actions[game] = set(served.extensions["play"].tracker(game).actions)
    found.event = new_event(client)
    seated_table(client, found.event)
    return found


def answered_as_declared(operation, aim, failed: list[str], label: str = "") -> None:
    """Run `operation`'s generated requests, each aimed by `aim(case, data)`; its failures to `failed`."""
    # invalid data where a body or a query can be wrong (any string is a code or a seat's id)
    negative = operation.body or operation.query
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE) if negative else (GenerationMode.POSITIVE,):

        @given(case=operation.as_strategy(generation_mode=mode), data=st.data())
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def run(case, data):
            aim(case, data)
            case.call_and_validate(checks=CHECKS)

        try:
            run()
        except (Exception, FailureGroup) as failure:  # every route's failures, not only the first's
            failed.append(f"{operation.label}{label} ({mode.value}): {failure}")


def one_games_actions(schema, game: str):
    """The action endpoint with only `game`'s actions as its body."""
    raw = copy.deepcopy(schema.raw_schema)
    body = raw["paths"][ACTIONS]["post"]["requestBody"]["content"]["application/json"]
    body["schema"] = {"$ref": f"#/components/schemas/{game}.action"}
    own = schemathesis.openapi.from_dict(raw)
    own.app = schema.app
    return own[ACTIONS]["POST"]


def test_every_answer_is_one_the_document_declares(served, tables):
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", served).exclude(path_regex=STREAMS)
    failed: list[str] = []
    for operation in (result.ok() for result in schema.get_all_operations()):
        answered_as_declared(operation, tables.aim, failed)
    for game, table in tables.tables.items():
        aim = lambda case, data, table=table: tables.at(table, case, data)
        answered_as_declared(one_games_actions(schema, game), aim, failed, f", {game}'s actions")
    assert not failed, "\n\n".join(failed)
    # every game's table judged actions by its rules or their shape, not only refused tokens or codes
    judged = collections.Counter()
    for (route, code, status), times in served.answered.items():
        if route == "api.act" and status in (200, 403, 409, 422):
            judged[code] += times
    assert all(judged[table.code] >= EXAMPLES for table in tables.tables.values()), judged
