"""A phone that saw further than its table now goes: the server brought back on an older copy of
its database. The phone's stream reconnects asking for what follows the last move it saw, which the
table has not reached; the server answers with the table as it is (a `table` event), and the page
draws it, although older, and follows the table again (companion/api.py events(), static/table.js)."""

from __future__ import annotations

import sqlite3

from tests.support.browser import FIRST_LOAD_MS, open_table, phone
from tests.support.http import call, free_port, server


def copy_database(source, target) -> None:
    """A consistent copy of a live SQLite database, as a backup would take it."""
    live, copy = sqlite3.connect(source), sqlite3.connect(target)
    live.backup(copy)
    live.close()
    copy.close()


def test_a_phone_draws_a_table_brought_back_to_an_older_copy_and_follows_it_again(chromium, tmp_path):
    database, before_the_start = tmp_path / "companion.sqlite3", tmp_path / "before-the-start.sqlite3"
    port = free_port()
    with server(f"sqlite:///{database}", tmp_path, port=port):
        page = phone(chromium)
        code = open_table(page, port, "magic-spell", "Ada")
        call(port, "POST", f"/api/tables/{code}/players", {"name": "Brin"})
        page.get_by_test_id("lobby-names").filter(has_text="Ada, Brin").wait_for(timeout=FIRST_LOAD_MS)
        copy_database(database, before_the_start)  # seq 2: both seated, the semester not begun
        start = page.get_by_role("button", name="Start the game", exact=True)  # the lobby's
        start.click()
        start.wait_for(state="hidden", timeout=5000)  # seq 3 shown: the semester has begun

    for stale in tmp_path.glob("companion.sqlite3*"):
        stale.unlink()
    before_the_start.rename(database)
    with server(f"sqlite:///{database}", tmp_path, port=port):
        # the page's stream reconnects by itself with Last-Event-ID 3, past the table's seq 2
        start.wait_for(timeout=FIRST_LOAD_MS)  # drawn as it is: not begun
        start.click()
        start.wait_for(state="hidden", timeout=5000)  # the next move (seq 3 again) is drawn too
        assert call(port, "GET", f"/api/tables/{code}")[1]["seq"] == 3
