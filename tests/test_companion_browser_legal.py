"""For every game, in real Chromium at 360 x 640, over a seeded game: each phone's live buttons are
the moves the server offers it, and a tap on one is never refused.

At each step every phone (each player's, the host's, the host's playing a seat without a phone) is
read once it shows the table's newest move: the types of its enabled move buttons (`data-move`,
in every section of its panel and in the lobby) must equal the types of the moves the API offers
it. Then one of those buttons, chosen by the seed, is tapped: a move it sends must be accepted (no
refusal shows). The game then moves on by a move the server offers, chosen by the seed, sent over
the API, so every run walks the same game. Each game's page is also measured mid-game: at most two
screens tall (the issue's short pages)."""

from __future__ import annotations

import json
import random

import pytest

from pnp.gamedef import games
from pnp.rules.flow import Rules
from pnp.rules.offers import sample
from tests.support.browser import FIRST_LOAD_MS, PHONE, shot
from tests.support.http import call, free_port, server

RULED = [g.id for g in games().values() if g.tracker and isinstance(g.load("tracker"), Rules)]
STEPS = 14  # moves each game is walked through
SCREENS = 2  # the tallest a phone page may be mid-game, in screens of the phone's height


class Phone:
    """A phone at the table: its page, the token its calls carry, and the seat the host plays on it."""

    def __init__(self, chromium, port: int, code: str, kept: dict, token: str, kept_seat: str | None = None):
        self.page = chromium.new_context(**PHONE).new_page()
        self.port, self.code, self.token, self.seat = port, code, token, kept_seat
        self.page.add_init_script(f"localStorage.setItem('spellpress:{code}', {json.dumps(json.dumps(kept))})")
        self.page.goto(f"http://127.0.0.1:{port}/t/{code}")

    def offered(self) -> tuple[int, set[str]]:
        query = f"?as={self.seat}" if self.seat else ""
        status, table = call(self.port, "GET", f"/api/tables/{self.code}{query}", token=self.token)
        assert status == 200, table
        return table["seq"], {m["type"] for m in table["moves"]}

    def shown(self, seq: int) -> set[str]:
        """The move types of the enabled buttons, every section looked at, once the page shows `seq`."""
        self.page.wait_for_function(f"() => Spellpress.table && Spellpress.table.seq >= {seq}", timeout=FIRST_LOAD_MS)
        found = set(self._enabled())
        jumps = self.page.locator("nav.jump button:not([data-testid=jump-history])")
        for n in range(jumps.count()):
            jumps.nth(n).click()
            found |= set(self._enabled())
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


@pytest.mark.parametrize("game_id", RULED)
def test_each_phones_buttons_are_its_offered_moves_and_none_is_refused(chromium, tmp_path, game_id):
    rng = random.Random(game_id)
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path, port=free_port()) as port:
        tracker = games()[game_id].load("tracker")
        fewest = tracker.seats(tracker.Options())[0]  # the default table's
        status, opened = call(port, "POST", "/api/tables", {"game": game_id, "options": {}})
        code, host = opened["code"], opened["host_token"]
        seats = [call(port, "POST", f"/api/tables/{code}/players", {"name": f"Phone {n}"})[1] for n in (1, 2)]
        _, kept = call(port, "POST", f"/api/tables/{code}/seats", {"name": "Kept"}, token=host)
        for n in range(3, fewest):  # more seats, their phones not followed
            call(port, "POST", f"/api/tables/{code}/players", {"name": f"Phone {n}"})
        phones = [Phone(chromium, port, code, {"host_token": host}, host)]
        phones += [Phone(chromium, port, code, seat, seat["token"]) for seat in seats]
        phones.append(
            Phone(chromium, port, code, {"host_token": host, "as": kept["player_id"]}, host, kept["player_id"])
        )
        tallest = 0
        for step in range(STEPS):
            for phone in phones:
                seq, offered = phone.offered()
                assert phone.shown(seq) == offered, (step, phone.seat or phone.token[:6])
                if step > 2:
                    tallest = max(tallest, phone.height())
            phone = rng.choice(phones)
            phone.tap(rng)
            movers = [p for p in phones if p.offered()[1]]
            if not movers:
                break
            mover = rng.choice(movers)
            query = f"?as={mover.seat}" if mover.seat else ""
            _, table = call(port, "GET", f"/api/tables/{code}{query}", token=mover.token)
            offer = rng.choice(table["moves"])
            body = {"type": offer["type"], **sample(offer, rng)}
            status, answer = call(port, "POST", f"/api/tables/{code}/actions{query}", body, token=mover.token)
            assert status == 200, (offer, answer)
        for n, phone in enumerate(phones):  # the host's, the players', the host's playing a kept seat
            shot(phone.page, f"legal-{game_id}-{n}")
        assert tallest <= SCREENS * PHONE["viewport"]["height"], tallest
