"""An event's page in real Chromium, against the real server: the organiser sees how many tables
have finished the round and is asked before rolling ahead of the others (declining rolls nothing,
a double tap rolls once: read back from the API); after the end, one button recomputes the
digest and every round's dice from the seed in the browser (Web Crypto), and says so when a seed
or a roll does not match. Screenshots (360 px, light and dark) land in output/screenshots/."""

from __future__ import annotations

import json

from tests.support.browser import PHONE, shot
from tests.support.http import call

GAME = "merchants-of-magick"


def watched_phone(chromium, answer: bool):
    """A phone whose dialogs are accepted (`answer`) or declined, kept in `page.dialogs`, and whose
    console errors and uncaught exceptions are kept in `page.errors`."""
    page = chromium.new_context(**PHONE).new_page()
    page.dialogs, page.errors, page.answer = [], [], answer

    def on_dialog(dialog):
        page.dialogs.append(dialog.message)
        dialog.accept() if page.answer else dialog.dismiss()

    page.on("dialog", on_dialog)
    page.on("console", lambda message: message.type == "error" and page.errors.append(message.text))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page


def started_table(port: int, event: str) -> tuple[str, str, list[str]]:
    """A table in the event with two merchants, started: its code, host token and players' tokens."""
    _, table = call(port, "POST", f"/api/events/{event}/tables", {})
    code, host = table["code"], table["host_token"]
    players = [call(port, "POST", f"/api/tables/{code}/players", {"name": n})[1]["token"] for n in ("Ada", "Bo")]
    assert call(port, "POST", f"/api/tables/{code}/actions", {"type": "start"}, host)[0] == 200
    return code, host, players


def finish_round(port: int, table: tuple[str, str, list[str]]) -> None:
    """The host ends the Resource phase and both merchants are Ready in the Crafting phase."""
    code, host, players = table
    assert call(port, "POST", f"/api/tables/{code}/actions", {"type": "advance", "phase": "resource"}, host)[0] == 200
    for token in players:
        assert (
            call(port, "POST", f"/api/tables/{code}/actions", {"type": "ready", "phase": "crafting"}, token)[0] == 200
        )


def rounds_at(port: int, table: tuple) -> list[int]:
    return [r["round"] for r in call(port, "GET", f"/api/tables/{table[0]}")[1]["state"]["rolls"]]


def test_the_organiser_is_asked_before_rolling_ahead_of_tables_still_playing(chromium, live):
    port = live
    base = f"http://127.0.0.1:{port}"
    organiser = watched_phone(chromium, answer=False)
    organiser.goto(base + "/")
    organiser.fill("#event-name", "Club night")
    organiser.click("text=Start the event")
    organiser.wait_for_url("**/e/*")
    event = organiser.url.rsplit("/", 1)[1]
    one, two = started_table(port, event), started_table(port, event)
    organiser.locator("[data-testid=tables]", has_text="2 tables").wait_for(timeout=3000)
    progress = organiser.locator("[data-testid=round-progress]")
    assert progress.is_hidden()  # nothing to finish before the first roll

    organiser.get_by_role("button", name="Roll round 1").click()
    organiser.locator("#organiser-note", has_text="Round 1 rolled; it reached 2 tables at once.").wait_for(timeout=3000)
    assert not organiser.dialogs  # the first round asks nothing
    progress.filter(has_text="0 of 2 tables have finished round 1.").wait_for(timeout=3000)

    # One table finishes its round: the count follows, live.
    finish_round(port, one)
    progress.filter(has_text="1 of 2 tables have finished round 1.").wait_for(timeout=3000)
    shot(organiser, "event-organiser-progress-phone")
    organiser.emulate_media(color_scheme="dark")
    shot(organiser, "event-organiser-progress-phone-dark")
    organiser.emulate_media(color_scheme="light")

    # Roll round 2 while the other table still plays round 1: asked, declined, nothing rolled.
    organiser.get_by_role("button", name="Roll round 2").click()
    organiser.locator("#organiser-note", has_text="Round 2 not rolled").wait_for(timeout=3000)
    assert organiser.dialogs == [
        "1 of 2 tables have finished round 1. Roll round 2 now anyway? A roll cannot be taken back."
    ]
    assert call(port, "GET", f"/api/events/{event}")[1]["rolled"] == 1
    assert rounds_at(port, one) == rounds_at(port, two) == [1]
    organiser.locator("#roll:enabled", has_text="Roll round 2").wait_for(timeout=3000)  # to tap again

    # Asked again and confirmed: round 2 reaches both tables, the one still playing too.
    organiser.answer = True
    organiser.get_by_role("button", name="Roll round 2").click()
    organiser.locator("#organiser-note", has_text="Round 2 rolled; it reached 2 tables at once.").wait_for(timeout=3000)
    assert len(organiser.dialogs) == 2
    assert rounds_at(port, one) == rounds_at(port, two) == [1, 2]
    progress.filter(has_text="0 of 2 tables have finished round 2.").wait_for(timeout=3000)

    # Every table done with round 2, then a double tap on Roll round 3: one roll, nothing asked.
    organiser.answer = False
    finish_round(port, one)
    finish_round(port, two)
    progress.filter(has_text="2 of 2 tables have finished round 2.").wait_for(timeout=3000)
    organiser.get_by_role("button", name="Roll round 3").dblclick()
    organiser.locator("#organiser-note", has_text="Round 3 rolled; it reached 2 tables at once.").wait_for(timeout=3000)
    organiser.get_by_role("button", name="Roll round 4").wait_for(timeout=3000)
    assert len(organiser.dialogs) == 2  # the second tap found the button busy: no roll, no question
    assert call(port, "GET", f"/api/events/{event}")[1]["rolled"] == 3
    assert rounds_at(port, one) == rounds_at(port, two) == [1, 2, 3]
    assert organiser.errors == []
    organiser.context.close()


def ended_event(port: int, rounds: int) -> tuple[str, dict]:
    """An event with a started table, `rounds` rolled (ahead of it) and ended: its code and summary."""
    _, event = call(port, "POST", "/api/events", {"game": GAME, "name": "Fair dice"})
    code, token = event["code"], event["organiser_token"]
    started_table(port, code)
    for r in range(1, rounds + 1):
        assert call(port, "POST", f"/api/events/{code}/roll", {"round": r, "ahead": True}, token)[0] == 200
    status, ended = call(port, "POST", f"/api/events/{code}/end", {}, token)
    assert status == 200 and ended["seed"]
    return code, ended


def test_one_button_checks_the_seed_and_every_roll_in_the_browser(chromium, live):
    port = live
    code, ended = ended_event(port, rounds=3)
    page = watched_phone(chromium, answer=False)
    page.goto(f"http://127.0.0.1:{port}/e/{code}")
    page.locator("[data-testid=seed]", has_text=ended["seed"]).wait_for(timeout=3000)
    assert page.locator("#seed-input").input_value() == ended["seed"]
    check = page.get_by_role("button", name="Check every roll in this browser")
    result = page.locator("[data-testid=seed-check]")

    check.click()
    result.filter(has_text="✓ Checked in this browser").wait_for(timeout=3000)
    assert result.inner_text() == (
        "✓ Checked in this browser: the seed's SHA-256 is the digest shown from the start, "
        "and it gives every roll (3 rounds)."
    )
    shot(page, "event-seed-checked-phone")

    # Another seed, typed into the field: it does not match.
    wrong = ended["seed"][:-1] + ("0" if ended["seed"][-1] != "0" else "1")
    page.fill("#seed-input", wrong)
    check.click()
    result.filter(has_text="does not match").wait_for(timeout=3000)
    assert result.inner_text() == ("✗ This seed does not match: its SHA-256 is not the digest shown from the start.")
    page.fill("#seed-input", "not a seed")
    check.click()
    result.filter(has_text="hexadecimal").wait_for(timeout=3000)
    page.emulate_media(color_scheme="dark")
    shot(page, "event-seed-mismatch-phone-dark")
    assert page.errors == []
    page.context.close()


def test_the_check_finds_a_roll_the_seed_does_not_give(chromium, live):
    """The dice themselves are recomputed, not only the digest: a page shown a round-2 d8 the
    seed does not give (the summary altered on its way) says which."""
    port = live
    code, ended = ended_event(port, rounds=3)
    page = watched_phone(chromium, answer=False)
    rolled = ended["rolls"][1]["dice"]["d8"]
    altered = json.loads(json.dumps(ended))
    altered["rolls"][1]["dice"]["d8"] = rolled % 8 + 1

    page.route(f"**/api/events/{code}", lambda route: route.fulfill(json=altered))
    page.route(f"**/api/events/{code}/events", lambda route: route.abort())  # only the altered summary
    page.goto(f"http://127.0.0.1:{port}/e/{code}")
    page.locator("[data-testid=seed]", has_text=ended["seed"]).wait_for(timeout=3000)
    page.get_by_role("button", name="Check every roll in this browser").click()
    result = page.locator("[data-testid=seed-check]")
    result.filter(has_text="does not match").wait_for(timeout=3000)
    assert result.inner_text() == "✗ This seed does not match the rolls: round 2's d8 is not what it gives."
    page.context.close()
