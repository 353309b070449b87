"""Slows down whoever guesses join codes: a code is all it takes to read a table and sit down.

What is counted is what only a guesser does much of: asking for a code that names no table and no
event (a 404 for the code, by page, QR, API or stream). A room's phones behind one Wi-Fi address
(one public address for them all) open, join and play real tables without ever being counted, and a
phone that mistypes a code a few times is not slowed either. Past WRONG_CODES from one address, a
code that address has not reached before is answered 429 with Retry-After, whether or not it names
a table, so a guesser learns nothing more until the window has moved on; the codes it had reached
(its own tables, the room's) keep answering it as before.

Counts live in Flask-Limiter's storage (the app's RATELIMIT_STORAGE_URI): in memory by default, so
each worker of `companion serve --workers N` counts on its own (a guesser gets up to N times the
limit), or shared by all workers with `--limits-storage redis://host:6379`. The address is the
socket's peer; X-Forwarded-For is read only when `--trusted-proxies N` (TRUSTED_PROXIES) says N
proxies in front write it, as anyone else could write it to pose as a new address.
"""

from __future__ import annotations

import logging
import time

from flask import Flask, Response, current_app, request
from flask_limiter import Limiter
from limits.storage import Storage
from werkzeug.middleware.proxy_fix import ProxyFix

from companion.context import NotFound
from companion.store.database import normalize_code

# 20 wrong codes in any 10 minutes: more than a room's typos, and 887 million codes (31**6) then take
# one address about 840 years to try; at the 1,200 lookups a second one address managed unslowed,
# it was 9 days.
WRONG_CODES = "20 per 10 minutes"
KNOWN_FOR = 24 * 3600  # seconds an address goes on reaching a code it reached, however much it guesses

logger = logging.getLogger(__name__)


def configured(app: Flask) -> None:
    """Rate-limit the app's wrong codes per client address (its limiter: app.extensions["guesses"])."""
    if proxies := app.config["TRUSTED_PROXIES"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=0, x_host=0, x_port=0, x_prefix=0)
    limiter = Limiter(
        client_address,
        application_limits=[WRONG_CODES],
        application_limits_exempt_when=_not_a_guess,
        application_limits_deduct_when=_wrong_code,
        strategy="moving-window",  # at most WRONG_CODES in any 10 minutes, not twice that across a boundary
        in_memory_fallback_enabled=True,  # a shared storage out of reach: each worker counts on its own
    )
    limiter.init_app(app)
    app.extensions["guesses"] = limiter
    app.after_request(_remember_reached)


def client_address() -> str:
    return request.remote_addr or "unknown"


def asked_code() -> str | None:
    """The code this request looks up, as stored, or its text when it cannot be one; None when it
    asks for no code (the home page, a new table, a static file)."""
    if request.endpoint == "views.join_by_code":
        raw = request.args.get("code", "")
    else:
        raw = (request.view_args or {}).get("code")
    if raw is None:
        return None
    return normalize_code(raw) or raw


def reached(code: str) -> None:
    """`code` answers the client from now on, even past its wrong-code limit (a table it opened)."""
    if _limiter().enabled:  # RATELIMIT_ENABLED=False: no storage, nothing counted
        try:
            _storage().incr(_reached_key(code), KNOWN_FOR)
        except Exception:  # whatever a storage raises: a code not remembered is only counted as any
            logger.warning("could not remember a reached code", exc_info=True)


def retry_after() -> int:
    """Seconds until the client's oldest counted wrong code leaves the window (for a 429)."""
    limit = _limiter().current_limit
    return max(1, int(limit.reset_at - time.time())) if limit else 1  # as Flask-Limiter's own header


def _limiter() -> Limiter:
    return current_app.extensions["guesses"]


def _storage() -> Storage:
    """The storage the limits are counted in now: the configured one, or memory while it is out of reach."""
    return _limiter().limiter.storage


def _reached_key(code: str) -> str:
    return f"spellpress-reached/{client_address()}/{normalize_code(code) or code}"


def _not_a_guess() -> bool:
    code = asked_code()
    return code is None or _has_reached(code)


def _has_reached(code: str) -> bool:
    try:
        return _storage().get(_reached_key(code)) > 0
    except Exception:  # the limits themselves fall back to memory (in_memory_fallback_enabled)
        logger.warning("could not read a reached code", exc_info=True)
        return False


def _wrong_code(response: Response) -> bool:
    """Whether the answer was a 404 because the code names no table and no event (not a missing
    seat or layout at a real table)."""
    code = asked_code()
    return response.status_code == 404 and code is not None and not _names_something(code)


def _names_something(code: str) -> bool:
    for lookup in (current_app.extensions["play"].info, current_app.extensions["events"].info):
        try:
            lookup(code)
            return True
        except NotFound:  # EventNotFound too
            pass
    return False


def _remember_reached(response: Response) -> Response:
    """A code that answered the client is one it reached (its room's table, by QR or typed)."""
    code = asked_code()
    if code is not None and response.status_code < 400 and _limiter().enabled and not _has_reached(code):
        reached(code)
    return response
