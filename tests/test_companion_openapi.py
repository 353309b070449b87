"""The OpenAPI document (/api/openapi.json) says what the server accepts (issue 26): every action
body the server answered 200 to, in seeded random games of offered moves of every game, every way
of playing it and every value of its other options (tests/support/legal.py), validates against the
document's schema for the action endpoint and against its table's game's own, and every action
type of every game is among them; bodies the server refuses as malformed (422: an unknown field, a
wrong type) fail them, and each accepted body with a number in quotes or a yes/no as 1 or 0 fails
them and is refused (the server converts nothing)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from flask import request
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from companion import create_app
from pnp.rules.bodies import decided_by_server
from pnp.rules.flow import Rules
from tests.support.api import error_of
from tests.support.http import CHANCE_SEED
from tests.support.inprocess import ApiTable
from tests.support.legal import covering_options, random_table, ruled

ACTIONS = "/api/tables/{code}/actions"
# A table's moves: at least LEAST_STEPS, and on while a move of its way of playing is still to be
# made at its game's tables, up to MOST_STEPS (a game with a move it seldom offers plays longer).
LEAST_STEPS, MOST_STEPS = 20, 150
# Action types no random game here reaches, each with what it waits for. Neither is a move the
# server accepts but does not offer: each is offered once its position comes (the game's own tests
# set one up by hand), and its 422s are below. Kept to what the games really miss: a type they come
# to make must leave this list.
NEVER_REACHED = {
    # a digital sheet that has completed both an item of its adventurer's and its enchantment, which
    # random marks over ten rounds seldom do (never in 80 whole random games of uniform choices)
    ("merchants-of-magick", "deliver"): "an adventurer's order completed",
    ("merchants-of-magick", "free"): "a free circle owed, which only a delivery's reward owes",
    # a text-only spell cast this turn, and content/spellcycles has none: every spell's effects are data
    ("spellcycles", "by_hand"): "a text-only spell cast",
    # an empty apothecary (or a full field) at Contribute: once in 40 whole random games
    ("spellcycles", "skip_contribute"): "an empty apothecary at Contribute",
}


def registry(doc: dict) -> Registry:
    return Registry().with_resource("urn:doc", Resource.from_contents(doc, default_specification=DRAFT202012))


def validator(doc: dict, pointer: str) -> Draft202012Validator:
    """A validator of the schema at `pointer` in the document, its $refs resolved in it."""
    return Draft202012Validator({"$ref": f"urn:doc#{pointer}"}, registry=registry(doc))


def refs(value) -> set[str]:
    if isinstance(value, dict):
        return {value["$ref"]} if isinstance(value.get("$ref"), str) else set().union(*map(refs, value.values()))
    return set().union(*map(refs, value)) if isinstance(value, list) else set()


def action_body(doc: dict) -> Draft202012Validator:
    escaped = ACTIONS.replace("~", "~0").replace("/", "~1")
    return validator(doc, f"/paths/{escaped}/post/requestBody/content/application~1json/schema")


def game_action(doc: dict, game: str) -> Draft202012Validator:
    return validator(doc, f"/components/schemas/{game}.action")


def started(client, game: str) -> ApiTable:
    """A table of `game` with its default options, as few players as they seat, begun."""
    rules = ruled()[game]
    fewest, _ = rules.seats(rules.Options())
    table = ApiTable(client, game, ("Ada", "Bo", "Cy", "Di", "Ed")[:fewest], {})
    table.start()
    return table


def moves_of(rules: Rules, options: dict) -> set[str]:
    """The action types a table with `options` plays: every way's, and its own way's."""
    return set(rules.in_effect({"way": options.get(rules.way_option)}))


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The companion on SQLite, its chance seeded, after random games of offered moves of every
    game at tables covering its ways and options: its OpenAPI document and every action body
    posted, with its table's game and the answer's status."""
    folder = tmp_path_factory.mktemp("openapi")
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": f"sqlite:///{folder / 'c.sqlite3'}",
            "INSTANCE_PATH": str(folder),
            "CHANCE": random.Random(CHANCE_SEED),
        }
    )
    sent = []

    @app.after_request
    def record(response):
        if request.endpoint == "api.act":
            game = app.extensions["play"].info(request.view_args["code"]).game
            sent.append((game, request.get_json(silent=True), response.status_code))
        return response

    client = app.test_client()
    for game, rules in ruled().items():
        made = Counter()  # the game's moves by type, over its tables: each step makes one of the least made
        for n, options in enumerate(covering_options(rules, random.Random(game))):
            table = random_table(client, game, options, random.Random(f"{game} {n}"), made)
            to_make = {type_ for type_ in moves_of(rules, options) if (game, type_) not in NEVER_REACHED}
            while table.steps < MOST_STEPS and (table.steps < LEAST_STEPS or not to_make <= made.keys()):
                if not (table.step() or table.take_back()):  # a game over is taken back and goes on
                    break
    yield client, sent
    app.extensions["play"].close()


def accepted_bodies(sent) -> list[tuple[str, dict]]:
    """Each (game, body) the server answered 200 to, once."""
    bodies = {(game, json.dumps(body, sort_keys=True)): (game, body) for game, body, status in sent if status == 200}
    return list(bodies.values())


def test_every_action_the_server_accepted_in_whole_games_matches_the_document(played):
    client, sent = played
    doc = client.get("/api/openapi.json").json
    accepted = accepted_bodies(sent)
    endpoint, own = action_body(doc), {game: game_action(doc, game) for game in ruled()}
    for game, body in accepted:
        for schema in (endpoint, own[game]):
            problems = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in schema.iter_errors(body)]
            assert not problems, (game, body, problems[:3])
    made = {(game, body["type"]) for game, body in accepted}
    unreached = {(game, type_) for game, rules in ruled().items() for type_ in rules.actions} - made
    assert unreached <= NEVER_REACHED.keys(), f"never made, and not in NEVER_REACHED: {unreached - set(NEVER_REACHED)}"
    made_now = {type_: why for type_, why in NEVER_REACHED.items() if type_ not in unreached}
    assert not made_now, f"made now: drop them from NEVER_REACHED: {made_now}"


# Bodies the server refuses for their shape (its field named), on a started table of the game.
MALFORMED = [
    ("magic-spell", {"type": "spirit", "delta": "two"}, "delta"),
    ("magic-spell", {"type": "spirit", "delta": 100}, "delta"),
    ("magic-spell", {"type": "spirit", "delta": 1, "surprise": 1}, "surprise"),
    ("magic-spell", {"type": "cast"}, "spell"),
    ("magic-spell", {"type": "rest", "player": 3}, "player"),
    ("magecraft", {"type": "count", "player": "p1", "area": "bag", "change": 1}, "area"),
    ("magecraft", {"type": "next_phase", "phase": "casting"}, "phase"),
    ("merchants-of-magick", {"type": "free", "row": "Gloves", "circle": 51}, "circle"),
    ("merchants-of-magick", {"type": "deliver", "category": "shoes"}, "category"),
    ("merchants-of-magick", {"type": "roll", "round": "1st"}, "round"),
    ("spellcycles", {"type": "cauldron", "colour": "red", "large": -1}, "large"),
    ("spellcycles", {"type": "accelerate", "piece": ["red"], "space": 0}, "piece.1"),
    ("spellcycles", {"type": "reroll", "faces": [3]}, "faces"),  # the server's roll, not the phone's
    ("spellcycles", {"type": "by_hand", "surprise": True}, "surprise"),
    ("spells-and-potions", {"type": "trick", "team": 2}, "team"),
    ("spells-and-potions", {"type": "end_duel", "team": 0}, "team"),
]


@pytest.mark.parametrize(("game", "body", "field"), MALFORMED, ids=[f"{g}-{b['type']}-{f}" for g, b, f in MALFORMED])
def test_a_body_refused_for_its_shape_fails_the_document(played, game, body, field):
    client = played[0]
    table = started(client, game)
    error_of(client.post(ACTIONS.format(code=table.code), json=body, headers=table.headers("host")), 422, field)
    doc = client.get("/api/openapi.json").json
    assert not action_body(doc).is_valid(body) and not game_action(doc, game).is_valid(body)


def test_an_action_is_its_models_fields_and_its_type_in_one_object(played):
    """Not allOf of the model (which forbids other fields) and `type`: nothing could pass both."""
    doc = played[0].get("/api/openapi.json").json
    spirit = doc["components"]["schemas"]["magic-spell.spirit"]
    assert spirit["properties"]["type"] == {"const": "spirit"} and set(spirit["required"]) == {"type", "delta"}
    assert spirit["additionalProperties"] is False and "allOf" not in spirit
    assert action_body(doc).is_valid({"type": "spirit", "delta": 1})
    mapping = doc["components"]["schemas"]["merchants-of-magick.action"]["discriminator"]["mapping"]
    assert mapping["spend"] == "#/components/schemas/merchants-of-magick.spend"


def test_every_schema_of_the_document_is_a_json_schema_and_every_ref_names_one(played):
    doc = played[0].get("/api/openapi.json").json
    for schema in doc["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)
    resolver = registry(doc).resolver()
    for ref in refs(doc):
        assert ref.startswith("#/components/schemas/"), ref
        resolver.lookup(f"urn:doc{ref}")  # raises if it names nothing


def loosened(value, path: tuple = ()):
    """Each (path, copy of `value`) with the number or yes/no at `path` written as pydantic's lax
    mode would still read it and the document does not allow: a number in quotes, a yes/no as 1 or 0."""
    if isinstance(value, bool):
        yield path, int(value)
    elif isinstance(value, int):
        yield path, str(value)
    elif isinstance(value, dict | list):
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            for inner, changed in loosened(item, (*path, key)):
                copy = json.loads(json.dumps(value))
                copy[key] = changed
                yield inner, copy


def test_what_the_document_refuses_the_server_refuses_too(played):
    """A phone's body is read as strictly as the document describes it: each body the server
    accepted in the games above, with one number sent in quotes or one yes/no sent as 1 or 0,
    fails the document, and the server answers it 422 naming that field (it once took "2" for 2)."""
    client, sent = played
    endpoint = action_body(client.get("/api/openapi.json").json)
    tables, tried = {game: started(client, game) for game in ruled()}, 0
    for game, body in accepted_bodies(sent):
        for path, changed in loosened(body):
            assert not endpoint.is_valid(changed), changed
            table = tables[game]
            res = client.post(ACTIONS.format(code=table.code), json=changed, headers=table.headers("host"))
            field = ".".join(map(str, path))
            assert res.status_code == 422, (changed, res.status_code, res.json)
            # among the problems: a union's members each say theirs ("to" as a number, "to.0" as a list's)
            assert field in [p["field"] for p in res.json["error"]["problems"]], (changed, res.json)
            tried += 1
    assert tried >= 100, tried


DECIDED = [
    (game, type_, name)
    for game, rules in ruled().items()
    for type_, model in rules.actions.items()
    for name in decided_by_server(model)
]


def test_every_game_has_fields_the_server_decides():
    assert {game for game, _, _ in DECIDED} >= {"magecraft", "merchants-of-magick", "spellcycles"}


@pytest.mark.parametrize(("game", "type_", "name"), DECIDED, ids=["-".join(d) for d in DECIDED])
def test_a_field_the_server_decides_is_not_in_the_document_and_is_refused_when_sent(played, game, type_, name):
    """A deal, dice or drawn gems sent by a phone were once answered 200 and silently replaced."""
    client = played[0]
    table = started(client, game)
    model = ruled()[game].actions[type_]
    doc = client.get("/api/openapi.json").json
    schema = doc["components"]["schemas"][f"{game}.{type_}"]
    assert "properties" in schema and name not in schema["properties"]
    body = {"type": type_, name: model.model_fields[name].default}  # even the default value
    error = error_of(client.post(ACTIONS.format(code=table.code), json=body, headers=table.headers("host")), 422, name)
    assert error["reason"].startswith("decided by the server")


def numbers_in(schema, schemas: dict, path: str, seen: frozenset = frozenset()):
    """(path, schema) of every integer or number a request may carry in `schema`, refs followed."""
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if ref is not None:
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                yield from numbers_in(schemas[name], schemas, f"{path}->{name}", seen | {name})
            return
        if schema.get("type") in ("integer", "number") and "enum" not in schema and "const" not in schema:
            yield path, schema
        for key, value in schema.items():
            if key not in ("default", "examples", "example", "labels"):
                yield from numbers_in(value, schemas, f"{path}.{key}", seen)
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            yield from numbers_in(value, schemas, f"{path}[{i}]", seen)


def test_every_number_a_request_may_carry_is_bounded_in_the_document(played):
    """A Magecraft score change of +10**30 ended a game; an essence correction took +-10**30."""
    doc = played[0].get("/api/openapi.json").json
    schemas = doc["components"]["schemas"]
    unbounded = []
    for route, operations in doc["paths"].items():
        for method, operation in operations.items():
            sent = [operation.get("requestBody", {}), *operation.get("parameters", [])]
            for path, schema in numbers_in(sent, schemas, f"{method.upper()} {route}"):
                low = "minimum" in schema or "exclusiveMinimum" in schema
                high = "maximum" in schema or "exclusiveMaximum" in schema
                if not (low and high):
                    unbounded.append(path)
    assert not unbounded, "\n".join(sorted(set(unbounded)))
