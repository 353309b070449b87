"""A double tap sends one request, in real Chromium: a game panel's button and Undo are disabled
while their request is on its way (held here by the test), so a second tap takes nothing more."""

from __future__ import annotations

from tests.browser import open_table, phone
from tests.companion_server import call, free_port, server
from tests.test_companion_browser_magic_spell import SPIRIT


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
        ada.get_by_role("button", name="Start the semester").click()
        start = SPIRIT.start
        ada.locator("[data-testid=my-spirit]", has_text=str(start)).wait_for(timeout=3000)

        moves = held(ada, "actions")
        ada.get_by_role("button", name="Spirit +1").dblclick()
        ada.wait_for_timeout(300)  # time for a second request, were one sent
        assert len(moves) == 1
        moves[0].continue_()
        ada.locator("[data-testid=my-spirit]", has_text=str(start + 1)).wait_for(timeout=3000)

        ada.locator("#history li", has_text="spirit").wait_for(timeout=3000)
        undos = held(ada, "undo")
        ada.locator("#undo").dblclick()
        ada.wait_for_timeout(300)
        assert len(undos) == 1
        undos[0].continue_()
        ada.locator("[data-testid=my-spirit]", has_text=str(start)).wait_for(timeout=3000)

        history = call(port, "GET", f"/api/tables/{code}/history")[1]["history"]
        assert [(e["type"], e["undone"]) for e in history[3:]] == [("spirit", True), ("undo", False)]
