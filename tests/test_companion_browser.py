"""Two phones at one table, in real Chromium (Debian's, driven by Playwright) at 360 x 640 with
touch: opening and joining, a change on one phone showing on the other within a second, a reload
that keeps everything, the offline banner coming and going with the server, a hostile name shown
as text. Screenshots land in output/screenshots/ to be looked at."""

from __future__ import annotations

from companion.views import players
from pnp.gamedef import games
from tests.support.browser import FIRST_LOAD_MS, HOSTILE, Watched, join, phone, shot
from tests.support.http import free_port, server

TRACKERS = {gid: g.load("tracker") for gid, g in games().items() if g.tracker}


def spirit_of(page, name: str):
    """The spirit cell of `name`'s row in the class table (a student's phone: its Class section)."""
    return page.locator("table.scores tr", has_text=name).locator("td").nth(1)


def class_of(page) -> None:
    """A student's phone shows their turn first: the class table is a tap away."""
    page.get_by_test_id("jump-class").click()


def test_two_phones_play_magic_spell_live(chromium, tmp_path):
    database, port = f"sqlite:///{tmp_path / 'companion.sqlite3'}", free_port()
    with server(database, tmp_path, port=port):
        host = phone(chromium)
        host.goto(f"http://127.0.0.1:{port}/")
        for game in TRACKERS:  # each option in the words its Options schema gives it
            host.select_option("#game", game)
            assert host.locator("#game-players").inner_text() == players(games()[game])  # "2–4 players"
            for name, prop in TRACKERS[game].Options.model_json_schema()["properties"].items():
                field = host.locator("#options label", has=host.locator(f"[name={name}]"))
                assert field.inner_text().startswith(prop["title"])
                if prop["type"] == "boolean":  # a checkbox, ticked as its default says
                    assert field.locator("input[type=checkbox]").is_checked() == prop["default"]
                    continue
                shown = field.locator("option").all_inner_texts()
                assert shown == [prop["labels"][str(value)] for value in prop["enum"]]
        shot(host, "home")
        host.select_option("#game", "magic-spell")
        host.click("text=Open the table")
        host.wait_for_url("**/t/*")
        code = host.locator("#code-chip").inner_text()
        host.locator("#host").wait_for(state="visible", timeout=3000)
        host.wait_for_function("() => document.querySelector('img.qr').naturalWidth > 0", timeout=3000)
        host.fill("#join-form input[name=name]", "Ada")
        host.click("#join-form button")
        host.get_by_test_id("lobby-names").filter(has_text="Ada").wait_for()

        guest = phone(chromium)
        guest.goto(f"http://127.0.0.1:{port}/t/{code}")
        join(guest, HOSTILE)
        # live, and as text
        host.get_by_test_id("lobby-names").filter(has_text=f"Ada, {HOSTILE}").wait_for(timeout=3000)
        assert host.dialogs == [] and guest.dialogs == []
        shot(host, "joining-host")

        host.click("text=Start the game")  # the lobby's
        guest.locator("[data-testid=my-spirit]", has_text="5").wait_for(timeout=3000)
        host.click("button:has-text('Rest')")
        class_of(host)
        class_of(guest)
        spirit_of(host, "Ada").filter(has_text="7").wait_for(timeout=3000)  # the click's own answer
        spirit_of(guest, "Ada").filter(has_text="7").wait_for(timeout=3000)  # the other phone, live
        shot(guest, "playing-guest")
        shot(host, "playing-host")

        guest.reload()
        assert guest.locator("#join").is_hidden()
        assert guest.locator("[data-testid=my-spirit]").inner_text() == "5"
        class_of(guest)
        spirit_of(guest, "Ada").filter(has_text="7").wait_for(timeout=3000)

    # the server is gone: the page says so, then recovers when it is back (same database)
    guest.locator("#offline").wait_for(state="visible", timeout=FIRST_LOAD_MS)
    assert "stale" in guest.locator("body").get_attribute("class")
    shot(guest, "offline")
    with server(database, tmp_path, port=port):
        guest.locator("#offline").wait_for(state="hidden", timeout=15_000)
        spirit_of(guest, "Ada").filter(has_text="7").wait_for(timeout=3000)
    assert HOSTILE in guest.locator("table.scores").inner_text()


def test_an_uncaught_error_or_a_console_error_on_a_page_is_reported(chromium_session):
    """What fails every browser test (the `chromium` fixture asserts Watched's errors are none)."""
    watched = Watched(chromium_session)
    page = phone(watched)
    with page.context.expect_event("weberror"), page.expect_console_message():
        page.set_content("<script>console.error('said'); setTimeout(() => { throw new Error('thrown'); });</script>")
    watched.close()
    assert [error.split(" at ")[0] for error in watched.errors] == ["console error said", "uncaught thrown"]


def test_a_phone_whose_first_read_of_the_table_fails_tries_again(chromium, tmp_path):
    """The table's first read fails (the network drops it) while the stream is open: the phone
    says it is offline, then reads again by itself, and the banner goes, with no move made."""
    from playwright.sync_api import expect

    from tests.support.http import HttpTable

    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path) as port:
        table = HttpTable(port, "magecraft", {"mode": "gems"}, ("Ada", "Bo"))
        table.ok("host", "start")
        page = phone(chromium)
        reads = []

        def drop_the_first_read(route):
            reads.append(route.request.url)
            return route.abort() if len(reads) == 1 else route.continue_()

        page.route(f"**/api/tables/{table.code}", drop_the_first_read)
        page.goto(f"http://127.0.0.1:{port}/t/{table.code}")
        expect(page.locator("#offline")).to_be_visible(timeout=FIRST_LOAD_MS)
        expect(page.locator("#offline")).to_be_hidden(timeout=5000)  # the read again, 2 s on
        assert len(reads) == 2
        page.locator("[data-testid=turn]").wait_for(timeout=3000)


def test_a_game_script_that_arrives_after_the_table_still_draws_its_panel(chromium, tmp_path):
    """The game's script comes 2 s late (a slow network, a loaded machine): the stream and the
    table's first read must wait for it, or the table is drawn without its panel until the next
    move. The panel shows with no move made."""
    import time

    from tests.support.http import HttpTable

    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path) as port:
        table = HttpTable(port, "magecraft", {"mode": "gems"}, ("Ada", "Bo"))
        table.ok("host", "start")
        page = phone(chromium)

        def late(route):
            time.sleep(2)
            route.continue_()

        page.route("**/games/magecraft.js", late)
        page.goto(f"http://127.0.0.1:{port}/t/{table.code}")
        page.locator("#history li").first.wait_for(state="attached", timeout=FIRST_LOAD_MS)  # its own section
        page.locator("[data-testid=turn]").wait_for(timeout=3000)
