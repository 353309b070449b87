"""Phones in real Chromium (Debian's package, driven by Playwright): the launch flags, a phone-sized
touch context, and screenshots into output/screenshots/ to be looked at. The `chromium` fixture is
in conftest.py; it skips without Chromium, except under CI=true, where that is a failure. It hands
each test a `Watched` browser: an uncaught error or a console error on any of the test's pages fails
the test, whichever file it is in and however it opened its pages."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
# How long a fresh browser context's first page load may take: on a CI machine running the whole
# suite on both cores it has taken over 10 s. A change reaching a page already open keeps a short wait.
FIRST_LOAD_MS = 30_000
PHONE = {"viewport": {"width": 360, "height": 640}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
SHOTS = Path(__file__).resolve().parents[2] / "output" / "screenshots"
HOSTILE = "<script>alert(1)</script>"


def launched():
    """The system Chromium, launched headless for the whole session (conftest's `chromium`)."""
    if CHROMIUM is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Chromium is missing: CI must install Debian's chromium package")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


class Watched:
    """A browser for one test: every context opened through it reports its pages' uncaught errors,
    console errors and server errors (5xx) into `errors`; `close()` closes those contexts and any
    browser `launch` started. The conftest fixture asserts `errors` is empty after the test."""

    def __init__(self, browser, errors: list[str] | None = None):
        self.browser = browser
        self.errors = [] if errors is None else errors
        self.contexts, self.launched = [], []

    def new_context(self, **options):
        context = self.browser.new_context(**options)
        context.on("weberror", lambda error: self.errors.append(f"uncaught {error.error}"))
        context.on("console", self.console)
        context.on("response", self.response)
        self.contexts.append(context)
        return context

    def new_page(self, **options):
        """A page in a context of its own, as Browser.new_page gives."""
        return self.new_context(**options).new_page()

    def console(self, message) -> None:
        if message.type == "error" and not expected(message.text, message.location.get("url", "")):
            self.errors.append(f"console error {message.text} at {message.location.get('url')}")

    def response(self, response) -> None:
        if response.status >= 500:
            self.errors.append(f"{response.status} from {response.url}")

    def launch(self, *args: str) -> Watched:
        """Another Chromium with extra flags (a host resolver rule), watched into the same errors."""
        other = Watched(self.browser.browser_type.launch(executable_path=CHROMIUM, args=[*FLAGS, *args]), self.errors)
        self.launched.append(other)
        return other

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        for other in self.launched:
            other.close()
            other.browser.close()


def expected(text: str, url: str) -> bool:
    """Chromium's console lines that are not the page's errors: the API refusing a move (a 4xx
    whose reason the page shows) and the server out of reach (the offline banner's case, and every
    test's end). A missing page or script, or a 5xx, still counts."""
    failed = "Failed to load resource: "
    refused = text.startswith(failed + "the server responded with a status of 4") and "/api/" in url
    return refused or text.startswith(failed + "net::")


def phone(chromium):
    """A new phone: its own context (cookies, storage) at 360 x 640 with touch; dialogs are
    dismissed and kept in `page.dialogs`, so a test can assert none opened."""
    page = chromium.new_context(**PHONE).new_page()
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.dialogs = dialogs
    return page


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def open_table(page, port: int, game: str, name: str | None = None, **options: str) -> str:
    """Open a table for `game` from the home page with `options` chosen (mode="phones"), and join
    it as `name` if given; the table's code."""
    page.goto(f"http://127.0.0.1:{port}/")
    page.select_option("#game", game)
    for option, value in options.items():
        page.select_option(f"#options [name={option}]", value)
    page.click("text=Open the table")
    page.wait_for_url("**/t/*")
    if name:
        join(page, name)
    return page.locator("#code-chip").inner_text()


def in_the_dark(chromium, page, url: str, ready):
    """The same phone in the dark: a context of its own with `page`'s storage (so the same seat),
    at `url`, once `ready(night)` (a locator) shows."""
    night = chromium.new_context(**PHONE, color_scheme="dark", storage_state=page.context.storage_state()).new_page()
    night.goto(url)
    ready(night).wait_for(timeout=FIRST_LOAD_MS)
    return night


def tokens(page, code: str) -> dict:
    """What a page keeps of a table: its host's and its player's tokens, its player id."""
    return page.evaluate("code => JSON.parse(localStorage.getItem('spellpress:' + code))", code)


def join(page, name: str) -> None:
    page.fill("#join-form input[name=name]", name)
    page.click("#join-form button")
    page.locator("#join").wait_for(state="hidden")
