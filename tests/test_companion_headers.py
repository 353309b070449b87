"""The security headers (companion/headers.py) on every route the app has, its errors included, and
in a real browser: another site cannot frame the host's page. That every page runs under the
Content-Security-Policy is what every browser test shows: a blocked script or style is a console
error, and the `chromium` fixture fails a test on any."""

from __future__ import annotations

import io
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, HTTPServer

from companion.headers import HEADERS
from tests.support.api import bearer, join
from tests.support.api import open_table as open_api_table
from tests.support.browser import FIRST_LOAD_MS
from tests.support.http import call, server

CSP = HEADERS["Content-Security-Policy"]


def secured(res) -> None:
    for name, value in HEADERS.items():
        assert res.headers.get(name) == value, (res.request.path, name, res.headers.get(name))


def test_the_policy_runs_only_the_apps_own_files_and_lets_nobody_frame_it():
    directives = dict(d.split(" ", 1) for d in CSP.split("; "))
    assert directives["script-src"] == directives["style-src"] == directives["default-src"] == "'self'"
    assert "unsafe" not in CSP and "data:" not in CSP  # no inline script or style, no data URI
    assert directives["frame-ancestors"] == directives["base-uri"] == "'none'"
    assert HEADERS["X-Frame-Options"] == "DENY" and HEADERS["Referrer-Policy"] == "no-referrer"


def test_every_route_and_every_error_carries_the_headers(app, client):
    table = open_api_table(client)
    player = join(client, table["code"], "Ada")
    event = client.post("/api/events", json={"game": "merchants-of-magick", "name": "Night"}).json
    values = {"player_id": player["player_id"], "filename": "app.css", "name": "magic-spell.js"}
    for rule in app.url_map.iter_rules():
        code = event["code"] if rule.rule.startswith(("/e/", "/api/events/")) else table["code"]
        path = rule.build({**values, "code": code}, append_unknown=False)[1]
        method = "GET" if "GET" in rule.methods else "POST"
        res = client.open(path, method=method, json={}, headers=bearer(table["host_token"]), buffered=False)
        assert res.status_code < 500, (path, res.status_code)
        secured(res)  # a stream's too: its headers are sent before its first event
        res.close()

    missing = client.get("/no/such/page")
    assert missing.status_code == 404
    secured(missing)
    secured(client.get("/t/QQQQQQ"))  # the page saying no table has that code
    secured(client.get("/api/tables/QQQQQQ"))
    secured(client.delete("/api/tables"))  # 405
    secured(client.post("/api/tables", data="{" * 20_000, content_type="application/json"))  # 413
    oversized_chunked = io.BytesIO(b"[" * 20_000)
    secured(
        client.post(
            "/api/tables",
            data=oversized_chunked,
            headers={"Transfer-Encoding": "chunked", "Content-Type": "application/json"},
            environ_overrides={"wsgi.input_terminated": True},
        )
    )
    for _ in range(25):
        guessed = client.get("/api/tables/QQQQQQ")
    assert guessed.status_code == 429
    secured(guessed)


@contextmanager
def framing_site(url: str):
    """Another origin on this machine (its own port) whose page frames `url`: its address."""
    page = f'<!doctype html><title>framer</title><iframe src="{url}" width="360" height="640"></iframe>'.encode()

    class Framer(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    site = HTTPServer(("127.0.0.1", 0), Framer)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{site.server_port}/"
    finally:
        site.shutdown()
        site.server_close()


def test_another_site_framing_the_hosts_page_shows_nothing_of_it(chromium, tmp_path):
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path) as port:
        code = call(port, "POST", "/api/tables", {"game": "magic-spell"})[1]["code"]

        with framing_site(f"http://127.0.0.1:{port}/t/{code}") as site:
            # The other site's page is not ours: its console, where Chromium says why it refused
            # the frame, is not watched for errors.
            framer = chromium.browser.new_context().new_page()
            with framer.expect_console_message(lambda m: "frame-ancestors 'none'" in m.text, timeout=FIRST_LOAD_MS):
                framer.goto(site)  # Chromium says it refused the frame for our CSP
            framed = next(f for f in framer.frames if f is not framer.main_frame)
            text = framed.evaluate("document.body ? document.body.innerText : ''")
            assert code not in text and not framed.query_selector("#code-chip"), text[:200]
            framer.context.close()
