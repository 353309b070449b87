"""A phone at a table in real Chromium, as the tests that hold its buttons against the server's
offers read it: its page (its seat's tokens in its storage), what the API offers it, the move
types of its enabled buttons in every section, a tap on one, and its greatest height."""

from __future__ import annotations

import json
import random

from tests.support.browser import FIRST_LOAD_MS, PHONE
from tests.support.http import call

# Every section of the panel in turn (each jump button but the history's): the move types of the
# enabled buttons in sight in any of them, and the page's greatest height.
WALK_SECTIONS = """() => {
  const enabled = () => [...document.querySelectorAll("#lobby [data-move], #game [data-move]")]
    .filter((b) => !b.disabled && b.offsetParent !== null).map((b) => b.dataset.move);
  const found = new Set(enabled());
  let tallest = document.documentElement.scrollHeight;
  const jumps = [...document.querySelectorAll("nav.jump button:not([data-testid=jump-history])")];
  for (const id of jumps.map((b) => b.dataset.testid)) {
    document.querySelector(`nav.jump [data-testid="${id}"]`).click();  // the bar is drawn anew by each jump
    enabled().forEach((move) => found.add(move));
    tallest = Math.max(tallest, document.documentElement.scrollHeight);
  }
  return [[...found], tallest];
}"""


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
        with `measure`, the tallest the page was in any of them is kept (`tallest`). The sections
        are walked in the page, as a tap on each jump button would (a section redraws at once)."""
        self.page.wait_for_function(f"() => Spellpress.table && Spellpress.table.seq >= {seq}", timeout=FIRST_LOAD_MS)
        found, tallest = self.page.evaluate(WALK_SECTIONS)
        if measure:
            self.tallest = max(self.tallest, tallest)
        return set(found)

    def tap(self, rng: random.Random) -> None:
        """One enabled move button, chosen by `rng`: a move it sends must not be refused (a button
        that starts composing a move sends nothing yet)."""
        buttons = self.page.locator("#lobby [data-move]:enabled:visible, #game [data-move]:enabled:visible")
        if not buttons.count():
            return
        sent = []
        listen = lambda r: "/actions" in r.url and sent.append(r)  # noqa: E731
        self.page.on("request", listen)
        buttons.nth(rng.randrange(buttons.count())).click()
        self.page.wait_for_timeout(150)  # a tap that sends has sent by now: the panels fetch in the tap's handler
        self.page.remove_listener("request", listen)
        for request in sent:
            answer = request.response()
            assert answer.status == 200, answer.text()
