"""The companion's JSON API through Flask's test client, on SQLite and on PostgreSQL: every
endpoint, every error status, and what a hostile body can and cannot do."""

from __future__ import annotations

import csv
import io
import re

import pytest

from tests.support.api import GAME, bearer, error_of, join, open_table, undo_latest


def test_opening_a_table_gives_a_code_a_host_token_and_a_join_link(client):
    table = open_table(client)
    assert set(table) == {"code", "host_token", "join_url"}
    assert len(table["host_token"]) >= 22  # >= 128 bits in URL-safe base64
    assert table["join_url"].endswith(f"/t/{table['code']}")
    state = client.get(f"/api/tables/{table['code']}").json
    assert state["game"] == GAME and state["seq"] == 0 and state["you"] == {"actor": None, "host": False}


def test_each_table_gets_its_own_code_and_token(client):
    tables = [open_table(client) for _ in range(5)]
    assert len({t["code"] for t in tables}) == 5 and len({t["host_token"] for t in tables}) == 5


def test_an_unknown_game_is_422_naming_the_game(client):
    err = error_of(client.post("/api/tables", json={"game": "chess"}), 422, "game")
    assert "magic-spell" in err["reason"] and "'chess'" in err["reason"]


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "game"),
        ({"game": 3}, "game"),
        ({"game": GAME, "options": []}, "options"),
        ({"game": GAME, "surprise": 1}, "surprise"),
        ({"game": GAME, "options": {"no_such_option": True}}, "options.no_such_option"),
    ],
)
def test_a_malformed_new_table_is_422_naming_the_field(client, body, field):
    error_of(client.post("/api/tables", json=body), 422, field)


@pytest.mark.parametrize("data", [b"", b"not json", b"[1, 2]", b'"text"', b"\xff\xfe", b"{"])
def test_a_body_that_is_not_a_json_object_is_422(client, data):
    error_of(client.post("/api/tables", data=data, content_type="application/json"), 422, "body")


@pytest.mark.parametrize("levels", [17, 900, 5000])
def test_a_body_nested_too_deep_is_422_whatever_the_route(client, levels):
    """A few KB of brackets once exhausted the JSON parser's recursion: a 500 from every route."""
    table = open_table(client)
    deep = "[" * (levels - 1) + "]" * (levels - 1)
    routes = ("/api/tables", f"/api/tables/{table['code']}/players", f"/api/tables/{table['code']}/actions")
    for route in routes:
        res = client.post(
            route, data=f'{{"x": {deep}}}', content_type="application/json", headers=bearer(table["host_token"])
        )
        assert error_of(res, 422, "body")["reason"] == "expected a JSON object nested at most 16 levels deep"


def test_a_body_sixteen_levels_deep_is_read_and_judged_by_its_fields(client):
    table = open_table(client)
    deep = "[" * 15 + "]" * 15
    res = client.post(
        f"/api/tables/{table['code']}/actions",
        data=f'{{"type": "spirit", "delta": {deep}}}',
        content_type="application/json",
        headers=bearer(table["host_token"]),
    )
    error_of(res, 422, "delta")


def test_an_oversized_body_is_413(client):
    res = client.post("/api/tables", json={"game": GAME, "options": {"x": "y" * 100_000}})
    error_of(res, 413)


def test_an_oversized_chunked_body_is_413_at_every_post_endpoint(app, client):
    """No Content-Length, the body chunked past the limit: read as gunicorn hands it over (it sets
    wsgi.input_terminated; without it Werkzeug reads no body at all). The real server's answer is in
    test_companion_live.py."""
    code = open_table(client)["code"]
    values = {"code": code, "player_id": join(client, code, "Ada")["player_id"]}
    posts = [rule for rule in app.url_map.iter_rules() if "POST" in rule.methods]
    for rule in posts:
        res = client.post(
            rule.build(values, append_unknown=False)[1],
            data=io.BytesIO(b'{"name": "' + b"x" * 20_000 + b'"}'),
            headers={"Transfer-Encoding": "chunked", "Content-Type": "application/json"},
            environ_overrides={"wsgi.input_terminated": True},
        )
        error_of(res, 413, "body")
    assert len(posts) >= 10


def test_joining_needs_only_a_name_and_gives_a_token(client):
    code = open_table(client)["code"]
    player = join(client, code, "Ada")
    assert set(player) == {"player_id", "token"} and len(player["token"]) >= 22
    state = client.get(f"/api/tables/{code}", headers=bearer(player["token"])).json
    assert state["you"] == {"actor": player["player_id"], "host": False}
    assert state["seq"] == 1


@pytest.mark.parametrize(
    "name, field", [("", "name"), ("x" * 41, "name"), ("a\nb", "name"), ("   ", "name"), (7, "name")]
)
def test_a_bad_name_is_422(client, name, field):
    code = open_table(client)["code"]
    error_of(client.post(f"/api/tables/{code}/players", json={"name": name}), 422, field)


@pytest.mark.parametrize("name", ["", "   "])
def test_a_blank_name_is_told_what_a_name_needs_as_the_join_form_shows_it(client, name):
    code = open_table(client)["code"]
    err = error_of(client.post(f"/api/tables/{code}/players", json={"name": name}), 422, "name")
    assert err["reason"].startswith("expected a name with at least one letter, number or sign besides spaces")
    doc = client.get("/api/openapi.json").json
    assert (
        doc["components"]["schemas"]["NewPlayer"]["properties"]["name"]["pattern"] == r"\S"
    )  # the document says so too


@pytest.mark.parametrize(
    "method, path",
    [
        ("get", ""),
        ("post", "/players"),
        ("post", "/actions"),
        ("post", "/undo"),
        ("get", "/history"),
        ("get", "/export"),
        ("get", "/events"),
    ],
)
def test_an_unknown_table_is_404_everywhere(client, method, path):
    table = open_table(client)
    body = {"name": "Ada", "type": "rest"}
    res = getattr(client, method)(
        f"/api/tables/NOPE42{path}", json=body if method == "post" else None, headers=bearer(table["host_token"])
    )
    error_of(res, 404, "code")


def test_actions_need_a_token_of_this_table(client):
    first, second = open_table(client), open_table(client)
    code = first["code"]
    error_of(client.post(f"/api/tables/{code}/actions", json={"type": "start"}), 401, "Authorization")
    res = client.post(f"/api/tables/{code}/actions", json={"type": "start"}, headers=bearer(second["host_token"]))
    error_of(res, 401, "Authorization")
    res = client.post(f"/api/tables/{code}/actions", json={"type": "start"}, headers={"Authorization": "Basic abc"})
    error_of(res, 401, "Authorization")


def test_an_unknown_action_is_422_naming_the_type(client):
    table = open_table(client)
    res = client.post(f"/api/tables/{table['code']}/actions", json={"type": "fly"}, headers=bearer(table["host_token"]))
    err = error_of(res, 422, "type")
    assert "'fly'" in err["reason"]


@pytest.mark.parametrize(
    ("body", "field", "reason"),
    [
        ({"type": "spirit", "delta": "1"}, "delta", "expected a whole number, got '1'"),
        ({"type": "spirit", "delta": 100}, "delta", "expected a number <= 99, got 100"),
        ({"type": "spirit"}, "delta", "missing (expected a value, got nothing)"),
        (
            {"type": "spirit", "delta": 1, "mood": "x"},
            "mood",
            "unknown field (expected one of player, delta, got 'mood')",
        ),
        (
            {"type": "spirit", "delta": 1, "playr": "p1"},
            "playr",
            "unknown field (expected one of player, delta, got 'playr'; did you mean 'player'?)",
        ),
    ],
)
def test_a_malformed_action_says_what_was_expected_and_what_came_in_our_words(client, body, field, reason):
    """The same words as a content problem (pnp.content.validate.reason), never the validation
    library's own, which change with its releases."""
    table = open_table(client)
    res = client.post(f"/api/tables/{table['code']}/actions", json=body, headers=bearer(table["host_token"]))
    err = error_of(res, 422, field)
    assert err["reason"] == reason and err["problems"] == [{"field": field, "reason": reason}]


def test_a_bad_option_says_what_the_game_offers(client):
    err = error_of(client.post("/api/tables", json={"game": "spellcycles", "options": {"line": "huge"}}), 422)
    said = "expected one of 'short', 'normal', 'long', got 'huge'"
    assert (err["field"], err["reason"], err["problems"]) == (
        "options.line",
        said,
        [{"field": "options.line", "reason": said}],
    )


def test_undo_with_nothing_to_undo_is_409_in_words(client):
    table = open_table(client)
    player = join(client, table["code"], "Ada")
    err = error_of(undo_latest(client, table["code"], bearer(player["token"])), 409)
    assert "nothing" in err["reason"].lower()


def test_history_names_who_did_what(client):
    code = open_table(client)["code"]
    join(client, code, "Ada")
    join(client, code, "Brin")
    history = client.get(f"/api/tables/{code}/history").json["history"]
    assert [(h["seq"], h["name"], h["type"], h["undone"]) for h in history] == [
        (1, "Ada", "join", False),
        (2, "Brin", "join", False),
    ]


def test_export_gives_the_log_and_state_as_json_and_results_as_csv(client):
    code = open_table(client)["code"]
    join(client, code, "Ada")
    exported = client.get(f"/api/tables/{code}/export").json
    assert exported["game"] == GAME and [e["type"] for e in exported["log"]] == ["join"] and exported["state"]
    res = client.get(f"/api/tables/{code}/export?format=csv")
    assert res.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(res.get_data(as_text=True))))
    assert [row["name"] for row in rows] == ["Ada"]


def test_an_export_or_leaderboard_format_we_do_not_write_is_refused_not_answered_as_json(client):
    from tests.test_companion_events import new_event

    code = open_table(client)["code"]
    event = new_event(client)["code"]
    for path in (f"/api/tables/{code}/export", f"/api/events/{event}/leaderboard"):
        assert client.get(f"{path}?format=json").is_json and client.get(f"{path}?format=csv").mimetype == "text/csv"
        for query in ("format=AAA", "format=", "format=CSV", "format=csv&format=json"):
            error_of(client.get(f"{path}?{query}"), 422, "format")


def test_a_name_is_stored_as_text_whatever_it_holds(client):
    code = open_table(client)["code"]
    join(client, code, "<script>alert(1)</script>")
    history = client.get(f"/api/tables/{code}/history").json["history"]
    assert history[0]["name"] == "<script>alert(1)</script>"


@pytest.mark.parametrize("value", ["abc", "-1", "9" * 40, "1.5", "\u00b2"])  # ² is a digit to str.isdigit
def test_a_malformed_last_event_id_is_422(client, value):
    code = open_table(client)["code"]
    error_of(client.get(f"/api/tables/{code}/events", headers={"Last-Event-ID": value}), 422, "Last-Event-ID")


def test_the_openapi_document_is_generated_from_the_models(client):
    doc = client.get("/api/openapi.json").json
    assert doc["openapi"].startswith("3.")
    assert {"/api/tables", "/api/tables/{code}/actions", "/api/tables/{code}/events"} <= set(doc["paths"])
    schemas = doc["components"]["schemas"]
    assert schemas["NewPlayer"]["properties"]["name"]["maxLength"] == 40
    actions = doc["paths"]["/api/tables/{code}/actions"]["post"]["requestBody"]["content"]["application/json"]
    games = [ref["$ref"].rsplit("/", 1)[-1] for ref in actions["schema"]["anyOf"]]
    listed = {ref["$ref"].rsplit("/", 1)[-1] for game in games for ref in schemas[game]["oneOf"]}
    assert "magic-spell.research" in listed and any(name.startswith("spells-and-potions.") for name in listed)
    assert "merchants-of-magick.spend" in listed


def test_the_openapi_document_lists_every_route_of_the_api(app, client):
    doc = client.get("/api/openapi.json").json
    routes = {
        (re.sub(r"<(\w+)>", r"{\1}", rule.rule), method.lower())
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    documented = {(path, method) for path, ops in doc["paths"].items() for method in ops}
    assert routes == documented


def test_a_move_that_is_not_yours_is_403_and_one_the_rules_forbid_now_is_409(client):
    table = open_table(client)
    code, host = table["code"], bearer(table["host_token"])
    ada, brin = join(client, code, "Ada"), join(client, code, "Brin")
    err = error_of(
        client.post(f"/api/tables/{code}/actions", json={"type": "start"}, headers=bearer(ada["token"])), 403
    )
    assert "host" in err["reason"]
    assert client.post(f"/api/tables/{code}/actions", json={"type": "start"}, headers=host).status_code == 200
    mine = {"type": "rest", "player": brin["player_id"]}
    error_of(client.post(f"/api/tables/{code}/actions", json=mine, headers=bearer(ada["token"])), 403)
    error_of(client.post(f"/api/tables/{code}/actions", json={"type": "rest"}, headers=bearer(brin["token"])), 409)
    assert (
        client.post(f"/api/tables/{code}/actions", json={"type": "rest"}, headers=bearer(ada["token"])).status_code
        == 200
    )
    err = error_of(
        client.post(f"/api/tables/{code}/actions", json={"type": "research"}, headers=bearer(ada["token"])), 409
    )
    assert err["reason"]  # one action a turn: the rules' reason, in words


def test_joining_a_full_table_is_409_and_leaves_no_one_behind(client, app):
    table = open_table(client, "spells-and-potions", {"wizards": 2})
    code = table["code"]
    join(client, code, "Ada"), join(client, code, "Brin")
    err = error_of(client.post(f"/api/tables/{code}/players", json={"name": "Cy"}), 409)
    assert "2 wizards" in err["reason"]
    assert [p.name for p in app.extensions["play"].store.tables.players(code)] == ["Ada", "Brin"]
    assert [h["name"] for h in client.get(f"/api/tables/{code}/history").json["history"]] == ["Ada", "Brin"]


def test_a_path_no_api_route_takes_is_answered_in_json_and_the_pages_keep_theirs(client):
    """ "API errors are JSON with the field and reason": an unknown route under /api/ and a method a
    route does not take are too; a page that is not there stays a page."""
    assert error_of(client.delete("/api/tables/ABC/somewhere"), 404, "path")["reason"].endswith(
        "/api/tables/ABC/somewhere"
    )
    assert "PUT" in error_of(client.put("/api/tables"), 405, "method")["reason"]
    page = client.get("/no-such-page")
    assert page.status_code == 404 and page.content_type.startswith("text/html")
