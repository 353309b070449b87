"""The phone pages: start a table, join it by code or QR, play. Server-rendered shells; the
numbers come from the API and live events (static/table.js), so a page never shows a stale one."""

from __future__ import annotations

import io
from pathlib import Path

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)

from companion.address import public_url_for, request_phones_root
from companion.context import NotFound
from companion.play import Play
from pnp.gamedef import GameDef

bp = Blueprint("views", __name__)


def play() -> Play:
    return current_app.extensions["play"]


@bp.context_processor
def phones_reach() -> dict:
    """Whether the join links on the page are ones phones can open (templates/_unreachable.html)."""
    return {"phones_reach": request_phones_root() is not None}


@bp.get("/")
def index():
    p = play()
    games = [
        {"id": gid, "title": g.title, "players": players(g), "options": p.tracker(gid).Options.model_json_schema()}
        for gid, g in p.trackable().items()
    ]
    event_games = [{"id": gid, "title": p.trackable()[gid].title} for gid in current_app.extensions["events"].games()]
    return render_template("index.html", games=games, event_games=event_games)


def players(game: GameDef) -> str:
    """How many play, from the game's declaration: "2–4 players", "4 players", "1 player"."""
    fewest, most = game.players
    return f"{fewest}–{most} players" if fewest != most else f"{most} player{'s' * (most != 1)}"


@bp.get("/join")
def join_by_code():
    """The home page's code box: a code typed in any case, with or without spaces."""
    code = _typed_code()
    return table(code) if code else index()


@bp.get("/join-event")
def join_event_by_code():
    """The home page's event code box, as forgiving as the table's."""
    code = _typed_code()
    return redirect(url_for("views.event", code=code)) if code else redirect(url_for("views.index"))


def _typed_code() -> str:
    return "".join(request.args.get("code", "").split()).upper()[:16]


@bp.get("/t/<code>")
def table(code: str):
    try:
        info = play().info(code)
    except NotFound:
        return render_template("missing.html", code=code), 404
    game = play().trackable()[info.game]
    return render_template(
        "table.html",
        code=code,
        game=info.game,
        title=game.title,
        styles=_game_file(f"{info.game}.css"),
        join_url=_join_url(code),
        projector=game.projector,
        event=info.event,
    )


@bp.get("/t/<code>/projector")
def table_projector(code: str):
    """The table on a TV or projector: the round, the dice huge, who is ready, the QR; what else the
    game's own view (static/games/<game>-projector.js) draws."""
    try:
        info = play().info(code)
    except NotFound:
        return render_template("missing.html", code=code), 404
    game = play().trackable()[info.game]
    if not game.projector:
        return render_template("missing.html", code=code), 404
    return render_template(
        "projector.html",
        code=info.code,
        game=info.game,
        title=game.title,
        styles=_game_file(f"{info.game}-projector.css"),
        event=info.event,
        join_url=_join_url(info.code),
    )


def _game_file(name: str) -> bool:
    """Whether a game folder has this file: a game's panel and projector styles are found by name."""
    return _game_folder(name) is not None


def _game_folder(name: str) -> Path | None:
    """The folder holding a game's file `name` (its panel, its styles, its projector view): the
    companion's static/games/, else one of the configured GAME_PANELS (a game kept outside the
    companion: the tests' example game)."""
    folders = [Path(current_app.static_folder) / "games", *map(Path, current_app.config["GAME_PANELS"])]
    return next((folder for folder in folders if (folder / name).is_file()), None)


@bp.get("/games/<name>")
def game_file(name: str):
    """A game's panel, styles or projector view, by file name."""
    folder = _game_folder(name) if name == Path(name).name else None
    if folder is None:
        abort(404)
    return send_from_directory(folder, name)


@bp.get("/e/<code>")
def event(code: str):
    """An event's page: its rolls, its leaderboard, a table to open in it; the organiser's buttons."""
    return _event_page(
        code, "event.html", lambda info: {"options": play().tracker(info.game).Options.model_json_schema()}
    )


@bp.get("/e/<code>/projector")
def event_projector(code: str):
    """The event on a screen for the room: the last roll huge, the leaderboard, the QR to join."""
    return _event_page(code, "event_projector.html")


def _event_page(code: str, template: str, more=lambda info: {}):
    """An event's page `template`, with what every event page shows and what `more(info)` adds."""
    events = current_app.extensions["events"]
    try:
        info = events.info(code)
    except NotFound:
        return render_template("missing.html", code=code, what="event"), 404
    return render_template(
        template,
        code=info.code,
        name=info.name,
        title=play().trackable()[info.game].title,
        board=events.board(info.code),
        join_url=_event_url(info.code),
        **more(info),
    )


@bp.get("/e/<code>/qr.svg")
def event_qr(code: str):
    try:
        info = current_app.extensions["events"].info(code)
    except NotFound:
        abort(404)
    return _qr_svg(_event_url(info.code))


def _event_url(code: str) -> str:
    return public_url_for("views.event", code=code)


@bp.get("/t/<code>/qr.svg")
def qr(code: str):
    try:
        play().info(code)
    except NotFound:
        abort(404)
    return _qr_svg(_join_url(code))


def _qr_svg(url: str) -> Response:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, dark="#1b1530", light="#ffffff")
    # Checked on every load, not kept for an hour: a server restarted with --public-url (as the page
    # advises when phones cannot reach it) must not leave the old address in a cached QR code.
    response = Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"})
    response.add_etag()
    return response.make_conditional(request)


def _join_url(code: str) -> str:
    return public_url_for("views.table", code=code)


@bp.get("/manifest.webmanifest")
def manifest():
    body = {
        "name": "Spellpress companion",
        "short_name": "Spellpress",
        "start_url": url_for("views.index"),
        "display": "standalone",
        "background_color": "#1b1530",
        "theme_color": "#6a4bb0",
        "icons": [{"src": url_for("static", filename="icon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    return current_app.response_class(current_app.json.dumps(body), mimetype="application/manifest+json")


@bp.get("/sw.js")
def service_worker():
    # Served from the root so its scope is the whole app (an installable app needs one).
    return current_app.send_static_file("sw.js"), 200, {"Content-Type": "text/javascript", "Cache-Control": "no-cache"}
