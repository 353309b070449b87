"""A phone at a table in real Chromium, as the tests that hold its buttons against the server's
offers read it: its page (its seat's tokens in its storage), what the API offers it, the move
types of its enabled buttons in every section, a tap on one, and its height."""

from __future__ import annotations

import json
import random

from tests.support.browser import FIRST_LOAD_MS, PHONE
from tests.support.http import call


class Phone:
    """A phone at the table: its page, the token its calls carry, and the seat the host plays on it."""

    def __init__(self, chromium, port: int, code: str, kept: dict, token: str, kept_seat: str | None = None):
        self.page = chromium.new_context(**PHONE).new_page()
        self.port, self.code, self.token, self.seat = port, code, token, kept_seat
        self.tallest = 0  # the page's greatest height measured (shown), in CSS pixels
        self.page.add_init_script(f"localStorage.setItem('spellpress:{code}', {json.dumps(json.dumps(kept))})")
        self.page.goto(f"http://127.0.0.1:{port}/t/{code}")

    def offered(self) -> tuple[int, set[str]]:
        query = f"?as={self.seat}" if self.seat else ""
        status, table = call(self.port, "GET", f"/api/tables/{self.code}{query}", token=self.token)
        assert status == 200, table
        return table["seq"], {m["type"] for m in table["moves"]}

    def shown(self, seq: int, measure: bool = False) -> set[str]:
        """The move types of the enabled buttons, every section looked at, once the page shows `seq`;
        with `measure`, the tallest the page was in any of them is kept (`tallest`)."""
        self.page.wait_for_function(f"() => Spellpress.table && Spellpress.table.seq >= {seq}", timeout=FIRST_LOAD_MS)
        found = set(self._enabled())
        jumps = self.page.locator("nav.jump button:not([data-testid=jump-history])")
        for n in range(jumps.count()):
            jumps.nth(n).click()
            found |= set(self._enabled())
            if measure:
                self.tallest = max(self.tallest, self.height())
        if measure:
            self.tallest = max(self.tallest, self.height())
        return found

    def _enabled(self) -> list[str]:
        return self.page.eval_on_selector_all(
            "#lobby [data-move], #game [data-move]",
            "nodes => nodes.filter(b => !b.disabled && b.offsetParent !== null).map(b => b.dataset.move)",
        )

    def tap(self, rng: random.Random) -> None:
        """One enabled move button, chosen by `rng`: a move it sends must not be refused (a button
        that starts composing a move sends nothing yet)."""
        buttons = self.page.locator("#lobby [data-move]:enabled:visible, #game [data-move]:enabled:visible")
        if not buttons.count():
            return
        sent = []
        self.page.on("request", lambda r: "/actions" in r.url and sent.append(r))
        buttons.nth(rng.randrange(buttons.count())).click()
        self.page.wait_for_timeout(150)  # a tap that sends has sent by now: the panels fetch in the tap's handler
        for request in sent:
            answer = request.response()
            assert answer.status == 200, answer.text()

    def height(self) -> int:
        return self.page.evaluate("document.documentElement.scrollHeight")
