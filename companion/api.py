"""The JSON API under /api: tables, players, seats without a phone (the host plays for them with
`?as=`, a phone may ask for one), actions, undo, history, export, live events.

Thin: each view validates its body (schemas.py), asks Play, and shapes the answer. Every error is
JSON `{"error": {"status", "field", "reason"}}` with the status that says what went wrong (see
`errors`); no body, header or path of any shape reaches a 500. What a table's routes answer is
what the caller's token may see: a game with secrets shows a hand only to whoever holds it.
"""

from __future__ import annotations

import csv
import io
import json
import time
from typing import TypeVar

from flask import Blueprint, Response, current_app, render_template, request, stream_with_context
from flask_limiter import RateLimitExceeded
from pydantic import BaseModel, ValidationError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from companion import guesses
from companion.address import public_url_for
from companion.context import NotFound, event_channel
from companion.events import EventNotFound, Events, StillPlaying
from companion.feed import afresh
from companion.openapi import openapi
from companion.play import Play
from companion.schemas import (
    ActionBody,
    ClaimAnswer,
    EventRoll,
    FileQuery,
    HistoryQuery,
    NewComputer,
    NewEvent,
    NewEventTable,
    NewPlayer,
    NewTable,
    UndoBody,
)
from companion.seats import NotKept, Seat, audience_seat
from companion.store.schema import NoSuchEvent, NoSuchSeat, NoSuchTable
from pnp.rules.bodies import Malformed, strictly
from pnp.rules.table import HOST, NotYours, Refused

M = TypeVar("M", bound=BaseModel)

bp = Blueprint("api", __name__, url_prefix="/api")
EVENT_STREAM_PERIOD = 1.0  # seconds between an event stream's messages, however fast scores arrive


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


@bp.errorhandler(Malformed)
def _malformed(err: Malformed):
    problems = [{"field": field, "reason": said} for field, said in err.problems]
    return error(422, problems[0]["reason"], problems[0]["field"], problems=problems)


@bp.errorhandler(ValidationError)
def _invalid(err: ValidationError):  # a model met past the reading of the body: still a 422 in our words
    return _malformed(Malformed.of(err, None))


@bp.errorhandler(Refused)
def _refused(err: Refused):
    return error(403 if isinstance(err, NotYours) else 409, str(err))


@bp.errorhandler(StillPlaying)
def _still_playing(err: StillPlaying):
    return error(409, str(err), "ahead", progress=err.progress)  # the page asks the organiser to confirm


@bp.errorhandler(NotFound)
@bp.errorhandler(NoSuchTable)
def _not_found(err: Exception):
    return error(404, "no table has that code", "code")


@bp.errorhandler(EventNotFound)
@bp.errorhandler(NoSuchEvent)
def _no_event(err: Exception):
    return error(404, "no event has that code", "code")


@bp.errorhandler(NoSuchSeat)
def _no_seat(err: NoSuchSeat):
    return error(404, "no player at this table has that id", "player_id")


@bp.errorhandler(NotKept)
def _not_kept(err: NotKept):
    return error(403, str(err), "as")


@bp.errorhandler(PermissionError)
def _forbidden(err: PermissionError):
    return error(403, str(err))


@bp.app_errorhandler(RateLimitExceeded)
def _guessing(err: RateLimitExceeded):
    """The API answers our JSON error; a page (a code typed on the home page, a QR) answers a page
    a person can read (companion/guesses.py)."""
    wait = guesses.retry_after()
    if request.path.startswith("/api/"):
        response = error(429, f"too many wrong codes from your address: try again in {wait} s", "code")
    else:
        response = Response(render_template("slowed.html", minutes=-(-wait // 60)), status=429)
    response.headers["Retry-After"] = str(wait)
    return response


@bp.errorhandler(HTTPException)
def _http(err: HTTPException):
    return error(err.code or 500, err.description or err.name)


@bp.app_errorhandler(404)
@bp.app_errorhandler(405)
def _no_route(err: HTTPException):
    """A path under /api/ that no route takes (or not with this method) is answered in JSON like
    every API error; the pages keep their own."""
    if not request.path.startswith("/api/"):
        return err
    if err.code == 405:
        return error(405, f"{request.method} is not a method of {request.path}", "method")
    return error(404, f"no route of the API is {request.path}", "path")


@bp.before_request
def _body_within_limit():
    """Every POST's body is read whole before its view, and one past MAX_CONTENT_LENGTH is 413
    however it came, even where the view reads no body. Werkzeug refuses a Content-Length past the
    limit; a chunked body (no length) it cuts at the limit, and the part was then broken JSON (422)."""
    if request.method != "POST":
        return
    try:
        request.get_data()
    except RequestEntityTooLarge:
        raise _too_large() from None
    if request.content_length is None and getattr(request.stream, "is_exhausted", False):
        raise _too_large()  # the chunked body filled the limit: what came after it was not read


def _too_large() -> ApiError:
    return ApiError(413, f"expected a body of at most {current_app.config['MAX_CONTENT_LENGTH']} bytes", "body")


MAX_DEPTH = 16  # the deepest body the API takes nests 4 levels (a Magecraft arrangement)


def body() -> dict:
    """The request's JSON object; 422 naming `body` when it is not one, or nests deeper than
    MAX_DEPTH (a few KB of brackets would otherwise exhaust the parser's recursion: a 500)."""
    deep = f"expected a JSON object nested at most {MAX_DEPTH} levels deep"
    try:
        data = request.get_json(silent=True)  # read within the limit by _body_within_limit
    except RecursionError:
        raise ApiError(422, deep, "body") from None
    if not isinstance(data, dict):
        raise ApiError(422, "expected a JSON object", "body")
    if depth(data) > MAX_DEPTH:
        raise ApiError(422, deep, "body")
    return data


def depth(value) -> int:
    """How many levels of objects and arrays `value` nests (a number or text: 0), without recursion."""
    deepest, waiting = 0, [(value, 1)]
    while waiting:
        item, level = waiting.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            waiting.extend((inner, level + 1) for inner in (item.values() if isinstance(item, dict) else item))
    return deepest


def _bearer() -> str:
    """The token of `Authorization: Bearer <token>`, or ""."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def seat(code: str, required: bool = True) -> Seat:
    """The caller's seat from `Authorization: Bearer <token>`, and `?as=<player id>` when the host
    acts for a seat without a phone; 404 for an unknown table, then 401 when a seat is required
    and the token is absent or not this table's, 403 (field `as`) when `as` is not the host's."""
    play().info(code)
    token, kept = _bearer(), request.args.get("as") or None
    found = play().seats.of(code, token, kept) if token or kept else Seat(None)
    if required and found.actor is None:
        raise ApiError(401, "send your table token as Authorization: Bearer <token>", "Authorization")
    return found


def host(code: str) -> Seat:
    """The table's host (401 without a token, 403 with another's)."""
    caller = seat(code)
    if not caller.host:
        raise ApiError(403, "only the table's host does that", "Authorization")
    return caller


def table_view(code: str, caller: Seat, made: tuple | None = None) -> dict:
    """The table as `caller` sees it: as it is now, or right after their move `made` (its entry and
    the table after it, from Moves), even if other moves have followed since."""
    entry, after = made or (None, None)
    return play().views.table(code, caller, made=entry, after=after)


@bp.post("/tables")
def create_table():
    new = strictly(NewTable, body())
    if new.game not in play().trackable():
        known = ", ".join(play().trackable())
        raise ApiError(422, f"expected one of {known}, got {new.game!r}", "game")
    return opened(lambda: play().create(new.game, new.options))


def opened(create) -> tuple[dict, int]:
    """A new table's answer: `create()` makes it (Malformed options are named inside `options`),
    and its code counts as one reached (companion/guesses.py)."""
    try:
        code, host_token = create()
    except Malformed as err:
        raise err.under("options") from None
    guesses.reached(code)
    return {"code": code, "host_token": host_token, "join_url": public_url_for("views.table", code=code)}, 201


@bp.post("/tables/<code>/players")
def add_player(code: str):
    play().info(code)  # an unknown table is 404 whatever the body
    new = strictly(NewPlayer, body())
    token = _bearer()  # the host's phone sitting down: the seat is the host's own
    hosts = bool(token) and play().store.tables.actor_for(code, token) == HOST
    player_id, token = play().seats.join(code, new.name, hosts=hosts)
    return {"player_id": player_id, "token": token}, 201


@bp.post("/tables/<code>/seats")
def add_seat(code: str):
    """The host seats a player without a phone: the host makes their moves and sees what they see."""
    host(code)
    new = strictly(NewPlayer, body())
    player_id, _ = play().seats.join(code, new.name, by=HOST)
    return {"player_id": player_id}, 201


@bp.post("/tables/<code>/computers")
def add_computer(code: str):
    """The host seats a computer player: the server makes its moves, from what its seat sees."""
    host(code)
    new = strictly(NewComputer, body())
    player_id, _ = play().seats.join(code, new.name, by=HOST, computer=new.level)
    return {"player_id": player_id}, 201


@bp.delete("/tables/<code>/seats/<player_id>")
def remove_computer(code: str, player_id: str):
    """The host takes a computer player off its seat before the start."""
    caller = host(code)
    play().seats.remove_computer(code, player_id)
    return table_view(code, caller)


@bp.post("/tables/<code>/seats/<player_id>/claim")
def claim_seat(code: str, player_id: str):
    """A phone asks for a seat without one; it holds the seat, with this token, once the host gives it."""
    return {"player_id": player_id, "token": play().seats.claim(code, player_id)}, 201


@bp.post("/tables/<code>/seats/<player_id>/answer")
def answer_claim(code: str, player_id: str):
    caller = host(code)
    play().seats.answer(code, player_id, strictly(ClaimAnswer, body()).give)
    return table_view(code, caller)


@bp.get("/tables/<code>")
def get_table(code: str):
    return table_view(code, seat(code, required=False))


@bp.post("/tables/<code>/actions")
def act(code: str):
    caller = seat(code)
    action = strictly(ActionBody, body())
    p = play()
    tracker = p.tracker(p.info(code).game)
    if action.type not in tracker.actions:
        raise ApiError(
            422, f"expected an action of this game ({', '.join(tracker.actions)}), got {action.type!r}", "type"
        )
    return table_view(code, caller, p.moves.act(code, caller, action.type, action.payload()))


@bp.post("/tables/<code>/undo")
def undo(code: str):
    """Take back the move the body names (409 if it is not the caller's latest that stands)."""
    caller = seat(code)
    return table_view(code, caller, play().moves.undo(code, caller, strictly(UndoBody, body()).seq))


def query_as(model: type[M]) -> M:
    """The request's query as `model`, or Malformed: each of its parameters given once (a second
    value is refused, not dropped), read as pydantic converts text ("2" is 2; "null" is no number)."""
    problems = [(name, "given once (expected one value, got several)") for name in model.model_fields
                if len(request.args.getlist(name)) > 1]  # fmt: skip
    if problems:
        raise Malformed(problems)
    try:
        return model.model_validate({name: request.args[name] for name in model.model_fields if name in request.args})
    except ValidationError as err:
        raise Malformed.of(err, model) from None


@bp.get("/tables/<code>/history")
def history(code: str):
    """Who did what, a page at a time, oldest first: the newest `?limit=` entries (HISTORY_PAGE if
    not given, at most MAX_HISTORY_PAGE) before seq `?before=`, if given, and `earlier`, the
    `before` of the page before it (null: none)."""
    viewer = seat(code, required=False).viewer
    query = query_as(HistoryQuery)
    page, earlier = play().views.history_page(code, viewer, query.before, query.limit)
    return {"code": code, "history": page, "earlier": earlier}


@bp.get("/tables/<code>/layout")
def layout(code: str):
    """What the game's pages draw with and never changes in play (a sheet's rows): fetched once."""
    p = play()
    info = p.info(code)
    tracker = p.tracker(info.game)
    if tracker.layout is None:
        raise ApiError(404, f"{p.trackable()[info.game].title} has no layout", "code")
    return tracker.layout(p.content(info.game))


@bp.get("/tables/<code>/export")
def export(code: str):
    """The table's results as CSV, or the table and its whole history as the caller may see them,
    as JSON sent while the log is read a page at a time: a long game's never sits whole in memory."""
    p = play()
    if query_as(FileQuery).format == "csv":
        return csv_file(p.views.results(code), f"{code}-results.csv")
    head, log = p.views.export(code, seat(code, required=False).viewer)
    dumps = current_app.json.dumps

    def body():
        yield dumps(head)[:-1] + ', "log": ['
        for n, entry in enumerate(log):
            yield (", " if n else "") + dumps(entry)
        yield "]}"

    return Response(stream_with_context(body()), mimetype="application/json")


def csv_file(rows: list[dict], filename: str) -> Response:
    out = io.StringIO()
    columns = list(dict.fromkeys(key for row in rows for key in row)) or ["name"]
    writer = csv.DictWriter(out, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    disposition = f'attachment; filename="{filename}"'
    return Response(out.getvalue(), mimetype="text/csv", headers={"Content-Disposition": disposition})


@bp.get("/tables/<code>/events")
def events(code: str):
    """Server-Sent Events: one event per log entry, `id` its seq, `data` the entry and the table
    as the caller may see them (a spectator, without a token). Reconnecting with Last-Event-ID
    resumes exactly after it; after a seq the table has not reached, the stream starts with one
    `table` event (`id` the table's real last seq, `data` {"table": ...}) to draw afresh. The token
    comes as `Authorization: Bearer` or, since a browser's EventSource cannot send headers, as
    `?token=`; the host follows a seat without a phone with `?as=<player id>`."""
    p = play()
    info = p.info(code)  # 404 before the stream starts
    last = _last_event_id()
    kept = request.args.get("as") or None  # the host following a seat without a phone
    audience = p.seats.audience(info, _bearer() or request.args.get("token", ""), kept)
    keepalive = current_app.config["KEEPALIVE_SECONDS"]

    def stream():
        nonlocal last
        with p.hub.subscribe(code) as subscription:  # before the first read: nothing slips between
            yield "retry: 2000\n\n"
            if last and last > p.replays.current(code)[2]:  # the kept replay and what follows it: one small read
                # After a seq the table has not reached (a server brought back from an older copy, a
                # stale ?after=): the phone would wait for it forever. It gets the table as it is to
                # draw afresh, and the stream goes on from the table's real end.
                table = p.views.table(code, audience_seat(audience))
                yield afresh(table)
                last = table["seq"]
            while True:
                # A burst (a reconnect's backlog) is read once; a roll that wakes every phone of a
                # room is read and rendered once for them all (companion.feed).
                announced = subscription.announced()
                if kept is not None and audience.viewer == kept and kept not in p.seats.kept(code):
                    return  # a phone holds that seat now: what only it may see is no longer the host's
                if announced is None or announced > last:
                    for seq, text in p.feed.after(audience, last, announced):
                        yield text
                        last = seq
                if not subscription.wait(keepalive):
                    yield ": still here\n\n"  # keeps proxies and phones from closing an idle stream

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(stream()), mimetype="text/event-stream", headers=headers)


def _last_event_id() -> int:
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 18:  # "²".isdigit(), yet int("²") fails
        raise ApiError(422, f"expected a sequence number, got {raw[:40]!r}", "Last-Event-ID")
    return int(raw)


# --- events: one roll sequence for many tables --------------------------------------------


def events_() -> Events:
    return current_app.extensions["events"]


def organiser(code: str) -> None:
    """401 unless the caller holds the event's organiser token (404 first for an unknown event)."""
    events_().info(code)
    if not events_().organiser(code, _bearer()):
        raise ApiError(401, "send the event's organiser token as Authorization: Bearer <token>", "Authorization")


@bp.post("/events")
def create_event():
    new = strictly(NewEvent, body())
    if new.game not in events_().games():
        raise ApiError(422, f"expected one of {', '.join(events_().games())}, got {new.game!r}", "game")
    code, token = events_().create(new.game, new.name)
    guesses.reached(code)
    return {
        **events_().summary(code),
        "organiser_token": token,
        "join_url": public_url_for("views.event", code=code),
    }, 201


@bp.get("/events/<code>")
def get_event(code: str):
    return events_().summary(code)


@bp.post("/events/<code>/tables")
def open_event_table(code: str):
    events_().info(code)
    new = strictly(NewEventTable, body())
    return opened(lambda: events_().open_table(code, new.options))


@bp.post("/events/<code>/roll")
def roll_event(code: str):
    organiser(code)
    wanted = strictly(EventRoll, body())
    roll, reached = events_().roll(code, wanted.round, wanted.ahead)
    return {**roll, "tables": reached}


@bp.post("/events/<code>/end")
def end_event(code: str):
    organiser(code)
    return events_().end(code)


@bp.get("/events/<code>/leaderboard")
def leaderboard(code: str):
    wanted = query_as(FileQuery)
    rows = events_().leaderboard(code)
    if wanted.format == "csv":
        return csv_file(rows, f"{events_().info(code).code}-leaderboard.csv")
    return {"code": events_().info(code).code, "rows": rows}


@bp.get("/events/<code>/events")
def event_stream(code: str):
    """Server-Sent Events for a projector: the event and its leaderboard, whenever a roll or a
    table changes, at most once a second (a room's scores arrive all at once)."""
    ev = events_()
    info = ev.info(code)
    keepalive = current_app.config["KEEPALIVE_SECONDS"]
    hub = play().hub

    def stream():
        with hub.subscribe(event_channel(info.code)) as subscription:
            yield "retry: 2000\n\n"
            while True:
                data = {"event": ev.summary(info.code), "leaderboard": ev.leaderboard(info.code)}
                yield f"event: event\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
                time.sleep(EVENT_STREAM_PERIOD)
                while not subscription.wait(keepalive):
                    yield ": still here\n\n"

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(stream()), mimetype="text/event-stream", headers=headers)


@bp.get("/openapi.json")
def openapi_json():
    return openapi(play())
