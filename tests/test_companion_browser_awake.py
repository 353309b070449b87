"""The screen stays on: in a secure context by the Screen Wake Lock, silently; on plain HTTP from
another machine (no Wake Lock there), by a silent video instead, and the page says so. Chromium reaches the test server
by a made-up host name, as a phone on the Wi-Fi reaches the host's address."""

from __future__ import annotations

from tests.support.browser import FIRST_LOAD_MS, PHONE, phone, shot
from tests.support.http import call, free_port, server

HOST = "companion.test"  # not localhost or 127.*: those count as secure contexts


def playing_video(page) -> dict:
    return page.evaluate(
        """() => {
          const video = document.querySelector("video.awake");
          const shown = video && video.getBoundingClientRect().width > 0;
          return video && {paused: video.paused, width: video.videoWidth, visible: shown};
        }"""
    )


def test_on_plain_http_a_silent_video_keeps_the_screen_on_and_the_page_says_so(chromium, tmp_path):
    port = free_port()
    remote = chromium.launch(f"--host-resolver-rules=MAP {HOST} 127.0.0.1")
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path, port=port):
        _, table = call(port, "POST", "/api/tables", {"game": "magic-spell"})
        page = remote.new_context(**PHONE).new_page()
        page.goto(f"http://{HOST}:{port}/t/{table['code']}")
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("'wakeLock' in navigator") is False
        page.locator("#sleep", has_text="silent video").wait_for(timeout=FIRST_LOAD_MS)  # a first load
        assert "HTTPS" in page.locator("#sleep").inner_text()
        page.wait_for_function("() => document.querySelector('video.awake').videoWidth > 0", timeout=3000)
        assert playing_video(page) == {"paused": False, "width": 2, "visible": True}
        shot(page, "awake-on-http")

        # back from the background: the same video plays on
        assert page.evaluate("window.SpellpressAwake.keep()") == "video"
        assert page.locator("video.awake").count() == 1 and playing_video(page)["paused"] is False


def test_in_a_secure_context_the_wake_lock_keeps_the_screen_on_with_no_video(chromium, tmp_path):
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path) as port:
        _, table = call(port, "POST", "/api/tables", {"game": "magic-spell"})
        page = phone(chromium)
        page.goto(f"http://127.0.0.1:{port}/t/{table['code']}")  # localhost counts as secure
        page.locator("#code-chip").wait_for()
        assert page.evaluate("window.SpellpressAwake.keep()") == "wake-lock"
        assert page.locator("#sleep").is_hidden()
        assert page.locator("video.awake").count() == 0
