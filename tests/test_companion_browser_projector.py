"""The projector pages and the event's page in real Chromium, against the real server: a Merchants
table's projector at 1920 x 1080 (and 1280 x 720) following the host's roll within a second, with
dice digits at least 15 % of the screen's height (their ink, not only their boxes; a die's highest
face fits its tile), the ready count rising, and a dropped network caught up by itself; an event started from
the home page, rolled by the organiser's button and reaching a table a second phone opened in it,
its leaderboard with a shared place, and its seed revealed at the end matching the digest shown
from the start. Screenshots land in output/screenshots/ to be looked at."""

from __future__ import annotations

import hashlib
import re

from tests.support.browser import PHONE, phone, shot
from tests.support.http import call

GAME = "merchants-of-magick"
TV = {"width": 1920, "height": 1080}
SMALL_TV = {"width": 1280, "height": 720}

# The digits' boxes and their ink (the glyphs' own height, from the canvas's text metrics), in px.
DIGITS = """() => [...document.querySelectorAll('.pj-die-value')].map((node) => {
  const ctx = document.createElement('canvas').getContext('2d');
  const style = getComputedStyle(node);
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const m = ctx.measureText(node.textContent);
  return {box: node.getBoundingClientRect().height, ink: m.actualBoundingBoxAscent + m.actualBoundingBoxDescent,
          text: node.textContent};
})"""
# Every die's highest face, written into its tile for a moment: its digits' width inside the tile.
WIDEST = """() => [...document.querySelectorAll('.pj-die')].map((tile) => {
  const value = tile.querySelector('.pj-die-value'), was = value.textContent;
  value.textContent = tile.dataset.die.slice(1);
  const fits = value.getBoundingClientRect().width <= tile.clientWidth;
  value.textContent = was;
  return fits;
})"""
FITS = """() => document.documentElement.scrollHeight <= innerHeight
  && document.documentElement.scrollWidth <= innerWidth"""


def tv(chromium, size=TV):
    return chromium.new_context(viewport=size, reduced_motion="reduce").new_page()  # no flash in the shots


def shown_dice(page) -> dict:
    return page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('.pj-die')].map("
        "(d) => [d.dataset.die, d.querySelector('.pj-die-value').textContent]))"
    )


def wait_for_dice(page, dice: dict, timeout: int = 1000) -> None:
    want = {die: str(value) for die, value in dice.items()}
    page.wait_for_function(
        """(want) => Object.entries(want).every(([die, v]) =>
             (document.querySelector(`[data-testid=die-${die}]`) || {}).textContent === v)""",
        arg=want,
        timeout=timeout,
    )


def assert_huge_digits(page, height: int) -> None:
    digits = page.evaluate(DIGITS)
    assert len(digits) == 4
    for digit in digits:
        assert digit["box"] >= 0.15 * height, digit
        assert digit["ink"] >= 0.15 * height, digit  # the glyphs themselves, not only their line box
    assert page.evaluate(FITS), "the projector scrolls"
    assert all(page.evaluate(WIDEST)), "a die's highest face overflows its tile"


def table_state(port: int, code: str) -> dict:
    return call(port, "GET", f"/api/tables/{code}")[1]["state"]


def test_a_table_projector_follows_the_roll_and_who_is_ready(chromium, live):
    port = live
    _, table = call(port, "POST", "/api/tables", {"game": GAME, "options": {}})
    code, host = table["code"], table["host_token"]
    players = [call(port, "POST", f"/api/tables/{code}/players", {"name": name})[1] for name in ("Ada", "Bo")]
    assert call(port, "POST", f"/api/tables/{code}/actions", {"type": "start"}, host)[0] == 200

    page = tv(chromium)
    page.goto(f"http://127.0.0.1:{port}/t/{code}/projector")
    page.locator("[data-testid=ready]", has_text="0 of 2 ready").wait_for(timeout=3000)
    assert page.locator("[data-testid=round]").inner_text().startswith("Round 1 of 10")
    assert page.locator("[data-testid=code]").inner_text() == code
    assert page.locator(".pj-mastery").count() == 2
    for mastery, card in zip(page.locator(".pj-mastery").all(), table_state(port, code)["masteries"], strict=True):
        rule = f"{card['circles']} circles in {card['column'].title()}"
        assert mastery.text_content() == f"{card['name']}{rule}Master {card['master']} coins"

    status, rolled = call(port, "POST", f"/api/tables/{code}/actions", {"type": "roll", "round": 1}, host)
    assert status == 200
    dice = rolled["state"]["dice"]
    wait_for_dice(page, dice, timeout=3000)  # on the projector within a second
    assert shown_dice(page) == {die: str(value) for die, value in dice.items()}
    assert_huge_digits(page, TV["height"])

    ready = {"type": "ready", "phase": "resource"}
    assert call(port, "POST", f"/api/tables/{code}/actions", ready, players[0]["token"])[0] == 200
    page.locator("[data-testid=ready]", has_text="1 of 2 ready").wait_for(timeout=3000)
    assert page.locator(".pj-is-ready").inner_text() == "✓ Ada"
    shot(page, "projector-table-1920")

    page.set_viewport_size(SMALL_TV)
    assert_huge_digits(page, SMALL_TV["height"])
    shot(page, "projector-table-1280")

    # The network drops and comes back: the projector says so, reconnects by itself, and gets
    # what it missed.
    page.context.set_offline(True)
    page.locator("#offline").wait_for(timeout=5000)
    status, rolled = call(port, "POST", f"/api/tables/{code}/actions", {"type": "roll", "round": 2}, host)
    assert status == 200
    page.context.set_offline(False)
    wait_for_dice(page, rolled["state"]["dice"], timeout=6000)
    page.locator("#offline").wait_for(state="hidden", timeout=3000)
    assert page.locator("[data-testid=round]").inner_text() == "Round 2 of 10"
    assert page.locator("[data-testid=ready]").inner_text() == "0 of 2 ready"
    page.context.close()


def organiser_phone(chromium):
    """A phone whose dialogs (End event's confirm) are accepted and kept in `page.dialogs`."""
    page = chromium.new_context(**PHONE).new_page()
    page.dialogs = []
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.accept()))
    return page


def test_an_event_rolled_from_its_page_reaches_a_table_ranks_ties_and_reveals_its_seed(chromium, live):
    port = live
    base = f"http://127.0.0.1:{port}"
    organiser = organiser_phone(chromium)
    organiser.goto(base + "/")
    organiser.fill("#event-name", "Club night")
    organiser.click("text=Start the event")
    organiser.wait_for_url("**/e/*")
    event = organiser.url.rsplit("/", 1)[1]
    assert organiser.locator("[data-testid=event-name]").inner_text() == "Club night"
    # The page's script fills the digest in from the event's JSON; wait for it rather than race it.
    organiser.wait_for_function("() => document.querySelector('[data-testid=digest]').textContent.length > 0")
    digest = organiser.locator("[data-testid=digest]").inner_text()
    assert len(digest) == 64
    roll = organiser.get_by_role("button", name="Roll round 1")
    roll.wait_for(timeout=3000)

    # A second phone opens a table in the event and joins it; two more merchants join by the API.
    player = phone(chromium)
    player.goto(f"{base}/e/{event}")
    player.get_by_role("button", name="Open a table in this event").click()
    player.wait_for_url("**/t/*")
    table = player.url.rsplit("/", 1)[1]
    stored = player.evaluate(f"() => JSON.parse(localStorage.getItem('spellpress:{table}'))")
    player.fill("#join-form input[name=name]", "Ada")
    player.click("#join-form button")
    player.locator("#join").wait_for(state="hidden")
    ada = player.evaluate(f"() => JSON.parse(localStorage.getItem('spellpress:{table}'))")["token"]
    bo = call(port, "POST", f"/api/tables/{table}/players", {"name": "Bo"})[1]["token"]
    cy = call(port, "POST", f"/api/tables/{table}/players", {"name": "Cy"})[1]["token"]
    assert call(port, "POST", f"/api/tables/{table}/actions", {"type": "start"}, stored["host_token"])[0] == 200
    player.wait_for_function("() => Spellpress.table && Spellpress.table.state.phase === 'playing'")

    organiser.locator("[data-testid=tables]", has_text="1 table").wait_for(timeout=3000)
    roll.click()
    organiser.locator("[data-testid=rolls] li[data-round='1']").wait_for(timeout=3000)
    assert "reached 1 table" in organiser.locator("#organiser-note").inner_text()
    _, summary = call(port, "GET", f"/api/events/{event}")
    dice = summary["rolls"][0]["dice"]
    shown = organiser.locator("[data-testid=rolls] li[data-round='1'] .ev-die").all_inner_texts()
    assert [text.split()[-1] for text in shown] == [str(v) for v in dice.values()]
    # The table's phone holds the same dice, live, within a second.
    player.wait_for_function(
        "(want) => JSON.stringify(Spellpress.table.state.dice) === JSON.stringify(want)", arg=dice, timeout=1000
    )
    organiser.get_by_role("button", name="Roll round 2").wait_for(timeout=3000)

    # Scores from paper sheets: Ada and Bo tie on coins and both tie-breaks; Cy is third.
    tied = {"type": "scores", "lines": {"crafting": 12, "orders": 9}, "fulfilled": 2, "potions": 1}
    for token in (ada, bo):
        assert call(port, "POST", f"/api/tables/{table}/actions", tied, token)[0] == 200
    low = {"type": "scores", "lines": {"crafting": 5}, "fulfilled": 0, "potions": 3}
    assert call(port, "POST", f"/api/tables/{table}/actions", low, cy)[0] == 200
    board = organiser.locator("[data-testid=leaderboard] tr")
    # Cy's row by its seat: a name as short as "Cy" may also stand in the row's table code (4YJCYA)
    organiser.locator("[data-testid=leaderboard] tr[data-player=p3]").wait_for(timeout=3000)
    organiser.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=leaderboard] tr')].map(r => r.cells[2].textContent)"
        ".join() === '21,21,5'",
        timeout=3000,
    )
    places = [row.locator("td").first.inner_text() for row in board.all()]
    names = [row.locator("strong").first.inner_text() for row in board.all()]
    ranked = call(port, "GET", f"/api/events/{event}/leaderboard")[1]["rows"]
    assert places == [str(row["place"]) for row in ranked]
    assert places[0] == places[1] == "1" and places[2] != "1"  # a shared first place, then Cy
    assert set(names[:2]) == {"Ada", "Bo"} and names[2] == "Cy"
    assert organiser.locator("a", has_text="CSV").get_attribute("href").endswith("leaderboard?format=csv")
    shot(organiser, "event-organiser-phone")

    # The event's projector: the last roll, the leaderboard, the QR and the digest.
    screen = tv(chromium)
    screen.goto(f"{base}/e/{event}/projector")
    wait_for_dice(screen, dice, timeout=3000)
    assert_huge_digits(screen, TV["height"])
    # Cy's own name cell, not a table code that happens to hold "CY"
    screen.locator("#leaders td", has_text=re.compile(r"^Cy$")).wait_for(timeout=3000)
    assert [r.split("\t")[0] for r in screen.locator("#leaders tr").all_inner_texts()] == places
    assert screen.locator("[data-testid=digest]").inner_text() == digest
    assert screen.locator("[data-testid=round]").inner_text() == "Round 1 of 10"
    shot(screen, "projector-event-1920")

    # The end: the seed is revealed on the page (and the projector), and it is the digest's.
    organiser.get_by_role("button", name="End event").click()
    seed_box = organiser.locator("[data-testid=seed]")
    seed_box.wait_for(timeout=3000)
    seed = seed_box.inner_text()
    assert organiser.dialogs and "End the event" in organiser.dialogs[0]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == digest
    assert organiser.locator("[data-testid=digest]").inner_text() == digest
    organiser.get_by_role("button", name="Check every roll in this browser").click()
    organiser.locator("#seed-check", has_text="Checked in this browser").wait_for(timeout=2000)
    assert organiser.get_by_role("button", name="The event has ended").is_disabled()
    screen.locator("[data-testid=seed]", has_text=seed).wait_for(timeout=3000)
    shot(organiser, "event-ended-phone")
    shot(screen, "projector-event-ended-1920")
    for page in (organiser, player, screen):
        page.context.close()
