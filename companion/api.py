"""The JSON API under /api: tables, players, actions, undo, history, export, live events.

Thin: each view validates its body (schemas.py), asks Play, and shapes the answer. Every error is
JSON `{"error": {"status", "field", "reason"}}` with the status that says what went wrong (see
`errors`); no body, header or path of any shape reaches a 500.
"""

from __future__ import annotations

import csv
import io
import json

from flask import Blueprint, Response, current_app, request, stream_with_context, url_for
from pydantic import ValidationError
from werkzeug.exceptions import HTTPException

from companion.db import NoSuchTable
from companion.openapi import openapi
from companion.play import NotFound, Play, Seat
from companion.schemas import ActionBody, NewPlayer, NewTable
from pnp.rules.table import NotYours, Refused

bp = Blueprint("api", __name__, url_prefix="/api")


class ApiError(Exception):
    def __init__(self, status: int, reason: str, field: str = ""):
        super().__init__(reason)
        self.status, self.reason, self.field = status, reason, field


def play() -> Play:
    return current_app.extensions["play"]


def error(status: int, reason: str, field: str = "", **more) -> Response:
    body = {"error": {"status": status, "field": field, "reason": reason, **more}}
    return Response(json.dumps(body), status=status, mimetype="application/json")


@bp.errorhandler(ApiError)
def _api_error(err: ApiError):
    return error(err.status, err.reason, err.field)


@bp.errorhandler(ValidationError)
def _invalid(err: ValidationError):
    problems = [{"field": ".".join(map(str, e["loc"])), "reason": e["msg"]} for e in err.errors()]
    first = problems[0] if problems else {"field": "", "reason": "invalid"}
    return error(422, first["reason"], first["field"], problems=problems)


@bp.errorhandler(Refused)
def _refused(err: Refused):
    return error(403 if isinstance(err, NotYours) else 409, str(err))


@bp.errorhandler(NotFound)
@bp.errorhandler(NoSuchTable)
def _not_found(err: Exception):
    return error(404, "no table has that code", "code")


@bp.errorhandler(PermissionError)
def _forbidden(err: PermissionError):
    return error(403, str(err))


@bp.errorhandler(HTTPException)
def _http(err: HTTPException):
    return error(err.code or 500, err.description or err.name)


def body() -> dict:
    """The request's JSON object; 422 naming `body` when it is not one."""
    data = request.get_json(silent=True)  # reading it enforces MAX_CONTENT_LENGTH (413)
    if not isinstance(data, dict):
        raise ApiError(422, "expected a JSON object", "body")
    return data


def seat(code: str, required: bool = True) -> Seat:
    """The caller's seat from `Authorization: Bearer <token>`; 404 for an unknown table, then 401
    when a seat is required and the token is absent or not this table's."""
    play().info(code)
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip() if scheme.lower() == "bearer" else ""
    found = play().seat(code, token) if token else Seat(None)
    if required and found.actor is None:
        raise ApiError(401, "send your table token as Authorization: Bearer <token>", "Authorization")
    return found


def table_view(code: str, caller: Seat) -> dict:
    p = play()
    info, table, seq = p.current(code)
    return {
        "code": code,
        "game": info.game,
        "title": p.trackable()[info.game].title,
        "options": info.options,
        "seq": seq,
        "you": {"actor": caller.actor, "host": caller.host},
        "state": p.tracker(info.game).view(table.state, caller.actor),
    }


@bp.post("/tables")
def create_table():
    new = NewTable.model_validate(body())
    if new.game not in play().trackable():
        known = ", ".join(play().trackable())
        raise ApiError(422, f"expected one of {known}, got {new.game!r}", "game")
    try:
        code, host_token = play().create(new.game, new.options)
    except ValidationError as err:
        raise _prefixed(err, "options") from None
    join_url = url_for("views.table", code=code, _external=True)
    return {"code": code, "host_token": host_token, "join_url": join_url}, 201


def _prefixed(err: ValidationError, prefix: str) -> ApiError:
    first = err.errors()[0]
    return ApiError(422, first["msg"], ".".join([prefix, *map(str, first["loc"])]))


@bp.post("/tables/<code>/players")
def add_player(code: str):
    play().info(code)  # an unknown table is 404 whatever the body
    new = NewPlayer.model_validate(body())
    player_id, token = play().join(code, new.name)
    return {"player_id": player_id, "token": token}, 201


@bp.get("/tables/<code>")
def get_table(code: str):
    return table_view(code, seat(code, required=False))


@bp.post("/tables/<code>/actions")
def act(code: str):
    caller = seat(code)
    action = ActionBody.model_validate(body())
    p = play()
    tracker = p.tracker(p.info(code).game)
    if action.type not in tracker.actions:
        raise ApiError(
            422, f"expected an action of this game ({', '.join(tracker.actions)}), got {action.type!r}", "type"
        )
    p.act(code, caller, action.type, action.payload())
    return table_view(code, caller)


@bp.post("/tables/<code>/undo")
def undo(code: str):
    caller = seat(code)
    play().undo(code, caller)
    return table_view(code, caller)


@bp.get("/tables/<code>/history")
def history(code: str):
    return {"code": code, "history": play().history(code)}


@bp.get("/tables/<code>/export")
def export(code: str):
    p = play()
    if request.args.get("format") == "csv":
        rows = p.results(code)
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["name"])
        writer.writeheader()
        writer.writerows(rows)
        return Response(
            out.getvalue(),
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="{code}-results.csv"'},
        )
    info = p.info(code)
    return {
        "code": code,
        "game": info.game,
        "options": info.options,
        "log": p.history(code),
        "state": p.tracker(info.game).view(p.replayed(code).state, None),
    }


@bp.get("/tables/<code>/events")
def events(code: str):
    """Server-Sent Events: one event per log entry, `id` its seq, `data` the entry and the table
    as a spectator sees it. Reconnecting with Last-Event-ID resumes exactly after it."""
    p = play()
    p.info(code)  # 404 before the stream starts
    last = _last_event_id()
    keepalive = current_app.config["KEEPALIVE_SECONDS"]

    def stream():
        nonlocal last
        with p.hub.subscribe(code) as subscription:  # before the first read: nothing slips between
            yield "retry: 2000\n\n"
            while True:
                entries = p.store.log(code, after=last)
                if entries:  # a burst (a reconnect's backlog) costs one view and one read of the names
                    table, names = table_view(code, Seat(None)), p.names(code)
                for entry in entries:
                    data = {"entry": p.entry_json(code, entry, names), "table": table}
                    yield f"id: {entry.seq}\nevent: action\ndata: {json.dumps(data)}\n\n"
                    last = entry.seq
                if not entries and not subscription.wait(keepalive):
                    yield ": still here\n\n"  # keeps proxies and phones from closing an idle stream

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(stream()), mimetype="text/event-stream", headers=headers)


def _last_event_id() -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
    if not raw.isdigit() or len(raw) > 18:
        raise ApiError(422, f"expected a sequence number, got {raw[:40]!r}", "Last-Event-ID")
    return int(raw)


@bp.get("/openapi.json")
def openapi_json():
    return openapi(play())
