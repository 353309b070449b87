"""The API's OpenAPI 3.1 document: what each route accepts and what it answers.

The request bodies come from the models that validate them (schemas.py) and from each tracked
game's options and actions (its tracker), so a new action in a tracker appears here by itself.
An action's schema is its model's with `type` merged into its properties and required list: the
body the server reads as `{"type": ..., **the model's fields}` (api.act). The answers, which no
model builds, are described by the schemas below, to the level every client relies on: the keys
always present and their types; a game's own state and layout are objects of the game's making.
"""

from __future__ import annotations

from pydantic.json_schema import models_json_schema

from companion.events import Events
from companion.schemas import (
    HISTORY_PAGE,
    ClaimAnswer,
    EventRoll,
    FileQuery,
    HistoryQuery,
    NewComputer,
    NewEvent,
    NewEventTable,
    NewPlayer,
    UndoBody,
)

REF = "#/components/schemas/{model}"


def ref(name: str) -> dict:
    return {"$ref": REF.format(model=name)}


NULLABLE_STRING = {"type": ["string", "null"]}
# What the server answers; `Error` is every refusal's body (api.error).
ANSWERS = {
    "Error": {
        "type": "object",
        "properties": {
            "error": {
                "type": "object",
                "properties": {
                    "status": {"type": "integer"},
                    "field": {"type": "string", "description": "what was wrong: a body's field, `code`, a header"},
                    "reason": {"type": "string"},
                    "problems": {"type": "array", "description": "a malformed body's every problem (422)"},
                    "progress": {"type": "object", "description": "a roll ahead of tables still playing (409)"},
                },
                "required": ["status", "field", "reason"],
            }
        },
        "required": ["error"],
    },
    "OpenedTable": {
        "type": "object",
        "properties": {"code": {"type": "string"}, "host_token": {"type": "string"}, "join_url": {"type": "string"}},
        "required": ["code", "host_token", "join_url"],
    },
    "Joined": {
        "type": "object",
        "properties": {"player_id": {"type": "string"}, "token": {"type": "string"}},
        "required": ["player_id", "token"],
    },
    "KeptSeat": {
        "type": "object",
        "description": "a seat without a phone: the host acts for it with ?as=<player_id>",
        "properties": {"player_id": {"type": "string"}},
        "required": ["player_id"],
    },
    "Table": {
        "type": "object",
        "description": "the table as the caller may see it; `state` is the game's (its tracker's view)",
        "properties": {
            "code": {"type": "string"},
            "game": {"type": "string"},
            "title": {"type": "string"},
            "options": {"type": "object"},
            "event": NULLABLE_STRING,
            "seq": {"type": "integer", "description": "the newest log entry's number; 0 before any"},
            "you": {
                "type": "object",
                "properties": {
                    "actor": {**NULLABLE_STRING, "description": "`host`, a player id, or null (a spectator)"},
                    "host": {"type": "boolean"},
                    "by": {"type": "string", "description": "the host, acting for a seat without a phone"},
                    "asking": {"type": "string", "description": "the seat this phone has asked for"},
                },
                "required": ["actor", "host"],
            },
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "name": {"type": "string"},
                        "phone": {"type": "boolean"},
                        "asked": {"type": "boolean"},
                        "computer": {**NULLABLE_STRING, "description": "a computer player's level; null: a person"},
                    },
                    "required": ["id", "name", "phone", "asked", "computer"],
                },
            },
            "state": {"type": "object"},
            "flow": {
                **ref("Flow"),
                "description": "what every game's table shares: its stage, seats in order, whose turn",
            },
            "thinking": {
                "type": "array",
                "items": {"type": "string"},
                "description": "the computer players choosing a move now, by player id",
            },
            "computer_players": {
                "type": "object",
                "properties": {
                    "levels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "why_not": {**NULLABLE_STRING, "description": "why this table seats no computer players"},
                },
                "required": ["levels", "why_not"],
                "description": "the computer players' levels the host may seat, by id, or why none",
            },
            "moves": {
                "type": "array",
                "items": ref("Offer"),
                "description": "the moves the caller may make now, for their seat and as the host; every "
                "completion of one is accepted (a spectator has none)",
            },
        },
        "required": [
            *(
                "code",
                "game",
                "title",
                "options",
                "event",
                "seq",
                "you",
                "seats",
                "state",
                "flow",
                "thinking",
                "computer_players",
                "moves",
            )
        ],
    },
    "Flow": {
        "type": "object",
        "properties": {
            "phase": {"enum": ["joining", "playing", "over"]},
            "players": {"type": "array", "items": {"type": "string"}, "description": "player ids in seat order"},
            "turn": {**NULLABLE_STRING, "description": "the player whose turn it is; null: no one's now"},
            "room": {
                "type": "array",
                "items": {"type": "integer"},
                "minItems": 2,
                "maxItems": 2,
                "description": "the fewest and the most players the table seats",
            },
        },
        "required": ["phase", "players", "turn", "room"],
    },
    "Offer": {
        "type": "object",
        "description": "a legal move: send `{type, ...payload}`, a value chosen for each pick (pnp/rules/offers.py)",
        "properties": {
            "type": {"type": "string", "description": "the action's type"},
            "for": {"type": "string", "description": "the seat the move is for, or `host`"},
            "payload": {"type": "object", "description": "the body's fields already settled"},
            "pick": {"type": "array", "items": ref("Pick"), "description": "the choices left, in order"},
            "label": {"type": "string"},
        },
        "required": ["type", "for", "payload"],
    },
    "Pick": {
        "type": "object",
        "description": "one choice left in an offer, at a dotted field path of the body: one of some options "
        "(each may open picks of its own), a whole number in a range, or a list of some of the values "
        "(each at most `count` times, `size` the fewest and most)",
        "properties": {
            "field": {"type": "string"},
            "one_of": {"type": "array", "items": ref("Option")},
            "range": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
            "some_of": {
                "type": "array",
                "items": {"type": "object", "properties": {"value": {}, "count": {"type": "integer"}}},
            },
            "size": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
        },
        "required": ["field"],
    },
    "Option": {
        "type": "object",
        "properties": {"value": {}, "label": {"type": "string"}, "pick": {"type": "array", "items": ref("Pick")}},
        "required": ["value"],
    },
    "Entry": {
        "type": "object",
        "description": "one log entry as the caller may see it",
        "properties": {
            "seq": {"type": "integer"},
            "at": {"type": "string", "description": "when it was recorded, ISO 8601 UTC"},
            "actor": {"type": "string"},
            "name": {"type": "string"},
            "by": NULLABLE_STRING,
            "by_name": NULLABLE_STRING,
            "for_name": NULLABLE_STRING,
            "type": {"type": "string"},
            "payload": {"type": "object"},
            "undone": {"type": "boolean", "description": "a later undo took it back"},
        },
        "required": ["seq", "at", "actor", "name", "by", "by_name", "for_name", "type", "payload", "undone"],
    },
    "History": {
        "type": "object",
        "properties": {
            "code": {"type": "string"},
            "history": {"type": "array", "items": ref("Entry")},
            "earlier": {"type": ["integer", "null"], "description": "`before` of the page before this one; null: none"},
        },
        "required": ["code", "history", "earlier"],
    },
    "Export": {
        "type": "object",
        "properties": {
            "code": {"type": "string"},
            "game": {"type": "string"},
            "options": {"type": "object"},
            "event": NULLABLE_STRING,
            "log": {"type": "array", "items": ref("Entry")},
            "state": {"type": "object"},
        },
        "required": ["code", "game", "options", "event", "log", "state"],
    },
    "Layout": {"type": "object", "description": "the game's own: what its pages draw with"},
    "Event": {
        "type": "object",
        "properties": {
            "code": {"type": "string"},
            "name": {"type": "string"},
            "game": {"type": "string"},
            "title": {"type": "string"},
            "rounds": {"type": "integer"},
            "dice": {"type": "array", "items": {"type": "object"}},
            "leaderboard": {"type": "object", "description": "the game's words for the leaderboard's columns"},
            "rolled": {"type": "integer"},
            "rolls": {"type": "array", "items": ref("Roll")},
            "seed_sha256": {"type": "string"},
            "seed": {**NULLABLE_STRING, "description": "revealed once the event has ended"},
            "ended": {"type": "boolean"},
            "tables": {"type": "integer"},
            "progress": {
                "type": "object",
                "properties": {
                    "round": {"type": "integer"},
                    "finished": {"type": "integer"},
                    "of": {"type": "integer"},
                },
                "required": ["round", "finished", "of"],
            },
        },
        "required": ["code", "name", "game", "title", "rolled", "rolls", "seed_sha256", "seed", "ended", "tables"],
    },
    "StartedEvent": {
        "allOf": [ref("Event")],
        "properties": {"organiser_token": {"type": "string"}, "join_url": {"type": "string"}},
        "required": ["organiser_token", "join_url"],
    },
    "Roll": {
        "type": "object",
        "properties": {"round": {"type": "integer"}, "dice": {"type": "object"}},
        "required": ["round", "dice"],
    },
    "Rolled": {
        "allOf": [ref("Roll")],
        "properties": {"tables": {"type": "integer", "description": "how many tables took the roll"}},
        "required": ["tables"],
    },
    "Leaderboard": {
        "type": "object",
        "properties": {"code": {"type": "string"}, "rows": {"type": "array", "items": {"type": "object"}}},
        "required": ["code", "rows"],
    },
}
JSON, CSV, STREAM = "application/json", "text/csv", "text/event-stream"
_WHY = {
    401: "no token, or not one of this table's (or event's)",
    403: "that token may not do this",
    404: "no table (or event, or seat) has that code",
    409: "the rules forbid it now; `reason` says why",
    413: "the body is too large (any POST's, read or not)",
    422: "the body (or a query parameter, or a header) is malformed; `field` names what",
}
_GUESSING = {
    "description": "too many codes of no table from this address; Retry-After: the seconds to wait",
    "headers": {"Retry-After": {"schema": {"type": "string"}}},
    "content": {JSON: {"schema": ref("Error")}},
}

# `companion serve` (gunicorn) refuses a request line longer than its limit before the app sees it,
# in its own words: the one answer that is not ours
_TOO_LONG = {
    "description": "the request line (method, path and query) is over 4,094 bytes: refused by the server, as HTML",
    "content": {"text/html": {"schema": {"type": "string"}}},
}


def openapi(play) -> dict:
    trackers = {gid: play.tracker(gid) for gid in play.trackable()}
    bodies = [NewPlayer, NewComputer, ClaimAnswer, NewEvent, NewEventTable, EventRoll, UndoBody]
    actions = {(gid, name): model for gid, tracker in trackers.items() for name, model in tracker.actions.items()}
    models = [*bodies, *(t.Options for t in trackers.values()), *actions.values()]
    refs, generated = models_json_schema([(m, "validation") for m in models], ref_template=REF)
    schemas = dict(generated.get("$defs", {}))
    name_of = lambda model: refs[(model, "validation")]["$ref"].rsplit("/", 1)[-1]

    # An action's schema: its model's, `type` merged in (not allOf: the model forbids other fields).
    for (gid, name), model in actions.items():
        fields = schemas[name_of(model)]
        schemas[f"{gid}.{name}"] = {
            **fields,
            "title": f"{gid}: {name}",
            "properties": {"type": {"const": name}, **fields.get("properties", {})},
            "required": ["type", *fields.get("required", [])],
        }
    for model in set(actions.values()):
        del schemas[name_of(model)]  # only ever sent with its `type`, as above
    for gid, tracker in trackers.items():
        schemas[f"{gid}.action"] = {
            "title": f"An action at a table of {gid}",
            **_told_apart_by("type", {name: f"{gid}.{name}" for name in tracker.actions}),
        }
        schemas[f"{gid}.options"] = schemas.pop(name_of(tracker.Options))
        schemas[f"{gid}.table"] = {
            "title": f"A table of {gid}",
            "type": "object",
            "properties": {"game": {"const": gid}, "options": ref(f"{gid}.options")},
            "required": ["game"],
            "additionalProperties": False,
        }
    # The games an event runs are the games' own say (GameDef.events), known only here.
    schemas[name_of(NewEvent)]["properties"]["game"]["enum"] = Events(play).games()
    schemas.update(ANSWERS)

    new_table = {
        "description": "Open a table of a game; `options` are that game's.",
        **_told_apart_by("game", {gid: f"{gid}.table" for gid in trackers}),
    }
    action = {
        "description": "One action of the table's game: the table decides which game's actions apply "
        "(another game's `type` is 422); within a game, `type` tells them apart.",
        "anyOf": [ref(f"{gid}.action") for gid in trackers],  # anyOf: some types are in several games
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Spellpress companion", "version": "1"},
        "paths": _paths(lambda model: ref(name_of(model)), new_table, action),
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "table_token": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "a table's host or player token; an event's organiser token for its roll and end",
                }
            },
        },
    }


def _told_apart_by(field: str, schemas: dict[str, str]) -> dict:
    """One of `schemas` (by name), which the value of `field` picks."""
    return {
        "oneOf": [ref(name) for name in schemas.values()],
        "discriminator": {"propertyName": field, "mapping": {v: REF.format(model=n) for v, n in schemas.items()}},
    }


def _query(model) -> list[dict]:
    """A query model's fields as query parameters; one that may be absent, as its value when given."""
    fields = model.model_json_schema()["properties"]
    given = lambda field: next((s for s in field.get("anyOf", [field]) if s.get("type") != "null"), field)
    return [
        {"name": name, "in": "query", "description": field.get("description", ""), "schema": given(field)}
        for name, field in fields.items()
    ]


def _answers(ok: int, content: dict, *refused: int) -> dict:
    """A route's answers: `content` with status `ok`, an Error with each status of `refused`."""
    error = {JSON: {"schema": ref("Error")}}
    return {
        str(ok): {"description": "done", "content": content},
        **{str(status): {"description": _WHY[status], "content": error} for status in refused},
    }


def _json(schema: str) -> dict:
    return {JSON: {"schema": ref(schema)}}


def _paths(model_ref, new_table: dict, action: dict) -> dict:
    code = {"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}
    player = {"name": "player_id", "in": "path", "required": True, "schema": {"type": "string"}}
    kept = {
        "name": "as",
        "in": "query",
        "description": "the host acting for (and seeing as) this seat without a phone; 403 for anyone else",
        "schema": {"type": "string"},
    }
    token = [{"table_token": []}]
    anyone = [{}, {"table_token": []}]  # a token shows what its seat may see; none, a spectator's view
    text = {"schema": {"type": "string"}}

    def op(summary: str, answers: dict, request=None, security=None, params=(code,)) -> dict:
        # any code may be refused to an address that has asked for too many codes of no table
        guessed = {"429": _GUESSING} if code in params else {}
        out = {"summary": summary, "parameters": list(params), "responses": {**answers, **guessed, "414": _TOO_LONG}}
        if request is not None:
            out["requestBody"] = {"required": True, "content": {JSON: {"schema": request}}}
        if security is not None:
            out["security"] = security
        return out

    checked = (401, 403, 404, 409, 413, 422)  # what a token, the rules and the body's shape may refuse
    table, event = "/api/tables/{code}", "/api/events/{code}"
    shown = _answers(200, _json("Table"), *checked)  # an action's, an answer's: the table as it is now

    def seating(summary: str, body) -> dict:
        """The host seats someone without a phone: a seat without a token."""
        return {
            "post": op(summary, _answers(201, _json("KeptSeat"), *checked), request=model_ref(body), security=token)
        }

    return {
        "/api/tables": {
            "post": op("Open a table", _answers(201, _json("OpenedTable"), 413, 422), request=new_table, params=())
        },
        table: {
            "get": op(
                "The table as the caller may see it",
                _answers(200, _json("Table"), 403, 404),
                security=anyone,
                params=(code, kept),
            )
        },
        f"{table}/players": {
            "post": op("Join a table", _answers(201, _json("Joined"), 404, 409, 413, 422), request=model_ref(NewPlayer))
        },
        f"{table}/seats": seating("Seat a player without a phone (host); act for them with ?as=", NewPlayer),
        f"{table}/computers": seating(
            "Seat a computer player (host, before the start): the server makes its moves", NewComputer
        ),
        f"{table}/seats/{{player_id}}": {
            "delete": op(
                "Take a computer player off its seat (host, before the start)",
                shown,
                security=token,
                params=(code, player),
            )
        },
        f"{table}/seats/{{player_id}}/claim": {
            "post": op(
                "Ask for a seat without a phone; its token works once the host gives it",
                _answers(201, _json("Joined"), 404, 409, 413),
                params=(code, player),
            )
        },
        f"{table}/seats/{{player_id}}/answer": {
            "post": op(
                "Give a seat to the phone that asked for it, or keep it (host)",
                shown,
                request=model_ref(ClaimAnswer),
                security=token,
                params=(code, player),
            )
        },
        f"{table}/actions": {
            "post": op("Act at the table", shown, request=action, security=token, params=(code, kept))
        },
        f"{table}/undo": {
            "post": op(
                "Take back the move named by its seq: your latest that stands (the host: anyone's)",
                _answers(200, _json("Table"), 401, 403, 404, 409, 413, 422),
                request=model_ref(UndoBody),
                security=token,
                params=(code, kept),
            )
        },
        f"{table}/history": {
            "get": op(
                "Who did what, as the caller may see it, a page at a time: the newest ?limit= "
                f"(default {HISTORY_PAGE}) before ?before=",
                _answers(200, _json("History"), 403, 404, 422),
                security=anyone,
                params=(code, kept, *_query(HistoryQuery)),
            )
        },
        f"{table}/export": {
            "get": op(
                "The log and state as the caller may see them; ?format=csv: the results",
                _answers(200, {**_json("Export"), CSV: text}, 403, 404, 422),
                security=anyone,
                params=(code, kept, *_query(FileQuery)),
            )
        },
        f"{table}/layout": {
            "get": op(
                "What the game draws with and never changes (a sheet's rows)", _answers(200, _json("Layout"), 404)
            )
        },
        f"{table}/events": {
            "get": op(
                "Server-Sent Events, one per log entry, as the caller may see it (the token as Bearer or "
                "?token=); resume with Last-Event-ID (or ?after=)",
                _answers(200, {STREAM: text}, 403, 404, 422),
                security=anyone,
                params=(
                    code,
                    kept,
                    {"name": "token", "in": "query", "schema": {"type": "string"}},
                    {"name": "after", "in": "query", "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"}},
                    {"name": "Last-Event-ID", "in": "header", "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"}},
                ),
            )
        },
        "/api/events": {
            "post": op(
                "Start an event", _answers(201, _json("StartedEvent"), 413, 422), request=model_ref(NewEvent), params=()
            )
        },
        event: {
            "get": op(
                "The event: its rolls, the seed's SHA-256, the seed once it has ended",
                _answers(200, _json("Event"), 404),
            )
        },
        f"{event}/tables": {
            "post": op(
                "Open a table in the event; `options` are the event's game's",
                _answers(201, _json("OpenedTable"), 404, 409, 413, 422),
                request=model_ref(NewEventTable),
            )
        },
        f"{event}/roll": {
            "post": op(
                "Roll the next round for every table (organiser)",
                _answers(200, _json("Rolled"), 401, 404, 409, 413, 422),
                request=model_ref(EventRoll),
                security=token,
            )
        },
        f"{event}/end": {
            "post": op(
                "End the event and reveal its seed (organiser)",
                _answers(200, _json("Event"), 401, 404, 409, 413),
                security=token,
            )
        },
        f"{event}/leaderboard": {
            "get": op(
                "Every table's players ranked; ?format=csv as a CSV file",
                _answers(200, {**_json("Leaderboard"), CSV: text}, 404, 422),
                params=(code, *_query(FileQuery)),
            )
        },
        f"{event}/events": {
            "get": op("Server-Sent Events: the event and its leaderboard", _answers(200, {STREAM: text}, 404))
        },
        "/api/openapi.json": {
            "get": op("This document", _answers(200, {JSON: {"schema": {"type": "object"}}}), params=())
        },
    }
