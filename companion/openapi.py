"""The API's OpenAPI 3.1 document, generated from the models that validate the requests: the
request bodies (schemas.py) and each tracked game's options and actions (its tracker). Nothing
here is typed twice: a new action in a tracker appears in the document by itself."""

from __future__ import annotations

from pydantic.json_schema import models_json_schema

from companion.schemas import NewPlayer, NewTable

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
    models = [NewTable, NewPlayer]
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
    bearer = [{"table_token": []}]
    paths = {
        "/api/tables": {"post": {"summary": "Open a table", "requestBody": body(ref(NewTable)), "responses": answers(201, 413, 422)}},
        "/api/tables/{code}": {"get": {"summary": "The table as the caller may see it", "parameters": [code], "responses": answers(200, 404)}},
        "/api/tables/{code}/players": {"post": {"summary": "Join a table", "parameters": [code], "requestBody": body(ref(NewPlayer)), "responses": answers(201, 404, 409, 413, 422)}},
        "/api/tables/{code}/actions": {"post": {"summary": "Do something at the table", "parameters": [code], "security": bearer, "requestBody": body({"oneOf": actions}), "responses": answers(200, 401, 403, 404, 409, 413, 422)}},
        "/api/tables/{code}/undo": {"post": {"summary": "Take back your latest action (the host: anyone's)", "parameters": [code], "security": bearer, "responses": answers(200, 401, 404, 409)}},
        "/api/tables/{code}/history": {"get": {"summary": "Who did what", "parameters": [code], "responses": answers(200, 404)}},
        "/api/tables/{code}/export": {"get": {"summary": "The log and final state as JSON; ?format=csv for the results", "parameters": [code], "responses": answers(200, 404)}},
        "/api/tables/{code}/events": {"get": {"summary": "Server-Sent Events, one per log entry; resume with Last-Event-ID", "parameters": [code], "responses": answers(200, 404, 422)}},
    }  # fmt: skip
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
    401: "no token, or not one of this table's",
    403: "that token may not do this",
    404: "no table has that code",
    409: "the rules forbid it now; `reason` says why",
    413: "the body is too large",
    422: "the body is malformed; `field` names what",
}
