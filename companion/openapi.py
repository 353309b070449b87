"""The API's OpenAPI 3.1 document, generated from the models that validate the requests: the
request bodies (schemas.py) and each tracked game's options and actions (its tracker). Nothing
here is typed twice: a new action in a tracker appears in the document by itself."""

from __future__ import annotations

from pydantic.json_schema import models_json_schema

from companion.schemas import ClaimAnswer, EventRoll, NewEvent, NewEventTable, NewPlayer, NewTable

REF = "#/components/schemas/{model}"
ERROR = {
    "type": "object",
    "properties": {
        "error": {
            "type": "object",
            "properties": {"status": {"type": "integer"}, "field": {"type": "string"}, "reason": {"type": "string"}},
            "required": ["status", "field", "reason"],
        }
    },
}


def openapi(play) -> dict:
    trackers = {gid: play.tracker(gid) for gid in play.trackable()}
    models = [NewTable, NewPlayer, ClaimAnswer, NewEvent, NewEventTable, EventRoll]
    for tracker in trackers.values():
        models += [tracker.Options, *tracker.actions.values()]
    refs, schema = models_json_schema([(m, "validation") for m in models], ref_template=REF)
    schemas = dict(schema.get("$defs", {}))
    ref = lambda model: refs[(model, "validation")]

    actions = []
    for gid, tracker in trackers.items():
        for name, model in tracker.actions.items():
            key = f"{gid}.{name}"
            typed = {"type": "object", "properties": {"type": {"const": name}}, "required": ["type"]}
            schemas[key] = {"title": f"{gid}: {name}", "allOf": [ref(model), typed]}
            actions.append({"$ref": REF.format(model=key)})
        schemas[f"{gid}.options"] = ref(tracker.Options)

    def body(schema: dict) -> dict:
        return {"required": True, "content": {"application/json": {"schema": schema}}}

    def answers(ok: int, *errors: int) -> dict:
        out = {str(ok): {"description": "done", "content": {"application/json": {"schema": {"type": "object"}}}}}
        for status in errors:
            out[str(status)] = {"description": _WHY[status], "content": {"application/json": {"schema": ERROR}}}
        return out

    code = {"name": "code", "in": "path", "required": True, "schema": {"type": "string"}}
    player = {"name": "player_id", "in": "path", "required": True, "schema": {"type": "string"}}
    kept = {
        "name": "as",
        "in": "query",
        "required": False,
        "description": "the host acting for (and seeing as) this seat without a phone; 403 for anyone else",
        "schema": {"type": "string"},
    }

    def op(
        summary: str,
        ok: int,
        *errors: int,
        request: dict | None = None,
        token: bool = False,
        at_table=True,
        seated=False,
        at_seat=False,
    ):
        out = {"summary": summary, "responses": answers(ok, *errors)}
        if at_table:
            out["parameters"] = [code, *([player] if at_seat else []), *([kept] if seated else [])]
        if request is not None:
            out["requestBody"] = body(request)
        if token:
            out["security"] = [{"table_token": []}]
        return out

    table, event = "/api/tables/{code}", "/api/events/{code}"
    checked = (401, 403, 404, 409, 413, 422)  # a write a token, the rules and the body's shape may refuse
    paths = {
        "/api/tables": {"post": op("Open a table", 201, 413, 422, request=ref(NewTable), at_table=False)},
        table: {"get": op("The table as the caller may see it", 200, 403, 404, seated=True)},
        f"{table}/players": {"post": op("Join a table", 201, 404, 409, 413, 422, request=ref(NewPlayer))},
        f"{table}/seats": {
            "post": op(
                "Seat a player without a phone (host); act for them with ?as=",
                201,
                *checked,
                request=ref(NewPlayer),
                token=True,
            )
        },
        f"{table}/seats/{{player_id}}/claim": {
            "post": op(
                "Ask for a seat without a phone; its token works once the host gives it", 201, 404, 409, at_seat=True
            )
        },
        f"{table}/seats/{{player_id}}/answer": {
            "post": op(
                "Give a seat to the phone that asked for it, or keep it (host)",
                200,
                *checked,
                request=ref(ClaimAnswer),
                token=True,
                at_seat=True,
            )
        },
        f"{table}/actions": {
            "post": op("Act at the table", 200, *checked, request={"oneOf": actions}, token=True, seated=True)
        },
        f"{table}/undo": {
            "post": op(
                "Take back your latest action (the host: anyone's)", 200, 401, 403, 404, 409, token=True, seated=True
            )
        },
        f"{table}/history": {"get": op("Who did what, as the caller may see it", 200, 403, 404, seated=True)},
        f"{table}/export": {
            "get": op(
                "The log and state as the caller may see them; ?format=csv for the results", 200, 403, 404, seated=True
            )
        },
        f"{table}/layout": {"get": op("What the game draws with and never changes (a sheet's rows)", 200, 404)},
        f"{table}/events": {
            "get": op(
                "Server-Sent Events, one per log entry, as the caller may see it (the token as Bearer or "
                "?token=); resume with Last-Event-ID",
                200,
                403,
                404,
                422,
                seated=True,
            )
        },
        "/api/events": {"post": op("Start an event", 201, 413, 422, request=ref(NewEvent), at_table=False)},
        event: {"get": op("The event: its rolls, the seed's SHA-256, the seed once it has ended", 200, 404)},
        f"{event}/tables": {"post": op("Open a table in the event", 201, 404, 409, 422, request=ref(NewEventTable))},
        f"{event}/roll": {
            "post": op(
                "Roll the next round for every table (organiser)",
                200,
                401,
                404,
                409,
                422,
                request=ref(EventRoll),
                token=True,
            )
        },
        f"{event}/end": {"post": op("End the event and reveal its seed (organiser)", 200, 401, 404, 409, token=True)},
        f"{event}/leaderboard": {"get": op("Every table's players ranked; ?format=csv", 200, 404)},
        f"{event}/events": {"get": op("Server-Sent Events: the event and its leaderboard", 200, 404)},
        "/api/openapi.json": {"get": op("This document", 200, at_table=False)},
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "Spellpress companion", "version": "1"},
        "paths": paths,
        "components": {
            "schemas": schemas,
            "securitySchemes": {"table_token": {"type": "http", "scheme": "bearer"}},
        },
    }


_WHY = {
    401: "no token, or not one of this table's (or event's)",
    403: "that token may not do this",
    404: "no table (or event) has that code",
    409: "the rules forbid it now; `reason` says why",
    413: "the body is too large",
    422: "the body is malformed; `field` names what",
}
