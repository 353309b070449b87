"""A Spellcycles table's projector in real Chromium at 1920 x 1080, against the real server, after
three wizards have played some turns on the phones through the API: the 8 x 8 field large, each
space's top piece in its colour with its letter, the spell line with its crescents, each wizard's
essence and certificate count, whose turn, the last roll, the QR code; a new move within a second;
and no wizard's certificate (its rank or suit) anywhere on the screen. The screenshot is
/tmp/sc-projector.png (and output/screenshots/), to be looked at."""

from __future__ import annotations

import random
import re

from tests.support.browser import FIRST_LOAD_MS, shot
from tests.support.http import HttpTable, call
from tests.test_spellcycles_tracker import scripted

GAME = "spellcycles"
TV = {"width": 1920, "height": 1080}
LETTER = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", "white": "W", "black": "K"}
INK = {"red": "rgb(213, 94, 0)", "yellow": "rgb(240, 228, 66)", "green": "rgb(0, 158, 115)"}
INK |= {"blue": "rgb(0, 114, 178)", "white": "rgb(255, 255, 255)", "black": "rgb(26, 26, 26)"}
# How a card could be written: a suit sign or name, a rank name, "7 of ...".
CARD_TEXT = re.compile(r"[♠♥♦♣]|\b(spades?|hearts?|diamonds?|clubs?|ace|jack|queen|king|of [a-z]+s)\b", re.I)
FITS = """() => document.documentElement.scrollHeight <= innerHeight
  && document.documentElement.scrollWidth <= innerWidth"""


class Table(HttpTable):
    def __init__(self, port: int, mode: str = "phones"):
        super().__init__(port, GAME, {"mode": mode}, ("Ada", "Bo", "Cy"))

    def moves(self, who: str) -> list[dict]:
        return call(self.port, "GET", f"/api/tables/{self.code}", token=self.tokens[who])[1]["moves"]

    def turn(self, rng: random.Random) -> None:
        """One wizard's turn by the script (tests.test_spellcycles_tracker.scripted): Renew, a piece
        onto a space, each spell offered cast, Progress."""
        me, tried = self.state()["turn"]["player"], set()
        while self.state()["phase"] == "playing" and self.state()["turn"]["player"] == me:
            type_, body = scripted(self.moves(me), rng, tried)
            self.ok(me, type_, **body)

    def place(self, me: str, rng: random.Random) -> None:
        """Contribute (or its skip), as the script makes it."""
        type_, body = scripted(self.moves(me), rng, set())
        self.ok(me, type_, **body)


def test_the_projector_shows_the_field_the_line_and_the_wizards_never_a_card(chromium, live):
    table = Table(live)
    table.ok("host", "start", first=next(iter(table.tokens)))
    rng = random.Random(11)
    while not sum(p["certificates"] for p in table.state()["players"]):  # some wizard holds cards to hide
        table.turn(rng)
    table.turn(rng)
    state = table.state()

    page = chromium.new_context(viewport=TV, reduced_motion="reduce").new_page()
    page.goto(f"http://127.0.0.1:{live}/t/{table.code}/projector")
    page.locator("[data-testid=wizard]").nth(2).wait_for(timeout=FIRST_LOAD_MS)  # a first load, on a loaded machine
    names = {p["id"]: p["name"] for p in state["players"]}
    assert page.locator("[data-testid=round]").inner_text() == f"{names[state['turn']['player']]}'s turn"

    # The field: 64 spaces, each piece's top in its ink and letter; large enough for the back of a room.
    spaces = page.locator(".sc-space")
    assert spaces.count() == 64
    for i, stack in enumerate(state["field"]):
        cell = spaces.nth(i)
        if stack:
            colour = stack[-1][0]
            assert cell.locator(".sc-piece").inner_text() == LETTER[colour]
            assert cell.evaluate("(n) => getComputedStyle(n).backgroundColor") == INK[colour]
            assert cell.locator(".sc-pips").inner_text() == "●" * ("small", "medium", "large").index(stack[-1][1]) + "●"
        else:
            assert cell.inner_text() == ""
    box = page.locator("[data-testid=field]").bounding_box()
    assert box["height"] >= 0.6 * TV["height"] and abs(box["width"] - box["height"]) < 2
    letter = page.locator(".sc-space .sc-piece").first.evaluate("(n) => parseFloat(getComputedStyle(n).fontSize)")
    assert letter >= 0.04 * TV["height"]

    # The line: every spell, its crescents; the wizards: essence and how many certificates.
    spells = page.locator("[data-testid=spell]")
    assert spells.count() == len(state["line"])
    for spell, shown in zip(state["line"], spells.all(), strict=True):
        assert spell["name"] in shown.inner_text()
        assert shown.inner_text().count("☾") == spell["crescents"]
    for p, chip in zip(state["players"], page.locator("[data-testid=wizard]").all(), strict=True):
        assert chip.inner_text() == f"{p['name']} {p['essence']} essence · {p['certificates']} cert."
    roll = state["last_roll"]
    assert f"{names[roll['player']]} rolled" in page.locator("[data-testid=roll]").inner_text()
    assert page.locator(".pj-qr").bounding_box()["width"] > 200
    assert page.evaluate(FITS), "the projector scrolls"

    # No certificate anywhere: no card's words on the screen, and the projector is sent none.
    text = page.locator("body").inner_text()
    for spell in state["line"]:  # a spell's own name may say "Jack"
        text = text.replace(spell["name"], "")
    assert not CARD_TEXT.search(text), CARD_TEXT.search(text)
    hands = [table.state(pid)["hand"] for pid in table.tokens]
    assert any(hands)
    sent = page.evaluate(f"async () => (await (await fetch('/api/tables/{table.code}')).json()).state.hand")
    assert sent == []
    page.screenshot(path="/tmp/sc-projector.png")
    shot(page, "projector-spellcycles-1920")

    # A move reaches the projector within a second.
    me = state["turn"]["player"]
    assert state["turn"]["step"] == "renew"
    rolled = table.ok(me, "renew")["last_roll"]
    page.locator("[data-testid=phase]", has_text="Contribute").wait_for(timeout=1000)
    assert page.locator("[data-testid=roll]").inner_text().startswith(f"{names[me]} rolled\n{rolled['faces'][-1]}")
    page.set_viewport_size({"width": 1280, "height": 720})
    assert page.evaluate(FITS), "the projector scrolls at 1280 x 720"
    page.set_viewport_size(TV)

    # To the end: the winners starred, every wizard's score.
    table.place(me, rng)
    crescents = table.state()["crescents"]
    table.ok(me, "progress", position=crescents[0] if crescents else None)
    while table.state()["phase"] == "playing":
        table.turn(rng)
    final = table.state()
    page.locator("[data-testid=round]", has_text="Game over").wait_for(timeout=1000)
    for p, chip in zip(final["players"], page.locator("[data-testid=wizard]").all(), strict=True):
        star = "★ " if p["id"] in final["winners"] else ""
        assert chip.inner_text() == f"{star}{p['name']} · {p['score']} points" + (" · out" if p["out"] else "")
    assert not CARD_TEXT.search(page.locator("#players").inner_text())
    page.screenshot(path="/tmp/sc-projector-over.png")


def test_with_real_pieces_the_projector_shows_the_line_and_the_roll_without_a_field(chromium, live):
    table = Table(live, mode="pieces")
    table.ok("host", "start", first=next(iter(table.tokens)))
    me = table.state()["turn"]["player"]
    table.ok(me, "renew")
    state = table.state()
    page = chromium.new_context(viewport=TV, reduced_motion="reduce").new_page()
    page.goto(f"http://127.0.0.1:{live}/t/{table.code}/projector")
    page.locator("[data-testid=wizard]").nth(2).wait_for(timeout=FIRST_LOAD_MS)  # a first load, on a loaded machine
    assert page.locator("[data-testid=field]").is_hidden()
    assert page.locator("[data-testid=spell]").count() == len(state["line"])
    roll = state["last_roll"]
    assert page.locator("[data-testid=roll]").inner_text().startswith(f"Ada rolled\n{roll['faces'][-1]}")
    assert page.evaluate(FITS), "the projector scrolls"
    page.screenshot(path="/tmp/sc-projector-pieces.png")
