"""The OpenAPI document (/api/openapi.json) says what the server accepts (issue 26): every action
body the server answered 200 to, in scripted games of every game, validates against the document's
schema for the action endpoint and against its table's game's own; bodies the server refuses as
malformed (422: an unknown field, a wrong type) fail them, and each accepted body with a number in
quotes or a yes/no as 1 or 0 fails them and is refused (the server converts nothing)."""

from __future__ import annotations

import json
import random

import pytest
from flask import request
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

import tests.test_companion_magecraft as magecraft
import tests.test_companion_merchants as merchants
import tests.test_companion_seats as seats
import tests.test_companion_spellcycles as spellcycles
from companion import create_app
from tests.support.api import error_of
from tests.support.inprocess import ApiTable
from tests.test_magecraft_tracker import opening
from tests.test_magecraft_tracker import play_turn as magecraft_turn

ACTIONS = "/api/tables/{code}/actions"
# Action types no scripted game here makes; each is a model like the others, and their 422s are below.
UNREACHED = {
    "merchants-of-magick": {"deliver", "free"},
    "spellcycles": {"by_hand", "skip_contribute"},
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


def nothing(*_) -> None:
    """The scripts' check after every move: here, nothing (the games' own tests read every viewer)."""


def magecraft_games(client, monkeypatch):
    magecraft.seeded(client, monkeypatch, 18)  # a duel the script ends in few turns
    table = magecraft.Table(client)
    table.do("host", "start")
    opening(table, nothing)
    rng = random.Random(18)
    while table.phase == "playing":
        magecraft_turn(table, rng, nothing)
    monkeypatch.undo()
    magecraft.test_the_gems_dashboard_through_the_api(client)  # count, next_phase
    magecraft.test_undo_takes_back_a_move_that_drew_nothing_never_a_draw(client)  # discard_shield


def spellcycles_games(client, monkeypatch):
    table = spellcycles.Table(client)
    table.ok("host", "start")
    table.ok("host", "essence", wizard=table.players[0], change=1)
    rng = random.Random(5)
    while table.view()["state"]["phase"] == "playing":
        spellcycles.play_turn(table, rng, nothing)
    pieces = spellcycles.Table(client, options={"mode": "pieces"})  # real pieces: the cauldron as counted
    pieces.ok("host", "start")
    pieces.ok("host", "cauldron", colour=next(iter(pieces.view()["state"]["cauldron"])), large=0)
    quick = spellcycles.Table(client, options={"accelerando": True})  # a second piece placed for essence
    quick.ok("host", "start")
    me = quick.turn
    quick.ok("host", "essence", wizard=me, change=4)
    quick.ok(me, "renew")
    apothecary = next(p for p in quick.view(me)["state"]["players"] if p["id"] == me)["apothecary"]
    quick.ok(me, "contribute", piece=apothecary[0], space=0)
    quick.ok(me, "accelerate", piece=apothecary[1], space=1)
    untracked = spellcycles.Table(client, options={"mode": "pieces", "cauldron": False})
    untracked.ok("host", "start")
    untracked.ok(untracked.turn, "renew")
    untracked.ok(untracked.turn, "reroll")


def merchants_games(client, monkeypatch):
    seats.test_a_merchants_game_runs_from_start_to_finish_on_the_hosts_phone(client, monkeypatch)
    monkeypatch.undo()
    scripted = lambda rolls: monkeypatch.setattr(seats.Play, "chance", lambda self, info: merchants.Script(rolls))
    merchants.test_the_rules_order_example_with_printed_cards(client, scripted)  # masteries, cards, claim
    merchants.test_masteries_pay_master_to_everyone_reaching_them_together_then_flip(client, scripted)  # mastery
    monkeypatch.undo()


def magic_spell_games(client, monkeypatch):
    seats.test_a_semester_runs_from_start_to_finish_on_the_hosts_phone(client)
    table = ApiTable(client, "magic-spell", ("Ada", "Bo", "Cy"), {})
    ada, bo, cy = table.players
    ok = lambda who, type_, **payload: assert_ok(table.act(who, type_, **payload))
    state = ok("host", "start", first=ada)
    spell = next(c for c in state["deck"] if c["mode"] == "cast" and 0 < c["cost"] <= 4)["spell"]
    ok(bo, "trade_remove")  # between Bo's turns, during Ada's
    for type_ in ("weave", "weave_again", "move_ingredient"):
        ok(ada, type_)
    ok(ada, "complete_spell", spell=spell)
    ok(ada, "end_turn")
    ok(ada, "give_spell", spell=spell, to=cy)
    ok(bo, "rest")
    ok(bo, "end_turn")
    ok(cy, "research")
    ok(cy, "spirit", delta=2)
    ok(cy, "stone", delta=1)
    ok(cy, "end_turn")
    ok(ada, "scrounge", woven=False)
    ok(ada, "end_turn")
    ok(bo, "end_turn")
    ok(cy, "cast", spell=spell)


def spells_and_potions_games(client, monkeypatch):
    seats.test_a_four_wizard_tournament_runs_from_start_to_finish_on_the_hosts_phone(client)
    table = ApiTable(client, "spells-and-potions", ("Ada", "Bo", "Cy", "Di"), {})
    ada = table.players[0]
    assert_ok(table.act("host", "start"))
    cards = [{"suit": "earth", "rank": 5}, {"suit": "earth", "rank": 9}, {"name": "Gladder's Reward"}]
    assert_ok(table.act(ada, "judge_trick", leader="north", cards=[*cards, {"suit": "earth", "rank": 2}]))
    assert_ok(table.act(ada, "trick", team=0, potions=["Larfor's Trump Choice"]))
    assert_ok(table.act(ada, "set_trump", suit="water"))


def assert_ok(res) -> dict:
    assert res.status_code == 200, res.json
    return res.json["state"]


GAMES = {
    "magecraft": magecraft_games,
    "magic-spell": magic_spell_games,
    "merchants-of-magick": merchants_games,
    "spellcycles": spellcycles_games,
    "spells-and-potions": spells_and_potions_games,
}


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The companion on SQLite after the scripted games of every game: its OpenAPI document and
    every action body posted, with its table's game and the answer's status."""
    folder = tmp_path_factory.mktemp("openapi")
    app = create_app(
        {"TESTING": True, "DATABASE_URL": f"sqlite:///{folder / 'c.sqlite3'}", "INSTANCE_PATH": str(folder)}
    )
    sent = []

    @app.after_request
    def record(response):
        if request.endpoint == "api.act":
            game = app.extensions["play"].info(request.view_args["code"]).game
            sent.append((game, request.get_json(silent=True), response.status_code))
        return response

    client = app.test_client()
    assert set(GAMES) == set(app.extensions["play"].trackable())  # a new game needs its scripted games here
    with pytest.MonkeyPatch.context() as monkeypatch:
        for play_games in GAMES.values():
            play_games(client, monkeypatch)
    yield client, sent
    app.extensions["play"].close()


def test_every_action_the_server_accepted_in_whole_games_matches_the_document(played):
    client, sent = played
    doc, play = client.get("/api/openapi.json").json, client.application.extensions["play"]
    accepted = [(game, body) for game, body, status in sent if status == 200]
    endpoint, own = action_body(doc), {game: game_action(doc, game) for game in play.trackable()}
    for game, body in {(game, json.dumps(body, sort_keys=True)): (game, body) for game, body in accepted}.values():
        for schema in (endpoint, own[game]):
            problems = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in schema.iter_errors(body)]
            assert not problems, (game, body, problems[:3])
    for game in play.trackable():
        made = {body["type"] for g, body in accepted if g == game}
        assert made == set(play.tracker(game).actions) - UNREACHED.get(game, set()), game


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
    ("spellcycles", {"type": "reroll", "faces": [7]}, "faces.0"),
    ("spellcycles", {"type": "by_hand", "surprise": True}, "surprise"),
    ("spells-and-potions", {"type": "trick", "team": 2}, "team"),
    ("spells-and-potions", {"type": "end_duel", "team": 0}, "team"),
]


@pytest.mark.parametrize(("game", "body", "field"), MALFORMED, ids=[f"{g}-{b['type']}-{f}" for g, b, f in MALFORMED])
def test_a_body_refused_for_its_shape_fails_the_document(played, game, body, field):
    client = played[0]
    table = ApiTable(client, game, ("Ada", "Bo", "Cy", "Di")[: 4 if game == "spells-and-potions" else 2], {})
    table.act("host", "start")
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
    doc, play = client.get("/api/openapi.json").json, client.application.extensions["play"]
    endpoint, tables, tried = action_body(doc), {}, 0
    for game in play.trackable():
        tables[game] = ApiTable(client, game, ("Ada", "Bo", "Cy", "Di")[: 4 if game == "spells-and-potions" else 2], {})
        tables[game].act("host", "start")
    for game, body in {(g, json.dumps(b, sort_keys=True)): (g, b) for g, b, status in sent if status == 200}.values():
        for path, changed in loosened(body):
            assert not endpoint.is_valid(changed), changed
            table = tables[game]
            res = client.post(ACTIONS.format(code=table.code), json=changed, headers=table.headers("host"))
            field = ".".join(map(str, path))
            assert res.status_code == 422, (changed, res.status_code, res.json)
            named = (field, f"{field}.int", f"{field}.bool")  # a union's member may be named after the field
            assert res.json["error"]["field"] in named, (changed, res.json)
            tried += 1
    assert tried >= 100, tried
