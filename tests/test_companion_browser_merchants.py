"""Merchants of Magick on three phones in real Chromium at 360 x 640 with touch: the host's phone
(not playing), Ada on the digital sheet and Bo on paper. The host's roll shows on every phone
within a second; a die's circles the rules would refuse are dimmed and cannot be tapped; legal
marks fill circles and completing a row fills the score box; Bo's Ready shows on the host's phone;
Bo's paper score reaches the standings. Screenshots, light and dark, land in output/screenshots/
to be looked at."""

from __future__ import annotations

from itertools import permutations

from tests.support.browser import in_the_dark, join, phone, shot, tokens
from tests.support.http import call, free_port, server

GAME = "merchants-of-magick"


def open_as_host(page, port: int) -> str:
    """Open a Merchants table from the home page as its host, without joining; its code."""
    page.goto(f"http://127.0.0.1:{port}/")
    page.select_option("#game", GAME)
    page.click("text=Open the table")
    page.wait_for_url("**/t/*")
    return page.locator("#code-chip").inner_text()


def completion(layout: dict, dice: dict, marked: list[list[bool]]) -> tuple[dict, list[tuple[str, int]]] | None:
    """A row of this roll's dice completes without potions: (the row, [(die, circle)...]), the
    first in the sheet's order, or None."""
    columns = {c["id"]: c for c in layout["columns"]}
    for i, row in enumerate(layout["rows"]):
        open_ = [k for k, done in enumerate(marked[i]) if not done]
        if not open_ or len(open_) > 2:  # two results a round and two free Extra Dice: keep it short
            continue
        for chosen in permutations(dice, len(open_)):
            fits = all(
                die in columns[row["circles"][k]["column"]]["dice"]
                and (
                    dice[die] >= row["circles"][k]["threshold"]
                    if row["side"] == "crafting"
                    else dice[die] <= row["circles"][k]["threshold"]
                )
                for die, k in zip(chosen, open_, strict=True)
            )
            if fits:
                return row, list(zip(chosen, open_, strict=True))
    return None


def own_view(request, code: str) -> bool:
    """A GET of the caller's own view of the table (not its history, layout or stream)."""
    return request.method == "GET" and request.url.endswith(f"/api/tables/{code}")


def standing(page, name: str):
    return page.get_by_test_id("standings").locator("tr", has_text=name)


def die_value(page, die: str):
    """Where a phone shows a die's result: at the top, or on a digital sheet's spend bar."""
    return page.locator(f"[data-testid=die-{die}] .mm-die-value, [data-testid=spend-{die}] .mm-pick-value")


def dice_shown(page, dice: dict, timeout: int = 5000) -> None:
    for die, value in dice.items():
        # generous: how fast is bench/bench_room.py's to measure; here, that the stream brings them
        die_value(page, die).filter(has_text=str(value)).wait_for(timeout=timeout)


def start(page) -> None:
    """The host's Start, in the lobby every game shares."""
    page.locator("#lobby [data-move=start]").click()


def test_a_round_at_a_table_of_three_phones(chromium, tmp_path):
    database, port = f"sqlite:///{tmp_path / 'companion.sqlite3'}", free_port()
    with server(database, tmp_path, port=port):
        host = phone(chromium)
        code = open_as_host(host, port)
        ada, bo = phone(chromium), phone(chromium)
        for page, name in ((ada, "Ada"), (bo, "Bo")):
            page.goto(f"http://127.0.0.1:{port}/t/{code}")
            join(page, name)
        ada.get_by_role("button", name="Digital sheet").click()
        ada.locator("button[aria-pressed=true]", has_text="Digital sheet").wait_for(timeout=2000)
        start(host)
        host.get_by_test_id("roll").wait_for(timeout=2000)
        ada_token = tokens(ada, code)["token"]
        _, layout = call(port, "GET", f"/api/tables/{code}/layout")

        # Each phone's live stream carries its own table (its own sheet and its own moves): no phone
        # fetches its seat again after a roll.
        fetched = {"Ada": 0, "Bo": 0}
        for page, name in ((ada, "Ada"), (bo, "Bo")):
            page.on("request", lambda r, name=name: own_view(r, code) and fetched.update({name: fetched[name] + 1}))
        host.get_by_test_id("roll").click()
        host.locator(".mm-dice").wait_for(timeout=2000)
        _, table = call(port, "GET", f"/api/tables/{code}")
        dice = first = table["state"]["dice"]
        assert list(dice) == [d["id"] for d in layout["dice"]]
        for page in (host, ada, bo):  # every phone, live from its stream
            dice_shown(page, dice)
        ada.wait_for_function("() => true")  # let the fetch the event started be counted
        assert fetched == {"Ada": 0, "Bo": 0}
        assert host.get_by_test_id("phase").inner_text() == "Resource"

        # A die on a column that does not take it: its circles there are dimmed, and a tap sends
        # nothing (the server does not offer them).
        wood = next(i for i, r in enumerate(layout["rows"]) if r["circles"][1]["column"] == "wood")
        ada.get_by_test_id("spend-d12").click()
        out = ada.get_by_test_id(f"circle-{layout['rows'][wood]['name']}-1")
        assert out.is_disabled() and "mm-out" in out.get_attribute("class")
        shot(ada, "merchants-out-of-reach")
        ada.get_by_test_id("spend-d12").click()  # chosen again: none chosen

        # A row this roll completes (the server's dice are seeded): two taps a circle.
        _, mine = call(port, "GET", f"/api/tables/{code}", token=ada_token)
        found = completion(layout, dice, mine["state"]["mine"]["marked"])
        assert found, f"the seeded roll {dice} completes no row in two results: seed the test anew"
        row, moves = found
        ada.get_by_test_id(f"jump-{row['side']}").click()
        for die, k in moves:
            ada.get_by_test_id(f"spend-{die}").click()
            circle = ada.get_by_test_id(f"circle-{row['name']}-{k}")
            circle.click()
            ada.locator(f"[data-testid='circle-{row['name']}-{k}'].mm-marked").wait_for(timeout=2000)
        assert ada.locator(f"[data-row='{row['name']}'].mm-complete").count() == 1
        assert ada.locator("#act-error").inner_text() == ""
        shot(ada, "merchants-digital-sheet")
        ada.get_by_test_id("jump-standings").click()
        line = "crafting" if row["side"] == "crafting" else "research"
        ada.locator(f"[data-testid=line-{line}]", has_text=str(row["coins"])).wait_for(timeout=2000)
        assert ada.get_by_test_id("total").inner_text() == str(row["coins"])
        # The host sees Ada's coins in the standings, from the live stream.
        standing(host, "Ada").locator("td", has_text=str(row["coins"])).wait_for(timeout=2000)
        shot(ada, "merchants-score-box")

        bo.get_by_role("button", name="Ready").click()
        host.get_by_test_id("ready-count").filter(has_text="1 of 2 ready").wait_for(timeout=3000)
        bo.get_by_role("button", name="Ready ✓").wait_for(timeout=2000)

        # Bo's paper score box: a line typed and saved reaches the standings.
        form = bo.get_by_test_id("paper-form")
        form.locator("input[name=crafting]").fill("7")
        form.locator("input[name=orders]").fill("5")
        bo.get_by_test_id("paper-total").filter(has_text="12").wait_for(timeout=3000)
        form.get_by_role("button", name="Save my score").click()
        standing(host, "Bo").locator("td", has_text="12").wait_for(timeout=2000)
        shot(bo, "merchants-paper-form")
        shot(host, "merchants-host")

        host.get_by_test_id("jump-history").click()
        history = host.locator("#history")
        said = ", ".join(f"{die} {value}" for die, value in first.items())
        history.locator("li", has_text=f"Host rolled round 1: {said}").wait_for(timeout=2000)
        history.locator("li", has_text=f"Ada marked {row['name']}").first.wait_for(timeout=2000)
        history.locator("li", has_text="Bo is ready").wait_for(timeout=2000)

        # The same three phones in the dark: their own contexts, the same storage (so the same seats).
        for page, name in ((ada, "digital-sheet"), (bo, "paper-form"), (host, "host")):
            # the last die shown is all of them shown: they come in one event
            last = next(reversed(dice.items()))
            shows = lambda p, die=last: die_value(p, die[0]).filter(has_text=str(die[1]))
            night = in_the_dark(chromium, page, f"http://127.0.0.1:{port}/t/{code}", shows)
            dice_shown(night, dice)
            if page is ada:
                night.get_by_test_id("jump-standings").click()
                night.get_by_test_id("total").filter(has_text=str(row["coins"])).wait_for(timeout=3000)
            if page is bo:
                night.get_by_test_id("paper-total").filter(has_text="12").wait_for(timeout=3000)
            shot(night, f"merchants-{name}-dark")
        for page in (host, ada, bo):
            assert page.dialogs == []


def test_solo_on_paper_with_printed_cards_to_the_end(chromium, tmp_path):
    """The host plays alone on paper with printed cards: picks the Masteries, scores one in the
    Mastery phase (its card flips), and after the last types the score box: rating and results."""
    database, port = f"sqlite:///{tmp_path / 'companion.sqlite3'}", free_port()
    with server(database, tmp_path, port=port):
        page = phone(chromium)
        page.goto(f"http://127.0.0.1:{port}/")
        page.select_option("#game", GAME)
        page.select_option("#options [name=cards]", "printed")
        page.click("text=Open the table")
        page.wait_for_url("**/t/*")
        code = page.locator("#code-chip").inner_text()
        join(page, "Cy")
        _, layout = call(port, "GET", f"/api/tables/{code}/layout")
        material = next(m for m in layout["masteries"] if m["type"] == "material")
        energy = next(m for m in layout["masteries"] if m["type"] == "energy")
        page.select_option("select[name=material]", material["name"])
        page.select_option("select[name=energy]", energy["name"])
        page.get_by_role("button", name="Set the Masteries").click()
        column = next(c["name"] for c in layout["columns"] if c["id"] == material["column"])
        wants = f"{material['circles']} in {column}"
        page.get_by_test_id("mastery-material").filter(has_text=wants).wait_for(timeout=2000)
        start(page)
        page.get_by_test_id("roll").click()
        page.locator("[data-testid=die-d6] .mm-die-value").wait_for(timeout=2000)
        for phase in ("Crafting and Research", "Mastery"):
            page.get_by_test_id("advance").click()
            page.get_by_test_id("phase").filter(has_text=phase).wait_for(timeout=2000)
        # solo: "You may only earn the Apprentice (lower value) side of the Mastery cards"
        page.get_by_role("button", name=f"I reached {material['name']} ({material['apprentice']} coins)").click()
        page.get_by_test_id("mastery-material").filter(has_text="yours ✓").wait_for(timeout=2000)
        shot(page, "merchants-mastery-phase")
        page.get_by_test_id("advance").click()  # the end of the Mastery phase flips the card scored
        side = f"Apprentice {material['apprentice']}"
        page.get_by_test_id("mastery-material").filter(has_text=side).wait_for(timeout=2000)
        assert "Master" in page.get_by_test_id("mastery-energy").inner_text()

        host_token = tokens(page, code)["host_token"]
        for round_ in range(2, layout["rounds"] + 1):
            status, _ = call(port, "POST", f"/api/tables/{code}/actions", {"type": "roll", "round": round_}, host_token)
            assert status == 200
        for phase in ("resource", "crafting", "mastery"):
            status, _ = call(
                port, "POST", f"/api/tables/{code}/actions", {"type": "advance", "phase": phase}, host_token
            )
            assert status == 200
        page.get_by_test_id("phase").filter(has_text="Final scores").wait_for(timeout=2000)

        form = page.get_by_test_id("paper-form")
        form.locator("input[name=crafting]").fill("40")
        form.locator("input[name=research]").fill("35")
        form.get_by_role("button", name="Save my score").click()
        page.get_by_test_id("paper-total").filter(has_text="75").wait_for(timeout=2000)
        page.get_by_test_id("advance").click()  # the final scores in: the game ends
        page.get_by_test_id("round").filter(has_text="Game over").wait_for(timeout=2000)
        page.get_by_test_id("standings").wait_for(timeout=3000)  # the game's end: its standings first
        rating = next(r["title"] for r in reversed(layout["ratings"]) if r["least"] <= 75)
        page.get_by_test_id("rating").filter(has_text=f"Rating: {rating}").wait_for(timeout=2000)
        assert standing(page, "Cy").locator("td").nth(2).inner_text() == "75"
        csv = page.get_by_role("link", name="Results (CSV)")
        assert csv.get_attribute("href") == f"/api/tables/{code}/export?format=csv"
        assert page.get_by_role("link", name="Whole game (JSON)").get_attribute("href") == f"/api/tables/{code}/export"
        shot(page, "merchants-game-over")
        night = in_the_dark(chromium, page, f"http://127.0.0.1:{port}/t/{code}", lambda p: p.get_by_test_id("rating"))
        shot(night, "merchants-game-over-dark")
        assert page.dialogs == []


def test_a_paper_players_phone_at_the_start_shows_the_dealt_orders(chromium, tmp_path):
    """The live stream shows the start before the paper player's own seat is fetched again: the
    phone waits for it (no error, no blank panel), then shows the score form and the dealt orders."""
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path, port=free_port()) as port:
        host, bo = phone(chromium), phone(chromium)
        code = open_as_host(host, port)
        bo.goto(f"http://127.0.0.1:{port}/t/{code}")
        join(bo, "Bo")
        start(host)
        bo.get_by_test_id("paper-form").wait_for(timeout=3000)
        _, mine = call(port, "GET", f"/api/tables/{code}", token=tokens(bo, code)["token"])
        labels = [order["label"] for order in mine["state"]["mine"]["shop"]]
        assert labels
        bo.get_by_test_id("jump-orders").click()
        for slot, label in enumerate(labels):
            bo.locator(".mm-order", has=bo.get_by_test_id(f"claim-{slot}")).filter(has_text=label).wait_for(
                timeout=2000
            )
        assert bo.dialogs == []


def test_the_digital_sheet_page_in_sections_with_its_headers_in_sight_and_the_dice_reach(chromium, tmp_path):
    """The host plays on a digital sheet: once the game has begun the invite folds (a tap opens it),
    a bar at the bottom jumps between the sheet's two halves, the shoppe, the scores and the
    history; the column headers stay under the spend bar while the rows scroll; a chosen die dims
    exactly the circles the server does not offer it."""
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path, port=free_port()) as port:
        ada, bo = phone(chromium), phone(chromium)
        code = open_as_host(ada, port)
        join(ada, "Ada")
        ada.get_by_role("button", name="Digital sheet").click()
        ada.locator("button[aria-pressed=true]", has_text="Digital sheet").wait_for(timeout=2000)
        bo.goto(f"http://127.0.0.1:{port}/t/{code}")
        join(bo, "Bo")
        invite = ada.locator("#host")
        assert invite.get_attribute("open") is not None and ada.locator(".qr").is_visible()
        assert ada.get_by_test_id("jump-crafting").count() == 0  # before the start: one page, no bar
        start(ada)
        ada.get_by_test_id("roll").click()
        ada.get_by_test_id("half-crafting").wait_for(timeout=3000)
        assert invite.get_attribute("open") is None and not ada.locator(".qr").is_visible()
        assert ada.locator("#code-chip").inner_text() == code  # the code stays in the header
        shot(ada, "merchants-sections-sheet")

        sections = {
            "crafting": "half-crafting",
            "research": "half-research",
            "shoppe": "claim-0",
            "standings": "standings",
        }
        for section in [*sections, "history"]:
            ada.get_by_test_id(f"jump-{section}").click()
            assert ada.get_by_test_id(f"jump-{section}").get_attribute("aria-pressed") == "true"
            for other, shown in sections.items():
                assert ada.get_by_test_id(shown).is_visible() == (other == section), (section, other)
            assert ada.locator("#history-card").is_visible() == (section == "history")
        bar = ada.locator("nav.jump").bounding_box()
        assert bar["y"] + bar["height"] == 640  # at the bottom of the screen
        ada.locator("#host summary").click()
        ada.locator(".qr").wait_for(timeout=3000)  # a tap unfolds the invite
        ada.locator("#host summary").click()

        ada.get_by_test_id("jump-crafting").click()
        ada.get_by_test_id("spend-d6").click()
        _, layout = call(port, "GET", f"/api/tables/{code}/layout")
        _, seen = call(port, "GET", f"/api/tables/{code}", token=tokens(ada, code)["token"])
        (spend,) = [m for m in seen["moves"] if m["type"] == "spend"]
        (d6,) = [die for die in spend["pick"][0]["one_of"] if die["value"] == "d6"]
        offered = {
            f"circle-{row['value']}-{c['value']}" for row in d6["pick"][0]["one_of"] for c in row["pick"][0]["one_of"]
        }
        crafting = {
            f"circle-{row['name']}-{k}"
            for row in layout["rows"]
            if row["side"] == "crafting"
            for k in range(len(row["circles"]))
        }
        dimmed = set(ada.locator(".mm-circle.mm-out").evaluate_all("nodes => nodes.map((n) => n.dataset.testid)"))
        assert dimmed == crafting - offered and 0 < len(dimmed) < len(crafting)

        # scrolled to the last crafting row: its half's headers sit right under the spend bar
        last = next(r for r in reversed(layout["rows"]) if r["side"] == "crafting")
        ada.locator(f"[data-row='{last['name']}']").scroll_into_view_if_needed()
        ada.mouse.wheel(0, 0)
        spend = ada.locator(".mm-spend").bounding_box()
        headers = ada.get_by_test_id("half-crafting").locator(".mm-cols").bounding_box()
        assert spend["y"] == 0 and abs(headers["y"] - (spend["y"] + spend["height"])) < 1
        shot(ada, "merchants-sections-dimmed")
        assert ada.dialogs == [] and bo.dialogs == []
