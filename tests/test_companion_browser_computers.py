"""One person, one phone, a whole game against the computer (issue 36), in real Chromium at 360 x 640
against the real server (`companion serve`, its chance seeded, the computer's pause short).

The phone opens the table and sits down, seats a computer player from the host's card (its level
chosen from the server's list) and starts the game from the lobby. The person's moves are the ones
the server offers that phone, chosen at random: one with nothing to choose (Refresh, Renew) is
tapped on the page, the others sent with its own token as its panels send them (each game's own
panels are tried in its own browser tests); the page follows the whole game live: the computer
named as one in the lobby and the history, "thinking…" while it chooses, the game over at the end.
Screenshots land in output/screenshots/."""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import expect

from companion import COMPUTER_PAUSE_VARIABLE
from pnp.rules.offers import sample
from tests.support.browser import PHONE, open_table, phone, shot, tokens
from tests.support.http import call, server

MOST_MOVES = 1500  # a person's moves before the game must be over (a Magecraft game of chance takes some 300)


def send(port: int, path: str, offered: dict, rng: random.Random, token: str) -> tuple[int, dict]:
    """An offered move completed at random, sent as the phone's buttons send it."""
    return call(port, "POST", f"{path}/actions", {"type": offered["type"], **sample(offered, rng)}, token)


def tapped(page, move: dict, seq: int) -> bool:
    """A move with nothing to choose (Refresh, Renew) made by its one button on the page, as the
    person taps it: whether it was (a move with choices is sent as its panel would send it)."""
    if move.get("pick"):
        return False
    button = page.locator(f"#game [data-move={move['type']}]:visible:enabled")
    if button.count() != 1:
        return False
    button.click()
    page.wait_for_function("seq => Spellpress.table && Spellpress.table.seq > seq", arg=seq, timeout=3000)
    page.tapped += 1
    return True


@pytest.mark.parametrize("level", ["easy", "strong"])
@pytest.mark.parametrize("game", ["magecraft", "spellcycles"])
def test_one_phone_plays_a_whole_game_against_the_computer(chromium, tmp_path, monkeypatch, game, level):
    monkeypatch.setenv(COMPUTER_PAUSE_VARIABLE, "0.05")
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path) as port:
        page = phone(chromium)
        code = open_table(page, port, game, "Bo", mode="phones")
        expect(page.locator("#computer-level option")).to_have_text(["Easy", "Strong"])
        page.fill("#computer-name", "Ada")
        page.select_option("#computer-level", level)
        page.click("#computer-form button")
        page.get_by_test_id("lobby-names").filter(has_text="Bo, Ada (computer)").wait_for(timeout=3000)
        expect(page.locator("#computer-list")).to_contain_text("Ada (computer)")
        # the name has a line of its own: room to read what is typed
        assert page.locator("#computer-name").bounding_box()["width"] >= 250
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
        shot(page, f"computer-{game}-{level}-lobby")

        mine = tokens(page, code)
        path = f"/api/tables/{code}"
        status, seen = call(port, "GET", path, token=mine["host_token"])
        [start] = [m for m in seen["moves"] if m["type"] == "start"]
        if start.get("pick"):  # a game whose Start asks who goes first: the host's, sent as its panel sends it
            status, seen = send(port, path, start, random.Random(1), mine["host_token"])
            assert status == 200, seen
        else:
            page.locator("#lobby").get_by_role("button", name="Start the game").click()
        expect(page.locator("#computer-new")).to_be_hidden(timeout=3000)

        rng, thought, moves = random.Random(36), False, 0
        page.tapped = 0
        while moves < MOST_MOVES:
            status, seen = call(port, "GET", path, token=mine["token"])
            if seen["flow"]["phase"] == "over":
                break
            offered = [m for m in seen["moves"] if m["for"] != "host"]
            if not offered:  # the computer is choosing: the page says so
                assert seen["thinking"] == [seen["seats"][1]["id"]], seen["thinking"]
                time.sleep(0.02)
                if not thought:
                    thinking = page.locator("#thinking")
                    try:
                        expect(thinking).to_have_text("Ada (computer) is thinking…", timeout=1000)
                        shot(page, f"computer-{game}-{level}-thinking")
                        thought = True
                    except AssertionError:
                        pass  # it moved before the page drew it: seen at a later turn
                continue
            move = rng.choice(offered)
            if not tapped(page, move, seen["seq"]):
                status, answer = send(port, path, move, rng, mine["token"])
                assert status == 200, (move, answer)
            moves += 1
        else:
            raise AssertionError(f"not over after {MOST_MOVES} of the person's moves")

        expect(page.locator("#thinking")).to_be_hidden(timeout=3000)
        history = page.locator("#history")
        expect(history).to_contain_text("Ada (computer)", timeout=3000)
        expect(history).to_contain_text(f"seated Ada (computer), who plays at level {level}")
        assert thought, "the page never showed the computer thinking"
        assert page.tapped >= 3, "the page's own buttons made too few of the person's moves"
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
        # nothing runs out of its card: the winner's line names "Ada (computer)" in large type
        spilled = "cards => cards.filter(c => c.scrollWidth > c.clientWidth).map(c => c.textContent.slice(0, 40))"
        assert page.locator("#game .card").evaluate_all(spilled) == []
        shot(page, f"computer-{game}-{level}-over")
        projector = chromium.new_context(viewport={"width": 1280, "height": 720}).new_page()
        projector.goto(f"http://127.0.0.1:{port}/t/{code}/projector")
        expect(projector.locator("main")).to_contain_text("Ada (computer)", timeout=3000)
        expect(projector.get_by_test_id("thinking")).to_be_hidden()
        shot(projector, f"computer-{game}-{level}-projector")


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_one_phone_hosts_a_merchants_round_against_the_computer(chromium, tmp_path, monkeypatch, level):
    """Merchants with dealt orders: the phone seats a computer (digital sheet), starts, taps Roll;
    the computer spends the dice on its own sheet and taps Ready while the page shows it
    thinking, then the person taps Ready and ends the phase, all by the page's own buttons."""
    monkeypatch.setenv(COMPUTER_PAUSE_VARIABLE, "0.05")
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path) as port:
        page = phone(chromium)
        code = open_table(page, port, "merchants-of-magick", "Bo", cards="dealt")
        expect(page.locator("#computer-level option")).to_have_text(["Easy", "Strong"])
        page.fill("#computer-name", "Ada")
        page.select_option("#computer-level", level)
        page.click("#computer-form button")
        page.get_by_test_id("lobby-names").filter(has_text="Bo, Ada (computer)").wait_for(timeout=3000)
        page.locator("#lobby").get_by_role("button", name="Start the game").click()
        page.get_by_test_id("roll").click()
        expect(page.get_by_test_id("ready-count")).to_have_text("1 of 2 ready", timeout=10000)
        host = tokens(page, code)["host_token"]
        deadline = time.monotonic() + 10
        while (seen := call(port, "GET", f"/api/tables/{code}", token=host)[1])["thinking"]:
            assert time.monotonic() < deadline, "the computer is still choosing after 10 s"
            time.sleep(0.05)  # Ready is one of its moves; it may spend what is left after it
        [ada] = [p for p in seen["state"]["players"] if p["name"] == "Ada (computer)"]
        assert ada["sheet"] == "digital" and ada["ready"]
        history = page.locator("#history")
        expect(history).to_contain_text("Ada (computer)")
        status, entries = call(port, "GET", f"/api/tables/{code}/history", token=host)
        assert any(e["actor"] == ada["id"] and e["type"] == "spend" for e in entries["history"])
        page.locator("[data-move=ready]").first.click()
        expect(page.get_by_test_id("ready-count")).to_have_text("2 of 2 ready", timeout=3000)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
        shot(page, f"computer-merchants-{level}-round")
