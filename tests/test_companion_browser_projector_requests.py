"""Each projector asks the server only for what the table has: a Spellcycles or Magecraft table has
no layout (GET /layout answers 404), so their projectors never ask for one; Merchants of Magick's,
whose sheet is a layout, still does. Every request a page makes is recorded, and any 4xx fails."""

from __future__ import annotations

import pytest

from tests.support.browser import FIRST_LOAD_MS
from tests.support.http import HttpTable

# game -> (options, what the projector draws once the table is in, whether it reads a layout)
PROJECTORS = {
    "spellcycles": ({"mode": "phones"}, "[data-testid=wizard]", False),
    "magecraft": ({"mode": "phones"}, "[data-testid=code]", False),
    "merchants-of-magick": ({}, "[data-testid=code]", True),
}


@pytest.mark.parametrize("game", list(PROJECTORS))
def test_a_projector_asks_only_for_what_its_table_has(chromium, live, game):
    options, drawn, reads_layout = PROJECTORS[game]
    table = HttpTable(live, game, options, ("Ada", "Bo"))
    page = chromium.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    answered = []
    page.on("response", lambda response: answered.append((response.status, response.url)))
    page.goto(f"http://127.0.0.1:{live}/t/{table.code}/projector")
    page.locator(drawn).first.wait_for(timeout=FIRST_LOAD_MS)
    page.wait_for_load_state("networkidle")
    refused = [(status, url) for status, url in answered if 400 <= status < 500]
    assert refused == []
    assert any(url.endswith(f"/api/tables/{table.code}") for _, url in answered)  # it read the table
    assert any(url.endswith("/layout") for _, url in answered) == reads_layout
