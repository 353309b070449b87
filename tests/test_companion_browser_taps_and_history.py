"""A double tap sends one request, in real Chromium: a game panel's button and Undo are disabled
while their request is on its way (held here by the test), so a second tap takes nothing more.
And the history shows the newest page of a long game, the earlier moves on a tap."""

from __future__ import annotations

from tests.support.browser import FIRST_LOAD_MS, open_table, phone, shot
from tests.support.http import HttpTable, call, free_port, server
from tests.test_companion_browser_magic_spell import SPIRIT

HISTORY_PAGE = 50  # table.js's


def held(page, path: str) -> list:
    """The page's requests to the table's `path`, kept waiting until the test lets them go."""
    waiting = []
    page.route(f"**/api/tables/*/{path}", lambda route: waiting.append(route))
    return waiting


def test_a_double_tap_on_a_move_or_on_undo_sends_one_request(chromium, tmp_path):
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path, port=free_port()) as port:
        ada = phone(chromium)
        code = open_table(ada, port, "magic-spell", "Ada")  # the host, who plays too
        call(port, "POST", f"/api/tables/{code}/players", {"name": "Bo"})
        ada.get_by_role("button", name="Start the game").click()  # the lobby's
        start = SPIRIT.start
        ada.locator("[data-testid=my-spirit]", has_text=str(start)).wait_for(timeout=3000)

        moves = held(ada, "actions")
        ada.get_by_role("button", name="Spirit +1").dblclick()
        ada.wait_for_timeout(300)  # time for a second request, were one sent
        assert len(moves) == 1
        moves[0].continue_()
        ada.locator("[data-testid=my-spirit]", has_text=str(start + 1)).wait_for(timeout=3000)

        ada.locator("#history li", has_text="spirit").wait_for(state="attached", timeout=3000)
        ada.get_by_test_id("jump-history").click()  # Undo is on the history's card, a section of the panel
        undos = held(ada, "undo")
        ada.locator("#undo").dblclick()
        ada.wait_for_timeout(300)
        assert len(undos) == 1
        undos[0].continue_()
        ada.get_by_test_id("jump-play").click()
        ada.locator("[data-testid=my-spirit]", has_text=str(start)).wait_for(timeout=3000)

        history = call(port, "GET", f"/api/tables/{code}/history")[1]["history"]
        assert [(e["type"], e["undone"]) for e in history[3:]] == [("spirit", True), ("undo", False)]


def test_the_history_shows_the_newest_moves_and_earlier_ones_on_a_tap(chromium, tmp_path):
    with server(f"sqlite:///{tmp_path / 'companion.sqlite3'}", tmp_path, port=free_port()) as port:
        table = HttpTable(port, "magic-spell", {}, ("Ada", "Bo"))
        table.ok("host", "start")
        for n in range(60):  # entries 4..63
            table.ok("p1", "spirit", delta=1 - 2 * (n % 2))
        page = phone(chromium)
        page.goto(f"http://127.0.0.1:{port}/t/{table.code}")
        # a spectator's panel says whose turn it is; the history is a section of its own
        page.locator(".ms-moves h2").wait_for(timeout=FIRST_LOAD_MS)
        assert page.locator(".ms-moves h2").inner_text() in {"Ada's turn", "Bo's turn"}
        page.get_by_test_id("jump-history").click()
        items = page.locator("#history li")
        items.nth(HISTORY_PAGE - 1).wait_for(timeout=FIRST_LOAD_MS)
        assert items.count() == HISTORY_PAGE and items.first.get_attribute("value") == "63"
        assert items.first.inner_text() == "Ada lost 1 spirit"  # in words (the 60th change, n = 59, is -1), p1
        items.nth(HISTORY_PAGE - 1).scroll_into_view_if_needed()
        shot(page, "history-newest-page")
        page.get_by_role("button", name="Earlier moves").click()
        items.nth(62).wait_for(timeout=3000)
        assert [int(v) for v in items.evaluate_all("lis => lis.map((li) => li.value)")] == list(range(63, 0, -1))
        assert page.get_by_role("button", name="Earlier moves").is_hidden()
