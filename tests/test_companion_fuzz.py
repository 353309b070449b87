"""Garbage to every endpoint, as a stranger would send it: no request of any shape is a 500, and
whatever is refused leaves the table's log as it was."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import create_app
from pnp.gamedef import games

pytestmark = pytest.mark.slow  # hundreds of examples through the whole app

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
GAMES = sorted(g.id for g in games().values() if g.tracker)
ACTION_TYPES = sorted({t for g in games().values() if g.tracker for t in g.load("tracker").actions})
TABLE_PATHS = ["", "/players", "/seats", "/seats/p1/claim", "/seats/p1/answer", "/actions", "/undo", "/history"]
TABLE_PATHS += ["/export", "/layout", "/events"]
EVENT_PATHS = ["", "/tables", "/roll", "/end", "/leaderboard", "/events"]
PATHS = [f"/api/tables/{{code}}{p}" for p in TABLE_PATHS] + [f"/api/events/{{code}}{p}" for p in EVENT_PATHS]
GET_ONLY_NOT = ("/players", "/seats", "/claim", "/answer", "/actions", "/undo", "/tables", "/roll", "/end")
TRACKERS = [g.load("tracker") for g in games().values() if g.tracker]
# every field any action of any game takes, so a payload may be almost right for the action it names
FIELDS = st.sampled_from(sorted({f for t in TRACKERS for model in t.actions.values() for f in model.model_fields}))


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    config = {"TESTING": True, "DATABASE_URL": f"sqlite:///{folder / 'c.sqlite3'}", "INSTANCE_PATH": str(folder)}
    # garbage codes are wrong codes: past the guess limit (companion/guesses.py) every path would
    # be refused with 429 before its body is read, and the bodies are what is fuzzed here
    app = create_app(config | {"RATELIMIT_ENABLED": False})
    yield app.test_client()
    app.extensions["play"].close()


def seated(client, game: str):
    table = client.post("/api/tables", json={"game": game}).json
    players = [client.post(f"/api/tables/{table['code']}/players", json={"name": n}).json for n in ("Ada", "Brin")]
    return table, players


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    game=st.sampled_from(GAMES),
    kind=st.sampled_from(ACTION_TYPES),
    payload=st.dictionaries(FIELDS, JSON, max_size=4),
    as_host=st.booleans(),
)
def test_any_action_body_is_answered_without_a_500_and_a_refusal_changes_nothing(
    fuzz_client, game, kind, payload, as_host
):
    table, (ada, _brin) = seated(fuzz_client, game)
    code = table["code"]
    token = table["host_token"] if as_host else ada["token"]
    fuzz_client.post(
        f"/api/tables/{code}/actions",
        json={"type": "start"},
        headers={"Authorization": f"Bearer {table['host_token']}"},
    )
    before = fuzz_client.get(f"/api/tables/{code}/history").json["history"]
    res = fuzz_client.post(
        f"/api/tables/{code}/actions", json={"type": kind, **payload}, headers={"Authorization": f"Bearer {token}"}
    )
    assert res.status_code < 500 and res.is_json, (res.status_code, res.data[:300])
    after = fuzz_client.get(f"/api/tables/{code}/history").json["history"]
    assert after == before if res.status_code != 200 else len(after) == len(before) + 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    path=st.sampled_from(PATHS),
    code=st.text(max_size=12).filter(lambda c: "/" not in c and "?" not in c and "#" not in c),
    body=JSON,
    header=st.text(max_size=40),
)
def test_any_path_body_or_token_is_answered_without_a_500(fuzz_client, path, code, body, header):
    for send in (fuzz_client.get, fuzz_client.post):
        if send is fuzz_client.get and path.endswith(GET_ONLY_NOT):
            continue
        if path.endswith("/events") and send is fuzz_client.get:
            continue  # a stream on a real code never ends; unknown codes are covered by the API tests
        try:
            res = send(path.format(code=code), json=body, headers={"Authorization": header, "Last-Event-ID": header})
        except ValueError:
            continue  # the test client itself refuses header text no HTTP request can carry
        assert res.status_code < 500, (path, code, res.status_code, res.data[:300])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/tables", "/roll", "/end"]), body=JSON, as_organiser=st.booleans())
def test_any_body_to_a_real_event_is_answered_without_a_500(fuzz_client, path, body, as_organiser):
    event = fuzz_client.post("/api/events", json={"game": "merchants-of-magick"}).json
    headers = {"Authorization": f"Bearer {event['organiser_token']}"} if as_organiser else {}
    res = fuzz_client.post(f"/api/events/{event['code']}{path}", json=body, headers=headers)
    assert res.status_code < 500 and res.is_json, (res.status_code, res.data[:300])
    rolled = fuzz_client.get(f"/api/events/{event['code']}").json["rolled"]
    assert rolled == (1 if path == "/roll" and res.status_code == 200 else 0)
